// The watch cache of one resource, decorating its storage: one backend watch keeps an in-memory
// copy (watch-cache.ts) that serves every client watch (fanned out, each change turned into one
// shared event), gets at a resourceVersion and the lists kube serves from its cache. Writes and
// what the cache cannot answer go to the storage it decorates. Until its first list the cacher
// answers everything from storage; when its backend watch fails it ends every client watch
// (clients re-watch, as from kube's cacher) and lists again.
// Counterpart of k8s.io/apiserver/pkg/storage/cacher/cacher.go (with cache_watcher.go and
// delegator.go), fed by the backend directly instead of a reflector over storage.Interface.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { Watch, WatchEvent } from '../../apimachinery/watch/event.ts';
import type { Backend, BackendEvent, BackendWatcher } from '../backend.ts';
import {
  StorageError, type Codec, type GetOptions, type Interface, type ListOptions, type ListResult, type WatchOptions,
} from '../interfaces.ts';
import { decodeAt, parseResourceVersion } from '../versioner.ts';
import { listFromCache, listOne, planList, type ListStats } from './cache-list.ts';
import { CacheWatcher, type WatcherScope } from './cache-watcher.ts';
import { Compactor } from './compactor.ts';
import { deepFreeze } from './freeze.ts';
import { WatcherSet } from './watcher-set.ts';
import { FreshWaiters } from './fresh-waiters.ts';
import { delegatedWhileUnready, storageInitializing } from './unready.ts';
import { DEFAULT_SIZING, WatchCache, type CacheSizing, type IndexFunc } from './watch-cache.ts';
import { CacherMetrics } from './metrics.ts';

const INITIAL_EVENTS_ANNOTATION = 'k8s.io/initial-events-end';
const LIST_PAGE = 10_000;
const MAX_BACKOFF_MS = 5_000;
/** The pause before watching again from before an event that does not decode (kube's reflector: 1 s). */
const REWATCH_MS = 1_000;

export interface CacherOptions {
  /** The storage decorated: writes, and reads the cache does not answer. */
  readonly storage: Interface;
  /** Where the cache's one watch comes from (and its progress notifications). */
  readonly backend: Backend;
  readonly codec: Codec;
  /** The resource's key prefix, e.g. /registry/pods: keys outside it go to storage. */
  readonly resourcePrefix: string;
  /** The event buffer: a fixed capacity, or bounds and a history length (default kube's 100–102400 events, 75 s). */
  readonly capacity?: number | CacheSizing;
  readonly newBookmark?: (resourceVersion: string) => KubeObject;
  readonly bookmarkIntervalMs?: number;
  readonly watchBufferSize?: number;
  readonly freshnessWaitMs?: number;
  /** Fields indexed for lists and watches with an exact field selector; the first buckets watchers. */
  readonly indexes?: ReadonlyMap<string, IndexFunc>;
  readonly log?: (message: string) => void;
  /** The Go type kube's reflector names in its list errors: "*core.ConfigMap", "*unstructured.Unstructured". */
  readonly objectType?: string;
  /** The resource's metrics (apiserver_watch_cache_*, apiserver_cache_list_*). */
  readonly metrics?: CacherMetrics;
}

export class Cacher implements Interface {
  private readonly storage: Interface;
  private readonly prefix: string;
  private readonly cache: WatchCache;
  private readonly watchers: WatcherSet;
  private readonly fresh: FreshWaiters;
  private backendWatcher: BackendWatcher | undefined;
  private isReady = false;
  /** Why the last list or watch of the cache failed; undefined once it serves again. */
  private lastError: string | undefined;
  /** When the cache last became ready or unready (kube's ready.lastStateChangeTime), in ms. */
  private stateChangedAt = Date.now();
  private stopped = false;
  private bookmarkPending = false;
  private readonly compactor: Compactor;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly readyPromise: Promise<void>;
  private markReady: () => void = () => {};
  private readonly metrics: CacherMetrics;

  constructor(private readonly opts: CacherOptions) {
    this.storage = opts.storage;
    this.prefix = opts.resourcePrefix.endsWith('/') ? opts.resourcePrefix : `${opts.resourcePrefix}/`;
    this.cache = new WatchCache(opts.capacity ?? DEFAULT_SIZING, opts.indexes);
    this.metrics = opts.metrics ?? new CacherMetrics(this.prefix);
    this.cache.onCapacity = (from, to) => { this.metrics.capacityChanged(from, to); };
    this.metrics.capacityChanged(this.cache.capacity, this.cache.capacity);
    this.fresh = new FreshWaiters(() => this.cache.rev, () => this.backendWatcher?.requestProgress(), opts.freshnessWaitMs);
    // Watchers are bucketed by the first indexed field (kube's trigger: pods by spec.nodeName).
    this.watchers = new WatcherSet(this.cache, opts.indexes?.keys().next().value);
    this.readyPromise = new Promise((resolve) => { this.markReady = resolve; });
    const interval = setInterval(() => this.tickBookmarks(), opts.bookmarkIntervalMs ?? 60_000);
    interval.unref();
    this.timers.add(interval);
    this.compactor = new Compactor(opts.backend);
    void this.run();
  }

  /** Resolves once the cache holds its first list (and serves reads). */
  ready(): Promise<void> { return this.readyPromise; }

  /** Ends the cache's watch and every client watch; reads and writes then go to storage. */
  stop(): void {
    this.stopped = true;
    this.isReady = false;
    this.backendWatcher?.cancel();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.compactor.stop();
    this.watchers.endAll();
    this.fresh.stop();
  }

  /** The key is the resource's prefix or under it, and the cache serves. */
  private covers(key: string): boolean {
    return this.isReady && (key.startsWith(this.prefix) || `${key}/` === this.prefix);
  }

  // ---- the reflector: list, then follow the backend watch; again after a failure ----

  private async run(): Promise<void> {
    let backoff = 100;
    // One line per outage, not one per retry (a closed or unreachable backend retries every 5 s).
    let failing = false;
    while (!this.stopped) {
      try {
        const rev = await this.listAll();
        if (this.stopped) return;
        const ended = await this.follow(rev);
        backoff = 100;
        failing = false;
        await ended;
      } catch (err) {
        const text = err instanceof Error ? err.message : String(err);
        if (!this.stopped && !failing) this.log(`watch cache ${this.prefix}: ${text}`);
        failing = true;
        // A value that does not decode keeps the cache down: reads that need it answer kube's 429.
        // Storage down is different: reads go to storage, which answers for itself, and nothing
        // waits for the cache's next attempt once storage is back (kube: 429 until its relist).
        const down = err instanceof StorageError && err.code === 'Unreachable';
        this.lastError = down ? undefined : `failed to list ${this.opts.objectType ?? this.prefix}: ${text}`;
      }
      if (this.isReady) this.stateChangedAt = Date.now();
      this.isReady = false;
      this.backendWatcher = undefined;
      this.watchers.endAll();
      if (this.stopped) return;
      await this.sleep(backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }

  /** Reads every object of the resource at one revision into the cache; returns that revision. */
  private async listAll(): Promise<number> {
    const items: { key: string; obj: KubeObject }[] = [];
    let revision = 0;
    let startKey = this.prefix;
    for (;;) {
      const res = await this.opts.backend.range(this.prefix, { prefix: true, startKey, limit: LIST_PAGE, ...(revision > 0 ? { revision } : {}) });
      if (revision === 0) revision = res.revision;
      for (const kv of res.kvs) items.push({ key: kv.key, obj: deepFreeze(decodeAt(this.opts.codec, kv.value, kv.modRevision)) });
      const last = res.kvs[res.kvs.length - 1];
      if (!res.more || last === undefined) break;
      startKey = `${last.key}\u0000`;
    }
    this.cache.replace(items, revision);
    this.metrics.initialized(revision);
    return revision;
  }

  /**
   * Starts the backend watch after `rev`; resolves a promise that settles when that watch ends.
   * An event whose value does not decode stops the cache before it, as kube's reflector: the
   * watch is started again from the last revision applied, and meets the value again, until the
   * value is history (compacted: the watch fails, the cache lists again). Meanwhile the cache
   * serves what it had, and reads that must be fresher than it go to storage (which fails them).
   */
  private async follow(rev: number): Promise<Promise<void>> {
    let ended: () => void = () => {};
    const done = new Promise<void>((resolve) => { ended = resolve; });
    let stuckOn = '';
    // A cancelled watch may still deliver what it had queued: only the newest one's calls count.
    let generation = 0;
    const start = (from: number): Promise<BackendWatcher> => {
      const mine = ++generation;
      return this.opts.backend.watch(this.prefix, { prefix: true, fromRevision: from }, {
        onEvents: (events) => {
          if (mine !== generation) return;
          const bad = this.onEvents(events);
          if (bad === undefined) return;
          if (bad.key !== stuckOn) this.log(`watch cache ${this.prefix}: cannot decode ${bad.key}@${bad.rev}: ${bad.message}`);
          stuckOn = bad.key;
          rewatch();
        },
        onProgress: (r) => { if (mine === generation) this.onProgress(r); },
        onError: (err) => {
          if (mine !== generation) return;
          if (!this.stopped) this.log(`watch cache ${this.prefix}: watch ended: ${err.message}`);
          ended();
        },
      });
    };
    const rewatch = (): void => {
      generation++;
      this.backendWatcher?.cancel();
      this.backendWatcher = undefined;
      void this.sleep(REWATCH_MS).then(async () => {
        if (this.stopped) { ended(); return; }
        try {
          this.backendWatcher = await start(this.cache.rev);
          if (this.stopped) this.backendWatcher.cancel();
        } catch (err) {
          if (!this.stopped) this.log(`watch cache ${this.prefix}: watch ended: ${err instanceof Error ? err.message : String(err)}`);
          ended();
        }
      });
    };
    const watcher = await start(rev);
    if (this.stopped) { watcher.cancel(); ended(); return done; }
    this.backendWatcher = watcher;
    this.isReady = true;
    this.lastError = undefined;
    this.stateChangedAt = Date.now();
    this.markReady();
    return done;
  }

  /** Applies a batch of events up to the first whose value does not decode, which it returns. */
  private onEvents(events: readonly BackendEvent[]): { key: string; rev: number; message: string } | undefined {
    let bad: { key: string; rev: number; message: string } | undefined;
    for (const ev of events) {
      const rev = ev.kv.modRevision;
      let obj: KubeObject | undefined;
      if (ev.type === 'put') {
        try {
          obj = deepFreeze(decodeAt(this.opts.codec, ev.kv.value, rev));
        } catch (err) {
          bad = { key: ev.kv.key, rev, message: err instanceof Error ? err.message : String(err) };
          break;
        }
      }
      const change = this.cache.apply(ev.kv.key, obj, rev);
      if (change !== undefined) this.watchers.dispatch(change);
      this.metrics.event(rev);
    }
    this.fresh.wake();
    return bad;
  }

  private onProgress(rev: number): void {
    this.cache.progress(rev);
    this.metrics.revision(this.cache.rev);
    this.fresh.wake();
    if (!this.bookmarkPending) return;
    this.bookmarkPending = false;
    let shared: WatchEvent | undefined;
    const at = this.cache.rev;
    for (const w of this.watchers.all) w.bookmark(at, () => (shared ??= this.bookmarkEvent(at, false)));
  }

  /** Periodic bookmarks: ask the backend where it is; onProgress sends them. */
  private tickBookmarks(): void {
    if (!this.isReady) return;
    for (const w of this.watchers.all) {
      if (w.scope.allowBookmarks) {
        this.bookmarkPending = true;
        this.backendWatcher?.requestProgress();
        return;
      }
    }
  }

  private bookmarkEvent(rev: number, initialEnd: boolean): WatchEvent {
    const obj = this.opts.newBookmark?.(String(rev)) ?? { metadata: { resourceVersion: String(rev) } };
    if (initialEnd) obj.metadata.annotations = { ...obj.metadata.annotations, [INITIAL_EVENTS_ANNOTATION]: 'true' };
    return { type: 'BOOKMARK', object: obj };
  }

  /** Waits for the cache to reach `minimum`, timed in apiserver_watch_cache_read_wait_seconds. */
  private async waitFresh(minimum: number): Promise<boolean> {
    const start = process.hrtime.bigint();
    const fresh = await this.fresh.wait(minimum);
    this.metrics.waited(Number(process.hrtime.bigint() - start) / 1e9);
    return fresh;
  }

  private tooLarge(key: string, minimum: number): StorageError {
    const cur = this.cache.rev;
    return new StorageError('TooLargeResourceVersion', key, `Too large resource version: ${minimum}, current: ${cur}`, cur);
  }

  // ---- storage.Interface ----

  create(key: string, obj: KubeObject, ttlSeconds?: number): Promise<KubeObject> { return this.storage.create(key, obj, ttlSeconds); }

  guaranteedUpdate(key: string, opts: Parameters<Interface['guaranteedUpdate']>[1]): Promise<KubeObject> {
    return this.storage.guaranteedUpdate(key, opts.shared === true && this.covers(key) ? { ...opts, decoded: (rev: number) => this.cache.objectAt(key, rev) } : opts);
  }

  delete(key: string, opts: Parameters<Interface['delete']>[1]): Promise<KubeObject> { return this.storage.delete(key, opts); }
  count(key: string): Promise<number> { return this.storage.count(key); }
  currentRevision(): Promise<number> { return this.storage.currentRevision(); }

  roundTrip(obj: KubeObject): Promise<KubeObject> { return this.storage.roundTrip?.(obj) ?? Promise.resolve(obj); }

  /**
   * resourceVersion "" reads storage (a consistent read; the cache's decode of what it read is
   * shared when the caller allows); any other from memory, once fresh enough.
   */
  async get(key: string, opts: GetOptions): Promise<KubeObject | undefined> {
    if (!this.covers(key)) return this.storage.get(key, opts);
    if ((opts.resourceVersion ?? '') === '') return this.storage.get(key, opts.shared === true ? { ...opts, decoded: (rev: number) => this.cache.objectAt(key, rev) } : opts);
    const rv = parseResourceVersion(key, opts.resourceVersion);
    if (!(await this.waitFresh(rv))) throw this.tooLarge(key, rv);
    const e = this.cache.get(key);
    if (e !== undefined) return e.obj;
    if (opts.ignoreNotFound === true) return undefined;
    throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
  }

  /** kube's 429 while the cache cannot list (see unready.ts); undefined when it serves or storage answers. */
  private initializing(key: string): Error | undefined {
    if (this.isReady || this.stopped || this.lastError === undefined || !(key.startsWith(this.prefix) || `${key}/` === this.prefix)) return undefined;
    return storageInitializing(this.lastError, Date.now() - this.stateChangedAt);
  }

  async getList(key: string, opts: ListOptions): Promise<ListResult> {
    const unready = this.initializing(key);
    if (unready !== undefined && !delegatedWhileUnready(opts)) throw unready;
    if (!this.covers(key)) return this.storage.getList(key, opts);
    const keyPrefix = opts.recursive && !key.endsWith('/') ? `${key}/` : key;
    const plan = planList(this.cache, keyPrefix, opts);
    const read = (rev: number, startKey: string): ListResult => {
      const stats: ListStats = { index: '', fetched: 0 };
      const r = opts.recursive ? listFromCache(this.cache, keyPrefix, rev, startKey, opts, stats) : listOne(this.cache, key, rev, opts);
      this.metrics.list(stats.index, opts.recursive ? stats.fetched : r.items.length, r.items.length);
      return r;
    };
    switch (plan.kind) {
      case 'delegate': return this.storage.getList(key, opts);
      case 'consistent': {
        // kube's consistent read from cache: catch up with storage's revision, else read storage.
        const current = await this.storage.currentRevision();
        if (!(await this.waitFresh(current)) || !this.isReady) {
          const fallback = await this.storage.getList(key, opts).catch((err: unknown) => { this.metrics.consistentRead(false, true); throw err; });
          this.metrics.consistentRead(true, true);
          return fallback;
        }
        this.metrics.consistentRead(true, false);
        return read(this.cache.rev, '');
      }
      case 'notOlderThan': {
        if (!(await this.waitFresh(plan.minimum))) throw this.tooLarge(key, plan.minimum);
        if (!plan.ignoreLimit || opts.limit === undefined) return read(this.cache.rev, '');
        const { limit: _limit, ...whole } = opts;
        return opts.recursive ? listFromCache(this.cache, keyPrefix, this.cache.rev, '', whole) : read(this.cache.rev, '');
      }
      case 'exact': {
        if (!(await this.waitFresh(plan.rev))) throw this.tooLarge(key, plan.rev);
        // As kube's cache drops snapshots below etcd's compaction: storage answers those (410).
        const compacted = await this.compactor.revision();
        // The window may have moved on while waiting.
        if (!this.isReady || plan.rev < compacted || plan.rev < this.cache.oldestRev()) return this.storage.getList(key, opts);
        return read(plan.rev, plan.startKey);
      }
    }
  }

  async watch(key: string, opts: WatchOptions): Promise<Watch> {
    const unready = this.initializing(key);
    if (unready !== undefined) throw unready;
    if (!this.covers(key)) return this.storage.watch(key, opts);
    const rv = parseResourceVersion(key, opts.resourceVersion);
    const scope: WatcherScope = {
      key: opts.recursive && !key.endsWith('/') ? `${key}/` : key, recursive: opts.recursive,
      predicate: opts.predicate, allowBookmarks: opts.allowBookmarks === true,
    };
    if (opts.sendInitialEvents === true) {
      // WatchList: the initial state is at least as fresh as rv, or storage's newest ("").
      const minimum = (opts.resourceVersion ?? '') === '' ? await this.storage.currentRevision() : rv;
      if (!(await this.fresh.wait(minimum))) throw this.tooLarge(key, minimum);
    }
    if (!this.isReady) return this.storage.watch(key, opts);
    const initial = opts.sendInitialEvents ?? rv === 0;
    const bufferSize = this.opts.watchBufferSize ?? 10_000;
    const onEnd = (w: CacheWatcher): void => { this.watchers.unregister(w); };
    let w: CacheWatcher;
    // From here to the registration nothing awaits: no change slips between state and stream.
    if (initial) {
      const at = this.cache.rev;
      w = new CacheWatcher(scope, at, bufferSize, onEnd);
      if (scope.recursive) {
        for (const e of this.cache.entries(scope.key, '', at)) w.pushInitial(e.added ??= { type: 'ADDED', object: e.obj });
      } else {
        const e = this.cache.get(scope.key);
        if (e !== undefined) w.pushInitial(e.added ??= { type: 'ADDED', object: e.obj });
      }
      if (opts.sendInitialEvents === true && scope.allowBookmarks) w.pushInitial(this.bookmarkEvent(at, true));
    } else {
      const from = rv === 0 ? this.cache.rev : rv;
      const oldest = this.cache.oldestRev();
      if (from < oldest) {
        throw new StorageError('Compacted', key, `too old resource version: ${rv} (${oldest})`, oldest);
      }
      w = new CacheWatcher(scope, from, bufferSize, onEnd);
      for (const ev of this.cache.eventsAfter(from)) w.deliver(ev, false);
    }
    this.metrics.initEvents(w.initialCount);
    this.watchers.register(w);
    const signal = opts.signal;
    if (signal?.aborted === true) w.stop();
    else signal?.addEventListener('abort', () => w.stop(), { once: true });
    return w;
  }

  private log(message: string): void { (this.opts.log ?? ((m) => console.error(m)))(message); }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => { this.timers.delete(t); resolve(); }, ms);
      t.unref();
      this.timers.add(t);
    });
  }
}
