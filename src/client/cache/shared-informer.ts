// client-go's shared informer (tools/cache/shared_informer.go with the reflector of reflector.go):
// lists a resource, then watches from the list's resourceVersion, keeping an Indexer equal to
// storage and telling every registered handler what changed. A watch that ends is resumed from
// the last resourceVersion seen; one that is too old (410 Expired) or fails is replaced by a new
// list, whose differences from the cache reach the handlers as adds, updates and deletes. A
// handler that throws is logged and does not stop the others, nor the informer. A first list that
// fails (storage down, an object nobody can decode) is retried with backoff for ever, as the
// reflector retries: the server starts and serves, unsynced informers show in /readyz.
// Counterpart of k8s.io/client-go/tools/cache/{shared_informer.go,reflector.go}.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { isResourceExpired } from '../../apimachinery/errors/status-error.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { Watch } from '../../apimachinery/watch/event.ts';
import { Indexer, metaNamespaceKey, type IndexFunc } from './indexer.ts';
import type { ListWatcher } from './list-watch.ts';

/** ResourceEventHandler; a returned promise that rejects is logged like a throw. */
export interface ResourceEventHandler<T extends KubeObject = KubeObject> {
  /** `initialList`: the object came with the first list (isInInitialList). */
  onAdd?(obj: T, initialList: boolean): void | Promise<void>;
  /** Also called with the same object twice on a resync. */
  onUpdate?(oldObj: T, newObj: T): void | Promise<void>;
  /** The last state the informer knew: a relist that misses an object reports that one. */
  onDelete?(obj: T): void | Promise<void>;
}

export interface HandlerOptions {
  /** Every this many ms the handler gets onUpdate(o, o) for every cached object; 0 or absent: never. */
  readonly resyncMs?: number;
}

export interface SharedInformerOptions<T extends KubeObject = KubeObject> {
  /** For log lines: "namespaces", "clusterroles.rbac.authorization.k8s.io". */
  readonly name?: string;
  readonly indexers?: Readonly<Record<string, IndexFunc<T>>>;
  /** First pause before listing again after a failure; it doubles up to maxBackoffMs (reflector's backoff). */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
  readonly log?: (message: string) => void;
}

const DEFAULT_BACKOFF_MS = 800;
const DEFAULT_MAX_BACKOFF_MS = 30_000;

/** Why a watch stopped: it simply ended (resume), its revision is gone (relist), or it failed (back off, relist). */
type WatchEnd = 'ended' | 'expired' | 'failed';

export class SharedInformer<T extends KubeObject = KubeObject> {
  readonly indexer: Indexer<T>;
  private readonly handlers = new Set<ResourceEventHandler<T>>();
  private readonly abort = new AbortController();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly log: (message: string) => void;
  private running: Promise<void> | undefined;
  private synced = false;
  private readonly syncWaiters = new Set<(synced: boolean) => void>();
  private watch: Watch<T> | undefined;
  private lastResourceVersion = '';

  constructor(private readonly lw: ListWatcher<T>, private readonly opts: SharedInformerOptions<T> = {}) {
    this.indexer = new Indexer<T>(opts.indexers);
    this.log = opts.log ?? ((m) => console.error(m));
  }

  /**
   * Registers a handler. Once the informer has synced, the handler first gets onAdd for every
   * cached object, as client-go replays them. Returns what unregisters it.
   */
  addEventHandler(handler: ResourceEventHandler<T>, opts: HandlerOptions = {}): () => void {
    this.handlers.add(handler);
    if (this.synced) for (const o of this.indexer.list()) this.call(handler, 'onAdd', () => handler.onAdd?.(o, true));
    let timer: NodeJS.Timeout | undefined;
    if ((opts.resyncMs ?? 0) > 0) {
      timer = setInterval(() => {
        if (!this.synced) return;
        for (const o of this.indexer.list()) this.call(handler, 'onUpdate', () => handler.onUpdate?.(o, o));
      }, opts.resyncMs);
      timer.unref();
      this.timers.add(timer);
    }
    return () => {
      this.handlers.delete(handler);
      if (timer !== undefined) { clearInterval(timer); this.timers.delete(timer); }
    };
  }

  /**
   * Starts following (idempotent). Resolves once the first list is in the cache (HasSynced), or
   * once that first list has failed: the informer then keeps listing, with backoff, until one
   * succeeds (see hasSynced and waitForSync). Never rejects.
   */
  start(): Promise<void> {
    this.running ??= new Promise<void>((resolve) => { void this.run(resolve); });
    return this.running;
  }

  /** Starts the informer; resolves true once it has synced, false if it stops first (WaitForCacheSync). */
  async waitForSync(): Promise<boolean> {
    await this.start();
    if (this.synced) return true;
    if (this.stopped) return false;
    return new Promise<boolean>((resolve) => { this.syncWaiters.add(resolve); });
  }

  /** Ends the watch and every timer; the cache keeps what it had. Idempotent. */
  stop(): void {
    for (const w of this.syncWaiters) w(false);
    this.syncWaiters.clear();
    this.abort.abort();
    this.watch?.stop();
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
  }

  hasSynced(): boolean { return this.synced; }

  get stopped(): boolean { return this.abort.signal.aborted; }

  /** The resourceVersion the cache is at (LastSyncResourceVersion). */
  lastSyncResourceVersion(): string { return this.lastResourceVersion; }

  get(namespace: string, name: string): T | undefined { return this.indexer.get(namespace, name); }

  list(): T[] { return this.indexer.list(); }

  byNamespace(namespace: string): T[] { return this.indexer.byNamespace(namespace); }

  byIndex(indexName: string, value: string): T[] { return this.indexer.byIndex(indexName, value); }

  addIndexers(indexers: Readonly<Record<string, IndexFunc<T>>>): void { this.indexer.addIndexers(indexers); }

  /** ListAndWatch, again and again until stop(). */
  private async run(resolve: () => void): Promise<void> {
    const signal = this.abort.signal;
    let backoff = this.opts.backoffMs ?? DEFAULT_BACKOFF_MS;
    let needList = true;
    // One log line per cause: a list failing for ever (a corrupt object) logs again only when its error changes.
    let lastError = '';
    while (!signal.aborted) {
      let end: WatchEnd;
      let listing = needList;
      try {
        if (needList) {
          const list = await this.lw.list(systemContext('', signal), {});
          if (signal.aborted) break;
          this.replace(list.items);
          this.lastResourceVersion = list.metadata.resourceVersion ?? '';
          if (!this.synced) this.markSynced(resolve);
        }
        listing = false;
        lastError = '';
        end = await this.watchOnce();
      } catch (err) {
        end = isResourceExpired(err) ? 'expired' : 'failed';
        const text = err instanceof Error ? err.message : String(err);
        if (end === 'failed' && !signal.aborted && text !== lastError) {
          this.log(`informer ${this.opts.name ?? ''}: ${listing ? 'failed to list' : 'watch failed'}: ${text}`);
        }
        lastError = text;
        // The first list failed: whoever waits for the start goes on; the list is retried.
        if (!this.synced) resolve();
      }
      needList = end !== 'ended';
      if (end === 'failed') {
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, this.opts.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS);
      } else {
        backoff = this.opts.backoffMs ?? DEFAULT_BACKOFF_MS;
      }
    }
    if (!this.synced) resolve();
  }

  private markSynced(resolve: () => void): void {
    this.synced = true;
    resolve();
    for (const w of this.syncWaiters) w(true);
    this.syncWaiters.clear();
  }

  /** Watches from the last resourceVersion until the watch ends; says how it ended. */
  private async watchOnce(): Promise<WatchEnd> {
    const w = await this.lw.watch(systemContext('', this.abort.signal), { resourceVersion: this.lastResourceVersion, allowWatchBookmarks: true });
    this.watch = w;
    if (this.abort.signal.aborted) w.stop();
    let delivered = false;
    try {
      for await (const ev of w) {
        if (ev.type === 'ERROR') return ev.object.code === 410 || ev.object.reason === 'Expired' || ev.object.reason === 'Gone' ? 'expired' : 'failed';
        const rv = ev.object.metadata.resourceVersion;
        if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.apply(ev.object);
        else if (ev.type === 'DELETED') this.remove(ev.object);
        if (rv !== undefined && rv !== '') this.lastResourceVersion = rv;
        delivered = true;
      }
    } finally {
      w.stop();
      this.watch = undefined;
    }
    // A watch that ends before saying anything may end again at once: list instead of spinning.
    return delivered ? 'ended' : 'failed';
  }

  private apply(obj: T): void {
    const old = this.indexer.set(obj);
    if (old === undefined) this.dispatch('onAdd', (h) => h.onAdd?.(obj, false));
    else this.dispatch('onUpdate', (h) => h.onUpdate?.(old, obj));
  }

  private remove(obj: T): void {
    const old = this.indexer.delete(metaNamespaceKey(obj));
    this.dispatch('onDelete', (h) => h.onDelete?.(old ?? obj));
  }

  /** Replace: the cache becomes the list; handlers hear what differs from what they were told. */
  private replace(items: readonly T[]): void {
    const initial = !this.synced;
    const seen = new Set<string>();
    for (const obj of items) {
      seen.add(metaNamespaceKey(obj));
      const old = this.indexer.set(obj);
      if (old === undefined) this.dispatch('onAdd', (h) => h.onAdd?.(obj, initial));
      else this.dispatch('onUpdate', (h) => h.onUpdate?.(old, obj));
    }
    for (const key of this.indexer.listKeys()) {
      if (seen.has(key)) continue;
      const old = this.indexer.delete(key);
      if (old !== undefined) this.dispatch('onDelete', (h) => h.onDelete?.(old));
    }
  }

  private dispatch(what: string, fn: (h: ResourceEventHandler<T>) => void | Promise<void>): void {
    for (const h of this.handlers) this.call(h, what, () => fn(h));
  }

  private call(_h: ResourceEventHandler<T>, what: string, fn: () => void | Promise<void>): void {
    try {
      const r = fn();
      if (r instanceof Promise) r.catch((err: unknown) => { this.log(`informer ${this.opts.name ?? ''}: ${what} handler: ${String(err)}`); });
    } catch (err) {
      this.log(`informer ${this.opts.name ?? ''}: ${what} handler: ${String(err)}`);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.abort.signal.aborted) { resolve(); return; }
      const t = setTimeout(() => { this.timers.delete(t); resolve(); }, ms);
      this.timers.add(t);
      this.abort.signal.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
    });
  }
}
