// API priority and fairness: the configuration (FlowSchemas and PriorityLevelConfigurations as
// the informers see them, the mandatory ones imagined while missing), the classification of a
// request (first matching FlowSchema by precedence, its priority level, its flow), and each
// level's seats: nominal = ceil(server limit × shares / sum of shares), lendable and borrowing
// limits from the percentages, and a current limit re-divided every few seconds from the demand
// each level saw (levels that idle lend, busy ones borrow, within their bounds).
// Counterpart of k8s.io/apiserver/pkg/util/flowcontrol/apf_controller.go (the config consumer) and
// apf_filter.go; the seat re-division is simpler than kube's fair allocation (conc_alloc.go):
// demand above the floors is scaled down evenly when the server's seats do not cover it.
import type { RequestInfo, UserInfo } from '../../apimachinery/request/context.ts';
import { MANDATORY_FS_CATCH_ALL, MANDATORY_FS_EXEMPT, MANDATORY_PL_CATCH_ALL, MANDATORY_PL_EXEMPT } from './bootstrap.ts';
import { DroppedRequestsTracker } from './dropped-requests.ts';
import { QueueSet, type Outcome, type QueuingConfig, type RequestDigest } from './queue-set.ts';
import { compareFlowSchemas, flowDistinguisher, matchesFlowSchema } from './rule.ts';
import type { FlowSchema, FlowSchemaCondition, PriorityLevelConfiguration } from './types.ts';

export interface PriorityLevelState {
  pl: PriorityLevelConfiguration;
  readonly queues: QueueSet;
  nominalCL: number;
  minCL: number;
  maxCL: number;
  /** Highest seat demand (in use + waiting) since the last re-division. */
  peakDemand: number;
  /** No FlowSchema may lead here any more; dropped once idle. */
  quiescing: boolean;
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

  constructor(readonly serverConcurrencyLimit: number, private readonly now: () => number = Date.now) {
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
        this.levels.set(name, { pl, queues: new QueueSet(q), nominalCL: 0, minCL: 0, maxCL: 0, peakDemand: 0, quiescing: false });
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
    this.noteDemand(c.level);
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
   * Re-divides the seats from the demand seen since the last call: each level gets its demand,
   * kept between nominal − lendable and nominal + borrowing; when the server's seats do not cover
   * that, what lies above the floors is scaled down evenly.
   */
  rebalance(): void {
    const limited = [...this.levels.values()].filter((s) => s.queues.config.queues >= 0);
    const targets = limited.map((s) => Math.min(s.maxCL, Math.max(s.minCL, s.peakDemand)));
    const floors = limited.reduce((n, s) => n + s.minCL, 0);
    const total = targets.reduce((n, t) => n + t, 0);
    const available = limited.reduce((n, s) => n + s.nominalCL, 0);
    const frac = total <= available || total === floors ? 1 : Math.max(0, (available - floors) / (total - floors));
    limited.forEach((s, i) => {
      const t = targets[i] ?? s.nominalCL;
      s.queues.concurrencyLimit = Math.max(s.minCL, s.minCL + Math.round((t - s.minCL) * frac));
      s.peakDemand = s.queues.seatsUsed + s.queues.waitingSeats;
    });
    for (const s of limited) s.queues.setConfig(s.queues.config);
  }

  private noteDemand(s: PriorityLevelState): void {
    s.peakDemand = Math.max(s.peakDemand, s.queues.seatsUsed + s.queues.waitingSeats);
  }

  private divideSeats(): void {
    let shareSum = 0;
    for (const s of this.levels.values()) shareSum += sharesOf(s.pl).shares;
    for (const s of this.levels.values()) {
      const { shares, lendable, borrowing } = sharesOf(s.pl);
      const nominal = shareSum === 0 ? 0 : Math.ceil(this.serverConcurrencyLimit * shares / shareSum);
      const lendableCL = Math.round(nominal * lendable / 100);
      const borrowingCL = borrowing === undefined ? this.serverConcurrencyLimit : Math.round(nominal * borrowing / 100);
      const fresh = s.nominalCL === 0 && s.maxCL === 0;
      s.nominalCL = nominal;
      s.minCL = nominal - lendableCL;
      s.maxCL = nominal + borrowingCL;
      // As kube, a new level starts at its nominal limit less half of what it may lend.
      if (fresh) s.queues.concurrencyLimit = nominal - Math.floor(lendableCL / 2);
      else s.queues.concurrencyLimit = Math.min(s.maxCL, Math.max(s.minCL, s.queues.concurrencyLimit));
      s.queues.setConfig(s.queues.config);
    }
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
