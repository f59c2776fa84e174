// The documentation half of scripts/generate-schemas.ts: builds src/generated/openapi-docs.gen.ts
// (descriptions, enum lists, v3 defaults) for every definition of the reference swagger.json.
// Descriptions come from swagger.json. kube-apiserver v1.36 also publishes what that file lacks:
// the enum lists of +enum types (in v2 and v3) with a "Possible enum values" paragraph appended to
// the description, and the defaults of the v3 document. Those come from kube's own generated
// definitions (k8s.io/kubernetes/pkg/generated/openapi), printed as JSON by the Go command
// oracle/cmd/openapi-definitions from the Go module cache that scripts/build-oracle.sh fills.
import { execFileSync } from 'node:child_process';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };
const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Definitions that are not in swagger.json but whose texts the CRD schemas reuse (kube's builder). */
const DOCS_ONLY = [
  'io.k8s.apimachinery.pkg.apis.meta.v1.TypeMeta',
  'io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata',
  'io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList',
];

/** Runs the Go command; its output maps each definition name to { v3, v2? }. */
export function kubeDefinitions(oracleModule: string): Record<string, { v3: JsonObject; v2?: JsonObject }> {
  const out = execFileSync('go', ['run', './cmd/openapi-definitions'], {
    cwd: oracleModule, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out) as Record<string, { v3: JsonObject; v2?: JsonObject }>;
}

export interface DocsStats { descriptions: number; enums: number; defaults: number; mismatches: string[] }

/**
 * The docs of one node: `swagger` is the reference node (its description is kept), `kube` the
 * same node in kube's v3 definitions (enum, default, and the enum paragraph of the description).
 */
function docsOf(swagger: JsonObject, kube: JsonObject | undefined, path: string, stats: DocsStats): JsonObject {
  const out: JsonObject = {};
  const desc = swagger['description'];
  const kubeDesc = kube?.['description'];
  if (typeof desc === 'string') {
    // kube's text is the reference text plus, for +enum types, the list of values.
    if (typeof kubeDesc === 'string' && kubeDesc !== desc) {
      if (kubeDesc.startsWith(desc)) out['description'] = kubeDesc;
      else { out['description'] = desc; stats.mismatches.push(path); }
    } else out['description'] = desc;
    stats.descriptions++;
  } else if (typeof kubeDesc === 'string') {
    out['description'] = kubeDesc;
    stats.descriptions++;
  }
  if (kube !== undefined && Array.isArray(kube['enum'])) { out['enum'] = kube['enum']; stats.enums++; }
  if (kube !== undefined && kube['default'] !== undefined) { out['default'] = kube['default']; stats.defaults++; }
  const props = swagger['properties'];
  if (isObject(props)) {
    const kp = kube?.['properties'];
    const p: JsonObject = {};
    for (const name of Object.keys(props).sort()) {
      const child = props[name];
      if (!isObject(child)) continue;
      const d = docsOf(child, isObject(kp) && isObject(kp[name]) ? kp[name] : undefined, `${path}.${name}`, stats);
      if (Object.keys(d).length > 0) p[name] = d;
    }
    if (Object.keys(p).length > 0) out['properties'] = p;
  }
  for (const key of ['items', 'additionalProperties'] as const) {
    const child = swagger[key];
    const kc = kube?.[key];
    if (!isObject(child)) continue;
    const d = docsOf(child, isObject(kc) ? kc : undefined, `${path}.${key}`, stats);
    if (Object.keys(d).length > 0) out[key] = d;
  }
  return out;
}

/** The docs of every swagger.json definition (and of DOCS_ONLY), by name. */
export function buildDocs(swaggerDefs: JsonObject, kube: Record<string, { v3: JsonObject; v2?: JsonObject }>): { docs: JsonObject; stats: DocsStats } {
  const stats: DocsStats = { descriptions: 0, enums: 0, defaults: 0, mismatches: [] };
  const docs: JsonObject = {};
  for (const name of Object.keys(swaggerDefs).sort()) {
    const def = swaggerDefs[name];
    if (!isObject(def)) continue;
    const k = kube[name];
    if (k === undefined) stats.mismatches.push(`${name}: not in kube's definitions`);
    const d = docsOf(def, k?.v3, name, stats);
    // Where kube publishes another schema in v3 (Quantity, IntOrString), only oneOf replaces type.
    const oneOf = k?.v3['oneOf'];
    if (k?.v2 !== undefined && Array.isArray(oneOf)) d['oneOf'] = oneOf;
    docs[name] = d;
  }
  for (const name of DOCS_ONLY) {
    const k = kube[name];
    if (k === undefined) throw new Error(`kube's definitions lack ${name}`);
    docs[name] = docsOf(k.v3, k.v3, name, stats);
  }
  return { docs, stats };
}

/**
 * The texts of swagger.json's operations: each operation's description by operationId, and the
 * parameters' descriptions, keyed "<subresource>|<method>|<name>" and folded to
 * "<subresource>|*|<name>" and "*|*|<name>" where they agree (the "name" path parameter is keyed
 * by path, as its text names the kind).
 */
export function buildOperationDocs(swagger: JsonObject): JsonObject {
  const paths = swagger['paths'];
  const shared = swagger['parameters'];
  if (!isObject(paths) || !isObject(shared)) throw new Error('swagger.json: no paths or parameters');
  const resolve = (p: Json): JsonObject | undefined => {
    if (!isObject(p)) return undefined;
    const ref = p['$ref'];
    if (typeof ref !== 'string') return p;
    const t = shared[ref.replace('#/parameters/', '')];
    return isObject(t) ? t : undefined;
  };
  const operations: JsonObject = {};
  const names: JsonObject = {};
  const byPath = new Map<string, string>();
  const byKey = new Map<string, Set<string>>();
  const note = (key: string, d: string): void => { const s = byKey.get(key) ?? new Set(); s.add(d); byKey.set(key, s); };
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const sub = /\/\{name\}\/([^/{]+)/.exec(path)?.[1] ?? '';
    const visit = (method: string, params: Json | undefined): void => {
      for (const raw of Array.isArray(params) ? params : []) {
        const p = resolve(raw);
        const name = p?.['name'];
        const d = p?.['description'];
        if (typeof name !== 'string' || typeof d !== 'string' || p?.['in'] === 'body') continue;
        if (name === 'name' && p?.['in'] === 'path') { names[path] = d; continue; }
        note(`${sub}|${method}|${name}`, d);
        byPath.set(`${path}|${name}`, d);
      }
    };
    for (const [method, op] of Object.entries(item)) {
      if (method === 'parameters') { visit('*', op); continue; }
      if (!isObject(op)) continue;
      if (typeof op['operationId'] === 'string' && typeof op['description'] === 'string') operations[op['operationId']] = op['description'];
      visit(method, op['parameters']);
    }
  }
  // Fold: one text for a name under a subresource whatever the method, then whatever the subresource.
  const params: JsonObject = {};
  const fold = (keys: string[], to: (k: string) => string): void => {
    const groups = new Map<string, Set<string>>();
    for (const k of keys) for (const d of byKey.get(k) ?? []) { const g = groups.get(to(k)) ?? new Set(); g.add(d); groups.set(to(k), g); }
    for (const [k, ds] of groups) if (ds.size === 1) byKey.set(k, ds);
  };
  fold([...byKey.keys()], (k) => k.replace(/\|[^|]+\|/, '|*|'));
  fold([...byKey.keys()].filter((k) => k.includes('|*|')), (k) => `*${k.slice(k.indexOf('|'))}`);
  for (const [k, ds] of byKey) if (ds.size === 1) params[k] = [...ds][0] ?? '';
  // Where a subresource's parameter has several texts (proxy's "path" names the kind), by path.
  for (const [k, d] of byPath) {
    const [path = '', name = ''] = k.split('|');
    const sub = /\/\{name\}\/([^/{]+)/.exec(path)?.[1] ?? '';
    if (params[`${sub}|*|${name}`] === undefined && params[`*|*|${name}`] === undefined) params[`${path}|${name}`] = d;
  }
  return { operations, params, names };
}
