// One client watch served by the cacher: the events of the shared stream that concern its key
// and selector, with a selector's transitions turned into ADDED and DELETED, behind a bounded
// queue (a consumer that falls too far behind is ended, as kube's cacher terminates it).
// Events are the cache's shared objects: one WatchEvent per change, whatever the number of watchers.
// Counterpart of k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { Watch, WatchEvent } from '../../apimachinery/watch/event.ts';
import { EventQueue } from '../event-queue.ts';
import type { SelectionPredicate } from '../interfaces.ts';
import type { CacheEvent } from './watch-cache.ts';

export interface WatcherScope {
  /** The key watched: a prefix ending in '/' when recursive, else one object's key. */
  readonly key: string;
  readonly recursive: boolean;
  readonly predicate: SelectionPredicate;
  readonly allowBookmarks: boolean;
}

export class CacheWatcher implements Watch {
  private readonly queue: EventQueue<WatchEvent>;
  /** Events at or below this revision were delivered already (initial state, replay). */
  private minRev: number;
  /** The value of the cacher's trigger field this watcher selects, if it selects one. */
  trigger: string | undefined;

  constructor(readonly scope: WatcherScope, fromRev: number, bufferSize: number, onEnd: (w: CacheWatcher) => void) {
    this.minRev = fromRev;
    this.queue = new EventQueue<WatchEvent>(bufferSize, () => onEnd(this));
  }

  get done(): boolean { return this.queue.done; }

  matchesKey(key: string): boolean {
    return this.scope.recursive ? key.startsWith(this.scope.key) : key === this.scope.key;
  }

  private matches(obj: KubeObject): boolean {
    const p = this.scope.predicate;
    return p.empty || p.matches(obj);
  }

  /** The event this watcher sees for a change, if any (kube's convertToWatchEvent). */
  private convert(ev: CacheEvent): WatchEvent | undefined {
    const p = this.scope.predicate;
    if (p.empty) return ev.event();
    if (ev.type === 'DELETED') return p.matches(ev.obj) ? ev.event() : undefined;
    const cur = p.matches(ev.obj);
    const old = ev.prev !== undefined && p.matches(ev.prev);
    if (cur && old) return ev.event();
    if (cur) return ev.added();
    if (old) return ev.deleted();
    return undefined;
  }

  /** Initial events queued (apiserver_init_events_total). */
  initialCount = 0;

  /** Queues the initial state (never dropped: the buffer bounds what follows). */
  pushInitial(ev: WatchEvent): void {
    if (ev.type !== 'BOOKMARK') {
      if (!this.matches(ev.object)) return;
      this.initialCount++;
    }
    this.queue.pushUnbounded(ev);
  }

  /** Delivers a change; false when the watcher ended (overflow). A replay from the buffer is unbounded. */
  deliver(ev: CacheEvent, bounded = true): boolean {
    if (ev.rev <= this.minRev || !this.matchesKey(ev.key)) return true;
    this.minRev = ev.rev;
    const out = this.convert(ev);
    return out === undefined || this.queue.push(out, bounded);
  }

  /** A BOOKMARK at `rev` when bookmarks are allowed and it moves this watcher forward. */
  bookmark(rev: number, event: () => WatchEvent): void {
    if (!this.scope.allowBookmarks || rev < this.minRev || this.queue.done) return;
    this.minRev = rev;
    this.queue.push(event());
  }

  /** Ends the stream with an ERROR event (after what is queued). */
  fail(ev: WatchEvent): void {
    this.queue.pushUnbounded(ev);
    this.queue.end();
  }

  /** Ends the stream after what is queued (the cache restarts: the client re-watches). */
  end(): void { this.queue.end(); }

  stop(): void { this.queue.clear(); }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> { return this.queue[Symbol.asyncIterator](); }
}
