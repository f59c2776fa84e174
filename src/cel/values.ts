// JSON values (as decoded from a request body) to the values the CEL library evaluates, directed by
// the DeclType kube derives from the schema: integers become bigint (CEL int is 64-bit), objects
// become instances of a class per object type (so the checker's field types hold at runtime and
// absent fields are absent), maps become Map, set lists become Set (equality without order), strings
// with a format become bytes, durations or timestamps. And back, for values an expression returns.
// Go counterpart: k8s.io/apiserver/pkg/cel/common/valuesunstructured.go (kube converts lazily; here a
// value is converted once per object and shared by all its expressions).
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { Optional } from '@marcbachmann/cel-js';
import { unescapeName } from './escaping.ts';
import { parseDurationLiteral } from './library/util.ts';
import { typeKey, type DeclType, type ObjectDeclType } from './types.ts';

/** The class whose instances hold the values of one object type; fields are own properties. */
export type CelObjectClass = new (fields: Record<string, unknown>) => CelObject;

/** A value of an object type: own enumerable properties are the set (escaped) fields. */
export class CelObject {
  [field: string]: unknown;
  constructor(fields: Record<string, unknown>) {
    Object.assign(this, fields);
  }
}

/** On an object value: its JSON properties that have no CEL field, for equality. */
const UNKNOWN_FIELDS = Symbol('unknownFields');

const declaredNames = new WeakMap<ObjectDeclType, ReadonlySet<string>>();
function jsonNames(t: ObjectDeclType): ReadonlySet<string> {
  let s = declaredNames.get(t);
  if (s === undefined) {
    s = new Set([...t.fields.values()].map((f) => f.jsonName));
    declaredNames.set(t, s);
  }
  return s;
}

/** Deep equality of plain JSON values. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const rb = b as Record<string, unknown>;
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], rb[k]));
}

/** On a list with x-kubernetes-list-type=map: its (escaped) key fields; equality ignores order. */
const MAP_LIST_KEYS = Symbol('mapListKeys');

const classes = new WeakMap<ObjectDeclType, CelObjectClass>();
const classesByKey = new Map<string, CelObjectClass>();

/**
 * The runtime class of an object type: one per structure, so values converted with one DeclType
 * evaluate in an environment built from an equal one (environments are shared by structure).
 */
export function classOf(t: ObjectDeclType): CelObjectClass {
  let c = classes.get(t);
  if (c !== undefined) return c;
  const key = typeKey(t);
  c = classesByKey.get(key);
  if (c === undefined) {
    c = class extends CelObject {};
    Object.defineProperty(c, 'name', { value: t.name });
    classesByKey.set(key, c);
  }
  classes.set(t, c);
  return c;
}

/** The null values of object types (see nullObject). */
const NULL_OBJECTS = new WeakSet<object>();

/**
 * A null value for a variable of an object type (kube's namespaceObject of a cluster-scoped
 * request): the library takes no null for such a variable, so an empty instance stands for it;
 * `== null` is true of it (isNullObject) and it has no fields.
 */
export function nullObject(t: ObjectDeclType): CelObject {
  const o = new (classOf(t))({});
  NULL_OBJECTS.add(o);
  return o;
}

/** Whether a value is null or stands for null (nullObject). */
export const isNullObject = (v: unknown): boolean => v === null || (typeof v === 'object' && NULL_OBJECTS.has(v));

/** A Go duration string (`1h30m`, `1.5s`, `-300ms`) as a CEL duration, or undefined when invalid. */
export function parseGoDuration(s: string): Duration | undefined {
  const total = parseDurationLiteral(s);
  if (total === undefined) return undefined;
  const seconds = total / 1_000_000_000n;
  return new Duration(seconds, Number(total - seconds * 1_000_000_000n));
}

/** An untyped JSON value as CEL sees dyn data: integral numbers are int, others double, objects maps. */
export function dynToCel(v: unknown): unknown {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
    return v;
  }
  if (Array.isArray(v)) return v.map(dynToCel);
  const m = new Map<string, unknown>();
  for (const [k, x] of Object.entries(v)) m.set(k, dynToCel(x));
  return m;
}

/**
 * The CEL value of a JSON value of type `t`. Values that do not fit the type (the schema validation
 * runs first, so only for unvalidated data) are passed as dyn data and fail where used.
 */
export function toCelValue(v: unknown, t: DeclType): unknown {
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'simple':
      switch (t.name) {
        case 'int': return typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v;
        case 'uint': return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? new UnsignedInt(BigInt(v)) : v;
        case 'double': return v;
        case 'bytes': return typeof v === 'string' ? new Uint8Array(Buffer.from(v, 'base64')) : v;
        case 'duration': return typeof v === 'string' ? (parseGoDuration(v) ?? v) : v;
        case 'date':
        case 'timestamp': {
          if (typeof v !== 'string') return v;
          const d = new Date(v);
          return Number.isNaN(d.getTime()) ? v : d;
        }
        default: return dynToCel(v);
      }
    case 'list': {
      if (!Array.isArray(v)) return dynToCel(v);
      const items = v.map((x) => toCelValue(x, t.elem));
      if (t.listType === 'set' && t.elem.kind === 'simple') return new Set(items);
      if (t.listType === 'map') Object.defineProperty(items, MAP_LIST_KEYS, { value: t.mapKeys });
      return items;
    }
    case 'map': {
      if (typeof v !== 'object' || Array.isArray(v)) return dynToCel(v);
      const m = new Map<string, unknown>();
      for (const [k, x] of Object.entries(v)) m.set(k, toCelValue(x, t.value));
      return m;
    }
    case 'object': {
      if (typeof v !== 'object' || Array.isArray(v)) return dynToCel(v);
      const src = v as Record<string, unknown>;
      const fields: Record<string, unknown> = {};
      let unknown: Record<string, unknown> | undefined;
      const declared = jsonNames(t);
      for (const f of t.fields.values()) {
        const x = src[f.jsonName];
        // a null field is treated as absent (its declared type could not hold it)
        if (x !== undefined && x !== null && Object.hasOwn(src, f.jsonName)) fields[f.name] = toCelValue(x, f.type);
      }
      for (const k of Object.keys(src)) {
        if (!declared.has(k)) (unknown ??= {})[k] = src[k];
      }
      const o = new (classOf(t))(fields);
      // properties CEL cannot see (preserved unknown fields, untyped subtrees) still count for
      // equality, as kube compares the whole object (`self == oldSelf` on immutable fields)
      if (unknown !== undefined) Object.defineProperty(o, UNKNOWN_FIELDS, { value: unknown });
      return o;
    }
  }
}

/** A CEL value as JSON: what an expression's result is written as (messageExpression, mutations). */
export function fromCelValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'bigint': return Number(v);
    case 'number': case 'string': case 'boolean': return v;
    case 'object': break;
    default: return String(v);
  }
  if (Array.isArray(v) || v instanceof Set) return [...v].map(fromCelValue);
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) o[String(k)] = fromCelValue(x);
    return o;
  }
  if (v.constructor !== Object && !(v instanceof CelObject) && v.toString !== Object.prototype.toString) return String(v);
  if (v instanceof UnsignedInt) return Number(v.valueOf());
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v instanceof Date) return v.toISOString().replace('.000Z', 'Z');
  if (v instanceof Duration) return v.toString();
  if (v instanceof Optional) return v.hasValue() ? fromCelValue(v.value()) : null;
  const o: Record<string, unknown> = {};
  const escaped = v instanceof CelObject;
  for (const [k, x] of Object.entries(v)) o[escaped ? (unescapeName(k) ?? k) : k] = fromCelValue(x);
  return o;
}

/** A CEL map value (Map, or the plain object a map literal evaluates to) as a Map. */
function mapOf(v: object): ReadonlyMap<unknown, unknown> | undefined {
  if (v instanceof Map) return v;
  if (v.constructor === Object) return new Map(Object.entries(v));
  return undefined;
}

/** CEL equality of two runtime values (numbers compare across int, uint and double, as cel-go does). */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'bigint' || typeof a === 'number' || a instanceof UnsignedInt) {
    const x = a instanceof UnsignedInt ? a.valueOf() : a;
    const y = b instanceof UnsignedInt ? b.valueOf() : b;
    return (typeof y === 'bigint' || typeof y === 'number') && x == y;
  }
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && Buffer.from(a).equals(Buffer.from(b));
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof Duration) return b instanceof Duration && a.seconds === b.seconds && a.nanos === b.nanos;
  if (a instanceof Set || b instanceof Set) {
    const x = [...(a as Iterable<unknown>)];
    const y = [...(b as Iterable<unknown>)];
    return x.length === y.length && x.every((v) => y.some((w) => celEquals(v, w)));
  }
  const keys = (a as { [MAP_LIST_KEYS]?: readonly string[] })[MAP_LIST_KEYS];
  if (keys !== undefined && Array.isArray(a) && Array.isArray(b)) return mapListEquals(a, b, keys);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => celEquals(v, b[i]));
  const ma = mapOf(a);
  if (ma !== undefined) {
    const mb = mapOf(b);
    if (mb === undefined || ma.size !== mb.size) return false;
    for (const [k, v] of ma) if (!mb.has(k) || !celEquals(v, mb.get(k))) return false;
    return true;
  }
  if (a instanceof CelObject) {
    if (!(b instanceof CelObject) || a.constructor !== b.constructor) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    if (!ka.every((k) => Object.hasOwn(b, k) && celEquals(a[k], b[k]))) return false;
    const ua = (a as { [UNKNOWN_FIELDS]?: unknown })[UNKNOWN_FIELDS];
    const ub = (b as { [UNKNOWN_FIELDS]?: unknown })[UNKNOWN_FIELDS];
    return jsonEqual(ua ?? {}, ub ?? {});
  }
  return false;
}

/** Equality of two lists with x-kubernetes-list-type=map: the same entries by key, in any order. */
export function mapListEquals(a: readonly unknown[], b: readonly unknown[], keys: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const keyOf = (v: unknown): unknown[] => keys.map((k) => (v as Record<string, unknown> | null)?.[k]);
  return a.every((x) => {
    const kx = keyOf(x);
    const match = b.find((y) => keyOf(y).every((v, i) => celEquals(v, kx[i])));
    return match !== undefined && celEquals(x, match);
  });
}

/** The value of a variable declared optional: optional.of(v), or optional.none() when undefined. */
export function optionalValue(v: unknown): Optional<unknown> {
  return v === undefined ? Optional.none() : Optional.of(v);
}
