// Structural schemas keep shape out of allOf/anyOf/oneOf/not (apiextensions-apiserver
// pkg/apiserver/schema/validation.go, validateNestedValueValidation): under a junctor only value
// validations may appear, so a type, a default, a description, nullable or an x-kubernetes-*
// extension there is Forbidden. The int-or-string idiom anyOf [integer, string] is allowed.
import { forbidden, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { JSONSchemaProps } from '../v1/types.ts';

type Schema = DeepReadonly<JSONSchemaProps>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** [field, detail, present?]: what may not appear under a junctor. */
const FORBIDDEN: readonly (readonly [string, string, (v: unknown) => boolean])[] = [
  ['type', 'must be empty to be structural', (v) => typeof v === 'string' && v !== ''],
  ['additionalProperties', 'must be undefined to be structural', (v) => v !== undefined],
  ['default', 'must be undefined to be structural', (v) => v !== undefined && v !== null],
  ['title', 'must be empty to be structural', (v) => typeof v === 'string' && v !== ''],
  ['description', 'must be empty to be structural', (v) => typeof v === 'string' && v !== ''],
  ['nullable', 'must be false to be structural', (v) => v === true],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural', (v) => v !== undefined],
  ['x-kubernetes-embedded-resource', 'must be false to be structural', (v) => v === true],
  ['x-kubernetes-int-or-string', 'must be false to be structural', (v) => v === true],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural', (v) => Array.isArray(v) && v.length > 0],
  ['x-kubernetes-list-type', 'must be undefined to be structural', (v) => v !== undefined],
  ['x-kubernetes-map-type', 'must be undefined to be structural', (v) => v !== undefined],
  // Rules under a junctor could not run as the schema validator runs junctors: never allowed in CRDs.
  ['x-kubernetes-validations', 'must be empty to be structural', (v) => Array.isArray(v) && v.length > 0],
];

const isIntOrStringAnyOf = (anyOf: readonly Schema[] | undefined): boolean =>
  anyOf !== undefined && anyOf.length === 2 && anyOf[0]?.type === 'integer' && anyOf[1]?.type === 'string' &&
  Object.keys(anyOf[0]).length === 1 && Object.keys(anyOf[1]).length === 1;

/** The junctor rules for `s` and every schema under it. */
export function validateJunctors(s: Schema, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  junctorsOf(s, path, errs, intOrString);
  for (const [k, p] of Object.entries(s.properties ?? {})) errs.push(...validateJunctors(p, path.child('properties').key(k)));
  if (s.items !== undefined) errs.push(...validateJunctors(s.items, path.child('items')));
  if (isObject(s.additionalProperties)) errs.push(...validateJunctors(s.additionalProperties as Schema, path.child('additionalProperties')));
  return errs;
}

function junctorsOf(s: Schema, path: FieldPath, errs: FieldError[], intOrString: boolean): void {
  const skipAnyOf = intOrString && isIntOrStringAnyOf(s.anyOf);
  if (!skipAnyOf) (s.anyOf ?? []).forEach((sub, i) => nested(sub, path.child('anyOf').index(i), errs, false));
  (s.allOf ?? []).forEach((sub, i) => nested(sub, path.child('allOf').index(i), errs, intOrString && i === 0 && !skipAnyOf));
  (s.oneOf ?? []).forEach((sub, i) => nested(sub, path.child('oneOf').index(i), errs, false));
  if (s.not !== undefined) nested(s.not, path.child('not'), errs, false);
}

/** A schema under a junctor: nothing but value validations, also in its items and properties. */
function nested(s: Schema, path: FieldPath, errs: FieldError[], intOrStringFirstAllOf: boolean): void {
  const o = s as Readonly<Record<string, unknown>>;
  for (const [k, detail, present] of FORBIDDEN) if (present(o[k])) errs.push(forbidden(path.child(k), detail));
  junctorsOf(s, path, errs, intOrStringFirstAllOf);
  if (s.items !== undefined) nested(s.items, path.child('items'), errs, false);
  for (const [k, p] of Object.entries(s.properties ?? {})) nested(p, path.child('properties').key(k), errs, false);
}
