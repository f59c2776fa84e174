// x-kubernetes-list-type on custom resources (apiextensions-apiserver pkg/apiserver/schema/listtype):
// a `set` holds no value twice, a `map` no two items with the same keys. Each repeat after the first
// is a Duplicate cause at its index; a map's duplicate names the item's keys only.
import { duplicate, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { JSONSchemaProps } from '../v1/types.ts';

type Schema = DeepReadonly<JSONSchemaProps>;

/** Key order does not matter for equality of objects, as in Go's DeepEqual of unstructured values. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export function validateListTypes(list: readonly unknown[], s: Schema, path: FieldPath): FieldError[] {
  const type = s['x-kubernetes-list-type'];
  if (type === 'set') return duplicates(list, path, (item) => item);
  if (type === 'map') {
    const keys = s['x-kubernetes-list-map-keys'] ?? [];
    return duplicates(list, path, (item) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
      const o = item as Record<string, unknown>;
      const k: Record<string, unknown> = {};
      for (const name of keys) if (Object.hasOwn(o, name)) k[name] = o[name];
      return k;
    });
  }
  return [];
}

/** `identity` returns the value that must be unique, or undefined to leave the item out. */
function duplicates(list: readonly unknown[], path: FieldPath, identity: (item: unknown) => unknown): FieldError[] {
  const seen = new Set<string>();
  const errs: FieldError[] = [];
  list.forEach((item, i) => {
    const id = identity(item);
    if (id === undefined) return;
    const text = canonical(id);
    // kube prints the value as Go marshals a map: keys sorted.
    if (seen.has(text)) errs.push(duplicate(path.index(i), JSON.parse(text)));
    seen.add(text);
  });
  return errs;
}
