// A priority level's queues: requests wait in one of `queues` FIFO queues (the shortest of a
// hand of `handSize` dealt by shuffle sharding from the flow's hash, so that one heavy flow shares
// queues with few others) and are dispatched, fairest queue first, while the level's seats allow.
// A full queue, a wait past the deadline, or a level with no queues (limitResponse Reject) with
// no seat free rejects. The exempt level (queues -1) never waits.
// Fairness: each queue keeps a virtual dispatch time that grows by the seats it dispatched; the
// non-empty queue with the smallest one goes next, and a queue coming back from idle starts at
// the current virtual time, so that an idle flow gets no credit (kube's fair queuing, with every
// request taking the same time).
// Counterpart of k8s.io/apiserver/pkg/util/flowcontrol/fairqueuing/queueset and
// k8s.io/apimachinery/pkg/util/shufflesharding.
import type { RequestInfo } from '../../apimachinery/request/context.ts';

export interface QueuingConfig {
  /** 0: no queuing (reject when no seat is free); -1: exempt (never limited). */
  readonly queues: number;
  readonly handSize: number;
  readonly queueLengthLimit: number;
}

/** What the dump endpoints show of one request. */
export interface RequestDigest {
  readonly flowSchema: string;
  readonly distinguisher: string;
  /** Wall-clock nanoseconds (nowNanos), as kube prints them. */
  readonly arrived: bigint;
  started: bigint | undefined;
  /** Seats held while executing (the work estimate's initial seats). */
  readonly seats: number;
  /** Seats still held for additionalLatencyMs once it finished (a write's watch fan-out). */
  readonly finalSeats?: number;
  readonly additionalLatencyMs?: number;
  readonly user: string;
  readonly info: RequestInfo;
}

/** The seats a request holds while it executes: the larger of its initial and final seats, as kube reserves. */
export function heldSeats(d: RequestDigest): number {
  return Math.max(d.seats, d.finalSeats ?? 0);
}

export type Outcome = 'dispatched' | 'rejected' | 'time-out' | 'cancelled';

interface Waiting {
  readonly digest: RequestDigest;
  readonly resolve: (o: Outcome) => void;
}

interface Queue {
  readonly waiting: Waiting[];
  readonly executing: Set<RequestDigest>;
  seatsInUse: number;
  /** Virtual time of the next dispatch, in seats. */
  nextDispatchR: number;
}

const WALL_AT_START = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

/** The wall clock in nanoseconds: Date.now()'s start, advanced by the monotonic clock. */
export function nowNanos(): bigint {
  return WALL_AT_START + process.hrtime.bigint();
}

/**
 * Deals `handSize` distinct queue indices out of `deckSize` from one hash value: the value's
 * digits in a mixed radix (deckSize, deckSize-1, ...) pick among the cards not yet dealt.
 */
export function dealHand(hash: number, deckSize: number, handSize: number): number[] {
  const hand: number[] = [];
  let v = hash;
  for (let i = 0; i < handSize && i < deckSize; i++) {
    const remaining = deckSize - i;
    let card = v % remaining;
    v = Math.floor(v / remaining);
    // The card-th index among those not dealt yet.
    for (const taken of [...hand].sort((a, b) => a - b)) if (card >= taken) card++;
    hand.push(card);
  }
  return hand;
}

export class QueueSet {
  /** The seats this level may use now (its nominal limit, adjusted by lending and borrowing). */
  concurrencyLimit = 0;
  private queues: Queue[] = [];
  private readonly queueless = new Set<RequestDigest>();
  private seatsInUse = 0;
  private seatsWaiting = 0;
  private virtualTime = 0;
  /** Told the level's seat demand (seats in use + seats waiting) whenever it changes. */
  onDemand: ((seats: number) => void) | undefined;
  dispatched = 0;
  rejected = 0;
  timedOut = 0;
  cancelled = 0;

  constructor(public config: QueuingConfig) {
    this.setConfig(config);
  }

  /** A new configuration: queues are added or dropped (the waiting requests of a dropped queue stay until served). */
  setConfig(config: QueuingConfig): void {
    this.config = config;
    const n = Math.max(0, config.queues);
    while (this.queues.length < n) this.queues.push({ waiting: [], executing: new Set(), seatsInUse: 0, nextDispatchR: this.virtualTime });
    if (this.queues.length > n && this.queues.slice(n).every((q) => q.waiting.length === 0 && q.executing.size === 0)) this.queues.length = n;
    this.dispatchAll();
  }

  get waitingCount(): number { return this.queues.reduce((n, q) => n + q.waiting.length, 0); }
  get executingCount(): number { return this.queueless.size + this.queues.reduce((n, q) => n + q.executing.size, 0); }
  get seatsUsed(): number { return this.seatsInUse; }
  get waitingSeats(): number { return this.seatsWaiting; }
  get isIdle(): boolean { return this.waitingCount === 0 && this.executingCount === 0; }

  /**
   * Admits a request: resolves 'dispatched' once it may run (then call finish(digest) when it is
   * done), or why it may not. `onGone` subscribes to the client going away, which cancels the
   * wait (it returns the unsubscribe); `waitUntil` bounds the wait (time-out).
   */
  startRequest(digest: RequestDigest, hash: number, waitUntil: number, onGone?: (cancel: () => void) => () => void): Promise<Outcome> | Outcome {
    const out = this.start(digest, hash, waitUntil, onGone);
    this.noteDemand();
    return out;
  }

  private start(digest: RequestDigest, hash: number, waitUntil: number, onGone?: (cancel: () => void) => () => void): Promise<Outcome> | Outcome {
    const seats = heldSeats(digest);
    if (this.config.queues < 0) return this.run(digest, undefined);
    if (this.config.queues === 0) {
      if (this.canDispatch(seats)) return this.run(digest, undefined);
      this.rejected++;
      return 'rejected';
    }
    const q = this.chooseQueue(hash);
    // Nothing waits anywhere and a seat is free: no queue to go through (the common case, kept cheap).
    if (q.waiting.length === 0 && this.canDispatch(seats) && this.seatsWaiting === 0) {
      if (q.executing.size === 0) q.nextDispatchR = Math.max(q.nextDispatchR, this.virtualTime);
      this.virtualTime = q.nextDispatchR;
      q.nextDispatchR += seats;
      return this.run(digest, q);
    }
    if (q.waiting.length >= this.config.queueLengthLimit) {
      this.rejected++;
      return 'rejected';
    }
    if (q.waiting.length === 0 && q.executing.size === 0) q.nextDispatchR = Math.max(q.nextDispatchR, this.virtualTime);
    return new Promise<Outcome>((resolve) => {
      const pending: { timer?: NodeJS.Timeout; unsubscribe?: (() => void) | undefined } = {};
      const settle = (o: Outcome): void => {
        clearTimeout(pending.timer);
        pending.unsubscribe?.();
        resolve(o);
      };
      const w: Waiting = { digest, resolve: settle };
      const drop = (o: 'time-out' | 'cancelled'): void => {
        const i = q.waiting.indexOf(w);
        if (i < 0) return;
        q.waiting.splice(i, 1);
        this.seatsWaiting -= seats;
        this.noteDemand();
        if (o === 'time-out') this.timedOut++; else this.cancelled++;
        settle(o);
      };
      pending.timer = setTimeout(() => drop('time-out'), Math.max(0, waitUntil - Date.now()));
      pending.unsubscribe = onGone?.(() => drop('cancelled'));
      q.waiting.push(w);
      this.seatsWaiting += seats;
      this.dispatchAll();
    });
  }

  /** Frees the seats of a dispatched request and lets waiting ones run. */
  finish(digest: RequestDigest): void {
    let q: Queue | undefined;
    if (!this.queueless.delete(digest)) {
      q = this.queues.find((x) => x.executing.delete(digest));
      if (q === undefined) return;
    }
    const held = heldSeats(digest);
    const final = digest.finalSeats ?? 0;
    const latency = digest.additionalLatencyMs ?? 0;
    // The write's watch fan-out keeps its final seats busy a little longer (the caller does not wait).
    const keep = final > 0 && latency > 0 ? final : 0;
    this.release(q, held - keep);
    if (keep > 0) setTimeout(() => this.release(q, keep), latency).unref();
  }

  private release(q: Queue | undefined, seats: number): void {
    this.seatsInUse -= seats;
    if (q !== undefined) q.seatsInUse -= seats;
    this.dispatchAll();
    this.noteDemand();
  }

  private noteDemand(): void {
    this.onDemand?.(this.seatsInUse + this.seatsWaiting);
  }

  /** Queues with what waits and runs in each (the dump endpoints). */
  dump(): readonly { waiting: readonly RequestDigest[]; executing: readonly RequestDigest[]; seatsInUse: number; nextDispatchR: number }[] {
    return this.queues.map((q) => ({ waiting: q.waiting.map((w) => w.digest), executing: [...q.executing], seatsInUse: q.seatsInUse, nextDispatchR: q.nextDispatchR }));
  }

  queuelessExecuting(): readonly RequestDigest[] { return [...this.queueless]; }

  private canDispatch(seats: number): boolean {
    // A request wider than the whole limit still runs, alone.
    return this.seatsInUse === 0 || this.seatsInUse + seats <= this.concurrencyLimit;
  }

  private run(digest: RequestDigest, q: Queue | undefined): 'dispatched' {
    const seats = heldSeats(digest);
    digest.started = nowNanos();
    this.dispatched++;
    this.seatsInUse += seats;
    if (q === undefined) this.queueless.add(digest);
    else {
      q.executing.add(digest);
      q.seatsInUse += seats;
    }
    return 'dispatched';
  }

  private chooseQueue(hash: number): Queue {
    let best: Queue | undefined;
    let bestLength = Infinity;
    for (const i of dealHand(hash, this.queues.length, this.config.handSize)) {
      const q = this.queues[i];
      if (q === undefined) continue;
      const length = q.waiting.reduce((n, w) => n + heldSeats(w.digest), 0) + q.seatsInUse;
      if (length < bestLength) { best = q; bestLength = length; }
    }
    if (best === undefined) throw new Error('queue set has no queues');
    return best;
  }

  private dispatchAll(): void {
    for (;;) {
      let next: Queue | undefined;
      for (const q of this.queues) {
        if (q.waiting.length > 0 && (next === undefined || q.nextDispatchR < next.nextDispatchR)) next = q;
      }
      const head = next?.waiting[0];
      const seats = head === undefined ? 0 : heldSeats(head.digest);
      if (next === undefined || head === undefined || !this.canDispatch(seats)) return;
      next.waiting.shift();
      this.seatsWaiting -= seats;
      this.virtualTime = next.nextDispatchR;
      next.nextDispatchR += seats;
      this.run(head.digest, next);
      head.resolve('dispatched');
    }
  }
}
