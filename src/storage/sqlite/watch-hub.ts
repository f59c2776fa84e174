// In-process fan-out of committed changes to the live watchers of the sqlite backend. Writes
// publish synchronously right after their commit, so a watcher registered in the same
// synchronous step as its history read neither misses nor repeats a revision.
// No Go counterpart: the embedded store (fan-out as k8s.io/apiserver/pkg/storage/cacher does it).
import type { BackendEvent, BackendWatchHandler } from '../backend.ts';

export interface Subscriber {
  /** Keys in [start, end) match. */
  readonly start: string;
  readonly end: string;
  readonly handler: BackendWatchHandler;
  /** Highest revision delivered (or the watch's fromRevision). */
  lastRev: number;
  cancelled: boolean;
}

export class WatchHub {
  private readonly subs = new Set<Subscriber>();

  get size(): number { return this.subs.size; }

  add(sub: Subscriber): void { this.subs.add(sub); }

  remove(sub: Subscriber): void {
    sub.cancelled = true;
    this.subs.delete(sub);
  }

  publish(ev: BackendEvent): void {
    const key = ev.kv.key;
    const rev = ev.kv.modRevision;
    for (const sub of this.subs) {
      if (key < sub.start || key >= sub.end || rev <= sub.lastRev) continue;
      sub.lastRev = rev;
      try {
        sub.handler.onEvents([ev]);
      } catch (err) {
        // A failing consumer must not fail the write that is being acknowledged.
        this.remove(sub);
        sub.handler.onError(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }

  closeAll(err: Error): void {
    const subs = [...this.subs];
    this.subs.clear();
    for (const sub of subs) {
      sub.cancelled = true;
      sub.handler.onError(err);
    }
  }
}
