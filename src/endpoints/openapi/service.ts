// Serving the OpenAPI documents as kube-openapi's handlers do: each document is built once and
// serialized once; its ETag is the upper-case hex SHA-512 of the bytes. /openapi/v3 lists every
// document with ?hash=<etag>; a request carrying the current hash is cacheable forever
// (Cache-Control: public, immutable), a stale hash is redirected (301) to the current URL.
import { createHash } from 'node:crypto';
import {
  buildOpenAPIV2, buildOpenAPIV3GroupVersion, buildOpenAPIV3Index, openAPIV3DocumentNames, type OpenAPIOptions,
} from './documents.ts';
import { parseAccept } from '../negotiation.ts';
import { encodeOpenAPIV2Document } from './proto-v2.ts';
import type { ServedResource } from './served.ts';

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
  readonly ifNoneMatch?: string | undefined;
}

/** kube-openapi computeETag. */
export function computeETag(data: Buffer): string {
  return createHash('sha512').update(data).digest('hex').toUpperCase();
}

function documentOf(value: unknown, lastModified: Date): OpenAPIDocument {
  const body = Buffer.from(JSON.stringify(value));
  return { body, etag: computeETag(body), contentType: 'application/json', lastModified };
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

export class OpenAPIService {
  private served: readonly ServedResource[];
  private v2Doc: OpenAPIDocument | undefined;
  private v2ProtoDoc: OpenAPIDocument | undefined;
  private v3Docs = new Map<string, OpenAPIDocument>();
  private indexDoc: OpenAPIDocument | undefined;
  private lastModified = new Date();

  constructor(served: readonly ServedResource[], private readonly opts: OpenAPIOptions = {}) {
    this.served = served;
  }

  /** Replaces what is served (e.g. a CRD was established); documents are rebuilt on next use. */
  update(served: readonly ServedResource[]): void {
    this.served = served;
    this.v2Doc = undefined;
    this.v2ProtoDoc = undefined;
    this.v3Docs = new Map();
    this.indexDoc = undefined;
    this.lastModified = new Date();
  }

  /** GET /openapi/v2 as JSON. */
  v2(): OpenAPIDocument {
    this.v2Doc ??= documentOf(buildOpenAPIV2(this.served, this.opts), this.lastModified);
    return this.v2Doc;
  }

  /** GET /openapi/v2 as a gnostic openapi.v2.Document (protobuf). */
  v2Protobuf(): OpenAPIDocument {
    if (this.v2ProtoDoc === undefined) {
      const body = encodeOpenAPIV2Document(JSON.parse(this.v2().body.toString('utf8')) as Record<string, unknown>);
      this.v2ProtoDoc = { body, etag: computeETag(body), contentType: V2_PROTOBUF_TYPE, lastModified: this.lastModified };
    }
    return this.v2ProtoDoc;
  }

  /** The names listed by /openapi/v3 ("api", "api/v1", "apis", "apis/apps", ...). */
  v3Names(): string[] {
    return openAPIV3DocumentNames(this.served);
  }

  /** GET /openapi/v3/<name>; undefined for a name nothing is served under. */
  v3Document(name: string): OpenAPIDocument | undefined {
    const hit = this.v3Docs.get(name);
    if (hit !== undefined) return hit;
    const doc = buildOpenAPIV3GroupVersion(this.served, name, this.opts);
    if (doc === undefined) return undefined;
    const d = documentOf(doc, this.lastModified);
    this.v3Docs.set(name, d);
    return d;
  }

  /** GET /openapi/v3. */
  v3Index(): OpenAPIDocument {
    if (this.indexDoc === undefined) {
      const hashes = new Map<string, string>();
      for (const name of this.v3Names()) {
        const d = this.v3Document(name);
        if (d !== undefined) hashes.set(name, d.etag);
      }
      this.indexDoc = documentOf(buildOpenAPIV3Index(hashes), this.lastModified);
    }
    return this.indexDoc;
  }

  /**
   * Answers /openapi/v2, /openapi/v3 and /openapi/v3/<name>; undefined for other paths.
   * 404 for an unknown document, 406 when the client accepts none of the document's forms
   * (/openapi/v2 also comes as protobuf; the v3 documents only as JSON), 304 when If-None-Match
   * carries the current ETag.
   */
  handle(req: OpenAPIRequest): OpenAPIResponse | undefined {
    const path = req.path.replace(/\/+$/, '');
    let doc: OpenAPIDocument | undefined;
    const headers: Record<string, string> = {};
    if (path === '/openapi/v2') {
      headers['Vary'] = 'Accept';
      const format = v2Format(req.accept);
      if (format === undefined) return { status: 406, headers, body: Buffer.alloc(0) };
      doc = format === 'protobuf' ? this.v2Protobuf() : this.v2();
    } else if (path === '/openapi/v3') {
      doc = this.v3Index();
    } else if (path.startsWith('/openapi/v3/')) {
      const name = path.slice('/openapi/v3/'.length);
      headers['Vary'] = 'Accept';
      doc = this.v3Document(name);
      if (doc === undefined) return { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: Buffer.from('404 page not found\n') };
      const hash = req.query.get('hash');
      if (hash !== null && hash !== '') {
        if (hash !== doc.etag) {
          return { status: 301, headers: { Location: `/openapi/v3/${name}?hash=${doc.etag}` }, body: Buffer.alloc(0) };
        }
        headers['Cache-Control'] = 'public, immutable';
        headers['Expires'] = new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString();
      }
    } else {
      return undefined;
    }
    if (path.startsWith('/openapi/v3/') && !acceptsJSON(req.accept)) return { status: 406, headers, body: Buffer.alloc(0) };
    headers['Content-Type'] = doc.contentType;
    headers['Etag'] = `"${doc.etag}"`;
    headers['Last-Modified'] = doc.lastModified.toUTCString();
    if (req.ifNoneMatch !== undefined && req.ifNoneMatch.split(',').some((t) => t.trim() === `"${doc.etag}"` || t.trim() === '*')) {
      return { status: 304, headers, body: Buffer.alloc(0) };
    }
    return { status: 200, headers, body: req.method === 'HEAD' ? Buffer.alloc(0) : doc.body };
  }
}
