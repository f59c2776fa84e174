// The watchers phase: the same watches and creates on kapi and on kube-apiserver, in alternating
// rounds; three figures (delivery p50, p99, creates/s) with kube-apiserver's beside kapi's. There
// is no bare baseline: a bare server's fan-out says little about an API server's.
// No Go counterpart: the bench.
import { sendOk, type HttpTarget } from './http-client.ts';
import { figure, type BaseFigureName, type Figure, type FigurePrefix } from './report.ts';
import { median, percentile } from './stats.ts';
import { openWatchers, type WatcherRound, type Watchers } from './watchers.ts';

const NS_WATCHERS = 'bench-watchers';
const ROUNDS = 2;
const ROUND_CREATES = 100;
const WARMUP_CREATES = 20;
/** Concurrent creates: a steady stream of events, not a burst the client cannot read. */
const CREATE_WORKERS = 8;

export interface WatchersContext {
  readonly watchers: number;
  readonly prefix: FigurePrefix;
  readonly log: (msg: string) => void;
  readonly note: (msg: string) => void;
}

interface Totals {
  latencies: number[];
  creates: number;
  ms: number;
  dropped: number;
}

const add = (t: Totals, r: WatcherRound): void => {
  // Not push(...r.latencies): 100,000 arguments overflow the stack.
  for (const l of r.latencies) t.latencies.push(l);
  t.creates += r.creates;
  t.ms += r.elapsedMs;
  t.dropped += r.dropped;
};

/** The figures of one side: p50, p99 (ms) and creates/s. */
export function watcherStats(t: Totals): { p50: number; p99: number; rate: number } {
  return { p50: median(t.latencies), p99: percentile(t.latencies, 99), rate: t.creates / (t.ms / 1000) };
}

async function open(t: HttpTarget, n: number): Promise<Watchers> {
  await sendOk(t, 'POST', '/api/v1/namespaces',
    JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS_WATCHERS } }));
  return await openWatchers(t, NS_WATCHERS, n);
}

/** `ref` is kube-apiserver, or undefined without the oracle. */
export async function measureWatchers(kapi: HttpTarget, ref: HttpTarget | undefined, ctx: WatchersContext): Promise<Figure[]> {
  const sides: { label: string; w: Watchers; totals: Totals }[] = [];
  try {
    for (const [label, t] of [['kapi', kapi], ['kube-apiserver', ref]] as const) {
      if (t === undefined) continue;
      sides.push({ label, w: await open(t, ctx.watchers), totals: { latencies: [], creates: 0, ms: 0, dropped: 0 } });
      ctx.log(`${label}: ${ctx.watchers} watches open`);
    }
    for (const s of sides) s.totals.dropped += (await s.w.round('warm-', WARMUP_CREATES, CREATE_WORKERS)).dropped;
    for (let i = 0; i < ROUNDS; i++) {
      for (const s of sides) add(s.totals, await s.w.round(`w${i}-`, ROUND_CREATES, CREATE_WORKERS));
    }
  } finally {
    for (const s of sides) s.w.close();
  }
  const [k, r] = sides.map((s) => watcherStats(s.totals));
  const name = (n: BaseFigureName): `${FigurePrefix}${BaseFigureName}` => `${ctx.prefix}${n}`;
  const fmt = (s: { p50: number; p99: number; rate: number }, dropped: number): string =>
    `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, ${Math.round(s.rate)} creates/s, ${dropped} watches ended by the server`;
  ctx.note(`${name('watchers-p99')}: ${ctx.watchers} watches, ${ROUNDS * ROUND_CREATES} creates (${CREATE_WORKERS} concurrent), ` +
    `${sides[0]!.totals.latencies.length} events delivered to kapi's watches; kapi ${fmt(k!, sides[0]!.totals.dropped)}${r === undefined ? '' : `; kube-apiserver ${fmt(r, sides[1]!.totals.dropped)}`}`);
  return [
    figure(name('watchers-p50'), 'ms', k!.p50, undefined, r?.p50),
    figure(name('watchers-p99'), 'ms', k!.p99, undefined, r?.p99),
    figure(name('watchers-creates'), 'ops/s', k!.rate, undefined, r?.rate),
  ];
}
