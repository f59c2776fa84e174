// client-go's rate-limited work queue (util/workqueue/{queue,delaying_queue,rate_limiting_queue}.go):
// - an item added while queued is queued once (dirty set);
// - an item is handed to one worker at a time: added while processed, it is queued again only
//   when that worker calls done();
// - addRateLimited retries with the rate limiter's per-item delay, forget resets it;
// - after shutDown, get() resolves undefined once the queue is empty, and adds are ignored.
// Counterpart of k8s.io/client-go/util/workqueue/{queue.go,delaying_queue.go,rate_limiting_queue.go}.
import { ItemExponentialFailureRateLimiter, type RateLimiter } from './rate-limiter.ts';

export class RateLimitingQueue<K = string> {
  private readonly queue: K[] = [];
  private readonly dirty = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly waiting: ((item: K | undefined) => void)[] = [];
  private readonly timers = new Map<NodeJS.Timeout, K>();
  private readonly drained: (() => void)[] = [];
  private shuttingDown = false;

  constructor(private readonly limiter: RateLimiter<K> = new ItemExponentialFailureRateLimiter<K>()) {}

  /** Queued items, not counting those being processed. */
  get length(): number { return this.queue.length; }

  get isShuttingDown(): boolean { return this.shuttingDown; }

  /** Whether an item is queued or being processed (delayed adds not counted). */
  get busy(): boolean { return this.queue.length > 0 || this.processing.size > 0; }

  add(item: K): void {
    if (this.shuttingDown || this.dirty.has(item)) return;
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    const w = this.waiting.shift();
    if (w !== undefined) { this.take(item); w(item); } else this.queue.push(item);
  }

  /** Adds the item after `ms` (AddAfter). */
  addAfter(item: K, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) { this.add(item); return; }
    const t = setTimeout(() => { this.timers.delete(t); this.add(item); }, ms);
    this.timers.set(t, item);
  }

  /** Adds the item once the rate limiter says so (AddRateLimited). */
  addRateLimited(item: K): void {
    this.addAfter(item, this.limiter.when(item));
  }

  forget(item: K): void { this.limiter.forget(item); }

  numRequeues(item: K): number { return this.limiter.numRequeues(item); }

  /** The next item, marked processing until done(); undefined once shut down and empty. */
  get(): Promise<K | undefined> {
    const item = this.queue.shift();
    if (item !== undefined) { this.take(item); return Promise.resolve(item); }
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The worker finished the item; if it was added meanwhile, it is queued again. */
  done(item: K): void {
    this.processing.delete(item);
    if (this.dirty.has(item)) {
      this.dirty.delete(item);
      this.add(item);
    }
    if (this.processing.size === 0) for (const d of this.drained.splice(0)) d();
  }

  /** Stops taking items; waiting workers get undefined; delayed adds are dropped. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const t of this.timers.keys()) clearTimeout(t);
    this.timers.clear();
    for (const w of this.waiting.splice(0)) w(undefined);
  }

  /** ShutDownWithDrain: shuts down, then resolves once no item is being processed. */
  async shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return;
    await new Promise<void>((resolve) => this.drained.push(resolve));
  }

  private take(item: K): void {
    this.processing.add(item);
    this.dirty.delete(item);
  }
}
