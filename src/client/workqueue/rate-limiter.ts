// client-go's workqueue rate limiters (util/workqueue/default_rate_limiters.go): how long an
// item waits before it is retried. Per item, exponential: base·2^failures, capped.
// Counterpart of k8s.io/client-go/util/workqueue/default_rate_limiters.go.
export interface RateLimiter<K> {
  /** How long to wait before the item's next try; counts one more failure. */
  when(item: K): number;
  /** Clears the item's failures (it succeeded, or is given up). */
  forget(item: K): void;
  /** How many times the item failed since it was last forgotten. */
  numRequeues(item: K): number;
}

/** ItemExponentialFailureRateLimiter; client-go's controllers use 5 ms up to 1000 s. */
export class ItemExponentialFailureRateLimiter<K> implements RateLimiter<K> {
  private readonly failures = new Map<K, number>();

  constructor(private readonly baseMs = 5, private readonly maxMs = 1_000_000) {}

  when(item: K): number {
    const n = this.failures.get(item) ?? 0;
    this.failures.set(item, n + 1);
    // 2^n overflows nothing here, but past ~60 doublings it is certainly above any cap.
    const backoff = n > 60 ? this.maxMs : this.baseMs * 2 ** n;
    return Math.min(backoff, this.maxMs);
  }

  forget(item: K): void { this.failures.delete(item); }

  numRequeues(item: K): number { return this.failures.get(item) ?? 0; }
}
