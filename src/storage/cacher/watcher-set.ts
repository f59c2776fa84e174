// The client watches of one watch cache, each change delivered only to those it may concern:
// watchers whose field selector requires one value of the cache's trigger field (pods by
// spec.nodeName) sit in that value's bucket, the others get every change.
// Counterpart of the watchers/triggerFunc bookkeeping of k8s.io/apiserver/pkg/storage/cacher/cacher.go.
import { indexMatch } from './cache-list.ts';
import type { CacheWatcher } from './cache-watcher.ts';
import type { CacheEvent, WatchCache } from './watch-cache.ts';

export class WatcherSet {
  readonly all = new Set<CacheWatcher>();
  private readonly untriggered = new Set<CacheWatcher>();
  private readonly byTrigger = new Map<string, Set<CacheWatcher>>();

  /** `triggerField`: the indexed field watchers are bucketed by. */
  constructor(private readonly cache: WatchCache, private readonly triggerField: string | undefined) {}

  dispatch(change: CacheEvent): void {
    for (const w of this.untriggered) w.deliver(change);
    const field = this.triggerField;
    if (field === undefined || this.byTrigger.size === 0) return;
    const now = this.cache.indexValue(field, change.obj) ?? '';
    for (const w of this.byTrigger.get(now) ?? []) w.deliver(change);
    const before = change.prev === undefined ? now : this.cache.indexValue(field, change.prev) ?? '';
    if (before !== now) for (const w of this.byTrigger.get(before) ?? []) w.deliver(change);
  }

  register(w: CacheWatcher): void {
    this.all.add(w);
    const m = this.triggerField === undefined ? undefined : indexMatch(this.cache, w.scope.predicate);
    if (m === undefined || m.field !== this.triggerField) {
      this.untriggered.add(w);
      return;
    }
    let set = this.byTrigger.get(m.value);
    if (set === undefined) this.byTrigger.set(m.value, set = new Set());
    set.add(w);
    w.trigger = m.value;
  }

  unregister(w: CacheWatcher): void {
    this.all.delete(w);
    this.untriggered.delete(w);
    if (w.trigger === undefined) return;
    const set = this.byTrigger.get(w.trigger);
    set?.delete(w);
    if (set?.size === 0) this.byTrigger.delete(w.trigger);
  }

  /** Ends every watch (clients re-watch). */
  endAll(): void {
    const all = [...this.all];
    for (const w of all) this.unregister(w);
    for (const w of all) w.end();
  }
}
