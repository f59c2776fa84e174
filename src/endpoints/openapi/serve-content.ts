// The parts of Go's http.ServeContent and of gziphandler that kube's OpenAPI handlers answer
// with: conditional requests (If-None-Match, then If-Modified-Since) answered 304 with the
// headers Go keeps, and gzip for clients that accept it (kube-openapi wraps /openapi/v2 in
// gziphandler; the v3 documents are not compressed).

/** Go's time.RFC1123 in UTC ("Thu, 25 Nov 2027 01:53:57 UTC"), as kube writes Expires. */
export function rfc1123UTC(d: Date): string {
  return d.toUTCString().replace(/GMT$/, 'UTC');
}

/** The weak comparison of Go's checkIfNoneMatch: any listed tag (W/ ignored) or "*". */
function etagMatches(ifNoneMatch: string | undefined, quotedETag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  for (const raw of ifNoneMatch.split(',')) {
    const t = raw.trim();
    if (t === '*') return true;
    if (t.replace(/^W\//, '') === quotedETag) return true;
  }
  return false;
}

/** Go's checkIfModifiedSince: not modified when Last-Modified (whole seconds) is not after the date. */
function notModifiedSince(ifModifiedSince: string | undefined, lastModified: Date): boolean {
  if (ifModifiedSince === undefined || ifModifiedSince === '') return false;
  const since = Date.parse(ifModifiedSince);
  if (Number.isNaN(since)) return false;
  return Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

export interface ConditionalRequest {
  readonly method: string;
  readonly ifNoneMatch?: string | undefined;
  readonly ifModifiedSince?: string | undefined;
}

/**
 * Whether ServeContent answers 304: If-None-Match decides when present (GET and HEAD only),
 * else If-Modified-Since.
 */
export function isNotModified(req: ConditionalRequest, quotedETag: string | undefined, lastModified: Date): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (req.ifNoneMatch !== undefined) return quotedETag !== undefined && etagMatches(req.ifNoneMatch, quotedETag);
  return notModifiedSince(req.ifModifiedSince, lastModified);
}

/** The headers a 304 keeps: Go drops Content-Type, Content-Length, Content-Encoding, and Last-Modified when there is an ETag. */
export function notModifiedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (k === 'Content-Type' || k === 'Content-Length' || k === 'Content-Encoding' || k === 'Accept-Ranges') continue;
    if (k === 'Last-Modified' && headers['Etag'] !== undefined) continue;
    out[k] = v;
  }
  return out;
}

/** gziphandler's DefaultMinSize: smaller bodies go out uncompressed. */
export const GZIP_MIN_SIZE = 1400;

/** gziphandler's acceptsGzip: an Accept-Encoding that lists gzip with a non-zero q. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (acceptEncoding === undefined) return false;
  for (const part of acceptEncoding.split(',')) {
    const [coding = '', ...params] = part.trim().split(';');
    if (coding.trim().toLowerCase() !== 'gzip') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}
