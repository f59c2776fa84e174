// The resources the generated differential corpus covers: every resource both kapi and the
// oracle serve with default flags (read from aggregated discovery, with their status and scale
// subresources), each with a valid object built from the oracle's published OpenAPI v3 plus the
// every-resource hints, and the schema paths the invalid variants break (a required property, a
// typed leaf, an enum).
// No Go counterpart: the e2e test harness.
import { apiVersion, gvPath } from './discover.ts';
import { HINTS, type FixtureMaterial, type Hint } from './fixtures/every-resource.ts';
import { exampleFor, findKindSchema, type JSONObject, type JSONValue, type OpenAPIDocument, type SchemaObject } from './fixtures/schema-example.ts';
import type { RawRequest, RawResponse } from './https-client.ts';
import type { RESTResource } from '../../server/testing/resttest.ts';

export type Send = (req: RawRequest) => Promise<RawResponse>;

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

interface DiscoveryResource {
  resource: string;
  responseKind?: { kind?: string };
  scope: string;
  verbs: string[];
  subresources?: { subresource: string; verbs?: string[] }[];
}
interface DiscoveryDocument { items: { metadata?: { name?: string }; versions: { version: string; resources: DiscoveryResource[] }[] }[] }

/** One served resource in its preferred version; its key (resource.group) is the key of HINTS. */
export interface ServedResource extends RESTResource {
  readonly verbs: readonly string[];
  readonly subresources: readonly string[];
}

async function json<T>(send: Send, req: RawRequest): Promise<T> {
  const r = await send(req);
  if (r.status !== 200) throw new Error(`${req.method} ${req.path}: ${r.status} ${r.text.slice(0, 300)}`);
  return JSON.parse(r.text) as T;
}

/** The resources one server serves, each in its preferred (first listed) version. */
export async function servedResources(send: Send): Promise<Map<string, ServedResource>> {
  const out = new Map<string, ServedResource>();
  for (const root of ['/api', '/apis']) {
    const doc = await json<DiscoveryDocument>(send, { method: 'GET', path: root, headers: { Accept: AGGREGATED } });
    for (const g of doc.items) {
      const group = g.metadata?.name ?? '';
      for (const v of g.versions) {
        for (const r of v.resources) {
          const key = group === '' ? r.resource : `${r.resource}.${group}`;
          if (out.has(key)) continue;
          out.set(key, {
            key, group, version: v.version, resource: r.resource, kind: r.responseKind?.kind ?? '', namespaced: r.scope === 'Namespaced',
            verbs: r.verbs, subresources: (r.subresources ?? []).map((s) => s.subresource),
          });
        }
      }
    }
  }
  return out;
}

/** What both serve alike (same preferred version, kind, scope), and what only one of them serves. */
export function commonResources(kapi: ReadonlyMap<string, ServedResource>, oracle: ReadonlyMap<string, ServedResource>):
  { common: ServedResource[]; onlyKapi: string[]; onlyOracle: string[] } {
  const common: ServedResource[] = [];
  const onlyKapi: string[] = [];
  const onlyOracle = [...oracle.keys()].filter((k) => !kapi.has(k));
  for (const [k, r] of kapi) {
    const o = oracle.get(k);
    if (o === undefined || o.version !== r.version || o.kind !== r.kind || o.namespaced !== r.namespaced) onlyKapi.push(k);
    // The oracle's view decides verbs and subresources: it is the spec.
    else common.push(o);
  }
  return { common: common.sort((a, b) => a.key.localeCompare(b.key)), onlyKapi, onlyOracle };
}

/** OpenAPI v3 documents per group version, fetched once. */
export class OpenAPIDocuments {
  private index: Promise<{ paths: Record<string, { serverRelativeURL: string }> }> | undefined;
  private readonly docs = new Map<string, Promise<OpenAPIDocument>>();
  constructor(private readonly send: Send) {}

  get(group: string, version: string): Promise<OpenAPIDocument> {
    const key = gvPath(group, version).slice(1);
    let doc = this.docs.get(key);
    if (doc === undefined) {
      doc = (async () => {
        this.index ??= json(this.send, { method: 'GET', path: '/openapi/v3' });
        const entry = (await this.index).paths[key];
        if (entry === undefined) throw new Error(`GET /openapi/v3 does not list ${key}`);
        return json<OpenAPIDocument>(this.send, { method: 'GET', path: entry.serverRelativeURL });
      })();
      this.docs.set(key, doc);
    }
    return doc;
  }
}

/** A path into an object: property names and array indexes. */
export type JSONPath = readonly (string | number)[];

/** A resource with everything its cases need. */
export interface Target extends ServedResource {
  readonly hint: Hint;
  /** The object's name (fixed by the hint for some kinds). */
  readonly name: string;
  /** '' when cluster-scoped. */
  readonly namespace: string;
  /** The collection's path. */
  readonly collection: string;
  readonly apiVersion: string;
  /** The valid object, without metadata. */
  readonly example: JSONObject;
  /** A required property the example holds (removing it makes the object invalid). */
  readonly required?: JSONPath;
  /** A string, number or boolean leaf of the example, and its JSON type. */
  readonly leaf?: { readonly path: JSONPath; readonly type: string };
  /** A property with an enum whose parent the example holds. */
  readonly enumPath?: JSONPath;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Resolves $ref and a one-element allOf (how the published documents wrap references). */
function resolve(doc: OpenAPIDocument, s: SchemaObject | undefined): SchemaObject | undefined {
  for (let i = 0; s !== undefined && i < 10; i++) {
    if (s.$ref !== undefined) s = doc.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')];
    else if (s.allOf?.length === 1 && s.properties === undefined) s = s.allOf[0];
    else return s;
  }
  return s;
}

const SET_BY_TEST = new Set(['apiVersion', 'kind', 'metadata']);

/** Walks the example and its schema together, depth first, calling `visit` on each property. */
function walk(doc: OpenAPIDocument, schema: SchemaObject | undefined, value: unknown, path: JSONPath,
  visit: (path: JSONPath, schema: SchemaObject, value: unknown, parent: SchemaObject) => boolean): boolean {
  const s = resolve(doc, schema);
  if (s === undefined) return false;
  if (Array.isArray(value)) return value.length > 0 && walk(doc, s.items, value[0], [...path, 0], visit);
  if (!isObject(value)) return false;
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    if (path.length === 0 && SET_BY_TEST.has(k)) continue;
    const ps = resolve(doc, p);
    if (ps !== undefined && visit([...path, k], ps, value[k], s)) return true;
    if (k in value && walk(doc, ps, value[k], [...path, k], visit)) return true;
  }
  return false;
}

/** The schema probes of a kind's example: see Target. */
function probes(doc: OpenAPIDocument, kindSchema: string, example: JSONObject): Pick<Target, 'required' | 'leaf' | 'enumPath'> {
  const root: SchemaObject = { $ref: `#/components/schemas/${kindSchema}` };
  let required: JSONPath | undefined;
  let leaf: Target['leaf'];
  let enumPath: JSONPath | undefined;
  walk(doc, root, example, [], (path, s, v, parent) => {
    const name = path[path.length - 1];
    if (required === undefined && typeof name === 'string' && v !== undefined && (parent.required ?? []).includes(name)) required = path;
    if (leaf === undefined && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) leaf = { path, type: typeof v };
    if (enumPath === undefined && s.enum !== undefined && s.enum.length > 0) enumPath = path;
    return required !== undefined && leaf !== undefined && enumPath !== undefined;
  });
  return { ...(required !== undefined ? { required } : {}), ...(leaf !== undefined ? { leaf } : {}), ...(enumPath !== undefined ? { enumPath } : {}) };
}

/** A copy of `obj` with the value at `path` replaced (`undefined` removes it). */
export function setAt(obj: JSONObject, path: JSONPath, value: JSONValue | undefined): JSONObject {
  const copy = structuredClone(obj) as Record<string, unknown>;
  let x: unknown = copy;
  for (const p of path.slice(0, -1)) {
    const next: unknown = Array.isArray(x) ? x[p as number] : isObject(x) ? x[p as string] : undefined;
    if (next === undefined) {
      const created = {};
      if (isObject(x)) x[p as string] = created;
      x = created;
    } else x = next;
  }
  const last = path[path.length - 1];
  if (isObject(x) && typeof last === 'string') {
    if (value === undefined) delete x[last];
    else x[last] = value;
  }
  return copy as JSONObject;
}

/**
 * Fields kube requires that the OpenAPI schema leaves optional: the corpus creates the object with
 * them, and adds a case (`kube requires <path>`) that creates it without, which both servers refuse.
 */
export const KUBE_REQUIRES: Readonly<Record<string, { readonly path: JSONPath; readonly value: JSONValue }>> = {
  'horizontalpodautoscalers.autoscaling': { path: ['spec', 'scaleTargetRef', 'apiVersion'], value: 'apps/v1' },
  'mutatingadmissionpolicies.admissionregistration.k8s.io': { path: ['spec', 'reinvocationPolicy'], value: 'Never' },
};

/** The target for a served resource: its namespace (one per resource, `namespace`), object and probes. */
export async function targetFor(r: ServedResource, openapi: OpenAPIDocuments, material: FixtureMaterial, namespace: string): Promise<Target> {
  const hint = HINTS[r.key] ?? {};
  const name = hint.name ?? `d-${r.resource}`.slice(0, 63);
  const ns = r.namespaced ? namespace : '';
  const doc = await openapi.get(r.group, r.version);
  const gvk = { group: r.group, version: r.version, kind: r.kind };
  let example = exampleFor(doc, gvk, hint.body?.({ name, namespace: ns, material }) ?? {});
  const required = KUBE_REQUIRES[r.key];
  if (required !== undefined) example = setAt(example, required.path, required.value);
  const kindSchema = findKindSchema(doc, gvk) ?? '';
  return {
    ...r, hint, name, namespace: ns, example,
    collection: `${gvPath(r.group, r.version)}${r.namespaced ? `/namespaces/${ns}` : ''}/${r.resource}`,
    apiVersion: apiVersion(r.group, r.version),
    ...probes(doc, kindSchema, example),
  };
}
