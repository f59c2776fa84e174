// Socket-free HTTP for tests (fastify's inject, light-my-request): a real IncomingMessage and
// ServerResponse on a socket that connects to nothing. What the handler writes is captured as the
// bytes it would have sent (status line, headers, chunked body) and parsed back, so a test sees
// exactly what a client would, without a port, TLS or a connection pool.
// No Go counterpart: test harness.
import { IncomingMessage, ServerResponse, type IncomingHttpHeaders } from 'node:http';
import { Socket } from 'node:net';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface InjectRequest {
  readonly method: string;
  /** Path and query, e.g. /api/v1/namespaces/default/configmaps?limit=1 */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A string or bytes as sent; an object is sent as JSON (Content-Type application/json unless set). */
  readonly body?: string | Buffer | object;
}

export interface InjectResponse {
  readonly statusCode: number;
  /** Lower-case names; a repeated header is a list. */
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: Buffer;
  readonly text: string;
  /** The body as JSON; throws when it is not JSON. */
  json(): unknown;
}

/** Takes every byte written and sends nothing anywhere; never reads (the request body is pushed). */
class CaptureSocket extends Socket {
  readonly written: Buffer[] = [];
  // An unconnected net.Socket would end its readable side, and so its writable side with it.
  override _read(): void {}
  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.written.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    callback();
  }
  override _writev(chunks: { chunk: Buffer | string; encoding: BufferEncoding }[], callback: (err?: Error | null) => void): void {
    for (const c of chunks) this.written.push(typeof c.chunk === 'string' ? Buffer.from(c.chunk, c.encoding) : c.chunk);
    callback();
  }
}

/** Decodes a chunked transfer-encoded body (RFC 9112 7.1), trailers ignored. */
export function decodeChunked(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) throw new Error('chunked body: no chunk size line');
    const size = Number.parseInt(data.subarray(at, eol).toString('latin1').split(';')[0] ?? '', 16);
    if (!Number.isInteger(size) || size < 0) throw new Error('chunked body: bad chunk size');
    if (size === 0) return Buffer.concat(out);
    out.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** Parses the bytes of one HTTP/1.1 response. */
export function parseResponse(raw: Buffer): InjectResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error('response: no end of headers');
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const statusCode = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 'NaN');
  const headers: Record<string, string | string[]> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const prev = headers[name];
    headers[name] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  }
  const rest = raw.subarray(end + 4);
  const body = headers['transfer-encoding'] === 'chunked' ? decodeChunked(rest) : rest;
  const text = body.toString('utf8');
  return { statusCode, headers, body, text, json: () => JSON.parse(text) as unknown };
}

/** Sends `request` to `handler` with no socket and resolves the response once the handler ended it. */
export function inject(handler: NodeHandler, request: InjectRequest): Promise<InjectResponse> {
  const socket = new CaptureSocket();
  const req = new IncomingMessage(socket);
  req.method = request.method;
  req.url = request.url;
  req.httpVersion = '1.1';
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  const body = request.body === undefined ? undefined
    : typeof request.body === 'string' || Buffer.isBuffer(request.body) ? Buffer.from(request.body) : Buffer.from(JSON.stringify(request.body));
  const headers: IncomingHttpHeaders = { host: 'inject.local' };
  if (body !== undefined) {
    headers['content-length'] = String(body.length);
    if (typeof request.body === 'object' && !Buffer.isBuffer(request.body)) headers['content-type'] = 'application/json';
  }
  for (const [k, v] of Object.entries(request.headers ?? {})) headers[k.toLowerCase()] = v;
  req.headers = headers;
  req.rawHeaders = Object.entries(headers).flatMap(([k, v]) => [k, String(v)]);
  if (body !== undefined && body.length > 0) req.push(body);
  // The whole message is here: an incomplete one is destroyed as aborted, socket and all.
  req.complete = true;
  req.push(null);

  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket);
  return new Promise((resolve, reject) => {
    res.on('finish', () => {
      try { resolve(parseResponse(Buffer.concat(socket.written))); } catch (err) { reject(err instanceof Error ? err : new Error(String(err))); }
    });
    Promise.resolve().then(() => handler(req, res)).catch(reject);
  });
}
