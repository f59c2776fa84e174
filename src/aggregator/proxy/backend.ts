// SHARED API of the aggregator (h-aggdisc's discovery and OpenAPI merging build on it; keep these
// exports stable): how kapi reaches the backend of a non-local APIService. An APIService's
// spec.service resolves to a ready EndpointSlice endpoint (kapi has no service proxy, so endpoint
// routing, kube's --enable-aggregator-routing, is the only routing), dialled over TLS verified
// with spec.caBundle (or not at all with insecureSkipTLSVerify) against the name
// `<service>.<namespace>.svc`, presenting --proxy-client-cert-file/--proxy-client-key-file, with
// the caller named in the front-proxy headers (X-Remote-User, -Uid, -Group, -Extra-*).
//
//   const clients = new BackendClients(resolver, () => proxyCert);
//   const r = await clients.get(apiService.spec, '/apis/g/v', { user, accept: 'application/json', timeoutMs: 5000 });
//
// Errors: TransportBuildError (a caBundle that holds no certificate), the resolver's errors (a
// StatusError ServiceUnavailable `no endpoints available for service "x"`, NotFound, ...), and
// BackendRequestError for a failed call, worded as Go's transport words it.
// Counterpart of BuildTransportConfig (kube-aggregator/pkg/controllers/status/remote),
// proxyHandler.updateAPIService (kube-aggregator/pkg/apiserver/handler_proxy.go) and
// SetAuthProxyHeaders (client-go/transport/round_trippers.go).
import { X509Certificate } from 'node:crypto';
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import * as https from 'node:https';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import { goNetErrorText, joinHostPort } from '../../webhook/net-errors.ts';
import type { ServiceResolver } from '../../webhook/service-resolver.ts';

/** The PEM pair of --proxy-client-cert-file / --proxy-client-key-file. */
export interface ProxyClientCert {
  readonly cert: string;
  readonly key: string;
}

/** The fields of an APIService's spec that say where and how its backend is reached. */
export interface BackendSpec {
  readonly service?: { readonly namespace?: string; readonly name?: string; readonly port?: number } | null;
  /** base64 of PEM, as on the wire. */
  readonly caBundle?: string;
  readonly insecureSkipTLSVerify?: boolean;
}

/** A backend to send requests to. */
export interface Backend {
  /** `https://<endpoint address>:<endpoint port>` (no path). */
  readonly url: URL;
  /** `<service>.<namespace>.svc`: the name the serving certificate must hold (and the SNI). */
  readonly serverName: string;
  readonly agent: https.Agent;
}

/** transport.New failed (kube answers a proxied request with 500 and this message). */
export class TransportBuildError extends Error {
  override readonly name = 'TransportBuildError';
}

/** A call to a backend failed before an answer; `message` is Go's transport error text. */
export class BackendRequestError extends Error {
  override readonly name = 'BackendRequestError';
  constructor(message: string, readonly timedOut = false) { super(message); }
}

/** The header names kube's proxy always sends, whatever --requestheader-* this server reads. */
export const AUTH_PROXY_HEADERS = { user: 'X-Remote-User', uid: 'X-Remote-Uid', group: 'X-Remote-Group', extraPrefix: 'X-Remote-Extra-' } as const;

/** net/http's token characters: what may stand in a header name unescaped (headerKeyEscape). */
const TOKEN = /^[!#$&'*+\-.^_`|~0-9A-Za-z]$/;

/** headerKeyEscape: every byte that is no token character, and '%', as %XX. */
export function headerKeyEscape(key: string): string {
  let out = '';
  for (const b of Buffer.from(key, 'utf8')) {
    const ch = String.fromCharCode(b);
    out += b < 0x80 && ch !== '%' && TOKEN.test(ch) ? ch : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * SetAuthProxyHeaders: drops any X-Remote-* the caller sent, then names `user`. Mutates and
 * returns `headers` (lower-case keys, as Node sends them).
 */
export function setAuthProxyHeaders(headers: OutgoingHttpHeaders, user: UserInfo): OutgoingHttpHeaders {
  for (const k of Object.keys(headers)) {
    const l = k.toLowerCase();
    if (l === 'x-remote-user' || l === 'x-remote-uid' || l === 'x-remote-group' || l.startsWith('x-remote-extra-')) delete headers[k];
  }
  headers['x-remote-user'] = user.name;
  if ((user.uid ?? '') !== '') headers['x-remote-uid'] = user.uid;
  if (user.groups.length > 0) headers['x-remote-group'] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    if (values.length > 0) headers[`x-remote-extra-${headerKeyEscape(key)}`.toLowerCase()] = [...values];
  }
  return headers;
}

/** The PEM of a caBundle; undefined when empty (system roots); TransportBuildError when it holds no certificate. */
function caFromBundle(bundle: string | undefined): string | undefined {
  if (bundle === undefined || bundle === '') return undefined;
  const pem = Buffer.from(bundle, 'base64').toString('utf8');
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  const good = blocks.filter((b) => { try { new X509Certificate(b); return true; } catch { return false; } });
  if (good.length === 0) throw new TransportBuildError('unable to load root certificates: unable to parse bytes as PEM block');
  return good.join('\n');
}

export interface BackendCallOptions {
  /** Who the call is for (front-proxy headers); absent: no X-Remote-* headers. */
  readonly user?: UserInfo;
  readonly accept?: string;
  /** The whole call's deadline; default none. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface BackendResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

const AGENT_CACHE_SIZE = 200;

/**
 * Builds (and caches, by TLS settings) the HTTPS agents of APIService backends and resolves
 * their services. One instance per server; safe for concurrent calls.
 */
export class BackendClients {
  readonly #resolver: ServiceResolver;
  readonly #proxyCert: () => ProxyClientCert | undefined;
  readonly #agents = new Map<string, https.Agent>();

  constructor(resolver: ServiceResolver, proxyCert: () => ProxyClientCert | undefined = () => undefined) {
    this.#resolver = resolver;
    this.#proxyCert = proxyCert;
  }

  /** The name the backend's certificate must hold: `<service>.<namespace>.svc`. */
  static serverName(spec: BackendSpec): string {
    return `${spec.service?.name ?? ''}.${spec.service?.namespace ?? ''}.svc`;
  }

  /** The agent of `spec`'s TLS settings. Throws TransportBuildError for a caBundle without a certificate. */
  agentFor(spec: BackendSpec): https.Agent {
    const insecure = spec.insecureSkipTLSVerify === true;
    const ca = insecure ? undefined : caFromBundle(spec.caBundle);
    const cert = this.#proxyCert();
    const key = JSON.stringify([BackendClients.serverName(spec), insecure, ca ?? '', cert?.cert ?? '', cert?.key ?? '']);
    const hit = this.#agents.get(key);
    if (hit !== undefined) return hit;
    const agent = new https.Agent({
      keepAlive: true, rejectUnauthorized: !insecure,
      ...(ca !== undefined ? { ca } : {}), ...(cert !== undefined ? { cert: cert.cert, key: cert.key } : {}),
    });
    this.#agents.set(key, agent);
    if (this.#agents.size > AGENT_CACHE_SIZE) {
      const oldest = this.#agents.keys().next().value;
      // Not destroyed: calls may be in flight; idle sockets time out on their own.
      if (oldest !== undefined) this.#agents.delete(oldest);
    }
    return agent;
  }

  /**
   * Where a call for `spec` goes now: its agent and a ready endpoint. Rejects with
   * TransportBuildError, or with the resolver's error (no such service, no ready endpoint).
   */
  async backend(spec: BackendSpec): Promise<Backend> {
    const agent = this.agentFor(spec);
    const svc = spec.service;
    if (svc === undefined || svc === null) throw new Error('local APIServices have no backend');
    const url = await this.#resolver.resolveEndpoint(svc.namespace ?? '', svc.name ?? '', svc.port ?? 443);
    return { url: new URL(`https://${url.host}`), serverName: BackendClients.serverName(spec), agent };
  }

  /**
   * Starts a request to `backend` (`path` holds the query). The caller writes the body, ends it,
   * and handles 'response', 'upgrade' and 'error' (goNetErrorText words the error as Go does).
   */
  request(backend: Backend, method: string, path: string, headers: OutgoingHttpHeaders): ClientRequest {
    const host = backend.url.hostname.startsWith('[') ? backend.url.hostname.slice(1, -1) : backend.url.hostname;
    return https.request({
      agent: backend.agent, method, host, port: Number(backend.url.port === '' ? 443 : backend.url.port), path,
      servername: backend.serverName, headers: { host: backend.url.host, ...headers },
    });
  }

  /**
   * GETs `path` from `spec`'s backend and buffers the answer (discovery, OpenAPI, health checks).
   * Rejects as backend(), and with BackendRequestError (`dial tcp ...: connect: connection
   * refused`, `context deadline exceeded` at the deadline).
   */
  async get(spec: BackendSpec, path: string, opts: BackendCallOptions = {}): Promise<BackendResponse> {
    return await this.getFrom(await this.backend(spec), path, opts);
  }

  /** As get, on a backend already resolved (a caller that quotes its URL in messages). */
  async getFrom(backend: Backend, path: string, opts: BackendCallOptions = {}): Promise<BackendResponse> {
    const headers: OutgoingHttpHeaders = {};
    if (opts.accept !== undefined) headers['accept'] = opts.accept;
    if (opts.user !== undefined) setAuthProxyHeaders(headers, opts.user);
    return await new Promise<BackendResponse>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const req = this.request(backend, 'GET', path, headers);
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const fail = (err: BackendRequestError): void => {
        if (!settle()) return;
        reject(err);
        req.destroy();
      };
      const onAbort = (): void => fail(new BackendRequestError('context canceled'));
      if (opts.timeoutMs !== undefined) timer = setTimeout(() => fail(new BackendRequestError('context deadline exceeded', true)), opts.timeoutMs);
      if (opts.signal?.aborted === true) { onAbort(); return; }
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (e) => fail(new BackendRequestError(goNetErrorText(e, backend.serverName))));
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => fail(new BackendRequestError(goNetErrorText(e, backend.serverName))));
        res.on('end', () => {
          if (settle()) resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
      });
      req.end();
    });
  }

  /** Closes the idle connections of every agent (server shutdown). */
  close(): void {
    for (const a of this.#agents.values()) a.destroy();
    this.#agents.clear();
  }
}

/** Go's url.URL.String of a backend URL with a path, as kube's messages quote it. */
export function backendURL(backend: Backend, path: string): string {
  return `https://${joinHostPort(backend.url.hostname.replace(/^\[|\]$/g, ''), backend.url.port === '' ? 443 : backend.url.port)}${path}`;
}
