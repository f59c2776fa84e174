// A bounded buffer between a producer that must never wait (storage writes) and a consumer
// that pulls at its own pace (an async iterator). Overflow ends the stream, as kube's cacher
// drops a watcher that cannot keep up; the consumer then re-lists or re-watches.
// Counterpart of the result channel of k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go.

export class EventQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private head = 0;
  private waiting: ((r: IteratorResult<T>) => void) | undefined;
  private ended = false;

  constructor(private readonly capacity: number, private readonly onEnd: () => void) {}

  get done(): boolean { return this.ended; }

  /** Adds an item; returns false (and ends the stream after what is buffered) on overflow. */
  push(item: T, bounded = true): boolean {
    if (this.ended) return false;
    const w = this.waiting;
    if (w !== undefined) {
      this.waiting = undefined;
      w({ value: item, done: false });
      return true;
    }
    if (bounded && this.items.length - this.head >= this.capacity) {
      this.end();
      return false;
    }
    this.items.push(item);
    return true;
  }

  /** Adds an item regardless of capacity (a bounded amount the producer already holds). */
  pushUnbounded(item: T): void {
    this.push(item, false);
  }

  /** No items follow; buffered ones are still delivered. Idempotent. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const w = this.waiting;
    this.waiting = undefined;
    w?.({ value: undefined, done: true });
    this.onEnd();
  }

  /** Ends the stream and drops what is buffered. */
  clear(): void {
    this.items.length = 0;
    this.head = 0;
    this.end();
  }

  private next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head++] as T;
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items.splice(0, this.head);
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    if (this.waiting !== undefined) return Promise.reject(new Error('concurrent next() on a watch'));
    return new Promise((resolve) => { this.waiting = resolve; });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => this.next(),
      return: () => {
        this.clear();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
