// Validation of custom resources against their version's OpenAPI v3 schema, with the messages
// kube's CR validation produces (go-openapi errors turned into field errors): types, required,
// enum, pattern, minimum/maximum, lengths, item and property counts, multipleOf and the basic
// formats. Paths are dotted with [i] for items, as in "spec.ports[0].port".
// On update the validation ratchets (CRDValidationRatcheting, on in v1.36): a value equal to the
// old value it correlates with (see correlation.ts) keeps its errors to itself, so an object stored
// under an older, looser schema can still be updated as long as the invalid parts are left alone.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apiserver/validation (validation.go, ratcheting.go).
import {
  invalid, notSupported, required, tooLong, tooMany, typeInvalid, type FieldError, type FieldPath, fieldPath,
} from '../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { JSONSchemaProps } from '../v1/types.ts';
import type { CorrelatedObject } from './correlation.ts';
import { FORMATS } from './formats.ts';
import { compileRE2 } from './re2.ts';

type Schema = DeepReadonly<JSONSchemaProps>;

/** go-openapi's format checks name no field: kube's causes say "<nil>". */
const NIL_FIELD = '<nil>';

/** The JSON type name of a value, as go-openapi names it in type errors. */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v === 'object' ? 'object' : typeof v;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);


/**
 * Validates a custom resource (everything but metadata, which ObjectMeta rules cover); on update,
 * `root` pairs it with the old object and errors of values left unchanged are dropped (ratcheting).
 */
export function validateCustomResource(obj: unknown, schema: Schema, root?: CorrelatedObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!isObject(obj)) return [typeInvalid('<root>', jsonType(obj), 'must be of type object')];
  if (root?.cachedDeepEqual() === true) return [];
  const props = schema.properties ?? {};
  for (const name of schema.required ?? []) {
    if (name !== 'metadata' && name !== 'apiVersion' && name !== 'kind' && !Object.hasOwn(obj, name)) errs.push(required(fieldPath(name)));
  }
  for (const [name, value] of Object.entries(obj)) {
    if (name === 'metadata' || name === 'apiVersion' || name === 'kind') continue;
    const p = Object.hasOwn(props, name) ? props[name] : undefined;
    // apiVersion and kind never ratchet (skipped above anyway): both objects carry the request's.
    if (p !== undefined) errs.push(...validateValue(value, p, fieldPath(name), root?.key(name)));
  }
  return errs;
}

function enumErrors(v: unknown, s: Schema, path: FieldPath): FieldError[] {
  if (s.enum === undefined) return [];
  // The value is serialized once, not once per enum entry.
  const text = JSON.stringify(v);
  if (s.enum.some((e) => JSON.stringify(e) === text)) return [];
  return [notSupported(path, v, s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))))];
}

/**
 * The errors of value `v` against `s`. `correlation` pairs `v` with its old value on update: when
 * they are equal there is nothing to report (an unchanged value keeps its old errors, and so does
 * everything in it); a child that pairs with no old value is judged in full.
 */
export function validateValue(v: unknown, s: Schema, path: FieldPath, correlation?: CorrelatedObject): FieldError[] {
  if (correlation?.cachedDeepEqual() === true) return [];
  const name = path.toString();
  if (v === null) {
    if (s.nullable === true || (s.type ?? '') === '') return [];
    return [typeInvalid(path, 'null', `${name} in body must be of type ${s.type ?? ''}: "null"`)];
  }
  if (s['x-kubernetes-int-or-string'] === true) {
    if (typeof v !== 'string' && !(typeof v === 'number' && Number.isInteger(v))) {
      return [typeInvalid(path, jsonType(v), `${name} in body must be of type integer,string: "${jsonType(v)}"`)];
    }
  } else if (s.type !== undefined && s.type !== '') {
    const t = jsonType(v);
    const ok = s.type === t || (s.type === 'number' && t === 'integer');
    if (!ok) {
      // go-openapi's enum check still runs on a value of the wrong type; kube lists it first.
      const errs = enumErrors(v, s, path);
      errs.push(typeInvalid(path, t, `${name} in body must be of type ${s.type}: "${t}"`));
      // go-openapi's integer format check runs too.
      if (s.type === 'integer' && t === 'number') errs.push(invalid(NIL_FIELD, '', `Checked value must be of type integer (default format) in ${name}`));
      return errs;
    }
  }
  const errs = enumErrors(v, s, path);
  if (typeof v === 'string') errs.push(...validateString(v, s, path, name));
  if (typeof v === 'number') errs.push(...validateNumber(v, s, path, name));
  if (Array.isArray(v)) {
    if (s.maxItems !== undefined && v.length > s.maxItems) errs.push(tooMany(path, v.length, s.maxItems));
    if (s.minItems !== undefined && v.length < s.minItems) errs.push(invalid(path, v.length, `${name} in body should have at least ${s.minItems} items`));
    if (s.items !== undefined) v.forEach((item, i) => errs.push(...validateValue(item, s.items as Schema, path.index(i), correlation?.index(i))));
  }
  if (isObject(v)) {
    const n = Object.keys(v).length;
    if (s.maxProperties !== undefined && n > s.maxProperties) errs.push(tooMany(path, n, s.maxProperties));
    if (s.minProperties !== undefined && n < s.minProperties) errs.push(invalid(path, n, `${name} in body should have at least ${s.minProperties} properties`));
    for (const r of s.required ?? []) if (!Object.hasOwn(v, r)) errs.push(required(path.child(r)));
    const props = s.properties ?? {};
    const ap = s.additionalProperties;
    for (const [k, val] of Object.entries(v)) {
      // Own members only: a key named "constructor" must meet additionalProperties like any other.
      const p = Object.hasOwn(props, k) ? props[k] : undefined;
      if (p !== undefined) errs.push(...validateValue(val, p, path.child(k), correlation?.key(k)));
      else if (typeof ap === 'object') errs.push(...validateValue(val, ap as Schema, path.key(k), correlation?.key(k)));
    }
  }
  for (const sub of s.allOf ?? []) errs.push(...validateValue(v, sub, path));
  if (s.anyOf !== undefined && s.anyOf.length > 0 && !s.anyOf.some((sub) => validateValue(v, sub, path).length === 0)) {
    errs.push(invalid(path, v, 'must validate at least one schema (anyOf)'));
  }
  if (s.oneOf !== undefined && s.oneOf.length > 0 && s.oneOf.filter((sub) => validateValue(v, sub, path).length === 0).length !== 1) {
    errs.push(invalid(path, v, 'must validate one and only one schema (oneOf)'));
  }
  if (s.not !== undefined && validateValue(v, s.not, path).length === 0) errs.push(invalid(path, v, 'must not validate the schema (not)'));
  return errs;
}

/** Compiled patterns, as Go compiles them; undefined for one Go refuses (the CRD could not have been stored). */
const patterns = new Map<string, RegExp | undefined>();
const MAX_CACHED_PATTERNS = 1000;

function pattern(src: string): RegExp | undefined {
  if (patterns.has(src)) return patterns.get(src);
  let re: RegExp | undefined;
  try { re = compileRE2(src); } catch { re = undefined; }
  if (patterns.size >= MAX_CACHED_PATTERNS) patterns.clear();
  patterns.set(src, re);
  return re;
}

function validateString(v: string, s: Schema, path: FieldPath, name: string): FieldError[] {
  const errs: FieldError[] = [];
  const len = [...v].length;
  if (s.maxLength !== undefined && len > s.maxLength) errs.push(tooLong(path, v, s.maxLength));
  if (s.minLength !== undefined && len < s.minLength) errs.push(invalid(path, v, `${name} in body should be at least ${s.minLength} chars long`));
  if (s.pattern !== undefined) {
    const re = pattern(s.pattern);
    if (re !== undefined && !re.test(v)) errs.push(invalid(path, v, `${name} in body should match '${s.pattern}'`));
  }
  const fmt = s.format !== undefined && Object.hasOwn(FORMATS, s.format) ? FORMATS[s.format] : undefined;
  if (fmt !== undefined && !fmt(v)) errs.push(typeInvalid(path, v, `${name} in body must be of type ${s.format ?? ''}: ${JSON.stringify(v)}`));
  return errs;
}

/**
 * go-openapi's integer checks: the value, then each bound (multipleOf, maximum, minimum, in that
 * order) must itself fit the integer type and format, else a "<nil>" cause names the bound.
 */
function integerRange(n: number, s: Schema, what: string, name: string): FieldError[] {
  if (s.type !== 'integer') return [];
  if (s.format === 'int32' && (!Number.isInteger(n) || n > 2147483647 || n < -2147483648)) {
    return [invalid(NIL_FIELD, '', `${what} value must be of type integer with format int32 in ${name}`)];
  }
  if (s.format !== 'int32' && !Number.isInteger(n)) return [invalid(NIL_FIELD, '', `${what} value must be of type integer (default format) in ${name}`)];
  return [];
}

function validateNumber(v: number, s: Schema, path: FieldPath, name: string): FieldError[] {
  const errs: FieldError[] = [...integerRange(v, s, 'Checked', name)];
  if (s.multipleOf !== undefined) {
    errs.push(...integerRange(s.multipleOf, s, 'MultipleOf', name));
    if (s.multipleOf !== 0 && !Number.isInteger(v / s.multipleOf)) errs.push(invalid(path, v, `${name} in body should be a multiple of ${s.multipleOf}`));
  }
  if (s.maximum !== undefined) {
    errs.push(...integerRange(s.maximum, s, 'Maximum boundary', name));
    if (s.exclusiveMaximum === true ? v >= s.maximum : v > s.maximum) {
      errs.push(invalid(path, v, `${name} in body should be less than ${s.exclusiveMaximum === true ? '' : 'or equal to '}${s.maximum}`));
    }
  }
  if (s.minimum !== undefined) {
    errs.push(...integerRange(s.minimum, s, 'Minimum boundary', name));
    if (s.exclusiveMinimum === true ? v <= s.minimum : v < s.minimum) {
      errs.push(invalid(path, v, `${name} in body should be greater than ${s.exclusiveMinimum === true ? '' : 'or equal to '}${s.minimum}`));
    }
  }
  return errs;
}
