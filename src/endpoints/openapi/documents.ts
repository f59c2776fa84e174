// The OpenAPI documents kube-apiserver serves, built from what this server serves:
// /openapi/v2 (one Swagger 2.0 document) and /openapi/v3/<gv> (one OpenAPI 3.0 document per
// group version, plus "api", "apis" and "apis/<group>" for the discovery endpoints).
// Counterpart of k8s.io/kube-openapi/pkg/builder and k8s.io/kube-openapi/pkg/builder3.
import { closureOf, getDefinitions } from '../../apimachinery/openapi/definitions.ts';
import type { DefinitionDocs, OperationDocs } from '../../apimachinery/openapi/docs.ts';
import type { Definitions, SchemaNode } from '../../apimachinery/openapi/types.ts';
import {
  OBJECT_MEDIA, operationGroupVersion, operationTag, resourcePaths, toValidOperationID,
  type OperationSpec, type ParamSpec, type PathSpec,
} from './operations.ts';
import { schemaJSON, refPointer, type JsonObject, type JsonValue, type OpenAPIFormat } from './schema-json.ts';
import { shareParameters } from './parameters.ts';
import { groupVersionPath, type ServedResource } from './served.ts';

export interface OpenAPIOptions {
  /** info.version: the server's gitVersion. */
  readonly version?: string;
  /** Descriptions, enums and defaults of the built-in definitions (none: structure only). */
  readonly docs?: DefinitionDocs;
  /** Descriptions of the built-in operations and their parameters (none: no texts). */
  readonly operationDocs?: OperationDocs;
}

const NO_TEXTS: OperationDocs = { operations: {}, params: {}, names: {} };

/** The text of a parameter of `path` (a `method` operation's, or `*` for the path's own). */
function paramText(texts: OperationDocs, path: string, method: string, p: ParamSpec, kind: string): string | undefined {
  if (p.name === 'name' && p.in === 'path') return texts.names[path] ?? (kind === '' ? undefined : `name of the ${kind}`);
  const sub = /\/\{name\}\/([^/{]+)/.exec(path)?.[1] ?? '';
  return texts.params[`${sub}|${method}|${p.name}`] ?? texts.params[`${sub}|*|${p.name}`] ?? texts.params[`*|*|${p.name}`]
    ?? texts.params[`${path}|${p.name}`];
}

// kube's info.version is the server's major.minor.
const DEFAULT_VERSION = '1.36';
const BEARER_TOKEN = { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' };
/** GET /version/, which kube publishes in /openapi/v2 and in the "version" v3 document. */
const VERSION_PATH: PathSpec = { path: '/version/', params: [], operations: [{
  method: 'get', description: 'get the version information for this server', operationId: 'getCodeVersion', action: '',
  gvk: { group: '', version: '', kind: '' }, tag: 'version', params: [], consumes: ['application/json'], produces: ['application/json'],
  responses: [{ code: '200', schema: 'io.k8s.apimachinery.pkg.version.Info' }, { code: '401', schema: undefined }],
}] };
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const STATUS_TEXT: Readonly<Record<string, string>> = { '200': 'OK', '201': 'Created', '202': 'Accepted', '401': 'Unauthorized' };

// Group-level discovery documents have no CBOR encoding; resource lists do.
const GROUP_DISCOVERY_MEDIA = OBJECT_MEDIA.filter((m) => m !== 'application/cbor');

function discoveryOp(operationId: string, tag: string, definition: string, media = GROUP_DISCOVERY_MEDIA): OperationSpec {
  return {
    method: 'get', operationId, action: '', gvk: { group: '', version: '', kind: '' }, tag, params: [],
    consumes: media, produces: media,
    responses: [{ code: '200', schema: definition }, { code: '401', schema: undefined }],
  };
}

/** The discovery path of a v3 document name ("api", "apis", "apis/apps", "api/v1", "apis/apps/v1"). */
function discoveryPath(docPath: string): PathSpec {
  const parts = docPath.split('/');
  if (docPath === 'api') return { path: '/api/', params: [], operations: [discoveryOp('getCoreAPIVersions', 'core', `${META}APIVersions`)] };
  if (docPath === 'apis') return { path: '/apis/', params: [], operations: [discoveryOp('getAPIVersions', 'apis', `${META}APIGroupList`)] };
  if (parts[0] === 'apis' && parts.length === 2) {
    const group = parts[1] ?? '';
    const word = group.replace(/\.k8s\.io$/, '');
    return { path: `/apis/${group}/`, params: [],
      operations: [discoveryOp(`get${toValidOperationID(word, true)}APIGroup`, toValidOperationID(word, false), `${META}APIGroup`)] };
  }
  const group = parts[0] === 'api' ? '' : parts[1] ?? '';
  const version = parts[parts.length - 1] ?? '';
  return { path: `/${docPath}/`, params: [],
    operations: [discoveryOp(`get${operationGroupVersion(group, version)}APIResources`, operationTag(group, version),
      `${META}APIResourceList`, OBJECT_MEDIA)] };
}

/** The names of the v3 documents for what is served, sorted. */
export function openAPIV3DocumentNames(served: readonly ServedResource[]): string[] {
  const names = new Set<string>(['api', 'apis', 'version']);
  for (const r of served) {
    names.add(groupVersionPath(r));
    if (r.group !== '' && r.customResource !== true) names.add(`apis/${r.group}`);
  }
  return [...names].sort();
}

/** Documents of custom resources only: kube publishes no discovery paths in them. */
function customResourceDocuments(served: readonly ServedResource[]): Set<string> {
  const builtIn = new Set(served.filter((r) => r.customResource !== true).map((r) => groupVersionPath(r)));
  return new Set(served.filter((r) => r.customResource === true).map((r) => groupVersionPath(r)).filter((d) => !builtIn.has(d)));
}

function pathsFor(served: readonly ServedResource[], docPath: string | undefined): PathSpec[] {
  const out: PathSpec[] = [];
  const docs = docPath === undefined ? openAPIV3DocumentNames(served) : [docPath];
  const custom = customResourceDocuments(served);
  for (const d of docs) if (!custom.has(d) && d !== 'version') out.push(discoveryPath(d));
  if (docPath === undefined || docPath === 'version') out.push(VERSION_PATH);
  for (const r of served) {
    if (docPath === undefined || groupVersionPath(r) === docPath) out.push(...resourcePaths(r));
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The built-in definitions, plus the schemas served custom resources bring (when there are any). */
function definitionsOf(served: readonly ServedResource[]): Definitions {
  const extra = served.filter((r) => r.schemas !== undefined);
  if (extra.length === 0) return getDefinitions();
  const defs: Record<string, SchemaNode> = { ...getDefinitions() };
  for (const r of extra) Object.assign(defs, r.schemas);
  return defs;
}

function referencedDefinitions(paths: readonly PathSpec[], defs: Definitions): string[] {
  const names = new Set<string>();
  for (const p of paths) {
    for (const op of p.operations) {
      if (op.body !== undefined) names.add(op.body.definition);
      for (const r of op.responses) if (r.schema !== undefined && r.schema !== 'string') names.add(r.schema);
    }
  }
  return closureOf(names, defs);
}

// Groups missing from client-go's scheme, which names the built-in kinds in a CRD's documents.
const NOT_IN_CLIENT_SCHEME = new Set(['admission.k8s.io', 'apiextensions.k8s.io', 'apiregistration.k8s.io', 'imagepolicy.k8s.io']);

/**
 * The definitions section. A kind shared by every group (DeleteOptions, WatchEvent) lists, in a
 * v3 group-version document, only its core/v1 GVK and the document's own; in a custom
 * resources' document (apiextensions-apiserver's, named from client-go's scheme) every GVK
 * client-go knows.
 */
function definitionsJSON(names: readonly string[], format: OpenAPIFormat, defs: Definitions,
  served: readonly ServedResource[], docs: DefinitionDocs, docGV?: { group: string; version: string }, customDoc = false): JsonObject {
  const published = new Map<string, JsonObject>();
  for (const r of served) {
    if (r.publishedSchemas === undefined) continue;
    for (const [n, s] of Object.entries(r.publishedSchemas(format, docs))) published.set(n, s);
  }
  const out: JsonObject = {};
  for (const n of names) {
    const p = published.get(n);
    if (p !== undefined) { out[n] = p; continue; }
    const d = defs[n];
    if (d === undefined) continue;
    const json = schemaJSON(d, format, docs[n]);
    const gvks = d['x-kubernetes-group-version-kind'];
    if (docGV !== undefined && gvks !== undefined && gvks.length > 1) {
      json['x-kubernetes-group-version-kind'] = gvks
        .filter((g) => (customDoc ? !NOT_IN_CLIENT_SCHEME.has(g.group)
          : (g.group === '' && g.version === 'v1') || (g.group === docGV.group && g.version === docGV.version)))
        .map((g) => ({ group: g.group, kind: g.kind, version: g.version }));
    }
    out[n] = json;
  }
  return out;
}

const responseSchema = (format: OpenAPIFormat, schema: string): JsonObject =>
  schema === 'string' ? { type: 'string' } : { $ref: refPointer(format, schema) };

// v2 parameters in Go's field order: their JSON is hashed into shared parameter names.
function paramJSON(p: ParamSpec, format: OpenAPIFormat, description?: string): JsonObject {
  const d: JsonObject = description === undefined ? {} : { description };
  const base: JsonObject = format === 'v2'
    ? { uniqueItems: true, type: p.type, ...d, name: p.name, in: p.in }
    : { name: p.name, in: p.in, ...d, schema: { type: p.type, uniqueItems: true } };
  if (p.required === true) base['required'] = true;
  return base;
}

function extensions(op: OperationSpec): JsonObject {
  if (op.action === '') return {};
  return {
    'x-kubernetes-action': op.action,
    'x-kubernetes-group-version-kind': { group: op.gvk.group, kind: op.gvk.kind, version: op.gvk.version },
  };
}

type ParamTexts = (p: ParamSpec) => string | undefined;

function operationV2(op: OperationSpec, text: ParamTexts): JsonObject {
  const params: JsonValue[] = [];
  if (op.body !== undefined) {
    const schema = { $ref: refPointer('v2', op.body.definition) };
    params.push(op.body.required ? { name: 'body', in: 'body', required: true, schema } : { name: 'body', in: 'body', schema });
  }
  for (const p of op.params) params.push(paramJSON(p, 'v2', text(p)));
  const responses: JsonObject = {};
  for (const r of op.responses) {
    const resp: JsonObject = { description: STATUS_TEXT[r.code] ?? '' };
    if (r.schema !== undefined) resp['schema'] = responseSchema('v2', r.schema);
    responses[r.code] = resp;
  }
  const out: JsonObject = { ...(op.description === undefined ? {} : { description: op.description }), consumes: [...op.consumes], operationId: op.operationId };
  if (params.length > 0) out['parameters'] = params;
  return { ...out, produces: [...op.produces], responses, schemes: ['https'], tags: [op.tag], ...extensions(op) };
}

function operationV3(op: OperationSpec, text: ParamTexts): JsonObject {
  const out: JsonObject = { tags: [op.tag], ...(op.description === undefined ? {} : { description: op.description }), operationId: op.operationId };
  if (op.params.length > 0) out['parameters'] = op.params.map((p) => paramJSON(p, 'v3', text(p)));
  if (op.body !== undefined) {
    const content: JsonObject = {};
    for (const mt of op.consumes) content[mt] = { schema: { $ref: refPointer('v3', op.body.definition) } };
    out['requestBody'] = op.body.required ? { content, required: true } : { content };
  }
  const responses: JsonObject = {};
  for (const r of op.responses) {
    const resp: JsonObject = { description: STATUS_TEXT[r.code] ?? '' };
    if (r.schema !== undefined) {
      const content: JsonObject = {};
      for (const mt of op.produces) content[mt] = { schema: responseSchema('v3', r.schema) };
      resp['content'] = content;
    }
    responses[r.code] = resp;
  }
  out['responses'] = responses;
  return { ...out, ...extensions(op) };
}

function pathsJSON(paths: readonly PathSpec[], format: OpenAPIFormat, texts: OperationDocs): JsonObject {
  const out: JsonObject = {};
  for (const p of paths) {
    const item: JsonObject = {};
    const kind = p.operations[0]?.gvk.kind ?? '';
    for (const o of p.operations) {
      const known = texts.operations[o.operationId];
      const op: OperationSpec = o.description === undefined && known !== undefined ? { ...o, description: known } : o;
      const text: ParamTexts = (x) => paramText(texts, p.path, op.method, x, kind);
      item[op.method] = format === 'v2' ? operationV2(op, text) : operationV3(op, text);
    }
    if (p.params.length > 0) item['parameters'] = p.params.map((x) => paramJSON(x, format, paramText(texts, p.path, '*', x, kind)));
    out[p.path] = item;
  }
  return out;
}

/** The Swagger 2.0 document of everything served (GET /openapi/v2). */
export function buildOpenAPIV2(served: readonly ServedResource[], opts: OpenAPIOptions = {}): JsonObject {
  const paths = pathsFor(served, undefined);
  const defs = definitionsOf(served);
  const pathsJson = pathsJSON(paths, 'v2', opts.operationDocs ?? NO_TEXTS);
  const parameters = shareParameters(pathsJson);
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: opts.version ?? DEFAULT_VERSION },
    paths: pathsJson,
    definitions: definitionsJSON(referencedDefinitions(paths, defs), 'v2', defs, served, opts.docs ?? {}),
    parameters,
    securityDefinitions: { BearerToken: BEARER_TOKEN },
    security: [{ BearerToken: [] }],
  };
}

/**
 * The OpenAPI 3.0 document of one group version ("api/v1", "apis/apps/v1") or discovery level
 * ("api", "apis", "apis/apps"). Undefined when nothing served belongs to it.
 */
export function buildOpenAPIV3GroupVersion(served: readonly ServedResource[], docPath: string,
  opts: OpenAPIOptions = {}): JsonObject | undefined {
  if (!openAPIV3DocumentNames(served).includes(docPath)) return undefined;
  const paths = pathsFor(served, docPath);
  const defs = definitionsOf(served);
  const customDoc = customResourceDocuments(served).has(docPath);
  const schemas = definitionsJSON(referencedDefinitions(paths, defs), 'v3', defs, served, opts.docs ?? {}, documentGroupVersion(docPath), customDoc);
  // A custom resources' document is apiextensions-apiserver's own: its title, and no security scheme.
  if (customDoc) {
    return { openapi: '3.0.0', info: { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' }, paths: pathsJSON(paths, 'v3', opts.operationDocs ?? NO_TEXTS), components: { schemas } };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: opts.version ?? DEFAULT_VERSION },
    paths: pathsJSON(paths, 'v3', opts.operationDocs ?? NO_TEXTS),
    components: { ...(Object.keys(schemas).length > 0 ? { schemas } : {}), securitySchemes: { BearerToken: BEARER_TOKEN } },
  };
}

/** The group version of a v3 document name ("api/v1", "apis/apps/v1"); undefined for discovery levels. */
function documentGroupVersion(docPath: string): { group: string; version: string } | undefined {
  const parts = docPath.split('/');
  if (parts[0] === 'api' && parts.length === 2) return { group: '', version: parts[1] ?? '' };
  if (parts[0] === 'apis' && parts.length === 3) return { group: parts[1] ?? '', version: parts[2] ?? '' };
  return undefined;
}

/** GET /openapi/v3: each document's server-relative URL with the hash of its content. */
export function buildOpenAPIV3Index(hashes: ReadonlyMap<string, string>, remote: ReadonlyMap<string, string> = new Map()): JsonObject {
  const urls = new Map<string, string>();
  for (const [name, hash] of hashes) urls.set(name, `/openapi/v3/${name}?hash=${hash}`);
  // Documents of APIService backends, listed with their own URLs where no local one has the name.
  for (const [name, url] of remote) if (!urls.has(name)) urls.set(name, url);
  const paths: JsonObject = {};
  for (const name of [...urls.keys()].sort()) paths[name] = { serverRelativeURL: urls.get(name) ?? '' };
  return { paths };
}
