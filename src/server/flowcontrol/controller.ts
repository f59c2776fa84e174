// API priority and fairness: the configuration (FlowSchemas and PriorityLevelConfigurations as
// the informers see them, the mandatory ones imagined while missing), the classification of a
// request (first matching FlowSchema by precedence, its priority level, its flow), and each
// level's seats: nominal = ceil(server limit × shares / sum of shares), lendable and borrowing
// limits from the percentages, and a current limit re-divided every 10 s (updateBorrowing) from
// the seat demand each level saw: its high watermark (up to its nominal seats) is its floor, its
// smoothed demand (average + deviation, decaying slowly) its target, and the server's seats are
// divided fairly among the targets (conc-alloc.ts). The exempt level is not limited, but what it
// used comes off what the others share.
// Counterpart of k8s.io/apiserver/pkg/util/flowcontrol/apf_controller.go (the config consumer) and
// apf_filter.go.
import type { RequestInfo, UserInfo } from '../../apimachinery/request/context.ts';
import { MANDATORY_FS_CATCH_ALL, MANDATORY_FS_EXEMPT, MANDATORY_PL_CATCH_ALL, MANDATORY_PL_EXEMPT } from './bootstrap.ts';
import { computeConcurrencyAllocation, Integrator, type AllocItem, type IntegratorResults } from './conc-alloc.ts';
import { DroppedRequestsTracker } from './dropped-requests.ts';
import { QueueSet, type Outcome, type QueuingConfig, type RequestDigest } from './queue-set.ts';
import { WatchTracker } from './watch-tracker.ts';
import { newWorkEstimator, type StatsLookup, type WorkEstimator } from './work-estimator.ts';
import { compareFlowSchemas, flowDistinguisher, matchesFlowSchema } from './rule.ts';
import type { FlowSchema, FlowSchemaCondition, PriorityLevelConfiguration } from './types.ts';

export interface PriorityLevelState {
  pl: PriorityLevelConfiguration;
  readonly queues: QueueSet;
  nominalCL: number;
  minCL: number;
  maxCL: number;
  /** The most seats one request of this level may take (the work estimator's cap; 0: none). */
  maxSeats: number;
  /** Seat demand (in use + waiting) over time, read and reset by updateBorrowing. */
  readonly seatDemand: Integrator;
  readonly demand: SeatDemandStats;
  /** The target of the last re-division (its smoothed demand, at least its floor). */
  target: number;
  /** No FlowSchema may lead here any more; dropped once idle. */
  quiescing: boolean;
}

export interface SeatDemandStats { avg: number; stdDev: number; highWatermark: number; smoothed: number }

/** How fast the smoothed demand forgets: each period keeps this much of the old value. */
const SMOOTHING = 0.977;
/** The share of its nominal seats one request of a queuing level may take. */
const MAX_SEATS_FRACTION = 0.15;

function updateDemandStats(stats: SeatDemandStats, obs: IntegratorResults): void {
  stats.highWatermark = Math.round(obs.max);
  if (obs.durationMs <= 0) return;
  const deviation = Number.isNaN(obs.deviation) ? 0 : obs.deviation;
  stats.avg = obs.average;
  stats.stdDev = deviation;
  const envelope = obs.average + deviation;
  stats.smoothed = Math.max(envelope, SMOOTHING * stats.smoothed + (1 - SMOOTHING) * envelope);
}

export interface Classification {
  readonly flowSchema: FlowSchema;
  readonly level: PriorityLevelState;
  readonly distinguisher: string;
  readonly hash: number;
}

/** The Dangling condition a FlowSchema's status should carry, when it does not yet. */
export interface FlowSchemaStatusUpdate {
  readonly name: string;
  readonly condition: Required<FlowSchemaCondition>;
}

/** The queuing a level's spec asks for, or undefined when the spec is broken (kube ignores such a level). */
function queuingOf(pl: PriorityLevelConfiguration): QueuingConfig | undefined {
  const spec = pl.spec;
  const name = pl.metadata.name ?? '';
  if (spec === undefined || (spec.type === 'Limited') !== (spec.limited !== undefined)) return undefined;
  if ((spec.type === 'Exempt') !== (spec.exempt !== undefined) || (spec.type === 'Exempt') !== (name === 'exempt')) return undefined;
  if (spec.type === 'Exempt') return { queues: -1, handSize: 0, queueLengthLimit: 0 };
  const lr = spec.limited?.limitResponse;
  if ((lr?.type === 'Reject') !== (lr?.queuing === undefined)) return undefined;
  const q = lr?.queuing;
  if (q === undefined) return { queues: 0, handSize: 0, queueLengthLimit: 0 };
  return { queues: q.queues ?? 64, handSize: q.handSize ?? 8, queueLengthLimit: q.queueLengthLimit ?? 50 };
}

function sharesOf(pl: PriorityLevelConfiguration): { shares: number; lendable: number; borrowing: number | undefined } {
  const s = pl.spec?.limited ?? pl.spec?.exempt;
  const borrowing = pl.spec?.limited?.borrowingLimitPercent;
  return { shares: s?.nominalConcurrencyShares ?? (pl.spec?.type === 'Exempt' ? 0 : 30), lendable: s?.lendablePercent ?? 0, borrowing };
}

/** FNV-1a over the UTF-16 code units, from a given offset basis (32 bits). */
function fnv1a(text: string, basis: number): number {
  let h = basis;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** A flow's place among the queues: 53 bits from two FNV-1a hashes of the FlowSchema and the distinguisher (cheap, per request). */
function hashFlow(flowSchema: string, distinguisher: string): number {
  const text = `${flowSchema}\0${distinguisher}`;
  return (fnv1a(text, 0x811c9dc5) & 0x1fffff) * 0x100000000 + fnv1a(text, 0x01000193);
}

export class APFController {
  private flowSchemas: FlowSchema[] = [MANDATORY_FS_EXEMPT, MANDATORY_FS_CATCH_ALL];
  readonly levels = new Map<string, PriorityLevelState>();
  readonly dropped = new DroppedRequestsTracker();
  /** Sum of the levels' nominal seats (the server limit, give or take the rounding up). */
  private nominalCLSum = 0;
  /** The fair proportion of the last re-division (apiserver_flowcontrol_seat_fair_frac). */
  fairFrac = 0;
  /** The watches open on this server (a write's fan-out). */
  readonly watches = new WatchTracker();
  /** The storage's object counts and sizes by group-resource (kube's object count tracker); none known by default. */
  statsSource: (groupResource: string) => StatsLookup = () => 'not-found';
  /** Told each write's watch count with its level and FlowSchema (metrics). */
  onWatchCount: ((level: string, flowSchema: string, count: number) => void) | undefined;
  /** The seats of a request (kube's work estimator over this controller's levels, watches and stats). */
  readonly estimateWork: WorkEstimator;

  constructor(readonly serverConcurrencyLimit: number, private readonly now: () => number = Date.now) {
    this.estimateWork = newWorkEstimator({
      stats: (gr) => this.statsSource(gr),
      watchCount: (info) => this.watches.interestedWatchCount(info),
      maxSeats: (level) => this.maxSeatsOf(level),
      onWatchCount: (level, fs, n) => this.onWatchCount?.(level, fs, n),
    });
    this.update([], []);
  }

  /**
   * Takes a new configuration; returns the FlowSchemas whose Dangling condition is not what it
   * should be (the caller writes their status).
   */
  update(fss: readonly FlowSchema[], pls: readonly PriorityLevelConfiguration[]): FlowSchemaStatusUpdate[] {
    const wanted = new Map<string, PriorityLevelConfiguration>();
    for (const pl of pls) if (queuingOf(pl) !== undefined) wanted.set(pl.metadata.name ?? '', pl);
    for (const m of [MANDATORY_PL_EXEMPT, MANDATORY_PL_CATCH_ALL]) if (!wanted.has(m.metadata.name ?? '')) wanted.set(m.metadata.name ?? '', m);
    for (const [name, pl] of wanted) {
      const q = queuingOf(pl) as QueuingConfig;
      const s = this.levels.get(name);
      if (s === undefined) {
        const queues = new QueueSet(q);
        const seatDemand = new Integrator(this.now);
        queues.onDemand = (seats) => seatDemand.set(seats);
        this.levels.set(name, { pl, queues, nominalCL: 0, minCL: 0, maxCL: 0, maxSeats: 0, seatDemand, target: 0,
          demand: { avg: 0, stdDev: 0, highWatermark: 0, smoothed: 0 }, quiescing: false });
      } else {
        s.pl = pl;
        s.quiescing = false;
        s.queues.setConfig(q);
      }
    }
    for (const [name, s] of this.levels) {
      if (wanted.has(name)) continue;
      if (s.queues.isIdle) this.levels.delete(name); else s.quiescing = true;
    }

    const updates: FlowSchemaStatusUpdate[] = [];
    const usable: FlowSchema[] = [];
    // Only real, well-formed levels count: one imagined while missing leaves its FlowSchemas dangling.
    const real = new Set(pls.filter((p) => queuingOf(p) !== undefined).map((p) => p.metadata.name ?? ''));
    for (const fs of fss) {
      const plName = fs.spec?.priorityLevelConfiguration?.name ?? '';
      const good = real.has(plName);
      const update = danglingUpdate(fs, !good, plName, this.now());
      if (update !== undefined) updates.push(update);
      if (good) usable.push(fs);
    }
    usable.sort(compareFlowSchemas);
    if (!usable.some((f) => f.metadata.name === 'exempt')) usable.unshift(MANDATORY_FS_EXEMPT);
    if (!usable.some((f) => f.metadata.name === 'catch-all')) usable.push(MANDATORY_FS_CATCH_ALL);
    this.flowSchemas = usable;
    this.divideSeats();
    return updates;
  }

  /** The FlowSchema, priority level and flow of a request. */
  classify(info: RequestInfo, user: UserInfo): Classification {
    const fs = this.flowSchemas.find((f) => matchesFlowSchema(info, user, f))
      ?? this.flowSchemas.find((f) => f.metadata.name === 'catch-all') ?? MANDATORY_FS_CATCH_ALL;
    const plName = fs.spec?.priorityLevelConfiguration?.name ?? '';
    const level = this.levels.get(plName) ?? this.levels.get('catch-all');
    if (level === undefined) throw new Error(`priority level ${plName} missing`);
    const queued = level.queues.config.queues > 1;
    const distinguisher = queued ? flowDistinguisher(info, user, fs) : '';
    return { flowSchema: fs, level, distinguisher, hash: queued ? hashFlow(fs.metadata.name ?? '', distinguisher) : 0 };
  }

  /**
   * Waits for the request's seats; 'dispatched' means it may run (then call finish). Answers at
   * once, without a promise, when the request need not wait.
   */
  admit(c: Classification, digest: RequestDigest, waitUntil: number, onGone?: (cancel: () => void) => () => void): Outcome | Promise<Outcome> {
    const started = c.level.queues.startRequest(digest, c.hash, waitUntil, onGone);
    if (typeof started === 'string') return this.settled(c, started);
    return started.then((o) => this.settled(c, o));
  }

  private settled(c: Classification, outcome: Outcome): Outcome {
    if (outcome !== 'dispatched') this.dropped.record(c.level.pl.metadata.name ?? '');
    return outcome;
  }

  finish(c: Classification, digest: RequestDigest): void {
    c.level.queues.finish(digest);
    if (c.level.quiescing && c.level.queues.isIdle) this.levels.delete(c.level.pl.metadata.name ?? '');
  }

  /**
   * Re-divides the server's seats among the levels from the seat demand each saw since the last
   * call (kube does it every 10 s): the exempt level keeps what it used; each limited level gets
   * at least its high watermark (up to its nominal seats, never below what it may not lend) and at
   * most its borrowing limit, the rest shared in proportion to the smoothed demands.
   */
  updateBorrowing(): void {
    this.divideCurrent(true);
  }

  private divideCurrent(observe: boolean): void {
    const limited: PriorityLevelState[] = [];
    const floors = new Map<PriorityLevelState, number>();
    const items: AllocItem[] = [];
    let minCLSum = 0;
    let floorSum = 0;
    let remaining = this.nominalCLSum;
    for (const s of this.levels.values()) {
      if (observe) updateDemandStats(s.demand, s.seatDemand.reset());
      if (s.queues.config.queues < 0) {
        const floor = Math.max(s.minCL, s.demand.highWatermark);
        floors.set(s, floor);
        remaining -= floor;
        continue;
      }
      const floor = Math.max(s.minCL, Math.min(s.nominalCL, s.demand.highWatermark));
      floors.set(s, floor);
      limited.push(s);
      items.push({ lowerBound: floor, upperBound: s.maxCL, target: Math.max(floor, s.demand.smoothed) });
      minCLSum += s.minCL;
      floorSum += floor;
    }
    let allocs: number[] | undefined;
    let shareFrac = 0;
    this.fairFrac = 0;
    if (remaining > minCLSum && remaining <= floorSum) shareFrac = (remaining - minCLSum) / (floorSum - minCLSum);
    else if (remaining > floorSum) {
      try {
        const r = computeConcurrencyAllocation(this.nominalCLSum, items);
        allocs = r.allocs;
        this.fairFrac = r.fairProp;
      } catch (err) {
        // Keep the current limits when the bounds admit no division (should not happen).
        console.error('apf: unable to derive new concurrency limits:', err);
        allocs = limited.map((s) => s.queues.concurrencyLimit);
      }
    }
    for (const s of this.levels.values()) {
      const floor = floors.get(s) ?? s.minCL;
      const i = limited.indexOf(s);
      let current: number;
      if (i < 0) current = floor;
      else if (remaining <= minCLSum) current = s.minCL;
      else if (allocs === undefined) current = s.minCL + Math.round((floor - s.minCL) * shareFrac);
      else current = Math.round(allocs[i] ?? s.minCL);
      s.target = items[i]?.target ?? 0;
      s.queues.concurrencyLimit = current;
      s.queues.setConfig(s.queues.config);
    }
  }

  /** The most seats one request of a level may take (0: no cap of the level's own). */
  maxSeatsOf(level: string): number {
    return this.levels.get(level)?.maxSeats ?? 0;
  }

  private divideSeats(): void {
    let shareSum = 0;
    for (const s of this.levels.values()) shareSum += sharesOf(s.pl).shares;
    this.nominalCLSum = 0;
    for (const s of this.levels.values()) {
      const { shares, lendable, borrowing } = sharesOf(s.pl);
      const nominal = shareSum === 0 ? 0 : Math.ceil(this.serverConcurrencyLimit * shares / shareSum);
      const lendableCL = Math.round(nominal * lendable / 100);
      const borrowingCL = borrowing === undefined ? this.serverConcurrencyLimit : Math.round(nominal * borrowing / 100);
      const fresh = s.nominalCL === 0 && s.maxCL === 0;
      s.nominalCL = nominal;
      s.minCL = nominal - lendableCL;
      s.maxCL = nominal + borrowingCL;
      this.nominalCLSum += nominal;
      const { queues, handSize } = s.queues.config;
      s.maxSeats = queues > 0 ? Math.max(1, Math.min(Math.ceil(nominal * MAX_SEATS_FRACTION), Math.floor(nominal / handSize))) : 0;
      // As kube, a new level starts at its nominal limit less half of what it may lend.
      if (fresh) {
        s.queues.concurrencyLimit = nominal - Math.floor(lendableCL / 2);
        Object.assign(s.demand, { avg: 0, stdDev: 0, highWatermark: 0, smoothed: 0 });
      }
    }
    // A new configuration re-divides at once, from the demand last observed.
    this.divideCurrent(false);
  }

  /** Flow schemas in matching order (tests, dumps). */
  matchingOrder(): readonly string[] { return this.flowSchemas.map((f) => f.metadata.name ?? ''); }
}

function danglingUpdate(fs: FlowSchema, dangling: boolean, plName: string, now: number): FlowSchemaStatusUpdate | undefined {
  const current = fs.status?.conditions?.find((c) => c.type === 'Dangling');
  const status = dangling ? 'True' : 'False';
  const reason = dangling ? 'NotFound' : 'Found';
  const message = dangling
    ? `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(plName)} but there is no such object`
    : `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(plName)} and it exists`;
  if (current?.status === status && current.reason === reason && current.message === message) return undefined;
  return {
    name: fs.metadata.name ?? '',
    condition: { type: 'Dangling', status, lastTransitionTime: new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z'), reason, message },
  };
}
