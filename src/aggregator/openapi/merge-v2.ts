// Merging a backend's OpenAPI v2 spec into the server's, as kube-openapi's aggregator does: the
// backend's spec is first cut down to its APIService's paths (and the definitions and parameters
// they use), paths the server already has are dropped, and a definition or parameter whose name
// is taken by a different one is renamed `<name>_v2` (`_v3`, ...), its references rewritten.
// Definitions equal but for x-kubernetes-group-version-kind are one, their GVK lists joined.
// Counterpart of FilterSpecByPathsWithoutSideEffects and
// MergeSpecsIgnorePathConflictRenamingDefinitionsAndParameters (k8s.io/kube-openapi/pkg/aggregator).
import { isDeepStrictEqual } from 'node:util';

export type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const objectAt = (o: JsonObject, key: string): JsonObject => (isObject(o[key]) ? o[key] : {});

const DEFINITION_REF = '#/definitions/';
const PARAMETER_REF = '#/parameters/';
const GVK_KEY = 'x-kubernetes-group-version-kind';

/** Every $ref under `v`, handed to `visit`. */
function walkRefs(v: unknown, visit: (ref: string) => void): void {
  if (Array.isArray(v)) { for (const x of v) walkRefs(x, visit); return; }
  if (!isObject(v)) return;
  for (const [k, x] of Object.entries(v)) {
    if (k === '$ref' && typeof x === 'string') visit(x);
    else walkRefs(x, visit);
  }
}

/** A copy of `v` with each $ref `map` renames replaced. */
function rewriteRefs(v: unknown, map: (ref: string) => string): unknown {
  if (Array.isArray(v)) return v.map((x) => rewriteRefs(x, map));
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) out[k] = k === '$ref' && typeof x === 'string' ? map(x) : rewriteRefs(x, map);
  return out;
}

const sortedObject = (o: JsonObject): JsonObject => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** FilterSpecByPathsWithoutSideEffects: the paths under any prefix, with what they use. */
export function filterSpecByPaths(spec: JsonObject, keepPrefixes: readonly string[]): JsonObject {
  const paths = objectAt(spec, 'paths');
  const definitions = objectAt(spec, 'definitions');
  const parameters = objectAt(spec, 'parameters');
  const keptPaths: JsonObject = {};
  for (const [p, item] of Object.entries(paths)) if (keepPrefixes.some((pre) => p.startsWith(pre))) keptPaths[p] = item;
  const usedDefs = new Set<string>();
  const usedParams = new Set<string>();
  const pending: unknown[] = [keptPaths];
  const visit = (ref: string): void => {
    if (ref.startsWith(DEFINITION_REF)) {
      const name = ref.slice(DEFINITION_REF.length);
      if (usedDefs.has(name)) return;
      usedDefs.add(name);
      pending.push(definitions[name]);
    } else if (ref.startsWith(PARAMETER_REF)) {
      const name = ref.slice(PARAMETER_REF.length);
      if (usedParams.has(name)) return;
      usedParams.add(name);
      pending.push(parameters[name]);
    }
  };
  while (pending.length > 0) walkRefs(pending.pop(), visit);
  const out: JsonObject = { ...spec, paths: keptPaths };
  const defs = Object.fromEntries(Object.entries(definitions).filter(([k]) => usedDefs.has(k)));
  const params = Object.fromEntries(Object.entries(parameters).filter(([k]) => usedParams.has(k)));
  if (Object.keys(defs).length > 0 || spec['definitions'] !== undefined) out['definitions'] = defs;
  if (Object.keys(params).length > 0) out['parameters'] = params; else delete out['parameters'];
  return out;
}

const withoutGVK = (d: unknown): unknown => {
  if (!isObject(d)) return d;
  const { [GVK_KEY]: _gvk, ...rest } = d;
  return rest;
};

/** Renames the entries of `source` whose names `dest` has with other content; returns old → new. */
function renames(dest: JsonObject, source: JsonObject, equal: (a: unknown, b: unknown) => boolean): Map<string, string> {
  const used = new Set(Object.keys(dest));
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(source)) {
    if (!(k in dest) || equal(dest[k], v)) continue;
    let i = 1;
    let name = k;
    let reuse = false;
    // An earlier merge may have renamed the same content already.
    for (let found = true; found;) {
      i++;
      name = `${k}_v${i}`;
      found = name in dest;
      if (found && equal(dest[name], v)) { reuse = true; break; }
    }
    if (!reuse) {
      while (used.has(name) || name in source) { i++; name = `${k}_v${i}`; }
      used.add(name);
    }
    out.set(k, name);
  }
  return out;
}

/** Joins the GVK lists of two definitions equal but for them; undefined when nothing is added. */
function joinedGVKs(existing: unknown, added: unknown): unknown[] | undefined {
  if (!isObject(existing) || !isObject(added)) return undefined;
  const have = Array.isArray(existing[GVK_KEY]) ? existing[GVK_KEY] : [];
  const more = (Array.isArray(added[GVK_KEY]) ? added[GVK_KEY] : []).filter((g) => !have.some((h) => isDeepStrictEqual(h, g)));
  return more.length === 0 ? undefined : [...have, ...more];
}

/**
 * MergeSpecsIgnorePathConflictRenamingDefinitionsAndParameters: `source` merged into `dest`
 * (which is changed); keys come out sorted, as Go encodes maps.
 */
export function mergeSpecs(dest: JsonObject, source: JsonObject): void {
  const sourcePaths = objectAt(source, 'paths');
  const destPaths = objectAt(dest, 'paths');
  const keep = Object.keys(sourcePaths).filter((p) => !(p in destPaths));
  if (keep.length === 0) return;
  let src = keep.length < Object.keys(sourcePaths).length ? filterSpecByPaths(source, keep) : source;
  const destDefs = objectAt(dest, 'definitions');
  const destParams = objectAt(dest, 'parameters');
  const defRenames = renames(destDefs, objectAt(src, 'definitions'), (a, b) => isDeepStrictEqual(withoutGVK(a), withoutGVK(b)));
  const paramRenames = renames(destParams, objectAt(src, 'parameters'), isDeepStrictEqual);
  if (defRenames.size > 0 || paramRenames.size > 0) {
    const map = (ref: string): string => {
      if (ref.startsWith(DEFINITION_REF)) return DEFINITION_REF + (defRenames.get(ref.slice(DEFINITION_REF.length)) ?? ref.slice(DEFINITION_REF.length));
      if (ref.startsWith(PARAMETER_REF)) return PARAMETER_REF + (paramRenames.get(ref.slice(PARAMETER_REF.length)) ?? ref.slice(PARAMETER_REF.length));
      return ref;
    };
    const rename = (o: JsonObject, names: Map<string, string>): JsonObject =>
      Object.fromEntries(Object.entries(o).map(([k, v]) => [names.get(k) ?? k, rewriteRefs(v, map)]));
    src = { ...src, paths: rewriteRefs(objectAt(src, 'paths'), map), definitions: rename(objectAt(src, 'definitions'), defRenames),
      parameters: rename(objectAt(src, 'parameters'), paramRenames) };
  }
  const defs: JsonObject = { ...destDefs };
  for (const [k, v] of Object.entries(objectAt(src, 'definitions'))) {
    if (!(k in defs)) { defs[k] = v; continue; }
    const gvks = joinedGVKs(defs[k], v);
    if (gvks !== undefined) defs[k] = { ...(defs[k] as JsonObject), [GVK_KEY]: gvks };
  }
  const params: JsonObject = { ...destParams };
  for (const [k, v] of Object.entries(objectAt(src, 'parameters'))) if (!(k in params)) params[k] = v;
  dest['paths'] = sortedObject({ ...destPaths, ...objectAt(src, 'paths') });
  dest['definitions'] = sortedObject(defs);
  if (Object.keys(params).length > 0) dest['parameters'] = sortedObject(params);
}
