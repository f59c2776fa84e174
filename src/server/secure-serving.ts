// The secure listener as kube's Go server runs it: HTTP/2 and HTTP/1.1 over TLS, chosen by ALPN
// (h2 first, http/1.1 for clients that ask for it or send no ALPN, as upgrades do), HTTP/1.1 only
// with --disable-http2-serving, and the connection bookkeeping graceful shutdown needs.
// Counterpart of k8s.io/apiserver/pkg/server/secure_serving.go.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import {
  createSecureServer, Http2ServerRequest, Http2ServerResponse, type Http2SecureServer, type IncomingHttpHeaders,
  type Http2Session, type SecureServerOptions, type ServerHttp2Stream,
} from 'node:http2';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex, ReadableOptions } from 'node:stream';
import type { SecureVersion, TLSSocket } from 'node:tls';

export interface SecureServingOptions {
  readonly port: number;
  readonly host: string;
  readonly cert: string;
  readonly key: string;
  readonly minVersion?: SecureVersion;
  /** An OpenSSL cipher string. */
  readonly ciphers?: string;
  /** The client CAs (--client-ca-file, --requestheader-client-ca-file): certificates are then requested, not required. */
  readonly clientCAs?: readonly string[];
  /** --disable-http2-serving: ALPN offers http/1.1 only. */
  readonly disableHTTP2?: boolean;
  /** --http2-max-streams-per-connection; 0 (the default): kube's 100. */
  readonly http2MaxStreamsPerConnection?: number;
}

/**
 * kube-apiserver's http.Server has MaxHeaderBytes 1 MiB, and Go reads up to 4096 bytes beyond it
 * (request line and headers) before it answers 431.
 */
export const MAX_HEADER_BYTES = 1024 * 1024 + 4096;

/** kube's concurrent streams per HTTP/2 connection when the flag is 0 (what Go's clients assume). */
export const DEFAULT_HTTP2_MAX_STREAMS = 100;

/** kube's per-stream receive buffer and largest frame read: 256 KiB (most bodies fit one frame). */
const RESOURCE_BODY_99_PERCENTILE = 256 * 1024;

/** Go's http.Server IdleTimeout in kube: a connection without requests for 90 s is closed (both protocols). */
const IDLE_TIMEOUT_MS = 90_000;

/** Headers HTTP/2 forbids (RFC 9113 8.2.2): Go drops them from h2 answers, and so does kapi. */
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/**
 * Headers Node's HTTP/2 refuses more than one value of (its list; Go would send each): the proxy
 * relays, which add a backend's values to kapi's own, keep the last one.
 */
const SINGLE_VALUE = new Set([
  'access-control-allow-credentials', 'access-control-max-age', 'access-control-request-method', 'age', 'authorization',
  'content-encoding', 'content-language', 'content-length', 'content-location', 'content-md5', 'content-range', 'content-type',
  'date', 'dnt', 'etag', 'expires', 'from', 'host', 'if-match', 'if-modified-since', 'if-none-match', 'if-range',
  'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'range', 'referer', 'retry-after',
  'tk', 'upgrade-insecure-requests', 'user-agent', 'x-content-type-options',
]);

function singleValue<T extends number | string | readonly string[]>(name: string, value: T): T | string {
  if (!Array.isArray(value) || !SINGLE_VALUE.has(name.toLowerCase())) return value;
  const values = value as readonly string[];
  return values[values.length - 1] ?? '';
}

/**
 * An HTTP/2 request as the handlers read an HTTP/1.1 one: `host` from `:authority` (Go's
 * r.Host) and `headersDistinct` (every value of a header, as Go's Header map) without the
 * pseudo-headers.
 */
class KubeHttp2Request extends Http2ServerRequest {
  private distinct: Record<string, string[]> | undefined;

  constructor(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, options: ReadableOptions, rawHeaders: readonly string[]) {
    super(stream, headers, options, rawHeaders);
    const authority = headers[':authority'];
    if (headers.host === undefined && typeof authority === 'string') headers.host = authority;
  }

  get headersDistinct(): Record<string, string[]> {
    if (this.distinct !== undefined) return this.distinct;
    const out: Record<string, string[]> = {};
    const raw = this.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const k = (raw[i] ?? '').toLowerCase();
      if (k.startsWith(':')) continue;
      (out[k] ??= []).push(raw[i + 1] ?? '');
    }
    if (out['host'] === undefined && typeof this.headers.host === 'string') out['host'] = [this.headers.host];
    this.distinct = out;
    return out;
  }
}

/**
 * An HTTP/2 answer that takes the handlers' HTTP/1.1 headers as Go's HTTP/2 server does:
 * connection-specific headers are dropped, and `Connection: close` (the GOAWAY filter's, the
 * shutdown 429's) sends GOAWAY once the headers go: the session takes no new streams, the ones
 * under way (this one included) finish, then it closes.
 */
class KubeHttp2Response<Request extends Http2ServerRequest = Http2ServerRequest> extends Http2ServerResponse<Request> {
  private goAway = false;

  override setHeader(name: string, value: number | string | readonly string[]): void {
    if (!this.connectionSpecific(name, value)) super.setHeader(name, singleValue(name, value));
  }

  override appendHeader(name: string, value: string | string[]): void {
    if (this.connectionSpecific(name, value)) return;
    if (SINGLE_VALUE.has(name.toLowerCase()) && this.hasHeader(name)) this.setHeader(name, value);
    else super.appendHeader(name, value);
  }

  override writeHead(statusCode: number, a?: string | OutgoingHttpHeaders, b?: OutgoingHttpHeaders): this {
    const headers = typeof a === 'string' ? b : a;
    let kept: OutgoingHttpHeaders | undefined;
    if (headers !== undefined) {
      kept = {};
      for (const [k, v] of Object.entries(headers)) if (v === undefined || !this.connectionSpecific(k, v)) kept[k] = v === undefined ? v : singleValue(k, v);
    }
    if (typeof a === 'string') super.writeHead(statusCode, a, kept); else super.writeHead(statusCode, kept);
    if (this.goAway) this.stream.session?.close();
    return this;
  }

  private connectionSpecific(name: string, value: number | string | readonly string[]): boolean {
    const k = name.toLowerCase();
    if (!CONNECTION_SPECIFIC.has(k)) return false;
    if (k === 'connection' && String(value).toLowerCase() === 'close') this.goAway = true;
    return true;
  }
}

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
export type UpgradeListener = (req: IncomingMessage, socket: Socket, head: Buffer) => void;

/** The listener and its connections: HTTP/1.1 sockets (Node tracks their requests) and HTTP/2 sessions. */
export class SecureServer {
  private readonly sockets = new Set<Socket>();
  /** HTTP/2 sessions and their open streams. */
  private readonly sessions = new Map<Http2Session, number>();
  private closed: Promise<void> | undefined;

  private constructor(private readonly server: Http2SecureServer | HttpsServer) {}

  /**
   * Starts listening; resolves once bound. `onRequest` gets HTTP/2 requests typed as HTTP/1.1
   * ones: the compatibility objects are adapted above to what the handlers read (headers,
   * headersDistinct, socket, writeHead, flushHeaders, setHeader, the close and drain events).
   */
  static async listen(opts: SecureServingOptions, onRequest: RequestListener, onUpgrade: UpgradeListener,
    onClientError: (err: Error & { code?: string }, socket: Duplex) => void): Promise<{ server: SecureServer; address: AddressInfo }> {
    const tls = {
      cert: opts.cert, key: opts.key,
      ...(opts.minVersion !== undefined ? { minVersion: opts.minVersion } : {}), ...(opts.ciphers !== undefined ? { ciphers: opts.ciphers } : {}),
      // As Go's RequestClientCert: the CAs' names go in the request, so clients pick a matching
      // certificate; the authenticators verify it, never the handshake.
      ...(opts.clientCAs !== undefined && opts.clientCAs.length > 0 ? { requestCert: true, rejectUnauthorized: false, ca: [...opts.clientCAs] } : {}),
    };
    let server: Http2SecureServer | HttpsServer;
    let connectionWindow = 0;
    if (opts.disableHTTP2 === true) {
      server = createHttpsServer({ ...tls, keepAlive: true, maxHeaderSize: MAX_HEADER_BYTES, ALPNProtocols: ['http/1.1'] }, onRequest);
    } else {
      const streams = (opts.http2MaxStreamsPerConnection ?? 0) > 0 ? opts.http2MaxStreamsPerConnection ?? 0 : DEFAULT_HTTP2_MAX_STREAMS;
      const h2: SecureServerOptions = {
        ...tls, allowHTTP1: true, maxSessionMemory: 64,
        Http2ServerRequest: KubeHttp2Request, Http2ServerResponse: KubeHttp2Response,
        settings: {
          maxConcurrentStreams: streams, initialWindowSize: RESOURCE_BODY_99_PERCENTILE, maxFrameSize: RESOURCE_BODY_99_PERCENTILE,
          maxHeaderListSize: MAX_HEADER_BYTES,
        },
      };
      connectionWindow = RESOURCE_BODY_99_PERCENTILE * streams;
      // The compatibility objects are used through the HTTP/1.1 types: see the classes above.
      server = createSecureServer(h2, onRequest as unknown as (req: Http2ServerRequest, res: Http2ServerResponse) => void);
      // allowHTTP1 hands HTTP/1.1 connections to Node's HTTP/1 server code, which reads these
      // from the server object (the constructor's options do not reach it).
      Object.assign(server, { maxHeaderSize: MAX_HEADER_BYTES });
    }
    const s = new SecureServer(server);
    Object.assign(server, { keepAliveTimeout: 65_000, maxHeadersCount: 0 });
    server.on('clientError', onClientError);
    server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      // A hijacked connection: Go's Shutdown neither waits for it nor closes it.
      s.sockets.delete(socket);
      onUpgrade(req, socket, head);
    });
    server.on('secureConnection', (socket: TLSSocket) => {
      if (socket.alpnProtocol === 'h2') return;
      s.sockets.add(socket);
      socket.once('close', () => s.sockets.delete(socket));
    });
    server.on('session', (session: Http2Session) => {
      s.sessions.set(session, 0);
      // kube sizes the connection's receive window for every stream's 256 KiB.
      session.once('remoteSettings', () => { if (!session.destroyed) session.setLocalWindowSize(connectionWindow); });
      // Go's IdleTimeout: only a session without streams is idle (a quiet watch is not).
      session.setTimeout(IDLE_TIMEOUT_MS, () => { if (s.sessions.get(session) === 0) session.close(); });
      session.once('close', () => s.sessions.delete(session));
      session.on('error', () => session.destroy());
    });
    server.on('stream', (stream: ServerHttp2Stream) => {
      const session = stream.session;
      if (session === undefined) return;
      s.sessions.set(session, (s.sessions.get(session) ?? 0) + 1);
      stream.once('close', () => { if (s.sessions.has(session)) s.sessions.set(session, (s.sessions.get(session) ?? 1) - 1); });
    });
    const address = await new Promise<AddressInfo>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => {
        server.off('error', reject);
        resolve(server.address() as AddressInfo);
      });
    });
    return { server: s, address };
  }

  /** HTTP/2 sessions open now. */
  get http2Sessions(): number { return this.sessions.size; }

  /**
   * Stops listening and sends GOAWAY to every HTTP/2 session (Go's Shutdown): streams under way
   * finish, new ones go to a new connection. Resolves once the listener is closed.
   */
  stopListening(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.goAway();
    });
    return this.closed;
  }

  /** Graceful GOAWAY on every HTTP/2 session. */
  goAway(): void {
    for (const session of this.sessions.keys()) if (!session.closed) session.close();
  }

  /** Closes HTTP/1.1 connections between requests, and HTTP/2 sessions without streams. */
  closeIdleConnections(): void {
    // Node's HTTP/2 server has it at run time for its HTTP/1.1 connections (allowHTTP1), untyped.
    (this.server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
    for (const [session, streams] of this.sessions) if (streams === 0) session.close();
  }

  /** Closes every connection left, HTTP/2 sessions included (not upgraded ones). */
  closeAllConnections(): void {
    for (const session of this.sessions.keys()) session.destroy();
    for (const socket of this.sockets) socket.destroy();
  }
}
