// The HTTP client of webhooks (admission webhooks, CRD conversion webhooks): POSTs a JSON body
// to a URL or to a Service's endpoint over HTTPS verified with the webhook's CA bundle, and
// answers with the decoded JSON or with an error worded as kube's REST client words it.
// Counterpart of ClientManager/HookClient in k8s.io/apiserver/pkg/util/webhook/client.go, with
// the parts of client-go's rest.Request that a webhook call uses (timeout, error texts).
//
// Usable cut for other helpers (issue 14): `new ClientManager(resolver).hookClient(cc).post(body,
// { timeoutMs, signal })`; errors: WebhookRequestError (transport), StatusError (non-2xx),
// Error (empty or undecodable body).
import * as http from 'node:http';
import * as https from 'node:https';
import { X509Certificate } from 'node:crypto';
import { posix } from 'node:path';
import { StatusError, newUnexpectedServerResponse, type StatusReason } from '../apimachinery/errors/status-error.ts';
import type { Status } from '../apimachinery/meta/types.ts';
import { clientConfigKey, type ClientConfig, type ClientCredentials } from './client-config.ts';
import { decodeWebhookObject } from './decode.ts';
import { ErrCallingWebhook, WebhookRequestError } from './errors.ts';
import { goDuration, goNetErrorText, joinHostPort } from './net-errors.ts';
import { defaultServiceResolver, type ServiceResolver } from './service-resolver.ts';

/** The webhook REST config's timeout (setGlobalDefaults): the deadline when a call names none. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** The ClientManager's cache size (defaultCacheSize). */
const CACHE_SIZE = 200;
const USER_AGENT = 'kube-apiserver-admission';

export interface PostOptions {
  /**
   * The whole call's deadline, reading the answer included (rest.Request.Timeout); also sent
   * as the `timeout` query parameter. Default DEFAULT_TIMEOUT_MS.
   */
  readonly timeoutMs?: number;
  /** Aborts the call; it then rejects with `Post "...": context canceled`. */
  readonly signal?: AbortSignal;
}

/** Where a client sends its requests. */
interface Target {
  readonly protocol: 'https:' | 'http:';
  /** host[:port] as written in the URL (Go's url.Host); for a service `<name>.<ns>.svc:<port>`. */
  readonly hostPort: string;
  /** The host name to dial when no service resolution happens, and the name TLS verifies. */
  readonly hostname: string;
  readonly port: number;
  readonly path: string;
  readonly service?: { readonly namespace: string; readonly name: string; readonly port: number };
}

/** Decodes the base64 caBundle to PEM; rejects (as client-go's transport does) when it holds no certificate. */
function caFromBundle(bundle: string | undefined): string | undefined {
  if (bundle === undefined) return undefined;
  const pem = Buffer.from(bundle, 'base64').toString('utf8');
  if (pem.trim() === '') return undefined;
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('unable to load root certificates: unable to parse bytes as PEM block');
  for (const b of blocks) {
    try { new X509Certificate(b); } catch (e) {
      throw new Error(`unable to load root certificates: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }
  return pem;
}

/** Go's net/url errors for a webhook URL, in ErrCallingWebhook's `Unparsable URL: ...` wording. */
function parseURL(name: string, raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new ErrCallingWebhook(name, new Error(`Unparsable URL: parse ${JSON.stringify(raw)}: invalid URL`));
  }
}

function targetFor(cc: ClientConfig): Target {
  if (cc.service !== undefined) {
    const port = cc.service.port === undefined || cc.service.port === 0 ? 443 : cc.service.port;
    const serverName = `${cc.service.name}.${cc.service.namespace}.svc`;
    return {
      protocol: 'https:', hostPort: joinHostPort(serverName, port), hostname: serverName, port,
      path: posix.join('/', cc.service.path ?? ''),
      service: { namespace: cc.service.namespace, name: cc.service.name, port },
    };
  }
  if (cc.url === undefined || cc.url === '') {
    throw new ErrCallingWebhook(cc.name, new Error('webhook configuration must have either service or URL'));
  }
  const u = parseURL(cc.name, cc.url);
  const protocol = u.protocol === 'http:' ? 'http:' : 'https:';
  const hostname = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  const port = u.port === '' ? (protocol === 'http:' ? 80 : 443) : Number(u.port);
  return { protocol, hostPort: u.host, hostname, port, path: posix.join('/', decodeURIComponent(u.pathname)) };
}

/** A Status a failed call answered with, if the body is one with status Failure (Result.Error). */
function statusFromBody(body: string): Status | undefined {
  try {
    const v: unknown = JSON.parse(body);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    const s = v as Record<string, unknown>;
    if (s['kind'] !== 'Status' || (s['apiVersion'] ?? 'v1') !== 'v1' || s['status'] !== 'Failure') return undefined;
    return v as Status;
  } catch { return undefined; }
}

/** The error of a non-2xx answer: the webhook's own Status, else the generic one for the code. */
function responseError(code: number, contentType: string, body: string, retryAfter: string | undefined): StatusError {
  const status = statusFromBody(body);
  if (status !== undefined) {
    return new StatusError({ ...status, status: 'Failure', code: status.code ?? code, reason: (status.reason ?? '') as StatusReason, message: status.message ?? '' });
  }
  const isText = contentType === '' || contentType.toLowerCase().startsWith('text/');
  const message = isText ? body.slice(0, 1024 * 1024).trim() : 'unknown';
  const ra = retryAfter !== undefined && /^\d+$/.test(retryAfter) ? Number(retryAfter) : 0;
  return newUnexpectedServerResponse(code, 'POST', message, ra);
}

/** A client for one webhook address. Calls may run concurrently. */
export class WebhookClient {
  readonly #target: Target;
  readonly #agent: http.Agent;
  readonly #resolver: ServiceResolver;
  readonly #authorization: string | undefined;
  readonly #serverName: string | undefined;

  constructor(target: Target, ca: string | undefined, resolver: ServiceResolver, creds: ClientCredentials = {}) {
    this.#target = target;
    this.#resolver = resolver;
    this.#serverName = creds.serverName;
    this.#authorization = creds.bearerToken !== undefined ? `Bearer ${creds.bearerToken}`
      : creds.basicAuth !== undefined ? `Basic ${Buffer.from(`${creds.basicAuth.username}:${creds.basicAuth.password}`).toString('base64')}` : undefined;
    this.#agent = target.protocol === 'http:'
      ? new http.Agent({ keepAlive: true })
      : new https.Agent({
        keepAlive: true, ...(ca !== undefined ? { ca } : {}),
        ...(creds.certPEM !== undefined && creds.keyPEM !== undefined ? { cert: creds.certPEM, key: creds.keyPEM } : {}),
        ...(creds.insecureSkipTLSVerify === true ? { rejectUnauthorized: false } : {}),
      });
  }

  /** The path and query of a call with this timeout. */
  #pathFor(timeoutMs: number): string {
    return `${this.#target.path}${timeoutMs > 0 ? `?timeout=${goDuration(timeoutMs)}` : ''}`;
  }

  /** The URL a call with this timeout goes to, as the errors quote it. */
  urlFor(timeoutMs: number): string {
    return `${this.#target.protocol}//${this.#target.hostPort}${this.#pathFor(timeoutMs)}`;
  }

  /**
   * POSTs `body` as JSON and resolves to the answer's object, decoded as client-go decodes it
   * (decode.ts). Rejects with a WebhookRequestError when the call fails or times out (`Post
   * "<url>": context deadline exceeded`), with a StatusError for a non-2xx answer, and with an
   * Error for an empty body or one that is no object.
   */
  async post(body: unknown, opts: PostOptions = {}): Promise<Record<string, unknown>> {
    return decodeWebhookObject(await this.postRaw(body, opts));
  }

  /**
   * As post, but resolves to the answer's text undecoded (for callers that decode as kube's
   * universal decoder does, JSON or YAML). Rejects as post, but for the decoding.
   */
  async postRaw(body: unknown, opts: PostOptions = {}): Promise<string> {
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const url = this.urlFor(timeoutMs);
    const res = await this.#send(url, this.#pathFor(timeoutMs), JSON.stringify(body), timeoutMs, opts.signal);
    if (res.code < 200 || res.code > 206) throw responseError(res.code, res.contentType, res.body, res.retryAfter);
    if (res.body.length === 0) {
      throw new Error(`0-length response with status code: ${String(res.code)} and content type: ${res.contentType || 'application/json'}`);
    }
    return res.body;
  }

  async #send(url: string, path: string, payload: string, timeoutMs: number, signal: AbortSignal | undefined):
    Promise<{ code: number; contentType: string; body: string; retryAfter: string | undefined }> {
    const t = this.#target;
    const fail = (cause: string, timedOut = false): WebhookRequestError => new WebhookRequestError(url, cause, timedOut);
    if (signal?.aborted === true) throw fail('context canceled');
    let host = t.hostname;
    let port = t.port;
    const deadline = Date.now() + timeoutMs;
    if (t.service !== undefined) {
      try {
        const ep = await this.#resolver.resolveEndpoint(t.service.namespace, t.service.name, t.service.port);
        host = ep.hostname.startsWith('[') ? ep.hostname.slice(1, -1) : ep.hostname;
        port = ep.port === '' ? 443 : Number(ep.port);
      } catch (e) {
        throw fail(e instanceof Error ? e.message : String(e));
      }
    }
    const mod = t.protocol === 'http:' ? http : https;
    return await new Promise((resolve, reject) => {
      let settled = false;
      const done = (err: WebhookRequestError | undefined, value?: { code: number; contentType: string; body: string; retryAfter: string | undefined }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (err !== undefined) reject(err);
        else if (value !== undefined) resolve(value);
      };
      const req = mod.request({
        agent: this.#agent, method: 'POST', host, port, path,
        ...(this.#serverName !== undefined ? { servername: this.#serverName } : t.service !== undefined ? { servername: t.hostname } : {}),
        headers: {
          host: t.hostPort, 'content-type': 'application/json', accept: 'application/json, */*',
          'user-agent': USER_AGENT, 'content-length': Buffer.byteLength(payload),
          ...(this.#authorization !== undefined ? { authorization: this.#authorization } : {}),
        },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => done(fail(goNetErrorText(e, this.#serverName ?? t.hostname))));
        res.on('end', () => done(undefined, {
          code: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? '',
          body: Buffer.concat(chunks).toString('utf8'), retryAfter: res.headers['retry-after'],
        }));
      });
      const timer = setTimeout(() => { done(fail('context deadline exceeded', true)); req.destroy(); }, Math.max(0, deadline - Date.now()));
      const onAbort = (): void => { done(fail('context canceled')); req.destroy(); };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (e) => done(fail(goNetErrorText(e, this.#serverName ?? t.hostname))));
      req.end(payload);
    });
  }

  /** Closes idle kept-alive connections. */
  close(): void { this.#agent.destroy(); }
}

/**
 * Builds and caches webhook clients by address (ClientManager): webhooks with the same URL or
 * service and CA bundle share a client and its connections. A service reference resolves
 * through the injected ServiceResolver at each call.
 */
export class ClientManager {
  readonly #resolver: ServiceResolver;
  readonly #cache = new Map<string, WebhookClient>();

  constructor(resolver: ServiceResolver = defaultServiceResolver) {
    this.#resolver = resolver;
  }

  /**
   * The client of `cc`. Throws ErrCallingWebhook when the config has neither service nor URL or
   * the URL does not parse, and an Error when the CA bundle holds no certificate.
   */
  hookClient(cc: ClientConfig): WebhookClient {
    const key = clientConfigKey(cc);
    const hit = this.#cache.get(key);
    if (hit !== undefined) {
      this.#cache.delete(key);
      this.#cache.set(key, hit);
      return hit;
    }
    const client = new WebhookClient(targetFor(cc), caFromBundle(cc.caBundle), this.#resolver, cc.credentials);
    this.#cache.set(key, client);
    if (this.#cache.size > CACHE_SIZE) {
      const oldest = this.#cache.keys().next().value;
      // Not closed: calls may still be in flight; its idle connections do not hold the process.
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    return client;
  }

  /** Closes every cached client's idle connections (server shutdown). */
  close(): void {
    for (const c of this.#cache.values()) c.close();
    this.#cache.clear();
  }
}
