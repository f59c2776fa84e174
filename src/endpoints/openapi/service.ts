// Serving the OpenAPI documents as kube-apiserver does (kube-openapi's handlers behind
// kube-aggregator): each document is built once, on first request, and encoded once per form
// (JSON, protobuf and gzip for /openapi/v2); its ETag is the upper-case hex SHA-512 of the JSON,
// which the protobuf form shares. /openapi/v3 lists every document with ?hash=<etag>; a request
// carrying the current hash is cacheable for a year (Cache-Control: public, immutable), a stale
// hash is redirected (301) to the current URL. When what is served changes (a CRD), /openapi/v2
// is rebuilt, and of the v3 documents only those whose resources changed.
// Counterpart of k8s.io/kube-openapi/pkg/handler and k8s.io/kube-openapi/pkg/handler3.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { loadDefinitionDocs, loadOperationDocs, type DefinitionDocs, type OperationDocs } from '../../apimachinery/openapi/docs.ts';
import {
  buildOpenAPIV2, buildOpenAPIV3GroupVersion, buildOpenAPIV3Index, openAPIV3DocumentNames, type OpenAPIOptions,
} from './documents.ts';
import { parseAccept } from '../negotiation.ts';
import { encodeOpenAPIV2Document } from './proto-v2.ts';
import { acceptsGzip, GZIP_MIN_SIZE, isNotModified, notModifiedHeaders, rfc1123UTC } from './serve-content.ts';
import { groupVersionPath, type ServedResource } from './served.ts';

const gzip = promisify(gzipCallback);

export interface OpenAPIDocument {
  readonly body: Buffer;
  /** Unquoted: the hash used in ?hash= and, quoted, in the ETag header. */
  readonly etag: string;
  readonly contentType: string;
  readonly lastModified: Date;
}

export interface OpenAPIResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Empty for 304, 301 and HEAD. */
  readonly body: Buffer;
}

export interface OpenAPIRequest {
  readonly method: string;
  /** The URL path, e.g. "/openapi/v3/apis/apps/v1". */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly accept?: string | undefined;
  readonly acceptEncoding?: string | undefined;
  readonly ifNoneMatch?: string | undefined;
  readonly ifModifiedSince?: string | undefined;
}

/** kube-openapi computeETag. */
export function computeETag(data: Buffer): string {
  return createHash('sha512').update(data).digest('hex').toUpperCase();
}

function documentOf(value: unknown): OpenAPIDocument {
  const body = Buffer.from(JSON.stringify(value));
  return { body, etag: computeETag(body), contentType: 'application/json', lastModified: new Date() };
}

/** Accepts application/json (or a wildcard covering it) in an Accept header; no header accepts all. */
function acceptsJSON(accept: string | undefined): boolean {
  return parseAccept(accept === undefined || accept === '' ? '*/*' : accept)
    .some((c) => (c.type === 'application' || c.type === '*') && (c.subtype === 'json' || c.subtype === '*'));
}

const V2_PROTOBUF_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
// kube-openapi's handler: JSON, then the deprecated and the current protobuf subtype, each
// served as V2_PROTOBUF_TYPE; the first clause (goautoneg order) that one of them matches wins.
const V2_ACCEPTED: readonly (readonly [string, 'json' | 'protobuf'])[] = [
  ['json', 'json'], ['com.github.proto-openapi.spec.v2@v1.0+protobuf', 'protobuf'], ['com.github.proto-openapi.spec.v2.v1.0+protobuf', 'protobuf'],
];

function v2Format(accept: string | undefined): 'json' | 'protobuf' | undefined {
  for (const c of parseAccept(accept === undefined || accept === '' ? '*/*' : accept)) {
    for (const [subtype, format] of V2_ACCEPTED) {
      if ((c.type === 'application' || c.type === '*') && (c.subtype === subtype || c.subtype === '*')) return format;
    }
  }
  return undefined;
}

/**
 * What the aggregator adds to the documents (APIService backends' specs): the v2 spec merged
 * with theirs, and the v3 documents they list (name → serverRelativeURL).
 */
export interface OpenAPIAggregation {
  mergeV2(local: Record<string, unknown>): Record<string, unknown>;
  v3Paths(): ReadonlyMap<string, string>;
}

const empty = (status: number, headers: Record<string, string>): OpenAPIResponse => ({ status, headers, body: Buffer.alloc(0) });

/** The forms of /openapi/v2, each encoded on first use. */
interface V2Forms {
  readonly json: OpenAPIDocument;
  protobuf?: OpenAPIDocument;
  gzip?: Promise<Buffer>;
  protobufGzip?: Promise<Buffer>;
}

export class OpenAPIService {
  private served: readonly ServedResource[];
  private v2Forms: Promise<V2Forms> | undefined;
  /** Built v3 documents with the key of what they were built from (see v3Key). */
  private v3Docs = new Map<string, { key: string; doc: Promise<OpenAPIDocument | undefined> }>();
  private indexDoc: Promise<OpenAPIDocument> | undefined;
  private aggregation: OpenAPIAggregation | undefined;

  constructor(served: readonly ServedResource[], private readonly opts: OpenAPIOptions = {}) {
    this.served = served;
  }

  /** Replaces what is served (e.g. a CRD was established); documents are rebuilt on next use. */
  update(served: readonly ServedResource[]): void {
    this.served = served;
    this.v2Forms = undefined;
    this.indexDoc = undefined;
    const names = new Set(this.v3Names());
    for (const name of [...this.v3Docs.keys()]) if (!names.has(name)) this.v3Docs.delete(name);
  }

  /** Merges what backends serve from now on; documents are rebuilt on next use. */
  setAggregation(a: OpenAPIAggregation | undefined): void {
    this.aggregation = a;
    this.aggregationChanged();
  }

  /** What the backends serve changed: /openapi/v2 and the v3 index are rebuilt on next use. */
  aggregationChanged(): void {
    this.v2Forms = undefined;
    this.indexDoc = undefined;
  }

  private async options(): Promise<OpenAPIOptions> {
    const docs: DefinitionDocs = this.opts.docs ?? await loadDefinitionDocs();
    const operationDocs: OperationDocs = this.opts.operationDocs ?? await loadOperationDocs();
    return { ...this.opts, docs, operationDocs };
  }

  private v2FormsOf(): Promise<V2Forms> {
    this.v2Forms ??= this.options().then((o) => {
      const local = buildOpenAPIV2(this.served, o);
      return { json: documentOf(this.aggregation?.mergeV2(local) ?? local) };
    });
    return this.v2Forms;
  }

  /** GET /openapi/v2 as JSON. */
  async v2(): Promise<OpenAPIDocument> {
    return (await this.v2FormsOf()).json;
  }

  /** GET /openapi/v2 as a gnostic openapi.v2.Document (protobuf); its ETag is the JSON's, as kube's. */
  async v2Protobuf(): Promise<OpenAPIDocument> {
    const forms = await this.v2FormsOf();
    if (forms.protobuf === undefined) {
      const { json } = forms;
      const body = encodeOpenAPIV2Document(JSON.parse(json.body.toString('utf8')) as Record<string, unknown>);
      forms.protobuf = { body, etag: json.etag, contentType: V2_PROTOBUF_TYPE, lastModified: json.lastModified };
    }
    return forms.protobuf;
  }

  private async v2Gzip(format: 'json' | 'protobuf'): Promise<Buffer> {
    const forms = await this.v2FormsOf();
    if (format === 'json') return (forms.gzip ??= gzip(forms.json.body));
    const pb = await this.v2Protobuf();
    return (forms.protobufGzip ??= gzip(pb.body));
  }

  /** The names listed by /openapi/v3 ("api", "api/v1", "apis", "apis/apps", ...). */
  v3Names(): string[] {
    return openAPIV3DocumentNames(this.served);
  }

  /**
   * What a v3 document is built from: the resources under its path. A CRD's schemas are left out
   * (they can be large, and this runs on every request): its revision stands for them.
   */
  private v3Key(name: string): string {
    return JSON.stringify(this.served.filter((r) => groupVersionPath(r) === name || `apis/${r.group}` === name),
      (k, v: unknown) => (k === 'schemas' ? undefined : v));
  }

  /** GET /openapi/v3/<name>; undefined for a name nothing is served under. */
  v3Document(name: string): Promise<OpenAPIDocument | undefined> {
    const key = this.v3Key(name);
    const hit = this.v3Docs.get(name);
    if (hit !== undefined && hit.key === key) return hit.doc;
    const doc = this.options().then((o) => {
      const d = buildOpenAPIV3GroupVersion(this.served, name, o);
      return d === undefined ? undefined : documentOf(d);
    });
    this.v3Docs.set(name, { key, doc });
    return doc;
  }

  /** GET /openapi/v3. */
  v3Index(): Promise<OpenAPIDocument> {
    this.indexDoc ??= (async () => {
      const hashes = new Map<string, string>();
      for (const name of this.v3Names()) {
        const d = await this.v3Document(name);
        if (d !== undefined) hashes.set(name, d.etag);
      }
      const doc = documentOf(buildOpenAPIV3Index(hashes, this.aggregation?.v3Paths()));
      // kube-aggregator serves the index through ServeContent without a type: Go sniffs text/plain.
      return { ...doc, contentType: 'text/plain; charset=utf-8' };
    })();
    return this.indexDoc;
  }

  /**
   * Answers /openapi/v2, /openapi/v3 and /openapi/v3/<name>; undefined for other paths.
   * 404 for an unknown document, 406 when the client accepts none of the document's forms
   * (/openapi/v2 also comes as protobuf; the v3 documents only as JSON), 304 when If-None-Match
   * carries the current ETag (or, without it, If-Modified-Since is not before Last-Modified).
   */
  async handle(req: OpenAPIRequest): Promise<OpenAPIResponse | undefined> {
    const path = req.path.replace(/\/+$/, '');
    if (path === '/openapi/v2') return this.handleV2(req);
    if (path === '/openapi/v3') {
      // The index: no ETag, Last-Modified is the time of the request (kube-aggregator's handler).
      const doc = await this.v3Index();
      return this.serve(req, { ...doc, lastModified: new Date() }, {}, false);
    }
    if (!path.startsWith('/openapi/v3/')) return undefined;
    const name = path.slice('/openapi/v3/'.length);
    const doc = await this.v3Document(name);
    if (doc === undefined) return empty(404, {});
    const headers: Record<string, string> = { 'Vary': 'Accept' };
    if (!acceptsJSON(req.accept)) return empty(406, headers);
    headers['Content-Type'] = doc.contentType;
    headers['Etag'] = `"${doc.etag}"`;
    const hash = req.query.get('hash');
    if (hash !== null && hash !== '') {
      if (hash !== doc.etag) return empty(301, { ...headers, Location: `/openapi/v3/${name}?hash=${doc.etag}` });
      headers['Cache-Control'] = 'public, immutable';
      headers['Expires'] = rfc1123UTC(new Date(Date.now() + 365 * 24 * 3600 * 1000));
    }
    return this.serve(req, doc, headers, true);
  }

  private async handleV2(req: OpenAPIRequest): Promise<OpenAPIResponse> {
    // gziphandler adds its Vary before kube-openapi's handler adds Accept.
    const headers: Record<string, string> = { 'Vary': 'Accept-Encoding, Accept' };
    const format = v2Format(req.accept);
    if (format === undefined) return empty(406, headers);
    const doc = format === 'protobuf' ? await this.v2Protobuf() : await this.v2();
    headers['Content-Type'] = doc.contentType;
    headers['Etag'] = `"${doc.etag}"`;
    const res = this.serve(req, doc, headers, true);
    if (res.status !== 200 || req.method === 'HEAD' || doc.body.length < GZIP_MIN_SIZE || !acceptsGzip(req.acceptEncoding)) return res;
    return { status: 200, headers: { ...res.headers, 'Content-Encoding': 'gzip' }, body: await this.v2Gzip(format) };
  }

  /** http.ServeContent: Last-Modified, the conditional-request answer, else the whole body. */
  private serve(req: OpenAPIRequest, doc: OpenAPIDocument, headers: Record<string, string>, withETag: boolean): OpenAPIResponse {
    const all: Record<string, string> = { ...headers, 'Last-Modified': doc.lastModified.toUTCString() };
    if (all['Content-Type'] === undefined) all['Content-Type'] = doc.contentType;
    if (isNotModified(req, withETag ? `"${doc.etag}"` : undefined, doc.lastModified)) return empty(304, notModifiedHeaders(all));
    all['Accept-Ranges'] = 'bytes';
    return { status: 200, headers: all, body: req.method === 'HEAD' ? Buffer.alloc(0) : doc.body };
  }
}
