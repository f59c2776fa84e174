// The embedded default Backend: one sqlite file (better-sqlite3, synchronous) holding a revision
// log. Writes are single transactions; watchers replay the log, then follow in-process
// notifications published right after each commit.
// No Go counterpart: the embedded store (an etcd in one file, as github.com/k3s-io/kine).
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import Database from 'better-sqlite3';
import {
  prefixRangeEnd, type Backend, type BackendEvent, type BackendWatchHandler, type BackendWatcher,
  type BackendWatchOptions, type KeyValue, type RangeOptions, type RangeResult, type TxnResult,
} from '../backend.ts';
import { StorageError } from '../interfaces.ts';
import { startMaintenance, type Maintenance } from './maintenance.ts';
import { applySchema, type SynchronousLevel } from './schema.ts';
import { prepareStatements, type HistoryRow, type LogRow, type Statements } from './statements.ts';
import { WatchHub, type Subscriber } from './watch-hub.ts';

export interface SqliteBackendOptions {
  /** Database file; ':memory:' for a throwaway store. */
  readonly path: string;
  /** Compact history periodically (kube's --etcd-compaction-interval). Default 5 minutes; 0 disables. */
  readonly compactionIntervalMs?: number;
  /** How often expired keys are deleted. Default 1 second. */
  readonly ttlSweepIntervalMs?: number;
  /** See schema.ts. Default NORMAL. */
  readonly synchronous?: SynchronousLevel;
}

/** Beyond any key (keys are compared as UTF-8 bytes): the end of an unbounded range. */
const NO_END = '\u{10FFFF}\u{10FFFF}';
const REPLAY_CHUNK = 1000;
const COMPACT_CHUNK = 5000;
const COMPACTED_REV = 'compacted_rev';

const compactedError = (key: string, compacted: number): StorageError =>
  new StorageError('Compacted', key, 'mvcc: required revision has been compacted', compacted);

/**
 * Values are written as BLOBs of their bytes; a TEXT value is JSON an earlier build stored as a
 * string, whose bytes are its UTF-8 encoding.
 */
function valueOf(v: Buffer | string | null): string {
  if (v === null) return '';
  return typeof v === 'string' ? Buffer.from(v, 'utf8').toString('latin1') : v.toString('latin1');
}

const blob = (value: string): Buffer => Buffer.from(value, 'latin1');

function toKv(row: LogRow): KeyValue {
  return { key: row.key, value: valueOf(row.value), createRevision: row.created, modRevision: row.rev, lease: 0, expiresAt: row.expires_at };
}

function tombstone(key: string, rev: number): KeyValue {
  return { key, value: '', createRevision: 0, modRevision: rev, lease: 0, expiresAt: 0 };
}

function historyEvent(row: HistoryRow): BackendEvent {
  const prevKv = row.p_rev === null ? undefined : {
    key: row.key, value: valueOf(row.p_value), createRevision: row.p_created ?? 0, modRevision: row.p_rev,
    lease: 0, expiresAt: row.p_expires_at ?? 0,
  };
  return row.deleted === 1
    ? { type: 'delete', kv: tombstone(row.key, row.rev), prevKv }
    : { type: 'put', kv: toKv(row), prevKv };
}

const writeFailed = (key: string, err: unknown): StorageError =>
  new StorageError('Unreachable', key, `sqlite write failed: ${err instanceof Error ? err.message : String(err)}`);

interface QueuedWrite {
  /** Runs the write's transaction (nested: as a savepoint of the group's), keeping its result or error. */
  readonly run: (nested: boolean) => void;
  /** After the commit (or its failure): publishes the change and answers the writer. */
  readonly settle: (batchFailure: StorageError | undefined) => void;
}

const expiry = (ttlSeconds: number | undefined): number =>
  ttlSeconds !== undefined && ttlSeconds > 0 ? Date.now() + ttlSeconds * 1000 : 0;

class SqliteBackend implements Backend {
  private readonly db: Database.Database;
  private readonly st: Statements;
  private readonly hub = new WatchHub();
  private readonly maintenance: Maintenance;
  private rev: number;
  private compacted: number;
  private closed = false;

  constructor(opts: SqliteBackendOptions) {
    this.db = new Database(opts.path);
    applySchema(this.db, opts.synchronous ?? 'NORMAL');
    this.st = prepareStatements(this.db);
    this.batch = this.db.transaction((ws: readonly QueuedWrite[]) => { for (const w of ws) w.run(true); });
    this.compacted = this.st.getMeta.get(COMPACTED_REV)?.value ?? 0;
    // Compaction may drop the newest tombstones, so the log alone can under-count.
    this.rev = Math.max(this.st.maxRev.get()?.rev ?? 0, this.compacted);
    this.maintenance = startMaintenance(this, {
      compactionIntervalMs: opts.compactionIntervalMs ?? 5 * 60_000,
      ttlSweepIntervalMs: opts.ttlSweepIntervalMs ?? 1000,
    });
  }

  private checkOpen(key: string): void {
    if (this.closed) throw new StorageError('Unreachable', key, 'storage backend is closed');
  }

  private checkRevision(key: string, revision: number): void {
    if (revision < this.compacted) throw compactedError(key, this.compacted);
    if (revision > this.rev) {
      throw new StorageError('TooLargeResourceVersion', key, 'mvcc: required revision is a future revision', this.rev);
    }
  }

  async range(key: string, opts: RangeOptions = {}): Promise<RangeResult> {
    this.checkOpen(key);
    const revision = opts.revision !== undefined && opts.revision > 0 ? opts.revision : this.rev;
    this.checkRevision(key, revision);
    const atHead = revision === this.rev;
    if (opts.prefix !== true) {
      const row = atHead ? this.st.getCurrent.get(key) : this.st.getAt.get(key, revision);
      const kvs = row === undefined || row.deleted === 1 ? [] : [toKv(row)];
      return { revision: this.rev, kvs: opts.countOnly === true ? [] : kvs, more: false, count: kvs.length };
    }
    const start = opts.startKey !== undefined && opts.startKey > key ? opts.startKey : key;
    const end = prefixRangeEnd(key) || NO_END;
    const count = (): number => (atHead ? this.st.countCurrent.get(start, end) : this.st.countAt.get(start, end, revision))?.n ?? 0;
    if (opts.countOnly === true) return { revision: this.rev, kvs: [], more: false, count: count() };
    const limit = opts.limit !== undefined && opts.limit > 0 ? opts.limit : 0;
    // One row past the limit tells whether there is more.
    const sqlLimit = limit > 0 ? limit + 1 : -1;
    const rows = atHead ? this.st.rangeCurrent.all(start, end, sqlLimit) : this.st.rangeAt.all(start, end, revision, sqlLimit);
    const more = limit > 0 && rows.length > limit;
    if (more) rows.length = limit;
    return { revision: this.rev, kvs: rows.map(toKv), more, count: more ? count() : rows.length };
  }

  private readonly createTxn = (key: string, value: string, expiresAt: number): TxnResult => {
    const cur = this.st.getCurrent.get(key);
    if (cur !== undefined) return { succeeded: false, revision: this.rev, kv: toKv(cur) };
    const rev = this.rev + 1;
    this.st.insertLog.run(rev, key, rev, 0, 0, expiresAt, blob(value));
    this.st.insertCurrent.run(key, rev, expiresAt);
    this.rev = rev;
    return { succeeded: true, revision: rev, kv: { key, value, createRevision: rev, modRevision: rev, lease: 0, expiresAt } };
  };

  private readonly updateTxn = (key: string, value: string, expected: number, expiresAt: number): TxnResult & { prev?: KeyValue } => {
    const cur = this.st.getCurrent.get(key);
    if (cur === undefined || cur.rev !== expected) {
      return { succeeded: false, revision: this.rev, kv: cur === undefined ? undefined : toKv(cur) };
    }
    const rev = this.rev + 1;
    this.st.insertLog.run(rev, key, cur.created, 0, cur.rev, expiresAt, blob(value));
    this.st.updateCurrent.run(rev, expiresAt, key);
    this.rev = rev;
    const kv = { key, value, createRevision: cur.created, modRevision: rev, lease: 0, expiresAt };
    return { succeeded: true, revision: rev, kv, prev: toKv(cur) };
  };

  private readonly deleteTxn = (key: string, expected: number | undefined): TxnResult => {
    const cur = this.st.getCurrent.get(key);
    if (cur === undefined || (expected !== undefined && cur.rev !== expected)) {
      return { succeeded: false, revision: this.rev, kv: cur === undefined ? undefined : toKv(cur) };
    }
    const rev = this.rev + 1;
    this.st.insertLog.run(rev, key, 0, 1, cur.rev, 0, '');
    this.st.deleteCurrent.run(key);
    this.rev = rev;
    return { succeeded: true, revision: rev, kv: toKv(cur) };
  };

  private readonly txns = new Map<unknown, Database.Transaction<(...args: never[]) => unknown>>();
  /** Writes waiting for the next group commit, in arrival order. */
  private queued: QueuedWrite[] = [];
  private readonly batch: Database.Transaction<(ws: readonly QueuedWrite[]) => void>;

  /** fn as a transaction: its own (immediate) or, nested in a group commit, a savepoint. */
  private runTxn<A extends unknown[], R extends TxnResult>(nested: boolean, fn: (...args: A) => R, ...args: A): R {
    let txn = this.txns.get(fn) as Database.Transaction<(...args: A) => R> | undefined;
    if (txn === undefined) {
      txn = this.db.transaction(fn);
      this.txns.set(fn, txn as Database.Transaction<(...args: never[]) => unknown>);
    }
    return nested ? txn(...args) : txn.immediate(...args);
  }

  /** Runs a write transaction now; on failure the in-memory revision follows the rollback. */
  private write<A extends unknown[], R extends TxnResult>(fn: (...args: A) => R, ...args: A): R {
    const before = this.rev;
    try {
      return this.runTxn(false, fn, ...args);
    } catch (err) {
      this.rev = before;
      throw writeFailed(String(args[0]), err);
    }
  }

  /**
   * Group commit: the writes that arrive before the event loop's next check phase (the requests
   * read in one poll) share one transaction, each in a savepoint of its own (a failing one rolls
   * back alone). Each is acknowledged, and its change published, only after that commit, in
   * revision order, synchronously: durability and the watch hub's guarantees are unchanged.
   */
  private enqueue<R extends TxnResult>(key: string, txn: (nested: boolean) => R, published: (res: R) => void): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let res: R | undefined;
      let failure: StorageError | undefined;
      this.queued.push({
        run: (nested) => {
          const before = this.rev;
          try { res = txn(nested); } catch (err) { this.rev = before; failure = writeFailed(key, err); }
        },
        settle: (batchFailure) => {
          const err = batchFailure ?? failure;
          if (err !== undefined || res === undefined) { reject(err ?? writeFailed(key, 'no result')); return; }
          if (res.succeeded) published(res);
          resolve(res);
        },
      });
      if (this.queued.length === 1) setImmediate(() => this.commitQueued());
    });
  }

  private commitQueued(): void {
    const ws = this.queued;
    this.queued = [];
    if (this.closed) {
      for (const w of ws) w.settle(new StorageError('Unreachable', '', 'storage backend is closed'));
      return;
    }
    const before = this.rev;
    let failure: StorageError | undefined;
    try {
      if (ws.length === 1) ws[0]?.run(false);
      else this.batch.immediate(ws);
    } catch (err) {
      // The commit itself failed: none of the batch is stored.
      this.rev = before;
      failure = writeFailed('', err);
    }
    for (const w of ws) w.settle(failure);
  }

  async create(key: string, value: string, ttlSeconds?: number): Promise<TxnResult> {
    this.checkOpen(key);
    const expiresAt = expiry(ttlSeconds);
    return await this.enqueue(key, (nested) => this.runTxn(nested, this.createTxn, key, value, expiresAt),
      (res) => { if (res.kv !== undefined) this.hub.publish({ type: 'put', kv: res.kv, prevKv: undefined }); });
  }

  async update(key: string, value: string, expectedModRevision: number, ttlSeconds?: number): Promise<TxnResult> {
    this.checkOpen(key);
    const expiresAt = expiry(ttlSeconds);
    const { prev: _prev, ...res } = await this.enqueue(key,
      (nested) => this.runTxn(nested, this.updateTxn, key, value, expectedModRevision, expiresAt),
      (r) => { if (r.kv !== undefined) this.hub.publish({ type: 'put', kv: r.kv, prevKv: r.prev }); });
    return res;
  }

  async delete(key: string, expectedModRevision?: number): Promise<TxnResult> {
    this.checkOpen(key);
    return await this.enqueue(key, (nested) => this.runTxn(nested, this.deleteTxn, key, expectedModRevision),
      (res) => this.hub.publish({ type: 'delete', kv: tombstone(key, res.revision), prevKv: res.kv }));
  }

  async watch(key: string, opts: BackendWatchOptions, handler: BackendWatchHandler): Promise<BackendWatcher> {
    this.checkOpen(key);
    if (opts.fromRevision < this.compacted) throw compactedError(key, this.compacted);
    const end = opts.prefix ? prefixRangeEnd(key) || NO_END : `${key}\u0000`;
    const sub: Subscriber = { start: key, end, handler, lastRev: Math.max(0, opts.fromRevision), cancelled: false };
    let live = false;
    const watcher: BackendWatcher = {
      requestProgress: () => queueMicrotask(() => {
        // Every commit up to this.rev has already been published to live subscribers.
        if (live && !sub.cancelled) handler.onProgress(this.rev);
      }),
      cancel: () => this.hub.remove(sub),
    };
    for (let first = true; ; first = false) {
      if (sub.cancelled) return watcher;
      if (this.closed) { handler.onError(new StorageError('Unreachable', key, 'storage backend is closed')); return watcher; }
      if (sub.lastRev < this.compacted) {
        // Compaction overtook the replay: the rest of the history is gone.
        if (first) throw compactedError(key, this.compacted);
        sub.cancelled = true;
        handler.onError(compactedError(key, this.compacted));
        return watcher;
      }
      const rows = this.st.history.all(sub.lastRev, sub.start, sub.end, REPLAY_CHUNK);
      const last = rows[rows.length - 1];
      if (last !== undefined) {
        sub.lastRev = last.rev;
        handler.onEvents(rows.map(historyEvent));
      }
      if (rows.length < REPLAY_CHUNK) break;
      await yieldToLoop();
    }
    // Same synchronous step as the last history read: no commit can fall in between.
    this.hub.add(sub);
    live = true;
    return watcher;
  }

  async compact(revision: number): Promise<void> {
    this.checkOpen('');
    if (revision <= this.compacted) throw compactedError('', this.compacted);
    this.checkRevision('', revision);
    // Reads below the new revision fail from now on, before any row is gone.
    this.st.setMeta.run(COMPACTED_REV, revision);
    this.compacted = revision;
    // From the start: a version kept by an earlier compaction may be superseded now.
    for (let lo = 0; lo < revision; lo += COMPACT_CHUNK) {
      if (this.closed) return;
      this.st.compactChunk.run(lo, lo + COMPACT_CHUNK, revision, revision);
      await yieldToLoop();
    }
  }

  async compactedRevision(): Promise<number> { return this.compacted; }

  async currentRevision(): Promise<number> { return this.rev; }

  async count(prefix: string): Promise<number> {
    return (await this.range(prefix, { prefix: true, countOnly: true })).count;
  }

  /** Deletes keys whose expiry has passed, each as a normal delete revision. Returns how many. */
  sweepExpired(now = Date.now()): number {
    if (this.closed) return 0;
    let n = 0;
    for (const { key, rev } of this.st.expired.all(now, 1000)) {
      const res = this.write(this.deleteTxn, key, rev);
      if (res.succeeded) {
        n++;
        this.hub.publish({ type: 'delete', kv: tombstone(key, res.revision), prevKv: res.kv });
      }
    }
    return n;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.maintenance.stop();
    this.hub.closeAll(new StorageError('Unreachable', '', 'storage backend is closed'));
    this.db.close();
  }
}

/** Opens (creating if needed) a sqlite store at opts.path. */
export async function openSqliteBackend(opts: SqliteBackendOptions): Promise<SqliteBackend> {
  return new SqliteBackend(opts);
}
