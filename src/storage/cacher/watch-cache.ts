// The in-memory state of one resource: every object by key (kept in key order for lists and
// continue tokens), a ring buffer of recent changes for watches that start from an older
// resourceVersion and for lists at an exact one, and the revision the state is at. The buffer
// keeps about the last 75 s of changes: it doubles when full of events younger than that and
// halves when its newest quarter is older, between 100 and 102400 events (kube's resizeCacheLocked).
// Objects in here are shared by every reader and never mutated.
// Counterpart of k8s.io/apiserver/pkg/storage/cacher/watch_cache.go (store and cyclic buffer).
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { WatchEvent } from '../../apimachinery/watch/event.ts';

type ObjectEvent = Extract<WatchEvent, { type: 'ADDED' | 'MODIFIED' | 'DELETED' }>;

/** One object of the state; `added` is its ADDED event, built once and shared by every watcher. */
export interface CacheEntry {
  readonly key: string;
  readonly obj: KubeObject;
  added?: ObjectEvent;
}

/** One change, with the events a watcher may see for it built once and shared. */
export class CacheEvent {
  /** When the change reached the cache (ms, the cache's clock): the buffer is sized by age. */
  at = 0;
  private asIs?: ObjectEvent;
  private addedEv?: ObjectEvent;
  private deletedEv?: ObjectEvent;

  constructor(
    readonly type: 'ADDED' | 'MODIFIED' | 'DELETED',
    readonly key: string,
    readonly rev: number,
    /** The object after the change; for DELETED, the deleted object at the delete revision. */
    readonly obj: KubeObject,
    /** The object before the change, as it was stored (its own resourceVersion). */
    readonly prev: KubeObject | undefined,
  ) {}

  /** The event as it happened. */
  event(): ObjectEvent { return (this.asIs ??= { type: this.type, object: this.obj }); }

  /** ADDED of the new object: a selector's transition into the set. */
  added(): ObjectEvent { return this.type === 'ADDED' ? this.event() : (this.addedEv ??= { type: 'ADDED', object: this.obj }); }

  /** DELETED of the previous object at this revision: a transition out of the set. */
  deleted(): ObjectEvent {
    if (this.type === 'DELETED') return this.event();
    const prev = this.prev ?? this.obj;
    return (this.deletedEv ??= { type: 'DELETED', object: stampRevision(prev, this.rev) });
  }
}

/** A copy of obj whose resourceVersion is rev (the object itself when it already is). */
export function stampRevision(obj: KubeObject, rev: number): KubeObject {
  const rv = String(rev);
  return obj.metadata.resourceVersion === rv ? obj : { ...obj, metadata: { ...obj.metadata, resourceVersion: rv } };
}

/** First index in sorted `keys` whose key is >= k. */
export function lowerBound(keys: readonly string[], k: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A field the cache indexes (kube's pods by spec.nodeName): its value of an object. */
export type IndexFunc = (obj: KubeObject) => string;

/** The event buffer's bounds and the history it aims to keep; a fixed number is a fixed capacity. */
export interface CacheSizing {
  readonly lowerBound: number;
  readonly upperBound: number;
  /** kube's eventFreshDuration: the bookmark frequency (60 s) plus 15 s. */
  readonly freshMs: number;
  readonly now?: () => number;
}

/** kube's defaultLowerBoundCapacity, defaultUpperBoundCapacity and DefaultEventFreshDuration. */
export const DEFAULT_SIZING: CacheSizing = { lowerBound: 100, upperBound: 100 * 1024, freshMs: 75_000 };

export class WatchCache {
  private readonly byKey = new Map<string, CacheEntry>();
  /** field → value → keys of the objects with that value. */
  private readonly indexes = new Map<string, { readonly fn: IndexFunc; readonly byValue: Map<string, Set<string>> }>();
  private readonly keys: string[] = [];
  private ring: (CacheEvent | undefined)[];
  private cap: number;
  private readonly sizing: CacheSizing;
  private readonly now: () => number;
  /** Index of the oldest event (grows forever; position is start % capacity). */
  private start = 0;
  private end = 0;
  /** The revision the state was listed at; events after it are all in the buffer until one is evicted. */
  private listRev = 0;
  private evicted = false;
  /** The revision the state is at: the newest event or progress notification seen. */
  rev = 0;
  /** Told of every capacity change (the watch cache capacity metrics). */
  onCapacity: (from: number, to: number) => void = () => {};

  constructor(sizing: number | CacheSizing = DEFAULT_SIZING, indexes: ReadonlyMap<string, IndexFunc> = new Map()) {
    this.sizing = typeof sizing === 'number' ? { lowerBound: sizing, upperBound: sizing, freshMs: 0 } : sizing;
    this.now = this.sizing.now ?? Date.now;
    this.cap = this.sizing.lowerBound;
    this.ring = new Array<CacheEvent | undefined>(this.cap);
    for (const [field, fn] of indexes) this.indexes.set(field, { fn, byValue: new Map() });
  }

  /** The indexed value of `field` of an object, undefined when the field is not indexed. */
  indexValue(field: string, obj: KubeObject): string | undefined { return this.indexes.get(field)?.fn(obj); }

  get indexedFields(): IterableIterator<string> { return this.indexes.keys(); }

  private index(key: string, obj: KubeObject | undefined, add: boolean): void {
    if (obj === undefined) return;
    for (const { fn, byValue } of this.indexes.values()) {
      const v = fn(obj);
      let keys = byValue.get(v);
      if (add) {
        if (keys === undefined) byValue.set(v, keys = new Set());
        keys.add(key);
      } else if (keys !== undefined) {
        keys.delete(key);
        if (keys.size === 0) byValue.delete(v);
      }
    }
  }

  /** The current entries whose `field` is `value`, in key order, under prefix from startKey. */
  *indexed(field: string, value: string, prefix: string, startKey: string): Generator<CacheEntry> {
    const from = startKey > prefix ? startKey : prefix;
    const keys = [...this.indexes.get(field)?.byValue.get(value) ?? []].filter((k) => k >= from && k.startsWith(prefix)).sort();
    for (const k of keys) yield this.byKey.get(k) as CacheEntry;
  }

  get size(): number { return this.byKey.size; }

  /** The state becomes `items` at `rev` (after a list); the buffer is emptied. */
  replace(items: readonly { key: string; obj: KubeObject }[], rev: number): void {
    this.byKey.clear();
    this.keys.length = 0;
    for (const { byValue } of this.indexes.values()) byValue.clear();
    for (const it of items) {
      this.byKey.set(it.key, { key: it.key, obj: it.obj });
      this.index(it.key, it.obj, true);
    }
    this.keys.push(...this.byKey.keys());
    this.keys.sort();
    this.ring.fill(undefined);
    this.start = this.end;
    this.listRev = rev;
    this.evicted = false;
    this.rev = rev;
  }

  /** Applies a put (obj) or delete (obj undefined) at `rev`; returns the change, undefined for a delete of nothing. */
  apply(key: string, obj: KubeObject | undefined, rev: number): CacheEvent | undefined {
    const old = this.byKey.get(key);
    this.index(key, old?.obj, false);
    this.index(key, obj, true);
    let ev: CacheEvent;
    if (obj === undefined) {
      if (old === undefined) { this.rev = Math.max(this.rev, rev); return undefined; }
      this.byKey.delete(key);
      this.keys.splice(lowerBound(this.keys, key), 1);
      ev = new CacheEvent('DELETED', key, rev, stampRevision(old.obj, rev), old.obj);
    } else {
      this.byKey.set(key, { key, obj });
      if (old === undefined) this.keys.splice(lowerBound(this.keys, key), 0, key);
      ev = new CacheEvent(old === undefined ? 'ADDED' : 'MODIFIED', key, rev, obj, old?.obj);
    }
    ev.at = this.now();
    this.resize(ev.at);
    if (this.end - this.start === this.cap) {
      this.ring[this.start % this.cap] = undefined;
      this.start++;
      this.evicted = true;
    }
    this.ring[this.end % this.cap] = ev;
    this.end++;
    this.rev = Math.max(this.rev, rev);
    return ev;
  }

  /** The number of events the buffer holds at most now. */
  get capacity(): number { return this.cap; }

  /** Before adding an event at `now`: grow a full buffer of fresh events, shrink one whose newest quarter is stale. */
  private resize(now: number): void {
    if (this.end - this.start !== this.cap) return;
    const { lowerBound, upperBound, freshMs } = this.sizing;
    const oldest = this.ring[this.start % this.cap] as CacheEvent;
    if (now - oldest.at < freshMs) {
      const grown = Math.min(this.cap * 2, upperBound);
      if (grown > this.cap) this.resizeTo(grown);
      return;
    }
    const quarter = this.ring[(this.end - Math.floor(this.cap / 4)) % this.cap] as CacheEvent;
    if (now - quarter.at > freshMs) {
      const shrunk = Math.max(Math.floor(this.cap / 2), lowerBound);
      if (shrunk < this.cap) this.resizeTo(shrunk);
    }
  }

  private resizeTo(capacity: number): void {
    const ring = new Array<CacheEvent | undefined>(capacity);
    if (capacity < this.cap) {
      // The oldest events go: watches from before them get 410 from now on.
      this.start = this.end - capacity;
      this.evicted = true;
    }
    for (let i = this.start; i < this.end; i++) ring[i % capacity] = this.ring[i % this.cap];
    this.ring = ring;
    this.onCapacity(this.cap, capacity);
    this.cap = capacity;
  }

  /** Every change of this resource up to `rev` has been seen (a progress notification). */
  progress(rev: number): void { this.rev = Math.max(this.rev, rev); }

  /**
   * The oldest revision a watch may start from (or a list be read at): every change after it is
   * in the buffer. kube's "oldest - 1" of getAllEventsSinceLocked.
   */
  oldestRev(): number {
    const first = this.ring[this.start % this.cap];
    if (!this.evicted || first === undefined) return this.listRev;
    return first.rev - 1;
  }

  get(key: string): CacheEntry | undefined { return this.byKey.get(key); }

  /** The object at key if it is the one written at `rev` (a revision names one write: the same bytes). */
  objectAt(key: string, rev: number): KubeObject | undefined {
    const obj = this.byKey.get(key)?.obj;
    return obj?.metadata.resourceVersion === String(rev) ? obj : undefined;
  }

  /** The buffered changes after `rev`, oldest first. The caller checked rev >= oldestRev(). */
  eventsAfter(rev: number): CacheEvent[] {
    const out: CacheEvent[] = [];
    for (let i = this.end - 1; i >= this.start; i--) {
      const ev = this.ring[i % this.cap] as CacheEvent;
      if (ev.rev <= rev) break;
      out.push(ev);
    }
    return out.reverse();
  }

  /**
   * The entries under `prefix` from `startKey` on, in key order, as they were at `rev`
   * (rev >= oldestRev(); the current state when rev >= this.rev). Iterates lazily.
   */
  *entries(prefix: string, startKey: string, rev: number): Generator<CacheEntry> {
    const from = startKey > prefix ? startKey : prefix;
    const overlay = rev >= this.rev ? undefined : this.rollback(rev);
    const extra = overlay === undefined ? [] : [...overlay.keys()].filter((k) => k >= from && k.startsWith(prefix) && !this.byKey.has(k)).sort();
    let i = lowerBound(this.keys, from);
    let j = 0;
    for (;;) {
      const a = this.keys[i];
      const b = extra[j];
      const inA = a !== undefined && a.startsWith(prefix);
      if (!inA && b === undefined) return;
      let k: string;
      if (inA && (b === undefined || a < b)) { k = a; i++; } else { k = b as string; j++; }
      if (overlay?.has(k) === true) {
        const old = overlay.get(k);
        if (old !== undefined) yield { key: k, obj: old };
      } else {
        yield this.byKey.get(k) as CacheEntry;
      }
    }
  }

  /** key → the object at `rev` (undefined: absent then), for every key changed after `rev`. */
  private rollback(rev: number): Map<string, KubeObject | undefined> {
    const overlay = new Map<string, KubeObject | undefined>();
    // Newest first: the last write wins, so the earliest change after rev decides.
    for (let i = this.end - 1; i >= this.start; i--) {
      const ev = this.ring[i % this.cap] as CacheEvent;
      if (ev.rev <= rev) break;
      overlay.set(ev.key, ev.prev);
    }
    return overlay;
  }

  /** Number of entries under `prefix` in the current state. */
  countUnder(prefix: string): number {
    return lowerBound(this.keys, prefixEnd(prefix)) - lowerBound(this.keys, prefix);
  }
}

/** The smallest string greater than every string starting with prefix. */
function prefixEnd(prefix: string): string {
  return prefix === '' ? '\uffff' : prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
