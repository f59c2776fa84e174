// The key-value contract under the object store: etcd v3's MVCC model, small enough that an
// etcd3 backend maps each method onto one etcd request (Range, Txn, Watch, Compact).
// Every method rejects with a StorageError (interfaces.ts) for storage-level failures.
// Counterpart of the etcd requests k8s.io/apiserver/pkg/storage/etcd3 makes
// (go.etcd.io/etcd/client/v3 KV, Watch, Lease).

/** One version of a key, as etcd's mvccpb.KeyValue. */
export interface KeyValue {
  readonly key: string;
  /**
   * The stored bytes as a byte string (one char per byte, Node's 'latin1'): protobuf values are
   * binary, so a value is never UTF-8-decoded here; codecs turn text encodings into bytes.
   */
  readonly value: string;
  /** Revision of the write that created the key (since its last deletion). */
  readonly createRevision: number;
  /** Revision of the last write to the key: the object's resourceVersion. */
  readonly modRevision: number;
  /** Lease attached to the key, 0 for none (sqlite: no leases, see expiresAt). */
  readonly lease: number;
  /** When the key expires, in ms since the epoch; 0 when it never does or the backend cannot tell. */
  readonly expiresAt: number;
  /** Set by a value transformer: the value was read with an old key, a rewrite would change it. */
  readonly stale?: boolean;
}

export interface RangeOptions {
  /** Treat the key as a prefix: every key starting with it (etcd's WithPrefix). */
  readonly prefix?: boolean;
  /** With prefix: start at this key (inclusive) instead of the prefix itself (paging). */
  readonly startKey?: string;
  /** Read at this revision (0 or absent: the newest). Rejects with Compacted below the compacted revision. */
  readonly revision?: number;
  /** At most this many kvs (0 or absent: no limit). */
  readonly limit?: number;
  /** Return only `count`, no kvs. */
  readonly countOnly?: boolean;
}

export interface RangeResult {
  /** The store revision the range was read at. */
  readonly revision: number;
  /** Sorted by key (byte order). */
  readonly kvs: readonly KeyValue[];
  /** True when the range holds more kvs than `limit` let through. */
  readonly more: boolean;
  /** Number of keys in the whole range (from startKey to the end), ignoring limit, as etcd's count. */
  readonly count: number;
}

/**
 * Outcome of a conditional write (an etcd Txn). On success `kv` is the written kv (for delete: the
 * kv as it was before the deletion); on failure it is the current kv (undefined: the key is absent),
 * so a caller can retry without another read.
 */
export interface TxnResult {
  readonly succeeded: boolean;
  /** The store revision after the transaction (the new write's revision on success). */
  readonly revision: number;
  readonly kv: KeyValue | undefined;
}

export type BackendEventType = 'put' | 'delete';

/** A raw change, as etcd's mvccpb.Event with prev_kv. */
export interface BackendEvent {
  readonly type: BackendEventType;
  /** put: the new kv. delete: key, modRevision = the delete revision, value ''. */
  readonly kv: KeyValue;
  /** The kv before this change, if there was one. */
  readonly prevKv: KeyValue | undefined;
}

export interface BackendWatchOptions {
  readonly prefix: boolean;
  /** Deliver changes with a revision greater than this. Rejects with Compacted when below the compacted revision. */
  readonly fromRevision: number;
}

/** Receives a watch's output. Calls never overlap and arrive in revision order. */
export interface BackendWatchHandler {
  /** A batch of events, in increasing revision order, each delivered exactly once. */
  onEvents(events: readonly BackendEvent[]): void;
  /** Every change up to `revision` has been delivered (etcd's progress notification). */
  onProgress(revision: number): void;
  /** The watch ended because of the backend (closed, unreachable); no calls follow. */
  onError(err: Error): void;
}

export interface BackendWatcher {
  /** Ask for an onProgress call once every change up to the current revision has been delivered. */
  requestProgress(): void;
  /** Idempotent. No handler calls follow. */
  cancel(): void;
}

export interface Backend {
  /** Reads one key, or a prefix. Rejects with Compacted for a revision below the compacted one. */
  range(key: string, opts?: RangeOptions): Promise<RangeResult>;
  /** Writes a key that must not exist (fails with the current kv otherwise). ttlSeconds > 0 makes it expire. */
  create(key: string, value: string, ttlSeconds?: number): Promise<TxnResult>;
  /**
   * Compare-and-swap: writes the key if its modRevision is `expectedModRevision` (fails with the
   * current kv, or undefined when absent). Without ttlSeconds the key does not expire (as an etcd put
   * without a lease).
   */
  update(key: string, value: string, expectedModRevision: number, ttlSeconds?: number): Promise<TxnResult>;
  /** Deletes the key, if its modRevision is `expectedModRevision` when given. Fails (kv undefined) when absent. */
  delete(key: string, expectedModRevision?: number): Promise<TxnResult>;
  /** Streams changes after `fromRevision`. Rejects with Compacted when the history is gone. */
  watch(key: string, opts: BackendWatchOptions, handler: BackendWatchHandler): Promise<BackendWatcher>;
  /** Drops history below `revision`: reads and watches before it then reject with Compacted. */
  compact(revision: number): Promise<void>;
  compactedRevision(): Promise<number>;
  /**
   * The compacted revision as far as this client knows without a request (its own compactions,
   * those it read or was told of by a watch); absent where compactedRevision() is itself cheap.
   */
  knownCompactedRevision?(): number;
  currentRevision(): Promise<number>;
  /** Number of keys under the prefix at the newest revision. */
  count(prefix: string): Promise<number>;
  /** Ends every watch (onError) and releases resources. Idempotent. */
  close(): Promise<void>;
}

/** etcd's GetPrefixRangeEnd: the smallest key greater than every key starting with prefix ('' = no end). */
export function prefixRangeEnd(prefix: string): string {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c < 0xffff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
  }
  return '';
}
