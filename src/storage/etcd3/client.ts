// A small etcd v3 gRPC client: one channel per endpoint, a deadline on every unary call, and
// failover to the next endpoint when the current one is unreachable.
import { readFileSync } from 'node:fs';
import {
  Client, credentials, Metadata, type ChannelCredentials, type ChannelOptions, type ClientDuplexStream,
  type ServiceError,
} from '@grpc/grpc-js';
import { classifyEtcdError, unreachable } from './errors.ts';
import type { UnaryMethods, WatchRequest, WatchResponse } from './messages.ts';
import { etcdMethod } from './proto/load.ts';

export interface EtcdClientOptions {
  /** Client URLs (http://host:port, https://host:port) or host:port. */
  readonly endpoints: readonly string[];
  readonly caFile?: string;
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

function channelCredentials(tls: boolean, opts: EtcdClientOptions): ChannelCredentials {
  if (!tls && opts.caFile === undefined && opts.certFile === undefined) return credentials.createInsecure();
  const read = (f: string | undefined): Buffer | null => (f === undefined ? null : readFileSync(f));
  return credentials.createSsl(read(opts.caFile), read(opts.keyFile), read(opts.certFile));
}

export class EtcdClient {
  private readonly clients: Client[];
  private active = 0;
  private closed = false;

  constructor(private readonly opts: EtcdClientOptions) {
    if (opts.endpoints.length === 0) throw new Error('etcd: no endpoints');
    this.clients = opts.endpoints.map((e) => {
      const { target, tls } = parseEndpoint(e);
      return new Client(target, channelCredentials(tls, opts), CHANNEL_OPTIONS);
    });
  }

  get endpointCount(): number { return this.clients.length; }

  /** Resolves once some endpoint accepts connections; rejects with Unreachable after timeoutMs. */
  async waitForReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const attempts = this.clients.map((c, i) => new Promise<number>((resolve, reject) => {
      c.waitForReady(deadline, (err) => (err === undefined ? resolve(i) : reject(err)));
    }));
    try {
      this.active = await Promise.any(attempts);
    } catch {
      throw unreachable('', new Error(`no etcd endpoint of ${this.opts.endpoints.join(',')} became ready within ${timeoutMs}ms`));
    }
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
    const def = etcdMethod<UnaryMethods[M][0], UnaryMethods[M][1]>(service, name);
    const client = this.clients[index]!;
    return new Promise((resolve, reject) => {
      client.makeUnaryRequest(def.path, def.requestSerialize, def.responseDeserialize, req, new Metadata(),
        { deadline }, (err: ServiceError | null, res?: UnaryMethods[M][1]) => {
          if (err !== null || res === undefined) reject(err ?? new Error('etcd: empty response'));
          else resolve(res);
        });
    });
  }

  /** Opens a Watch stream on the current endpoint (no deadline: it lives as long as the watch). */
  openWatchStream(): ClientDuplexStream<WatchRequest, WatchResponse> {
    if (this.closed) throw unreachable('', new Error('client closed'));
    const def = etcdMethod<WatchRequest, WatchResponse>('Watch', 'Watch');
    // waitForReady: false (the default) makes a stream on a down endpoint fail at once.
    return this.clients[this.active]!.makeBidiStreamRequest(def.path, def.requestSerialize, def.responseDeserialize, new Metadata());
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
