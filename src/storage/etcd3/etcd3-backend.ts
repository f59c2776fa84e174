// The distributed Backend: a real etcd through its v3 gRPC API, with kube's etcd3 store requests
// (each write one Txn comparing the key's mod revision), leases for TTLs, kube's coordinated
// compaction, and one watch stream per watch.
// Counterpart of k8s.io/apiserver/pkg/storage/etcd3/store.go (its etcd requests).
import { bytesToValue, valueToBytes } from '../value/bytes.ts';
import type {
  Backend, BackendWatchHandler, BackendWatcher, BackendWatchOptions, KeyValue, RangeOptions, RangeResult, TxnResult,
} from '../backend.ts';
import { StorageError } from '../interfaces.ts';
import { EtcdClient } from './client.ts';
import { claimCompaction, COMPACT_REV_KEY, readCompactRevKey, startCompactor, type Compactor } from './compactor.ts';
import { classifyEtcdError, FUTURE_MESSAGE, mapEtcdError, unreachable } from './errors.ts';
import { LeaseManager, type Lease } from './lease-manager.ts';
import { CMP_EQUAL, TARGET_MOD, type PbKeyValue, type RangeRequest, type RequestOp, type TxnResponse } from './messages.ts';
import { supportsWatchProgress } from './version.ts';
import { compactedError, startEtcdWatch, type ActiveWatch } from './watcher.ts';

export interface EtcdBackendOptions {
  /** Client URLs of the etcd members (http://host:port or https://host:port). */
  readonly endpoints: readonly string[];
  /** Prepended to every key, so that several stores can share one etcd. Default ''. */
  readonly prefix?: string;
  /** TLS: the CA that signed the etcd server certificates, and a client certificate and key. */
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  /** How long opening waits for an endpoint to accept connections. Default 20s (kube's dial timeout). */
  readonly dialTimeoutMs?: number;
  /** Deadline of every request. Default 5s. */
  readonly requestTimeoutMs?: number;
  /** kube's --etcd-compaction-interval. Default 5 minutes; 0 disables. */
  readonly compactionIntervalMs?: number;
  /** kube's --lease-reuse-duration-seconds. Default 60. */
  readonly leaseReuseDurationSeconds?: number;
}

/** The smallest key after every key that starts with `prefix`, in bytes (etcd's GetPrefixRangeEnd). */
export function bytesPrefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]!++;
      return end.subarray(0, i + 1);
    }
  }
  // "\0" as a range end means: every key from the start on.
  return Buffer.from([0]);
}

const revisionOf = (res: { readonly header: { readonly revision: string } | null }): number => Number(res.header?.revision ?? 0);

export class EtcdBackend implements Backend {
  private readonly prefix: string;
  private readonly leases: LeaseManager;
  private readonly watches = new Set<ActiveWatch>();
  private compactor: Compactor | undefined;
  private observedCompacted = 0;
  private progressTrusted = false;
  private closed = false;

  constructor(private readonly client: EtcdClient, private readonly opts: EtcdBackendOptions) {
    this.prefix = opts.prefix ?? '';
    this.leases = new LeaseManager(async (ttl) => {
      const res = await this.client.call('Lease/LeaseGrant', { TTL: ttl });
      if (res.error !== '') throw new Error(res.error);
      return res.ID;
    }, opts.leaseReuseDurationSeconds === undefined ? {} : { reuseDurationSeconds: opts.leaseReuseDurationSeconds });
  }

  /** Reads the server version (for watch progress) and starts the compactor. */
  async start(): Promise<void> {
    try {
      const status = await this.client.call('Maintenance/Status', {});
      this.progressTrusted = supportsWatchProgress(status.version);
    } catch {
      this.progressTrusted = false;
    }
    const interval = this.opts.compactionIntervalMs ?? 5 * 60_000;
    if (interval > 0) this.compactor = startCompactor(this.client, interval, () => {});
  }

  private k(key: string): Buffer { return Buffer.from(this.prefix + key); }

  private readonly toKv = (kv: PbKeyValue, expiresAt = 0): KeyValue => ({
    key: kv.key.toString().slice(this.prefix.length),
    value: bytesToValue(kv.value),
    createRevision: Number(kv.create_revision),
    modRevision: Number(kv.mod_revision),
    lease: Number(kv.lease),
    expiresAt,
  });

  private checkOpen(key: string): void {
    if (this.closed) throw new StorageError('Unreachable', key, 'storage backend is closed');
  }

  /** Maps a failed request, resolving the revisions that Compacted and TooLargeResourceVersion carry. */
  private async fail(key: string, err: unknown): Promise<Error> {
    switch (classifyEtcdError(err)) {
      case 'compacted':
        return compactedError(key, await this.compactedRevision().catch(() => this.observedCompacted));
      case 'future': {
        const current = await this.currentRevision().catch(() => 0);
        return new StorageError('TooLargeResourceVersion', key, FUTURE_MESSAGE, current);
      }
      default:
        return mapEtcdError(key, err);
    }
  }

  private async request<T>(key: string, fn: () => Promise<T>): Promise<T> {
    this.checkOpen(key);
    try {
      return await fn();
    } catch (err) {
      throw await this.fail(key, err);
    }
  }

  async range(key: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const req: RangeRequest = {
      key: opts.prefix === true && opts.startKey !== undefined && opts.startKey > key ? this.k(opts.startKey) : this.k(key),
      ...(opts.prefix === true ? { range_end: bytesPrefixEnd(this.k(key)) } : {}),
      ...(opts.limit !== undefined && opts.limit > 0 ? { limit: opts.limit } : {}),
      ...(opts.revision !== undefined && opts.revision > 0 ? { revision: opts.revision } : {}),
      ...(opts.countOnly === true ? { count_only: true } : {}),
    };
    const res = await this.request(key, () => this.client.call('KV/Range', req));
    return { revision: revisionOf(res), kvs: res.kvs.map((kv) => this.toKv(kv)), more: res.more, count: Number(res.count) };
  }

  /** One Txn: if the key's mod revision is `modRevision`, run `success`, else read the key. */
  private txn(key: string, modRevision: number | undefined, success: RequestOp): Promise<TxnResponse> {
    const k = this.k(key);
    return this.request(key, () => this.client.call('KV/Txn', {
      compare: modRevision === undefined ? [] : [{ result: CMP_EQUAL, target: TARGET_MOD, key: k, mod_revision: modRevision }],
      success: [success],
      failure: [{ request_range: { key: k } }],
    }));
  }

  private failed(res: TxnResponse): TxnResult {
    const kv = res.responses[0]?.response_range?.kvs[0];
    return { succeeded: false, revision: revisionOf(res), kv: kv === undefined ? undefined : this.toKv(kv) };
  }

  private async lease(key: string, ttlSeconds: number | undefined): Promise<Lease | undefined> {
    if (ttlSeconds === undefined || ttlSeconds <= 0) return undefined;
    return this.request(key, () => this.leases.getLease(ttlSeconds));
  }

  async create(key: string, value: string, ttlSeconds?: number): Promise<TxnResult> {
    const lease = await this.lease(key, ttlSeconds);
    const res = await this.txn(key, 0, { request_put: { key: this.k(key), value: valueToBytes(value), lease: lease?.id ?? 0 } });
    if (!res.succeeded) return this.failed(res);
    const rev = revisionOf(res);
    return {
      succeeded: true, revision: rev,
      kv: { key, value, createRevision: rev, modRevision: rev, lease: Number(lease?.id ?? 0), expiresAt: lease?.expiresAt ?? 0 },
    };
  }

  async update(key: string, value: string, expectedModRevision: number, ttlSeconds?: number): Promise<TxnResult> {
    const lease = await this.lease(key, ttlSeconds);
    const res = await this.txn(key, expectedModRevision, {
      request_put: { key: this.k(key), value: valueToBytes(value), lease: lease?.id ?? 0, prev_kv: true },
    });
    if (!res.succeeded) return this.failed(res);
    const rev = revisionOf(res);
    const prev = res.responses[0]?.response_put?.prev_kv;
    const createRevision = prev === null || prev === undefined ? rev : Number(prev.create_revision);
    return {
      succeeded: true, revision: rev,
      kv: { key, value, createRevision, modRevision: rev, lease: Number(lease?.id ?? 0), expiresAt: lease?.expiresAt ?? 0 },
    };
  }

  async delete(key: string, expectedModRevision?: number): Promise<TxnResult> {
    const res = await this.txn(key, expectedModRevision, { request_delete_range: { key: this.k(key), prev_kv: true } });
    if (!res.succeeded) return this.failed(res);
    const prev = res.responses[0]?.response_delete_range?.prev_kvs[0];
    // Without a compare the Txn succeeds even when there was nothing to delete.
    if (prev === undefined) return { succeeded: false, revision: revisionOf(res), kv: undefined };
    return { succeeded: true, revision: revisionOf(res), kv: this.toKv(prev) };
  }

  async watch(key: string, opts: BackendWatchOptions, handler: BackendWatchHandler): Promise<BackendWatcher> {
    // etcd reports a compacted start revision only after the watch was created, and up to a sync
    // interval later: a read at that revision rejects at once instead.
    try {
      await this.range(key, { revision: Math.max(opts.fromRevision, 1), countOnly: true });
    } catch (err) {
      if (!(err instanceof StorageError && err.code === 'TooLargeResourceVersion')) throw err;
    }
    this.checkOpen(key);
    const start = this.k(key);
    const w = await startEtcdWatch({
      client: this.client,
      toKv: (kv) => this.toKv(kv),
      requestTimeoutMs: this.opts.requestTimeoutMs ?? 5000,
      progressTrusted: this.progressTrusted,
      onCompacted: (rev) => { this.observedCompacted = Math.max(this.observedCompacted, rev); },
    }, {
      key, start, fromRevision: opts.fromRevision, ...(opts.prefix ? { end: bytesPrefixEnd(start) } : {}),
    }, handler, (done) => this.watches.delete(done));
    if (this.closed) w.fail(new StorageError('Unreachable', key, 'storage backend is closed'));
    else this.watches.add(w);
    return w;
  }

  /**
   * Compacts etcd to `revision` the way kube's compactor does: records it under compact_rev_key
   * with a Txn on the key's version (so concurrent compactors do not both compact), then
   * compacts. Rejects with Compacted when already compacted that far.
   */
  async compact(revision: number): Promise<void> {
    await this.request('', async () => {
      for (;;) {
        const cur = await readCompactRevKey(this.client);
        if (revision > cur.headerRevision) {
          throw new StorageError('TooLargeResourceVersion', '', FUTURE_MESSAGE, cur.headerRevision);
        }
        const compacted = Math.max(cur.revision, this.observedCompacted);
        if (revision <= compacted) throw compactedError('', compacted);
        const claim = await claimCompaction(this.client, cur.version, revision);
        // Another compactor wrote the key in between: look again.
        if (!claim.won) continue;
        await this.client.call('KV/Compact', { revision });
        this.observedCompacted = Math.max(this.observedCompacted, revision);
        return;
      }
    });
  }

  /** The revision recorded by the last compaction through compact_rev_key (or seen in a watch). */
  async compactedRevision(): Promise<number> {
    const cur = await this.request(COMPACT_REV_KEY, () => readCompactRevKey(this.client));
    this.observedCompacted = Math.max(cur.revision, this.observedCompacted);
    return this.observedCompacted;
  }

  knownCompactedRevision(): number { return this.observedCompacted; }

  async currentRevision(): Promise<number> {
    const res = await this.request('', () => this.client.call('KV/Range', { key: Buffer.from(COMPACT_REV_KEY), count_only: true }));
    return revisionOf(res);
  }

  async count(prefix: string): Promise<number> {
    return (await this.range(prefix, { prefix: true, countOnly: true })).count;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.compactor?.stop();
    const err = new StorageError('Unreachable', '', 'storage backend is closed');
    for (const w of [...this.watches]) w.fail(err);
    this.client.close();
  }
}

/**
 * Connects to etcd. Rejects with Unreachable when no endpoint accepts connections within
 * dialTimeoutMs.
 */
export async function openEtcdBackend(opts: EtcdBackendOptions): Promise<EtcdBackend> {
  const client = new EtcdClient({
    endpoints: opts.endpoints,
    requestTimeoutMs: opts.requestTimeoutMs ?? 5000,
    ...(opts.caFile !== undefined ? { caFile: opts.caFile } : {}),
    ...(opts.certFile !== undefined ? { certFile: opts.certFile } : {}),
    ...(opts.keyFile !== undefined ? { keyFile: opts.keyFile } : {}),
  });
  try {
    await client.waitForReady(opts.dialTimeoutMs ?? 20_000);
  } catch (err) {
    client.close();
    throw unreachable('', err);
  }
  const backend = new EtcdBackend(client, opts);
  await backend.start();
  return backend;
}
