// Typed access to the generated OpenAPI definitions of the built-in API: by definition name,
// by GroupVersionKind, and $ref resolution. Parsed once, on first use.
// Counterpart of k8s.io/kube-openapi/pkg/common (the definitions getter) and
// k8s.io/apimachinery/pkg/util/managedfields (its TypeConverter's lookups).
import { definitionsJSON } from '../../generated/definitions.gen.ts';
import { gvkKey, type GroupVersionKind } from '../schema/group-version.ts';
import type { Definitions, SchemaNode } from './types.ts';

let cache: { defs: Definitions; byGVK: Map<string, string> } | undefined;

function load(): { defs: Definitions; byGVK: Map<string, string> } {
  if (cache !== undefined) return cache;
  const defs = JSON.parse(definitionsJSON) as Definitions;
  const byGVK = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    const gvks = def['x-kubernetes-group-version-kind'] ?? [];
    // DeleteOptions, WatchEvent and friends are registered in every group; only a
    // definition listing exactly one GVK is that kind's own schema.
    if (gvks.length !== 1) continue;
    const g = gvks[0];
    if (g !== undefined) byGVK.set(gvkKey(g), name);
  }
  // Shared meta kinds (one definition, many GVKs) still resolve, unless a group has its own.
  for (const [name, def] of Object.entries(defs)) {
    const gvks = def['x-kubernetes-group-version-kind'] ?? [];
    if (gvks.length < 2) continue;
    for (const g of gvks) if (!byGVK.has(gvkKey(g))) byGVK.set(gvkKey(g), name);
  }
  cache = { defs, byGVK };
  return cache;
}

/** Every definition, keyed by name ("io.k8s.api.core.v1.ConfigMap"). */
export function getDefinitions(): Definitions {
  return load().defs;
}

/** The definition with that name, or undefined. */
export function getSchema(definitionName: string): SchemaNode | undefined {
  return load().defs[definitionName];
}

/** The name of the definition describing a kind, e.g. core/v1 ConfigMap → "io.k8s.api.core.v1.ConfigMap". */
export function definitionForGVK(gvk: GroupVersionKind): string | undefined {
  return load().byGVK.get(gvkKey(gvk));
}

/** The schema describing a kind, or undefined when the kind is not a built-in one. */
export function schemaForGVK(gvk: GroupVersionKind): SchemaNode | undefined {
  const name = definitionForGVK(gvk);
  return name === undefined ? undefined : getSchema(name);
}

/**
 * Follows `$ref` until a node without one. A `$ref` to an unknown definition resolves to
 * undefined (the generated data is closed, so this only happens with foreign schemas).
 */
export function resolveSchema(node: SchemaNode | undefined, defs: Definitions = getDefinitions()): SchemaNode | undefined {
  let n = node;
  for (let hops = 0; n?.$ref !== undefined; hops++) {
    if (hops > 64) throw new Error(`$ref cycle at ${n.$ref}`);
    n = defs[n.$ref];
  }
  return n;
}

/** The definitions reachable from the given ones through $ref, including them, sorted by name. */
export function closureOf(names: Iterable<string>, defs: Definitions = getDefinitions()): string[] {
  const seen = new Set<string>();
  const stack = [...names];
  const visit = (n: SchemaNode | undefined): void => {
    if (n === undefined) return;
    if (n.$ref !== undefined && !seen.has(n.$ref)) stack.push(n.$ref);
    if (n.items !== undefined) visit(n.items);
    if (typeof n.additionalProperties === 'object') visit(n.additionalProperties);
    for (const p of Object.values(n.properties ?? {})) visit(p);
  };
  while (stack.length > 0) {
    const name = stack.pop();
    if (name === undefined || seen.has(name)) continue;
    const def = defs[name];
    if (def === undefined) continue;
    seen.add(name);
    visit(def);
  }
  return [...seen].sort();
}
