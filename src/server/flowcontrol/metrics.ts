// The apiserver_flowcontrol_* metrics kube-apiserver v1.36 exports (names, stability, labels and
// buckets as the oracle shows them): requests and seats executing and waiting per FlowSchema and
// priority level (read from the controller at scrape time, a series once seen staying at 0),
// dispatches and rejections by reason, the wait and execution durations, and each level's
// nominal, current, lower and upper seat limits.
// Counterpart of k8s.io/apiserver/pkg/util/flowcontrol/metrics/metrics.go (the subset kapi keeps).
import type { Gauge } from 'prom-client';
import { newCounter, newGauge, newHistogram } from '../../apimachinery/metrics/registry.ts';
import type { APFController, PriorityLevelState } from './controller.ts';
import { maxSeatsOf, type WorkEstimate } from './work-estimator.ts';

const DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];
const FS_PL = ['flow_schema', 'priority_level'] as const;
type FsPl = typeof FS_PL[number];

/** The controller the gauges read (the last server built in this process). */
let source: APFController | undefined;
export function exportMetricsOf(ctl: APFController): APFController {
  source = ctl;
  ctl.onWatchCount = observeWatchCount;
  return ctl;
}

const seen = new Map<string, Set<string>>();

/** Sets one gauge per (flow schema, level) from the controller's requests; series seen before and now empty read 0. */
function perFlow(name: string, pick: (waiting: boolean) => ((seats: number) => number) | undefined): (this: Gauge<FsPl>) => void {
  return function collect(this: Gauge<FsPl>): void {
    const values = new Map<string, number>();
    for (const [pl, s] of source?.levels ?? []) {
      const add = (fs: string, seats: number, waiting: boolean): void => {
        const f = pick(waiting);
        if (f === undefined) return;
        const k = `${fs}\0${pl}`;
        values.set(k, (values.get(k) ?? 0) + f(seats));
      };
      for (const q of s.queues.dump()) {
        for (const r of q.waiting) add(r.flowSchema, r.seats, true);
        for (const r of q.executing) add(r.flowSchema, r.seats, false);
      }
      for (const r of s.queues.queuelessExecuting()) add(r.flowSchema, r.seats, false);
    }
    const keys = seen.get(name) ?? new Set<string>();
    seen.set(name, keys);
    for (const k of values.keys()) keys.add(k);
    for (const k of keys) {
      const [flowSchema = '', level = ''] = k.split('\0');
      this.set({ flow_schema: flowSchema, priority_level: level }, values.get(k) ?? 0);
    }
  };
}

newGauge<FsPl>({ name: 'apiserver_flowcontrol_current_executing_requests', stability: 'BETA', labelNames: FS_PL,
  help: 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
  collect: perFlow('executing', (w) => (w ? undefined : () => 1)) });
newGauge<FsPl>({ name: 'apiserver_flowcontrol_current_executing_seats', stability: 'BETA', labelNames: FS_PL,
  help: 'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
  collect: perFlow('executing-seats', (w) => (w ? undefined : (seats) => seats)) });
newGauge<FsPl>({ name: 'apiserver_flowcontrol_current_inqueue_requests', stability: 'BETA', labelNames: FS_PL,
  help: 'Number of requests currently pending in queues of the API Priority and Fairness subsystem',
  collect: perFlow('inqueue', (w) => (w ? () => 1 : undefined)) });
newGauge<FsPl>({ name: 'apiserver_flowcontrol_current_inqueue_seats', stability: 'ALPHA', labelNames: FS_PL,
  help: 'Number of seats currently pending in queues of the API Priority and Fairness subsystem',
  collect: perFlow('inqueue-seats', (w) => (w ? (seats) => seats : undefined)) });

function perLevel(name: string, stability: 'ALPHA' | 'BETA', help: string, value: (s: PriorityLevelState) => number): void {
  newGauge<'priority_level'>({ name, stability, help, labelNames: ['priority_level'], collect() {
    for (const [pl, s] of source?.levels ?? []) this.set({ priority_level: pl }, value(s));
  } });
}
perLevel('apiserver_flowcontrol_nominal_limit_seats', 'BETA', 'Nominal number of execution seats configured for each priority level', (s) => s.nominalCL);
perLevel('apiserver_flowcontrol_current_limit_seats', 'ALPHA', 'current derived number of execution seats available to each priority level', (s) => s.queues.concurrencyLimit);
perLevel('apiserver_flowcontrol_lower_limit_seats', 'ALPHA', 'Configured lower bound on number of execution seats available to each priority level', (s) => s.minCL);
perLevel('apiserver_flowcontrol_upper_limit_seats', 'ALPHA', 'Configured upper bound on number of execution seats available to each priority level', (s) => s.maxCL);
// What the last seat re-division (every 10 s) saw and aimed at.
perLevel('apiserver_flowcontrol_demand_seats_high_watermark', 'ALPHA', 'High watermark, over last adjustment period, of demand_seats', (s) => s.demand.highWatermark);
perLevel('apiserver_flowcontrol_demand_seats_average', 'ALPHA', 'Time-weighted average, over last adjustment period, of demand_seats', (s) => s.demand.avg);
perLevel('apiserver_flowcontrol_demand_seats_stdev', 'ALPHA', 'Time-weighted standard deviation, over last adjustment period, of demand_seats', (s) => s.demand.stdDev);
perLevel('apiserver_flowcontrol_demand_seats_smoothed', 'ALPHA', 'Smoothed seat demands', (s) => s.demand.smoothed);
perLevel('apiserver_flowcontrol_target_seats', 'ALPHA', 'Seat allocation targets', (s) => s.target);
newGauge({ name: 'apiserver_flowcontrol_seat_fair_frac', stability: 'ALPHA',
  help: "Fair fraction of server's concurrency to allocate to each priority level that can use it",
  collect() { this.set(source?.fairFrac ?? 0); } });

const dispatched = newCounter<FsPl>({ name: 'apiserver_flowcontrol_dispatched_requests_total', stability: 'BETA', labelNames: FS_PL,
  help: 'Number of requests executed by API Priority and Fairness subsystem' });
const rejected = newCounter<FsPl | 'reason'>({ name: 'apiserver_flowcontrol_rejected_requests_total', stability: 'BETA',
  labelNames: [...FS_PL, 'reason'], help: 'Number of requests rejected by API Priority and Fairness subsystem' });
const waitDuration = newHistogram<FsPl | 'execute'>({ name: 'apiserver_flowcontrol_request_wait_duration_seconds', stability: 'BETA',
  labelNames: ['execute', ...FS_PL], buckets: DURATION_BUCKETS, help: 'Length of time a request spent waiting in its queue' });
const execution = newHistogram<FsPl | 'type'>({ name: 'apiserver_flowcontrol_request_execution_seconds', stability: 'ALPHA',
  labelNames: [...FS_PL, 'type'], buckets: DURATION_BUCKETS,
  help: 'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem' });

/** kube's reasons: queue-full or concurrency-limit (both "rejected" here), time-out, cancelled. */
export function observeAdmission(flowSchema: string, level: string, outcome: 'dispatched' | 'rejected' | 'time-out' | 'cancelled',
  waitedSeconds: number, queued: boolean): void {
  const labels = { flow_schema: flowSchema, priority_level: level };
  waitDuration.observe({ ...labels, execute: String(outcome === 'dispatched') }, waitedSeconds);
  if (outcome === 'dispatched') dispatched.inc(labels);
  else rejected.inc({ ...labels, reason: outcome === 'rejected' ? (queued ? 'queue-full' : 'concurrency-limit') : outcome });
}

const workEstimatedSeats = newHistogram<FsPl>({ name: 'apiserver_flowcontrol_work_estimated_seats', stability: 'ALPHA', labelNames: FS_PL,
  buckets: [1, 2, 4, 8, 16, 32, 64, 100],
  help: 'Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness' });
const watchCountSamples = newHistogram<FsPl>({ name: 'apiserver_flowcontrol_watch_count_samples', stability: 'ALPHA', labelNames: FS_PL,
  buckets: [0, 1, 10, 100, 1000, 10000], help: 'count of watchers for mutating requests in API Priority and Fairness' });

export function observeWorkEstimate(flowSchema: string, level: string, work: WorkEstimate): void {
  workEstimatedSeats.observe({ flow_schema: flowSchema, priority_level: level }, maxSeatsOf(work));
}

export function observeWatchCount(level: string, flowSchema: string, count: number): void {
  watchCountSamples.observe({ flow_schema: flowSchema, priority_level: level }, count);
}

export function observeExecution(flowSchema: string, level: string, watch: boolean, seconds: number): void {
  execution.observe({ flow_schema: flowSchema, priority_level: level, type: watch ? 'watch' : 'regular' }, seconds);
}
