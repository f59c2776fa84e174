// GenericAPIServer: the handler chain, the director (non-resource paths, then API routes,
// then the next server in the chain, then 404), the HTTPS listener and graceful shutdown.
// Counterpart of k8s.io/apiserver/pkg/server/genericapiserver.go and
// k8s.io/apiserver/pkg/server/handler.go.
import { createHash } from 'node:crypto';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { newGenericServerResponse } from '../apimachinery/errors/status-error.ts';
import { aggregatedDiscovery } from '../endpoints/discovery/aggregated.ts';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from '../endpoints/discovery/legacy.ts';
import { writeError, writeObject, writeRawJSON } from '../endpoints/handlers/response.ts';
import type { DiscoveryGroup, DiscoveryMerge } from '../endpoints/discovery/types.ts';
import type { APIInstaller } from '../endpoints/installer.ts';
import { checkRouteAccept, MEDIA_TYPES, negotiate, tryNegotiate, type Target } from '../endpoints/negotiation.ts';
import { RequestState } from '../endpoints/request/state.ts';
import { serveHealth, type HealthCheck } from './healthz.ts';
import { listedPaths, writeNotFound } from './index-paths.ts';
import { compose, type Filter, type Handler } from './filters/types.ts';
import { SecureServer, type SecureServingOptions } from './secure-serving.ts';
import { versionInfo } from './version.ts';

/** A path served outside the API routes (/version, /openapi/v2, ...). */
export type NonResourceHandler = (req: IncomingMessage, res: ServerResponse, state: RequestState) => Promise<void> | void;

export interface GenericAPIServerConfig {
  readonly installer: APIInstaller;
  readonly filters: readonly Filter[];
  readonly livez: readonly HealthCheck[];
  readonly readyz: readonly HealthCheck[];
  /** Exact paths, or prefixes ending in '/'. */
  readonly nonResource: ReadonlyMap<string, NonResourceHandler>;
  /** Paths of `nonResource` that `GET /` does not list (kube's UnlistedHandle: the APF dumps). */
  readonly unlisted?: ReadonlySet<string>;
  /** What this server does not serve (the next server of the chain); undefined: 404. */
  readonly delegate?: Handler;
  /** Groups served by the next server of the chain (custom resources), listed after this server's. */
  readonly extraDiscovery?: () => readonly DiscoveryGroup[];
  /** The aggregator's view of /apis and /apis/<group> (APIService groups and order); undefined: this server's groups. */
  readonly discoveryMerge?: DiscoveryMerge;
  /** The watches the handlers registered (HandlerDeps.openWatches). */
  readonly openWatches: Set<() => void>;
  /**
   * The aggregator's proxy, asked before any API route (kube's aggregator is the outermost
   * server): the handler of the APIService claiming the path, undefined for none (a synchronous
   * check, so that a server without remote APIServices pays no extra turn).
   */
  readonly proxy?: (path: string) => Handler | undefined;
}

/**
 * Aggregated discovery as kube serves it (ServeHTTPWithETag): cacheable by anyone, an ETag of the
 * document's JSON (SHA-512, upper-case hex), 304 when If-None-Match names it. The answer depends
 * on Accept (JSON, protobuf), hence Vary.
 */
function serveWithETag(req: IncomingMessage, res: ServerResponse, doc: object, target: Target, state: RequestState): void {
  const etag = `"${createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase()}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Vary', 'Accept');
  res.setHeader('Cache-Control', 'public');
  if (req.headers['if-none-match'] === etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  writeObject(res, 200, doc, target, state);
}

/** The plain-text answer Go's server writes itself (no Status body), closing the connection. */
function goPlainError(res: ServerResponse, code: number, text: string): void {
  const body = `${code} ${text}`;
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Requests Node cannot parse, answered as Go's server answers them: headers beyond the limit
 * with "431 Request Header Fields Too Large", other malformed requests with "400 Bad Request";
 * the connection closes either way.
 */
function onClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status}`);
}

export class GenericAPIServer {
  private server: SecureServer | undefined;
  private readonly chain: Handler;
  private shuttingDown = false;
  /** Requests being served, with their state (a watch is told apart by its verb). */
  private readonly inFlight = new Map<Promise<void>, RequestState>();

  constructor(private readonly cfg: GenericAPIServerConfig) {
    this.chain = compose(cfg.filters, (req, res, state) => this.direct(req, res, state));
  }

  get isShuttingDown(): boolean { return this.shuttingDown; }

  /** Handles one request (also usable without a socket, for tests). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The one place every answer passes: browsers must never sniff an API answer into HTML
    // (kube sets it on health, 403 and filter errors; kapi on all, which no client can mind).
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Once shutting down, no connection is kept for another request (Go's Shutdown turns keep-alives off).
    if (this.shuttingDown) res.shouldKeepAlive = false;
    const state = new RequestState(req.url ?? '/', req.headers.accept, req.headers['user-agent']);
    if (state.path === '') {
      // Go's server refuses a target url.ParseRequestURI cannot parse before any handler runs.
      goPlainError(res, 400, 'Bad Request');
      return Promise.resolve();
    }
    const p = this.chain(req, res, state).catch((err: unknown) => {
      if (!res.headersSent) writeError(res, err, undefined, state); else res.destroy();
    });
    this.inFlight.set(p, state);
    void p.finally(() => this.inFlight.delete(p));
    return p;
  }

  /**
   * A request asking to upgrade (a WebSocket watch, exec, attach): Node hands over the socket
   * without an HTTP parser, so that frames the client sends later are never read as requests. It
   * goes through the same chain with a response on that socket; a handler that upgrades writes to
   * the socket itself, any other answer closes the connection when it ends.
   */
  private upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    if (head.length > 0) socket.unshift(head);
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.on('finish', () => socket.end());
    void this.handle(req, res);
  }

  private async direct(req: IncomingMessage, res: ServerResponse, state: RequestState): Promise<void> {
    const path = state.path;
    const q = state.url.searchParams;
    if (path === '/' || path === '/index.html') {
      writeRawJSON(res, 200, { paths: this.listedPaths() }, state);
      return;
    }
    if (await serveHealth('healthz', this.healthzChecks(), path, q, res)) return;
    if (await serveHealth('livez', this.cfg.livez, path, q, res)) return;
    if (await serveHealth('readyz', this.cfg.readyz, path, q, res)) return;
    if (path === '/version' || path === '/version/') {
      // A go-restful route of GET only.
      if (req.method !== 'GET') throw newGenericServerResponse(405, '');
      writeRawJSON(res, 200, versionInfo(), state);
      return;
    }
    const proxied = this.cfg.proxy?.(path);
    if (proxied !== undefined) { await proxied(req, res, state); return; }
    const nr = this.cfg.nonResource.get(path) ?? this.prefixHandler(path);
    if (nr !== undefined) { await nr(req, res, state); return; }
    if (this.serveDiscovery(req, res, state, path)) return;
    if (await this.cfg.installer.serve(req, res, state)) return;
    if (this.cfg.delegate !== undefined) { await this.cfg.delegate(req, res, state); return; }
    this.notFound(res, state);
  }

  /** /healthz: the readyz checks but shutdown and informer-sync, which only readiness reports (AddReadyzChecks). */
  private healthzChecks(): readonly HealthCheck[] {
    return this.cfg.readyz.filter((c) => c.name !== 'shutdown' && c.name !== 'informer-sync');
  }

  private discoveryGroups(): readonly DiscoveryGroup[] {
    return this.cfg.extraDiscovery === undefined ? this.cfg.installer.discovery
      : [...this.cfg.installer.discovery, ...this.cfg.extraDiscovery()];
  }

  /** The groups `GET /` lists: with the aggregator, every APIService's group version too. */
  private indexGroups(): readonly { readonly name: string; readonly versions: readonly { readonly version: string }[] }[] {
    const groups = this.discoveryGroups();
    const merge = this.cfg.discoveryMerge;
    if (merge === undefined) return groups;
    return [...groups.filter((g) => g.name === ''), ...merge.legacy(groups.filter((g) => g.name !== ''))];
  }

  /** The paths `GET /` lists (routes.Index). */
  listedPaths(): string[] {
    return listedPaths({
      groups: this.indexGroups(), nonResource: [...this.cfg.nonResource.keys()].filter((p) => this.cfg.unlisted?.has(p) !== true),
      healthz: this.healthzChecks().map((c) => c.name), livez: this.cfg.livez.map((c) => c.name),
      readyz: this.cfg.readyz.map((c) => c.name),
    });
  }

  /** The answer for a path nothing in the chain serves: a Status under go-restful's roots, else Go's text. */
  notFound(res: ServerResponse, state: RequestState): void {
    writeNotFound(res, state, new Set(this.cfg.installer.discovery.map((g) => g.name).filter((n) => n !== '')));
  }

  private prefixHandler(path: string): NonResourceHandler | undefined {
    for (const [p, h] of this.cfg.nonResource) if (p.endsWith('/') && path.startsWith(p)) return h;
    return undefined;
  }

  /**
   * Discovery, negotiated as kube does: /api and /apis answer the aggregated document
   * (apidiscovery.k8s.io/v2 only) when any Accept clause asks for it, else the legacy document;
   * every document is served as JSON, YAML or protobuf. /api, /api/v1 and /apis/<g>/<v> are
   * go-restful routes (whose Accept check answers 406 first); /apis and /apis/<g> are the
   * aggregator's plain handlers.
   */
  private serveDiscovery(req: IncomingMessage, res: ServerResponse, state: RequestState, path: string): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const p = path.replace(/\/+$/, '');
    const accept = req.headers.accept;
    const groups = this.discoveryGroups();
    const core = groups.filter((g) => g.name === '');
    const named = groups.filter((g) => g.name !== '');
    const legacy = (restfulRoute: boolean): Target => {
      if (restfulRoute) checkRouteAccept(accept, MEDIA_TYPES);
      return negotiate(accept, { restrictions: 'default' });
    };
    const merge = this.cfg.discoveryMerge;
    if (p === '/api' || p === '/apis') {
      const agg = tryNegotiate(accept, { restrictions: 'discovery' });
      if (agg !== undefined) {
        const listed = p === '/api' ? core : merge?.aggregated(named) ?? named;
        serveWithETag(req, res, aggregatedDiscovery(listed, agg.apiVersion), agg, state);
      } else if (p === '/api') {
        writeObject(res, 200, apiVersions(req.headers.host ?? '127.0.0.1'), legacy(true), state);
      } else {
        writeObject(res, 200, apiGroupList(merge?.legacy(named) ?? named), legacy(false), state);
      }
      return true;
    }
    const m = /^\/(?:api\/(v1)|apis\/([^/]+)(?:\/([^/]+))?)$/.exec(p);
    if (m === null) return false;
    const [, coreVersion, group, version] = m;
    if (coreVersion !== undefined) {
      const gv = core[0]?.versions.find((v) => v.version === coreVersion);
      if (gv === undefined) return false;
      writeObject(res, 200, apiResourceList(gv), legacy(true), state);
      return true;
    }
    if (version === undefined) {
      // The aggregator's group handler: the versions of the group's APIServices, wherever served.
      const listed = (merge?.legacy(named) ?? named).find((x) => x.name === group);
      if (listed === undefined) return false;
      writeObject(res, 200, apiGroup(listed), legacy(false), state);
      return true;
    }
    const g = named.find((x) => x.name === group);
    if (g === undefined) return false;
    const gv = g.versions.find((v) => v.version === version);
    if (gv === undefined) return false;
    writeObject(res, 200, apiResourceList(gv), legacy(true), state);
    return true;
  }

  /**
   * Starts serving HTTP/2 and HTTP/1.1 over TLS (see secure-serving.ts); resolves the bound address.
   * `minVersion` and `ciphers` (an OpenSSL cipher string) default to Node's; `kapi serve` passes
   * --tls-min-version, --tls-cipher-suites and the HTTP/2 flags.
   */
  async listen(opts: SecureServingOptions): Promise<AddressInfo> {
    const { server, address } = await SecureServer.listen(opts, (req, res) => { void this.handle(req, res); },
      (req, socket, head) => { this.upgrade(req, socket, head); }, onClientError);
    this.server = server;
    return address;
  }

  /**
   * After the shutdown delay: no new requests are taken (with `sendRetryAfter` the listener stays
   * open and the retry-after filter answers them 429 until in-flight requests drain; otherwise it
   * closes now), watches end cleanly, in-flight requests finish (up to `timeoutMs`; watches within
   * `watchGraceMs` when set), then the remaining connections close.
   * Counterpart of the NotAcceptingNewRequest … InFlightRequestsDrained steps of kube's RunWithContext.
   */
  async shutdown(opts: { timeoutMs?: number; sendRetryAfter?: boolean; watchGraceMs?: number } = {}): Promise<void> {
    this.shuttingDown = true;
    const server = this.server;
    // Closing the listener also sends GOAWAY to HTTP/2 sessions, whose streams under way finish.
    const stopListening = (): Promise<void> => server?.stopListening() ?? Promise.resolve();
    if (opts.sendRetryAfter !== true) void stopListening();
    for (const end of [...this.cfg.openWatches]) end();
    server?.closeIdleConnections();
    const within = (ps: Promise<void>[], ms: number): Promise<void> => Promise.race([
      Promise.allSettled(ps).then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);
    const watches: Promise<void>[] = [];
    const others: Promise<void>[] = [];
    for (const [p, st] of this.inFlight) (st.info?.verb === 'watch' ? watches : others).push(p);
    // Watches are waited for only with --shutdown-watch-termination-grace-period, as in kube.
    const grace = opts.watchGraceMs ?? 0;
    await Promise.all([within(others, opts.timeoutMs ?? 60_000), grace > 0 ? within(watches, grace) : Promise.resolve()]);
    const done = stopListening();
    server?.closeAllConnections();
    await done;
  }

  /** Whether new requests are refused (the retry-after filter reads it). */
  get notAcceptingNewRequests(): boolean { return this.shuttingDown; }
}
