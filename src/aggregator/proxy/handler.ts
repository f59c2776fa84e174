// The proxy of a non-local APIService: a request for its group version goes, already
// authenticated and authorized by kapi, to a ready endpoint of the APIService's service with the
// caller named in the front-proxy headers. Answers stream back as they come (watches, logs), and
// upgrade requests (exec, attach, port-forward, WebSocket watches) are passed through byte for
// byte once the backend switches protocols. kube's plain-text errors: 503 `service unavailable`
// while the APIService is not Available or has no endpoint, 500 with transport.New's error, 503
// with the transport's error when the backend cannot be reached.
// Counterpart of proxyHandler.ServeHTTP (kube-aggregator/pkg/apiserver/handler_proxy.go),
// NewRequestForProxy (apiserver/pkg/util/proxy) and UpgradeAwareHandler
// (apimachinery/pkg/util/proxy/upgradeaware.go).
// Go counterpart: k8s.io/kube-aggregator/pkg/apiserver (handler_proxy.go).
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestState } from '../../endpoints/request/state.ts';
import { goNetErrorText } from '../../webhook/net-errors.ts';
import { BackendClients, setAuthProxyHeaders, TransportBuildError, type Backend, type BackendSpec } from './backend.ts';

/** What the proxy knows of one APIService (proxyHandlingInfo). */
export interface ProxyHandlingInfo {
  readonly name: string;
  readonly spec: BackendSpec;
  /** Its Available condition is True. */
  readonly available: boolean;
}

/** Discovery requests (`/apis/<group>/<version>`) get a short deadline (aggregatedDiscoveryTimeout). */
const DISCOVERY_TIMEOUT_MS = 5000;

/** CORS headers of the backend's answer, which kube drops (corsRemovingTransport). */
const CORS = new Set(['access-control-allow-credentials', 'access-control-allow-headers', 'access-control-allow-methods', 'access-control-allow-origin']);

/** The answer to a backend's redirect (--aggregator-reject-forwarding-redirect, on by default). */
export const REDIRECT_REJECTED = 'the backend attempted to redirect this request, which is not permitted';

/** Hop-by-hop headers, which a proxy never forwards (Go's ReverseProxy list). */
const HOP_BY_HOP = new Set(['connection', 'proxy-connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** http.Error: text/plain, nosniff, the message and a newline. */
export function proxyError(res: ServerResponse, code: number, message: string): void {
  if (res.headersSent) { res.destroy(); return; }
  const body = `${message}\n`;
  res.writeHead(code, {
    'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** The 502 of a rejected redirect: Go's server sniffs the body's type. */
function writeBadGateway(res: ServerResponse): void {
  res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(REDIRECT_REJECTED) });
  res.end(REDIRECT_REJECTED);
}

/** url.QueryEscape. */
function queryEscape(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replaceAll('%20', '+');
}

/** req.URL.Query().Encode(): Go's parse (pairs with ';' or bad escapes dropped), keys sorted, re-escaped. */
export function goQueryEncode(rawQuery: string): string {
  const values = new Map<string, string[]>();
  for (const pair of rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    try {
      const k = decodeURIComponent((eq === -1 ? pair : pair.slice(0, eq)).replaceAll('+', ' '));
      const v = eq === -1 ? '' : decodeURIComponent(pair.slice(eq + 1).replaceAll('+', ' '));
      const list = values.get(k) ?? [];
      list.push(v);
      values.set(k, list);
    } catch {
      continue;
    }
  }
  return [...values.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap((k) => (values.get(k) ?? []).map((v) => `${queryEscape(k)}=${queryEscape(v)}`)).join('&');
}

/** httpstream.IsUpgradeRequest: a Connection header naming "upgrade". */
export function isUpgradeRequest(req: IncomingMessage): boolean {
  return (req.headers.connection ?? '').split(',').some((t) => t.trim().toLowerCase() === 'upgrade');
}

/** The headers sent to the backend: the caller's, less hop-by-hop ones, plus who the caller is. */
function outgoingHeaders(req: IncomingMessage, res: ServerResponse, state: RequestState, backend: Backend, path: string, upgrade: boolean): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const named = new Set((req.headers.connection ?? '').split(',').map((t) => t.trim().toLowerCase()));
  for (const [k, v] of Object.entries(req.headers)) {
    // HTTP/2 pseudo-headers (:method, :path, ...) are the request line, not headers.
    if (v === undefined || k === 'host' || k.startsWith(':')) continue;
    if (!upgrade && (HOP_BY_HOP.has(k) || named.has(k))) continue;
    out[k] = v;
  }
  const auditID = res.getHeader('Audit-Id');
  if (typeof auditID === 'string') out['audit-id'] = auditID;
  const prior = req.headers['x-forwarded-for'];
  const ip = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  out['x-forwarded-for'] = prior === undefined || prior === '' ? ip : `${prior}, ${ip}`;
  if (!upgrade) {
    if (req.headers.te === 'trailers') out['te'] = 'trailers';
    // The proxy transport's X-Forwarded-* (the backend's own address, as kube sends it).
    out['x-forwarded-uri'] = path.split('?')[0] ?? '/';
    out['x-forwarded-host'] = backend.url.host;
    out['x-forwarded-proto'] = 'https';
  }
  if (state.user !== undefined) setAuthProxyHeaders(out, state.user);
  return out;
}

/** The status line and headers of a backend's answer to an upgrade request, as raw HTTP/1.1. */
function rawHead(res: IncomingMessage): string {
  let head = `HTTP/1.1 ${String(res.statusCode ?? 0)} ${res.statusMessage ?? ''}\r\n`;
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) head += `${res.rawHeaders[i] ?? ''}: ${res.rawHeaders[i + 1] ?? ''}\r\n`;
  return `${head}\r\n`;
}

/** Copies the backend's answer to the client, streaming, without hop-by-hop headers. */
function relay(upstream: IncomingMessage, res: ServerResponse): void {
  const named = new Set((upstream.headers.connection ?? '').split(',').map((t) => t.trim().toLowerCase()));
  for (let i = 0; i + 1 < upstream.rawHeaders.length; i += 2) {
    const k = upstream.rawHeaders[i] ?? '';
    const l = k.toLowerCase();
    if (HOP_BY_HOP.has(l) || named.has(l) || CORS.has(l) || l === 'audit-id') continue;
    const prev = res.getHeader(k);
    const v = upstream.rawHeaders[i + 1] ?? '';
    res.setHeader(k, prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [String(prev), v]);
  }
  res.writeHead(upstream.statusCode ?? 502);
  // Flushed as it comes: chunked answers (watches) reach the client event by event.
  res.flushHeaders();
  upstream.pipe(res);
  upstream.on('error', () => res.destroy());
}

/** Wires a 101 from the backend to the client's socket, both ways. */
function splice(upstream: IncomingMessage, backendSocket: Socket, head: Buffer, client: Socket): void {
  client.write(rawHead(upstream));
  if (head.length > 0) client.write(head);
  backendSocket.pipe(client);
  client.pipe(backendSocket);
  const end = (): void => { backendSocket.destroy(); client.destroy(); };
  backendSocket.on('error', end);
  client.on('error', end);
  backendSocket.on('close', end);
  client.on('close', end);
}

/**
 * Proxies one request for a non-local APIService; resolves when the answer is written (or, for
 * an upgrade, handed over to the sockets).
 */
export async function proxyRequest(
  clients: BackendClients, info: ProxyHandlingInfo, req: IncomingMessage, res: ServerResponse, state: RequestState,
  openWatches: Set<() => void> = new Set(),
): Promise<void> {
  if (!info.available) { proxyError(res, 503, 'service unavailable'); return; }
  try {
    clients.agentFor(info.spec);
  } catch (err) {
    if (err instanceof TransportBuildError) { proxyError(res, 500, err.message); return; }
    throw err;
  }
  if (state.user === undefined) { proxyError(res, 500, 'missing user'); return; }
  let backend: Backend;
  try {
    backend = await clients.backend(info.spec);
  } catch (err) {
    console.error(`error resolving ${info.spec.service?.namespace ?? ''}/${info.spec.service?.name ?? ''}: ${err instanceof Error ? err.message : String(err)}`);
    proxyError(res, 503, 'service unavailable');
    return;
  }
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  const query = q === -1 ? '' : goQueryEncode(raw.slice(q + 1));
  const path = `${q === -1 ? raw : raw.slice(0, q)}${query === '' ? '' : `?${query}`}`;
  const upgrade = isUpgradeRequest(req);
  const upstream = clients.request(backend, req.method ?? 'GET', path, outgoingHeaders(req, res, state, backend, path, upgrade));
  const info3 = state.info;
  const discovery = info3 !== undefined && !info3.isResourceRequest && info3.path.replace(/^\/+|\/+$/g, '').split('/').length === 3;

  await new Promise<void>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    // At shutdown a proxied stream ends as a served watch does: the answer so far, then the end.
    const end = (): void => { upstream.destroy(); if (res.headersSent && !res.writableEnded) res.end(); else if (!res.headersSent) res.destroy(); };
    openWatches.add(end);
    const finish = (): void => { clearTimeout(timer); openWatches.delete(end); resolve(); };
    const fail = (message: string, code = 503): void => {
      upstream.destroy();
      proxyError(res, code, message);
      finish();
    };
    // The transport's errors read `error trying to reach service: ...`; an upgrade dials
    // directly and reports the bare error.
    const reach = upgrade ? '' : 'error trying to reach service: ';
    if (discovery) timer = setTimeout(() => fail(`${reach}context deadline exceeded`), DISCOVERY_TIMEOUT_MS);
    upstream.on('error', (e) => fail(`${reach}${goNetErrorText(e, backend.serverName)}`));
    upstream.on('upgrade', (ures: IncomingMessage, socket: Socket, head: Buffer) => {
      clearTimeout(timer);
      splice(ures, socket, head, req.socket);
      finish();
    });
    upstream.on('response', (ures: IncomingMessage) => {
      clearTimeout(timer);
      const code = ures.statusCode ?? 0;
      if (upgrade && code < 400) {
        ures.resume();
        fail(`invalid upgrade response: status code ${String(code)}`);
        return;
      }
      if (!upgrade && code >= 300 && code <= 399 && (ures.headers.location ?? '') !== '') {
        ures.resume();
        writeBadGateway(res);
        finish();
        return;
      }
      relay(ures, res);
      ures.on('end', finish);
      ures.on('close', finish);
    });
    // The client went away: so does the backend call (a watch ends).
    res.on('close', () => { if (!res.writableFinished) upstream.destroy(); finish(); });
    state.abort.signal.addEventListener('abort', () => upstream.destroy(), { once: true });
    if (upgrade) upstream.end();
    else req.pipe(upstream);
  });
}
