// The Retry-After a rejected request gets: 1 second per priority level at first, doubled (up to
// 32) while the level keeps dropping at least three requests per second of the current value,
// and lowered by one when it drops fewer than that.
// Counterpart of k8s.io/apiserver/pkg/util/flowcontrol/dropped_requests_tracker.go.

const MAX_RETRY_AFTER = 32;

class DroppedStats {
  private history: { unix: number; count: number }[] = [];
  private currentUnix = 0;
  private currentCount = 0;
  retryAfter = 1;
  private retryAfterUpdateUnix = 0;

  record(unix: number): void {
    if (this.currentUnix === unix) { this.currentCount++; return; }
    this.history.push({ unix: this.currentUnix, count: this.currentCount });
    const maxHistory = Math.min(2 * this.retryAfter, MAX_RETRY_AFTER);
    this.history = this.history.filter((h) => unix - h.unix <= maxHistory);
    this.currentUnix = unix;
    this.currentCount = 1;
    let dropped = 0;
    for (const h of this.history) if (unix - h.unix <= this.retryAfter && h.unix < unix) dropped += h.count;
    if (unix - this.retryAfterUpdateUnix >= this.retryAfter && dropped >= 3 * this.retryAfter) {
      this.retryAfter = Math.min(this.retryAfter * 2, MAX_RETRY_AFTER);
      this.retryAfterUpdateUnix = unix;
    } else if (dropped < this.retryAfter && this.retryAfter > 1) {
      this.retryAfter--;
    }
  }
}

export class DroppedRequestsTracker {
  private readonly stats = new Map<string, DroppedStats>();

  constructor(private readonly now: () => number = Date.now) {}

  record(priorityLevel: string): void {
    let s = this.stats.get(priorityLevel);
    if (s === undefined) { s = new DroppedStats(); this.stats.set(priorityLevel, s); }
    s.record(Math.floor(this.now() / 1000));
  }

  retryAfter(priorityLevel: string): number {
    return this.stats.get(priorityLevel)?.retryAfter ?? 1;
  }
}
