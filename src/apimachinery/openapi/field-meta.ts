// Per-field facts the patch engines need: strategic merge patch reads x-kubernetes-patch-strategy
// and x-kubernetes-patch-merge-key, server-side apply reads list type, list map keys and map type.
// The extensions sit on the property that refers to a type, not on the referred definition.
// Counterpart of k8s.io/apimachinery/pkg/util/strategicpatch/meta.go and
// k8s.io/kube-openapi/pkg/util/proto.
import { getDefinitions, resolveSchema } from './definitions.ts';
import type { Definitions, SchemaNode } from './types.ts';

export interface FieldMeta {
  /** The field's own node (extensions live here), unresolved. */
  readonly node: SchemaNode;
  /** The field's value schema with $ref followed. */
  readonly schema: SchemaNode | undefined;
  /** Strategies from x-kubernetes-patch-strategy, e.g. ['merge'] or ['retainKeys', 'merge']; [] when none. */
  readonly patchStrategies: readonly string[];
  readonly patchMergeKey: string | undefined;
  readonly listType: 'atomic' | 'set' | 'map' | undefined;
  readonly listMapKeys: readonly string[] | undefined;
  readonly mapType: 'atomic' | 'granular' | undefined;
}

function metaOf(node: SchemaNode, defs: Definitions): FieldMeta {
  const strategy = node['x-kubernetes-patch-strategy'];
  return {
    node,
    schema: resolveSchema(node, defs),
    patchStrategies: strategy === undefined || strategy === '' ? [] : strategy.split(','),
    patchMergeKey: node['x-kubernetes-patch-merge-key'],
    listType: node['x-kubernetes-list-type'],
    listMapKeys: node['x-kubernetes-list-map-keys'],
    mapType: node['x-kubernetes-map-type'] ?? resolveSchema(node, defs)?.['x-kubernetes-map-type'],
  };
}

/**
 * Facts about `field` of an object schema. For a map schema (additionalProperties), every key
 * has the value schema. Returns undefined when the schema has no such field.
 */
export function fieldMeta(parent: SchemaNode | undefined, field: string, defs: Definitions = getDefinitions()): FieldMeta | undefined {
  const p = resolveSchema(parent, defs);
  if (p === undefined) return undefined;
  // An own member only: a field named "constructor" is not a schema.
  const prop = p.properties !== undefined && Object.hasOwn(p.properties, field) ? p.properties[field] : undefined;
  if (prop !== undefined) return metaOf(prop, defs);
  if (typeof p.additionalProperties === 'object') return metaOf(p.additionalProperties, defs);
  return undefined;
}

/** The element schema of an array schema, $ref followed. */
export function elementSchema(list: SchemaNode | undefined, defs: Definitions = getDefinitions()): SchemaNode | undefined {
  const l = resolveSchema(list, defs);
  return l?.items === undefined ? undefined : resolveSchema(l.items, defs);
}

/**
 * The schema at a path of field names and list indexes, e.g. ['spec', 'containers', 0, 'ports'].
 * Undefined when the path leaves the schema.
 */
export function schemaAtPath(root: SchemaNode | undefined, path: readonly (string | number)[],
  defs: Definitions = getDefinitions()): SchemaNode | undefined {
  let cur = resolveSchema(root, defs);
  for (const step of path) {
    if (cur === undefined) return undefined;
    cur = typeof step === 'number' ? elementSchema(cur, defs) : fieldMeta(cur, step, defs)?.schema;
  }
  return cur;
}

/** The FieldMeta of the last step of a path (the extensions of that field), or undefined. */
export function fieldMetaAtPath(root: SchemaNode | undefined, path: readonly string[],
  defs: Definitions = getDefinitions()): FieldMeta | undefined {
  if (path.length === 0) return undefined;
  const parent = schemaAtPath(root, path.slice(0, -1), defs);
  const last = path[path.length - 1];
  return last === undefined ? undefined : fieldMeta(parent, last, defs);
}
