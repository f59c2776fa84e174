// The process-wide metrics registry every component registers into, as kube's legacyregistry, and
// kube's conventions on top of prom-client: a stability level in front of each help text
// ("[STABLE] ...", "[ALPHA] ..."), label names sorted (kube's text output lists them so), and the
// exposition content type kube answers with.
// Counterpart of k8s.io/component-base/metrics (legacyregistry, opts.go's stability prefix).
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type StabilityLevel = 'ALPHA' | 'BETA' | 'STABLE';

/** What /metrics answers with (Go's expfmt for the 0.0.4 text format, with its escaping scheme). */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8; escaping=underscores';

/** kube's DefBuckets of request latencies (apiserver_request_duration_seconds, etcd_request_duration_seconds). */
export const REQUEST_DURATION_BUCKETS: readonly number[] = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

/** prometheus.ExponentialBuckets(start, factor, count). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  for (let i = 0, v = start; i < count; i++, v *= factor) out.push(v);
  return out;
}

export const legacyRegistry = new Registry();
/** /metrics/slis has its own registry in kube (the healthcheck SLIs). */
export const slisRegistry = new Registry();

let defaultsRegistered = false;
/**
 * process_* (CPU, memory, file descriptors, start time) and Node's runtime metrics (nodejs_*:
 * event loop lag, heap, GC), the counterpart of Go's process and go_* collectors. Registered once,
 * when a server is built, so a library import costs nothing.
 */
export function registerProcessMetrics(): void {
  if (defaultsRegistered) return;
  defaultsRegistered = true;
  collectDefaultMetrics({ register: legacyRegistry });
}

interface Opts<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly stability: StabilityLevel;
  readonly labelNames?: readonly L[];
  readonly registry?: Registry;
}

const helpOf = (o: Opts<string>): string => `[${o.stability}] ${o.help}`;
const labelsOf = <L extends string>(o: Opts<L>): L[] => [...(o.labelNames ?? [])].sort();

/** Metrics are module-level singletons; a name registered twice (tests re-importing) returns the first. */
function existing<T>(o: Opts<string>): T | undefined {
  return (o.registry ?? legacyRegistry).getSingleMetric(o.name) as T | undefined;
}

export function newCounter<L extends string = never>(o: Opts<L>): Counter<L> {
  return existing<Counter<L>>(o) ?? new Counter<L>({ name: o.name, help: helpOf(o), labelNames: labelsOf(o), registers: [o.registry ?? legacyRegistry] });
}

export function newGauge<L extends string = never>(o: Opts<L> & { readonly collect?: (this: Gauge<L>) => void | Promise<void> }): Gauge<L> {
  return existing<Gauge<L>>(o) ?? new Gauge<L>({
    name: o.name, help: helpOf(o), labelNames: labelsOf(o), registers: [o.registry ?? legacyRegistry],
    ...(o.collect !== undefined ? { collect: o.collect } : {}),
  });
}

export function newHistogram<L extends string = never>(o: Opts<L> & { readonly buckets: readonly number[] }): Histogram<L> {
  return existing<Histogram<L>>(o) ?? new Histogram<L>({
    name: o.name, help: helpOf(o), labelNames: labelsOf(o), buckets: [...o.buckets], registers: [o.registry ?? legacyRegistry],
  });
}

/** Seconds since `startNs` (process.hrtime.bigint()). */
export const sinceSeconds = (startNs: bigint): number => Number(process.hrtime.bigint() - startNs) / 1e9;
