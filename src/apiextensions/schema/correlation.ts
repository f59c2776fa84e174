// The old value that corresponds to a new one on update, walked down the schema, for ratcheting:
// an object's property pairs with the same property of the old object, a map's value with the
// same key, and an item of a list-type=map list with the old item of the same keys; items of
// set and atomic lists pair with nothing (their list as a whole is compared instead).
// `cachedDeepEqual` says whether the node is unchanged; unchanged nodes keep their old errors.
// Counterpart of k8s.io/apiserver/pkg/cel/common/{equality.go,maplist.go}.
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { JSONSchemaProps } from '../v1/types.ts';

type Schema = DeepReadonly<JSONSchemaProps>;

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's reflect.DeepEqual over unstructured JSON. */
export function jsonDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonDeepEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonDeepEqual(a[k], b[k]));
  }
  return false;
}

/** A list-type=map item's identity: its key values, or undefined when one is missing or not a scalar. */
function compositeKey(item: unknown, keys: readonly string[]): string | undefined {
  if (!isObject(item)) return undefined;
  const parts: string[] = [];
  for (const k of keys) {
    if (!Object.hasOwn(item, k)) return undefined;
    const v = item[k];
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return undefined;
    parts.push(`${typeof v}:${JSON.stringify(v)}`);
  }
  return parts.join('\u0000');
}

/** The old items of a list-type=map list by their keys (the first of duplicates wins, as kube's). */
export class MapList {
  private readonly byKey = new Map<string, unknown>();
  constructor(private readonly keys: readonly string[], items: readonly unknown[]) {
    for (const item of items) {
      const k = compositeKey(item, keys);
      if (k !== undefined && !this.byKey.has(k)) this.byKey.set(k, item);
    }
  }
  /** The old item with the keys of `item`, or undefined. */
  get(item: unknown): unknown {
    const k = compositeKey(item, this.keys);
    return k === undefined ? undefined : this.byKey.get(k);
  }
}

/** A MapList over `old` when `s` is a list-type=map array with keys, else undefined (nothing correlates). */
export function makeMapList(s: Schema | undefined, old: unknown): MapList | undefined {
  const keys = s?.['x-kubernetes-list-map-keys'] ?? [];
  if (s?.type !== 'array' || s['x-kubernetes-list-type'] !== 'map' || keys.length === 0 || !Array.isArray(old) || old.length === 0) return undefined;
  return new MapList(keys, old);
}

export class CorrelatedObject {
  private equal: boolean | undefined;
  private mapList: MapList | undefined | null = null;
  private readonly children = new Map<string | number, CorrelatedObject | undefined>();

  constructor(readonly value: unknown, readonly oldValue: unknown, readonly schema: Schema | undefined) {}

  /** The node of property or map key `field`, when both values have it and the schema describes it. */
  key(field: string): CorrelatedObject | undefined {
    if (this.schema === undefined) return undefined;
    if (this.children.has(field)) return this.children.get(field);
    let child: CorrelatedObject | undefined;
    if (isObject(this.value) && isObject(this.oldValue) && Object.hasOwn(this.value, field) && Object.hasOwn(this.oldValue, field)) {
      const props = this.schema.properties;
      const ap = this.schema.additionalProperties;
      const s = props !== undefined && Object.hasOwn(props, field) ? props[field] : typeof ap === 'object' ? ap : undefined;
      if (s !== undefined) child = new CorrelatedObject(this.value[field], this.oldValue[field], s);
    }
    this.children.set(field, child);
    return child;
  }

  /** The node of item `i`: only a list-type=map item correlates, with the old item of the same keys. */
  index(i: number): CorrelatedObject | undefined {
    if (this.schema === undefined) return undefined;
    if (this.children.has(i)) return this.children.get(i);
    let child: CorrelatedObject | undefined;
    if (Array.isArray(this.value) && i < this.value.length && Array.isArray(this.oldValue) && this.schema['x-kubernetes-list-type'] === 'map') {
      if (this.mapList === null) this.mapList = makeMapList(this.schema, this.oldValue);
      const old = this.mapList?.get(this.value[i]);
      if (old !== undefined && this.schema.items !== undefined) child = new CorrelatedObject(this.value[i], old, this.schema.items);
    }
    this.children.set(i, child);
    return child;
  }

  /** Whether the value is unchanged (map-list items compared by key, so reordering is no change). */
  cachedDeepEqual(): boolean {
    this.equal ??= this.compare();
    return this.equal;
  }

  private compare(): boolean {
    const { value, oldValue } = this;
    if (value === undefined || value === null || oldValue === undefined || oldValue === null) {
      return (value ?? null) === null && (oldValue ?? null) === null;
    }
    if (Array.isArray(value) !== Array.isArray(oldValue) || isObject(value) !== isObject(oldValue)) return false;
    if (Array.isArray(value) && Array.isArray(oldValue)) {
      if (value.length !== oldValue.length) return false;
      for (let i = 0; i < value.length; i++) {
        const child = this.index(i);
        // An item that pairs with nothing: a changed map list, or a set/atomic list compared whole.
        if (child === undefined) return this.schema?.['x-kubernetes-list-type'] === 'map' ? false : jsonDeepEqual(oldValue, value);
        if (!child.cachedDeepEqual()) return false;
      }
      return true;
    }
    if (isObject(value) && isObject(oldValue)) {
      const keys = Object.keys(value);
      if (keys.length !== Object.keys(oldValue).length) return false;
      return keys.every((k) => this.key(k)?.cachedDeepEqual() === true);
    }
    return jsonDeepEqual(oldValue, value);
  }
}
