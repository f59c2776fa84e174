// kube's leaseManager: objects with a TTL share one etcd lease while a new lease would expire at
// about the same time, so that many short-lived objects (events) do not each cost a lease.
// Counterpart of k8s.io/apiserver/pkg/storage/etcd3/lease_manager.go.
export interface LeaseManagerOptions {
  /** Reuse window cap (kube's --lease-reuse-duration-seconds, default 60). */
  readonly reuseDurationSeconds?: number;
  /** Reuse window as a fraction of the TTL (kube: 0.05). */
  readonly reuseDurationPercent?: number;
  /** Objects attached to one lease before a new one is granted (kube: 1000). */
  readonly maxAttachedObjects?: number;
  readonly now?: () => number;
}

export interface Lease {
  /** etcd's lease ID as a decimal string (63 bits: too wide for a number). */
  readonly id: string;
  /** When the lease runs out, in ms since the epoch. */
  readonly expiresAt: number;
}

/** Grants an etcd lease of ttlSeconds and resolves its ID. */
export type GrantLease = (ttlSeconds: number) => Promise<string>;

export class LeaseManager {
  private prev: Lease | undefined;
  private attached = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly reuseSeconds: number;
  private readonly reusePercent: number;
  private readonly maxAttached: number;
  private readonly now: () => number;

  constructor(private readonly grant: GrantLease, opts: LeaseManagerOptions = {}) {
    this.reuseSeconds = opts.reuseDurationSeconds ?? 60;
    this.reusePercent = opts.reuseDurationPercent ?? 0.05;
    this.maxAttached = opts.maxAttachedObjects ?? 1000;
    this.now = opts.now ?? Date.now;
  }

  /** A lease that lives at least ttlSeconds. Rejects with the error of the grant. */
  getLease(ttlSeconds: number): Promise<Lease> {
    // One at a time, as kube holds its mutex across the grant: concurrent callers share it.
    const next = this.queue.then(() => this.getLeaseLocked(ttlSeconds));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async getLeaseLocked(ttl: number): Promise<Lease> {
    const now = this.now();
    const reuse = Math.min(Math.floor(this.reusePercent * ttl), this.reuseSeconds);
    const prev = this.prev;
    // Reusable: it outlives the new TTL, but by no more than the reuse window (>=: Date.now has
    // millisecond steps, so an immediate second call sees the same time).
    const valid = prev !== undefined && now + ttl * 1000 < prev.expiresAt;
    const sufficient = prev !== undefined && now + (ttl + reuse) * 1000 >= prev.expiresAt;
    this.attached++;
    if (prev !== undefined && valid && sufficient && this.attached <= this.maxAttached) return prev;
    const granted = ttl + reuse;
    const id = await this.grant(granted);
    this.prev = { id, expiresAt: now + granted * 1000 };
    this.attached = 1;
    return this.prev;
  }
}
