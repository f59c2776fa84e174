// A small etcd v3 gRPC client: one channel per endpoint, a deadline on every unary call, and
// failover to the next endpoint when the current one is unreachable. TLS as etcd's Go client
// (and so kube-apiserver) does it: by the endpoint's scheme, with an optional client certificate.
// Counterpart of go.etcd.io/etcd/client/v3.
import { readFileSync } from 'node:fs';
import {
  Client, connectivityState, credentials, Metadata, status as GrpcStatus, type ChannelCredentials, type ChannelOptions,
  type ClientDuplexStream, type ServiceError,
} from '@grpc/grpc-js';
import { classifyEtcdError, unreachable } from './errors.ts';
import { RESPONSE_FIELDS, WATCH_RESPONSE_FIELDS, type UnaryMethods, type WatchRequest, type WatchResponse } from './messages.ts';
import { etcdMethod } from './proto/load.ts';

export interface EtcdClientOptions {
  /** Client URLs (http://host:port, https://host:port) or host:port. */
  readonly endpoints: readonly string[];
  /** PEM CA bundle that verifies etcd's serving certificates; default the system's roots. */
  readonly caFile?: string;
  /** PEM client certificate and key for etcd's --client-cert-auth; both or neither. */
  readonly certFile?: string;
  readonly keyFile?: string;
  /** Deadline of every unary call. */
  readonly requestTimeoutMs: number;
}

/** Calls that may be repeated on another endpoint after a failure (reads only). */
const IDEMPOTENT = new Set<keyof UnaryMethods>(['KV/Range', 'Maintenance/Status']);

const CHANNEL_OPTIONS: ChannelOptions = {
  // Reconnect fast after an etcd restart; grpc's default backoff grows to two minutes.
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 1000,
  // As kube's etcd client: detect dead connections (keepalive 30s, timeout 10s), no size limit on
  // responses (a list can be large).
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.max_receive_message_length': -1,
};

export function parseEndpoint(endpoint: string): { target: string; tls: boolean } {
  const m = /^(https?):\/\/(.+?)\/?$/.exec(endpoint);
  if (m === null) return { target: endpoint, tls: false };
  return { target: m[2]!, tls: m[1] === 'https' };
}

const hasTLSFiles = (opts: EtcdClientOptions): boolean =>
  opts.caFile !== undefined || opts.certFile !== undefined || opts.keyFile !== undefined;

/**
 * Whether an endpoint is dialled over TLS, as etcd's Go client decides it: http:// never (the
 * TLS files are ignored for it), https:// always (with the system's roots when there is no CA
 * file), a bare host:port when any TLS file is given.
 */
export function usesTLS(endpoint: string, opts: EtcdClientOptions): boolean {
  if (parseEndpoint(endpoint).tls) return true;
  if (/^http:\/\//.test(endpoint)) return false;
  return hasTLSFiles(opts);
}

/** Throws when the certificate and key are not given together or a file cannot be read. */
function secureCredentials(opts: EtcdClientOptions): ChannelCredentials {
  if ((opts.certFile === undefined) !== (opts.keyFile === undefined)) {
    throw new Error(`etcd TLS: the client certificate and key must both be given (cert: ${opts.certFile ?? '""'}, key: ${opts.keyFile ?? '""'})`);
  }
  const read = (f: string | undefined): Buffer | null => (f === undefined ? null : readFileSync(f));
  return credentials.createSsl(read(opts.caFile), read(opts.keyFile), read(opts.certFile));
}

/** grpc-js's "No connection established. Last error: …" reduced to the error itself. */
export function lastConnectError(details: string): string {
  const m = /Last error: ([\s\S]*?)\s*(?:\(\d{4}-\d\d-\d\dT[^)]*\))?\. Resolution note/.exec(details);
  const err = (m?.[1] ?? details).replace(/^Error: /, '').trim();
  // OpenSSL's "…:error:0A000412:SSL routines:<function>:<reason>:<file>:<line>:…": keep the reason.
  return /SSL routines:[^:]*:([^:]+)/.exec(err)?.[1]?.trim() ?? err;
}

/**
 * A TLS failure that waiting will not cure (a certificate etcd or kapi rejects, TLS spoken to a
 * plain port), described with what to check; undefined for any other connection error.
 */
export function tlsConfigurationError(error: string): string | undefined {
  if (/alert (bad certificate|certificate required|unknown ca|certificate unknown|handshake failure)/i.test(error)) {
    return `etcd rejected the client certificate (${error}): it requires one signed by a CA it trusts`;
  }
  if (/unable to verify|self[- ]signed|local issuer|certificate has expired|certificate is not yet valid/i.test(error)) {
    return `etcd's serving certificate is not trusted (${error}): check the CA file`;
  }
  if (/altnames|does not match certificate/i.test(error)) return `etcd's serving certificate does not name this endpoint (${error})`;
  if (/wrong version number|packet length too long/i.test(error)) return `TLS handshake failed (${error}): does etcd serve https on this port?`;
  return undefined;
}

const isServiceError = (err: unknown): err is ServiceError =>
  err instanceof Error && typeof (err as Partial<ServiceError>).code === 'number' && typeof (err as Partial<ServiceError>).details === 'string';

/** How often a waiting channel in transient failure is asked for its last error. */
const FAILURE_PROBE_MS = 200;

export class EtcdClient {
  private readonly clients: Client[];
  private active = 0;
  private closed = false;

  constructor(private readonly opts: EtcdClientOptions) {
    if (opts.endpoints.length === 0) throw new Error('etcd: no endpoints');
    // One secure credential for every TLS endpoint (as Go's single tls.Config); plain ones get none.
    const secure = opts.endpoints.some((e) => usesTLS(e, opts)) ? secureCredentials(opts) : undefined;
    this.clients = opts.endpoints.map((e) => new Client(parseEndpoint(e).target,
      (usesTLS(e, opts) ? secure : undefined) ?? credentials.createInsecure(), CHANNEL_OPTIONS));
  }

  get endpointCount(): number { return this.clients.length; }

  /**
   * Resolves once some endpoint accepts connections. Rejects with Unreachable after timeoutMs
   * (naming each endpoint's last error), or as soon as every endpoint failed in a way waiting
   * cannot cure (a TLS certificate rejected by either side).
   */
  async waitForReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const wait = { done: false };
    try {
      this.active = await Promise.any(this.clients.map((_c, i) => this.waitForEndpoint(i, deadline, timeoutMs, wait).then(() => i)));
    } catch (err) {
      const reasons = err instanceof AggregateError ? err.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))) : [String(err)];
      throw unreachable('', new Error(reasons.join('; ')));
    } finally {
      wait.done = true;
    }
  }

  /**
   * Resolves when endpoint `i` is connected; rejects at the deadline or on a TLS configuration
   * error. Stops probing (and never settles) once `wait.done`: another endpoint won.
   */
  private waitForEndpoint(i: number, deadline: number, timeoutMs: number, wait: { readonly done: boolean }): Promise<void> {
    const channel = this.clients[i]!.getChannel();
    const endpoint = this.opts.endpoints[i]!;
    let lastError = '';
    return new Promise((resolve, reject) => {
      const timedOut = (): void => {
        reject(new Error(`${endpoint} did not become ready within ${timeoutMs}ms${lastError === '' ? '' : ` (last error: ${lastError})`}`));
      };
      // Checked before every use of the channel: close() shuts it down, after which grpc throws.
      const ended = (): boolean => {
        if (this.closed && !wait.done) reject(new Error('client closed'));
        return wait.done || this.closed;
      };
      const step = async (): Promise<void> => {
        if (ended()) return;
        const state = channel.getConnectivityState(true);
        if (state === connectivityState.READY) { resolve(); return; }
        if (state === connectivityState.TRANSIENT_FAILURE) {
          // A call fails at once in this state, with the reason the connection failed.
          const failure = await this.callOnce(i, 'Maintenance/Status', {}, Date.now() + 1000).then(() => undefined, (err: unknown) => err);
          if (isServiceError(failure) && failure.code === GrpcStatus.UNAVAILABLE) lastError = lastConnectError(failure.details);
          const tls = tlsConfigurationError(lastError);
          if (tls !== undefined) { reject(new Error(`${endpoint}: ${tls}`)); return; }
          if (ended()) return;
        }
        if (Date.now() >= deadline) { timedOut(); return; }
        // Wake on a state change, and every FAILURE_PROBE_MS in failure (the reason may change).
        const until = state === connectivityState.TRANSIENT_FAILURE ? Math.min(deadline, Date.now() + FAILURE_PROBE_MS) : deadline;
        channel.watchConnectivityState(state, until, () => { step().catch(reject); });
      };
      step().catch(reject);
    });
  }

  /**
   * One unary call with the request deadline. Rejects with the raw gRPC error (see errors.ts);
   * Unreachable when the client is closed. Reads are retried on the other endpoints.
   */
  async call<M extends keyof UnaryMethods>(method: M, req: UnaryMethods[M][0], endpoint?: number): Promise<UnaryMethods[M][1]> {
    if (this.closed) throw unreachable('', new Error('client closed'));
    const deadline = Date.now() + this.opts.requestTimeoutMs;
    const tries = endpoint === undefined && IDEMPOTENT.has(method) ? this.clients.length : 1;
    let lastErr: unknown;
    for (let t = 0; t < tries; t++) {
      const index = endpoint ?? this.active;
      try {
        return await this.callOnce(index, method, req, deadline);
      } catch (err) {
        lastErr = err;
        if (classifyEtcdError(err) !== 'unreachable' || endpoint !== undefined) throw err;
        // Later calls go to the next endpoint; grpc keeps reconnecting the failed one meanwhile.
        if (this.active === index) this.active = (index + 1) % this.clients.length;
        if (Date.now() >= deadline) break;
      }
    }
    throw lastErr;
  }

  private callOnce<M extends keyof UnaryMethods>(index: number, method: M, req: UnaryMethods[M][0],
    deadline: number): Promise<UnaryMethods[M][1]> {
    const [service, name] = (method as string).split('/') as [string, string];
    const def = etcdMethod<UnaryMethods[M][0], UnaryMethods[M][1]>(service, name, RESPONSE_FIELDS[method]);
    const client = this.clients[index]!;
    return new Promise((resolve, reject) => {
      client.makeUnaryRequest(def.path, def.serialize, def.deserialize, req, new Metadata(),
        { deadline }, (err: ServiceError | null, res?: UnaryMethods[M][1]) => {
          if (err !== null || res === undefined) reject(err ?? new Error('etcd: empty response'));
          else resolve(res);
        });
    });
  }

  /** Opens a Watch stream on the current endpoint (no deadline: it lives as long as the watch). */
  openWatchStream(): ClientDuplexStream<WatchRequest, WatchResponse> {
    if (this.closed) throw unreachable('', new Error('client closed'));
    const def = etcdMethod<WatchRequest, WatchResponse>('Watch', 'Watch', WATCH_RESPONSE_FIELDS);
    // waitForReady: false (the default) makes a stream on a down endpoint fail at once.
    return this.clients[this.active]!.makeBidiStreamRequest(def.path, def.serialize, def.deserialize, new Metadata());
  }

  /** A watch stream failed as unreachable: move later streams and calls to the next endpoint. */
  reportUnreachable(): void {
    this.active = (this.active + 1) % this.clients.length;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.clients) c.close();
  }
}
