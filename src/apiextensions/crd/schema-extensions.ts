// The parts of ValidateCustomResourceDefinitionOpenAPISchema (apiextensions-apiserver
// pkg/apis/apiextensions/validation/validation.go) beyond structural shape: `pattern` compiled as
// Go's regexp compiles it (apiserver/schema/validation.go), the x-kubernetes-list-type /
// list-map-keys / map-type rules, embedded resources needing properties, and defaults checked
// against their own schema (apiserver/schema/defaulting/validation.go).
import {
  invalid, notSupported, required, type FieldError, type FieldPath, FieldPath as Path,
} from '../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import { RE2SyntaxError, translateRE2 } from '../schema/re2.ts';
import { validateDefaultRules } from '../schema/cel/validation.ts';
import { validateValue } from '../schema/validate.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { JSONSchemaProps } from '../v1/types.ts';

type Schema = DeepReadonly<JSONSchemaProps>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every rule of this file on `s` and everything under it (properties, items, additionalProperties, junctors). */
export function validateSchemaExtensions(s: Schema, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  visit(s, path, errs, true, true);
  return errs;
}

function visit(s: Schema, path: FieldPath, errs: FieldError[], structural: boolean, defaults: boolean): void {
  errs.push(...validatePattern(s, path));
  // kube applies the list/map-type rules under junctors too (next to the junctor's own Forbidden).
  errs.push(...validateListAndMapTypes(s, path));
  if (structural) {
    if (defaults) errs.push(...validateDefault(s, path));
    if (s['x-kubernetes-embedded-resource'] === true && s['x-kubernetes-preserve-unknown-fields'] !== true &&
        Object.keys(s.properties ?? {}).length === 0) {
      errs.push(required(path.child('properties'),
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
    }
  }
  for (const [k, p] of Object.entries(s.properties ?? {})) visit(p, path.child('properties').key(k), errs, structural, defaults);
  if (s.items !== undefined) visit(s.items, path.child('items'), errs, structural, defaults);
  // kube leaves defaults under additionalProperties unchecked (the oracle accepts a boolean default of an integer there).
  if (isObject(s.additionalProperties)) visit(s.additionalProperties as Schema, path.child('additionalProperties'), errs, structural, false);
  // Junctors carry value validations only: their patterns count, their shape is the structural check's.
  for (const j of ['allOf', 'anyOf', 'oneOf'] as const) (s[j] ?? []).forEach((sub, i) => visit(sub, path.child(j).index(i), errs, false, false));
  if (s.not !== undefined) visit(s.not, path.child('not'), errs, false, false);
}

function validatePattern(s: Schema, path: FieldPath): FieldError[] {
  if (s.pattern === undefined || s.pattern === '') return [];
  try {
    translateRE2(s.pattern);
    return [];
  } catch (err) {
    if (!(err instanceof RE2SyntaxError)) throw err;
    return [invalid(path.child('pattern'), s.pattern, `must be a valid regular expression, but isn't: ${err.message}`)];
  }
}

function validateListAndMapTypes(s: Schema, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = s.type ?? '';
  const mapType = s['x-kubernetes-map-type'] as string | undefined;
  const listType = s['x-kubernetes-list-type'] as string | undefined;
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  if (mapType !== undefined && type !== 'object') {
    errs.push(type === '' ? required(path.child('type'), 'must be object if x-kubernetes-map-type is specified')
      : invalid(path.child('type'), type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(notSupported(path.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  const items = s.items;
  if (listType !== undefined && type !== 'array') {
    errs.push(type === '' ? required(path.child('type'), 'must be array if x-kubernetes-list-type is specified')
      : invalid(path.child('type'), type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (listType === 'set' && items !== undefined) {
    // Set members are compared whole, so nested lists and maps must be atomic.
    const itemList = items['x-kubernetes-list-type'] as string | undefined;
    const itemMap = items['x-kubernetes-map-type'] as string | undefined;
    if (items.type === 'array' && itemList !== undefined && itemList !== 'atomic') {
      errs.push(invalid(path.child('items', 'x-kubernetes-list-type'), itemList, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (items.type === 'object' && itemMap !== 'atomic') {
      errs.push(invalid(path.child('items', 'x-kubernetes-map-type'), itemList ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errs.push(notSupported(path.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }
  if (keys.length > 0) {
    if (listType === undefined) errs.push(required(path.child('x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(invalid(path.child('x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType !== 'map') return errs;
  if (keys.length === 0) errs.push(required(path.child('x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
  if (items === undefined) {
    errs.push(required(path.child('items'), 'must have a schema if x-kubernetes-list-type is map'));
    return errs;
  }
  if (items.type !== 'object') {
    errs.push(invalid(path.child('items', 'type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    return errs;
  }
  const seen = new Set<string>();
  for (const k of keys) {
    const p = Object.hasOwn(items.properties ?? {}, k) ? items.properties?.[k] : undefined;
    if (p === undefined) {
      errs.push(invalid(path.child('x-kubernetes-list-map-keys'), keys, 'entries must all be names of item properties'));
    } else if (p.type === 'array' || p.type === 'object') {
      errs.push(invalid(path.child('items', 'properties').key(k).child('type'), items.type,
        "must be a scalar type if parent array's x-kubernetes-list-type is map"));
    }
    if (seen.has(k)) errs.push(invalid(path.child('x-kubernetes-list-map-keys'), keys, 'must not contain duplicate entries'));
    seen.add(k);
  }
  // validateMapListKeysMapSet: a key that may be absent must have a default (or be required).
  const req = new Set(items.required ?? []);
  for (const k of keys) {
    const p = Object.hasOwn(items.properties ?? {}, k) ? items.properties?.[k] : undefined;
    if (p !== undefined && p.default === undefined && !req.has(k)) {
      errs.push(required(path.child('items', 'properties').key(k).child('default'),
        'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    }
  }
  return errs;
}

/**
 * A default must be valid against the schema it sits in: no fields the schema would prune, and every
 * value rule met. kube validates it with an empty root name, hence messages like " in body must be ...".
 */
function validateDefault(s: Schema, path: FieldPath): FieldError[] {
  const d = s.default;
  if (d === undefined || d === null) return [];
  const at = path.child('default');
  const errs = hasUnknownFields(d, s) ? [invalid(at, d, 'must not have unknown fields')] : [];
  const schemaErrs = validateValue(d, s, Path.root('')).map((e) => ({
    // go-openapi's relative names are joined with a dot even before an index: "default.[0]".
    // go-openapi's range causes name no field ("<nil>"), wherever the value sits.
    ...e, field: e.field === '<nil>' ? e.field : e.field === '' ? at.toString() : `${at.toString()}.${e.field}`,
  }));
  // A default the schema accepts must meet the validation rules of its node and below too.
  return [...errs, ...(schemaErrs.length > 0 ? schemaErrs : validateDefaultRules(systemContext(), s, d, at))];
}

/** Whether pruning `v` by `s` would drop a field (x-kubernetes-preserve-unknown-fields keeps them). */
function hasUnknownFields(v: unknown, s: Schema): boolean {
  if (s['x-kubernetes-preserve-unknown-fields'] === true) return false;
  if (Array.isArray(v)) return s.items !== undefined && v.some((item) => hasUnknownFields(item, s.items as Schema));
  if (!isObject(v)) return false;
  const props = s.properties ?? {};
  const ap = s.additionalProperties;
  for (const [k, child] of Object.entries(v)) {
    const p = Object.hasOwn(props, k) ? props[k] : undefined;
    if (p !== undefined) {
      if (hasUnknownFields(child, p)) return true;
    } else if (isObject(ap)) {
      if (hasUnknownFields(child, ap as Schema)) return true;
    } else if (ap !== true && !(s['x-kubernetes-embedded-resource'] === true && ['apiVersion', 'kind', 'metadata'].includes(k))) {
      return true;
    }
  }
  return false;
}
