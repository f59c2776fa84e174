// The fair division of the server's seats among the limited priority levels (kube's borrowing):
// each level i has a target t_i (its smoothed seat demand), and bounds [lb_i, ub_i]; the answer is
// clamp(p × t_i, lb_i, ub_i) for the one proportion p at which the allocations sum to the
// server's seats. The sum is piecewise linear and non-decreasing in p, with a corner at every
// lb_i / t_i and ub_i / t_i, so p is found by walking the corners in order.
// Also the seat demand integrator: the time-weighted average, deviation and maximum of a level's
// demand (seats executing + seats waiting) over each adjustment period.
// Counterpart of k8s.io/apiserver/pkg/util/flowcontrol/conc_alloc.go and fairqueuing/integrator.go.

export interface AllocItem { readonly target: number; readonly lowerBound: number; readonly upperBound: number }

/** Below this a target counts as this (so that every level gets a share of what is left). */
const MIN_TARGET = 0.001;
const EPSILON = 1e-7;

/**
 * The allocations summing to `requiredSum`, and the fair proportion. Throws when the bounds make
 * that impossible (negative, inverted, or not enclosing the sum) or a target lies below its lower bound.
 */
export function computeConcurrencyAllocation(requiredSum: number, items: readonly AllocItem[]): { allocs: number[]; fairProp: number } {
  if (requiredSum < 0) throw new Error('negative sums are not supported');
  let lowSum = 0;
  let highSum = 0;
  const targets = items.map((it, i) => {
    if (it.lowerBound < 0) throw new Error(`lower bound ${i} is ${it.lowerBound} but negative lower bounds are not allowed`);
    if (it.target < it.lowerBound) throw new Error(`target ${i} is ${it.target}, which is below its lower bound of ${it.lowerBound}`);
    if (it.upperBound < it.lowerBound) throw new Error(`upper bound ${i} is ${it.upperBound} but should not be less than the lower bound ${it.lowerBound}`);
    lowSum += it.lowerBound;
    highSum += it.upperBound;
    return Math.max(MIN_TARGET, it.target);
  });
  if (lowSum - requiredSum > EPSILON) throw new Error(`lower bounds sum to ${lowSum}, which is higher than the required sum of ${requiredSum}`);
  if (requiredSum - highSum > EPSILON) throw new Error(`upper bounds sum to ${highSum}, which is lower than the required sum of ${requiredSum}`);
  const relLow = items.map((it, i) => it.lowerBound / (targets[i] ?? 1));
  const relHigh = items.map((it, i) => it.upperBound / (targets[i] ?? 1));
  if (requiredSum === 0) return { allocs: items.map(() => 0), fairProp: 0 };
  if (lowSum - requiredSum > -EPSILON) return { allocs: items.map((it) => it.lowerBound), fairProp: Math.min(...relLow) };
  if (requiredSum - highSum > -EPSILON) return { allocs: items.map((it) => it.upperBound), fairProp: Math.max(...relHigh) };
  const sumAt = (p: number): number => items.reduce((n, it, i) => n + Math.max(it.lowerBound, Math.min(it.upperBound, p * (targets[i] ?? 0))), 0);
  const corners = [...new Set([...relLow, ...relHigh])].sort((a, b) => a - b);
  let fairProp = corners[corners.length - 1] ?? 0;
  let prev = corners[0] ?? 0;
  let prevSum = sumAt(prev);
  for (const c of corners) {
    const s = sumAt(c);
    if (s >= requiredSum) {
      // Linear between the corners: interpolate.
      fairProp = s === prevSum ? c : prev + (c - prev) * (requiredSum - prevSum) / (s - prevSum);
      break;
    }
    prev = c;
    prevSum = s;
  }
  return { allocs: items.map((it, i) => Math.max(it.lowerBound, Math.min(it.upperBound, fairProp * (targets[i] ?? 0)))), fairProp };
}

export interface IntegratorResults { readonly durationMs: number; readonly average: number; readonly deviation: number; readonly max: number }

/** Integrates a value over time (ms clock): its average, standard deviation and maximum since the last reset. */
export class Integrator {
  private value = 0;
  private last: number;
  private start: number;
  private sum = 0;
  private sumSquares = 0;
  private max = 0;

  constructor(private readonly now: () => number = Date.now) {
    this.last = now();
    this.start = this.last;
  }

  get current(): number { return this.value; }

  set(x: number): void {
    this.advance();
    this.value = x;
    this.max = Math.max(this.max, x);
  }

  /** The results since the last reset; starts a new period at the current value. */
  reset(): IntegratorResults {
    this.advance();
    const durationMs = this.last - this.start;
    const average = durationMs > 0 ? this.sum / durationMs : Number.NaN;
    const variance = durationMs > 0 ? this.sumSquares / durationMs - average * average : Number.NaN;
    const out = { durationMs, average, deviation: variance > 0 ? Math.sqrt(variance) : (Number.isNaN(variance) ? Number.NaN : 0), max: this.max };
    this.start = this.last;
    this.sum = 0;
    this.sumSquares = 0;
    this.max = this.value;
    return out;
  }

  private advance(): void {
    const t = this.now();
    const dt = t - this.last;
    if (dt > 0) {
      this.sum += this.value * dt;
      this.sumSquares += this.value * this.value * dt;
    }
    this.last = t;
  }
}
