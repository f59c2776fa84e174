// x-kubernetes-list-type on custom resources: a `set` holds no value twice, a `map` no two items
// with the same keys (and only objects). A walk of its own over the object, run beside the schema
// validation as kube runs it (so that an update ratchets it as a whole: it counts only when the old
// object had no such error). The second occurrence of a value is the Duplicate cause, at its index;
// a map's duplicate names the item's keys only.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype/validation.go.
import { duplicate, invalid, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { JSONSchemaProps } from '../v1/types.ts';

type Schema = DeepReadonly<JSONSchemaProps>;

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Key order does not matter for equality of objects, as in Go's marshalling of maps (keys sorted). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** Every list-type set/map violation in the properties and map values of `obj` (ValidateListSetsAndMaps). */
export function validateListSetsAndMaps(path: FieldPath, s: Schema, obj: Readonly<Record<string, unknown>>): FieldError[] {
  const errs: FieldError[] = [];
  const ap = s.additionalProperties;
  if (typeof ap === 'object') for (const [k, v] of Object.entries(obj)) errs.push(...walk(path.key(k), ap, v));
  const props = s.properties;
  if (props !== undefined) {
    for (const [k, v] of Object.entries(obj)) {
      const sub = Object.hasOwn(props, k) ? props[k] : undefined;
      if (sub !== undefined) errs.push(...walk(path.child(k), sub, v));
    }
  }
  return errs;
}

function walk(path: FieldPath, s: Schema, v: unknown): FieldError[] {
  if (isObject(v)) return validateListSetsAndMaps(path, s, v);
  if (!Array.isArray(v)) return [];
  const errs: FieldError[] = [];
  const type = s['x-kubernetes-list-type'];
  if (type === 'set') errs.push(...nonUnique(v).map((i) => duplicate(path.index(i), JSON.parse(canonical(v[i])) as unknown)));
  if (type === 'map') errs.push(...validateListMap(path, s, v));
  if (s.items !== undefined) v.forEach((item, i) => errs.push(...walk(path.index(i), s.items as Schema, item)));
  return errs;
}

/** The index of each value's second occurrence (later repeats are not reported again). */
function nonUnique(list: readonly unknown[]): number[] {
  const times = new Map<string, number>();
  const out: number[] = [];
  list.forEach((x, i) => {
    const k = canonical(x);
    const n = times.get(k) ?? 0;
    if (n === 1) out.push(i);
    times.set(k, n + 1);
  });
  return out;
}

function validateListMap(path: FieldPath, s: Schema, list: readonly unknown[]): FieldError[] {
  const bad = list.findIndex((x) => x !== null && !isObject(x));
  if (bad >= 0) return [invalid(path.index(bad), list[bad], 'must be an object for an array of list-type map')];
  if (list.length <= 1) return [];
  const names = s['x-kubernetes-list-map-keys'] ?? [];
  const keys = list.map((x) => {
    const k: Record<string, unknown> = {};
    if (isObject(x)) for (const name of names) if (Object.hasOwn(x, name)) k[name] = x[name];
    return k;
  });
  return nonUnique(keys).map((i) => duplicate(path.index(i), JSON.parse(canonical(keys[i])) as unknown));
}
