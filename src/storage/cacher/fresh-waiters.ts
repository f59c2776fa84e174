// Reads at a resourceVersion wait until the watch cache has seen it: each waiter resolves true
// once the cache reaches its revision, false after the freshness wait. Meanwhile the backend is
// asked for progress, since writes to other resources move the revision without an event here.
// Counterpart of waitUntilFreshAndBlock in k8s.io/apiserver/pkg/storage/cacher/watch_cache.go.
import { FRESHNESS_WAIT_MS } from '../freshness.ts';

const PROGRESS_POLL_MS = 50;

interface Waiter { readonly minimum: number; readonly resolve: (fresh: boolean) => void }

export class FreshWaiters {
  private waiters: Waiter[] = [];

  constructor(private readonly current: () => number, private readonly requestProgress: () => void,
    private readonly waitMs = FRESHNESS_WAIT_MS) {}

  /** Resolves true once the cache is at `minimum` or beyond, false after the freshness wait. */
  wait(minimum: number): Promise<boolean> {
    if (this.current() >= minimum) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = { minimum, resolve: (fresh) => { clearTimeout(timer); clearInterval(poll); resolve(fresh); } };
      this.waiters.push(waiter);
      this.requestProgress();
      const poll = setInterval(() => this.requestProgress(), PROGRESS_POLL_MS);
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(this.current() >= minimum);
      }, this.waitMs);
    });
  }

  /** The cache moved: resolves the waiters it has now reached. */
  wake(): void {
    if (this.waiters.length === 0) return;
    const rev = this.current();
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.minimum <= rev) w.resolve(true);
      else still.push(w);
    }
    this.waiters = still;
  }

  /** Resolves every waiter false (the cache stopped). */
  stop(): void {
    for (const w of this.waiters) w.resolve(false);
    this.waiters = [];
  }
}
