// The phases of one bench run against one kapi server and its baseline: create, get, update,
// list-1k, list-10k, watch-p99, in that order (later phases use the objects earlier ones made).
import type { Baseline } from './baseline.ts';
import { sendOk, type HttpTarget } from './http-client.ts';
import { createObjects, getObjects, listOnce, newObjectSet, openWatchProbe, updateObjects, type Budget, type ObjectSet,
  type Throughput, type WatchProbe } from './phases.ts';
import { figure, type BaseFigureName, type Figure, type FigurePrefix } from './report.ts';
import { kapiRoutes, type ResponseSizes } from './routes.ts';
import { median, percentile } from './stats.ts';

export const NS_10K = 'default';
export const NS_1K = 'bench-1k';
export const NS_WATCH = 'bench-watch';
/** kapi and the baseline alternate in rounds, so a burst of noise from elsewhere on the machine
 * hits both sides rather than one figure. */
const ROUNDS = 3;
const ROUND_MS = 2000;
const WARMUP_MS = 1000;
const CREATE_WARMUP = 200;
const LIST_RUNS = { [NS_1K]: 15, [NS_10K]: 7 } as const;
const LIST_WARMUP = 2;
const WATCH_BLOCKS = 4;
const WATCH_BLOCK_WRITES = 500;
const WATCH_WARMUP = 100;
const UNLIMITED = Number.MAX_SAFE_INTEGER;

/** Tops `set` up to `count` objects named <prefix><n> within timeoutMs; rejects when one cannot be created. */
export type Filler = (set: ObjectSet, prefix: string, count: number, timeoutMs: number) => Promise<void>;

export interface MeasureContext {
  readonly workers: number;
  /** Prepended to every figure's name ('' for the embedded store). */
  readonly prefix: FigurePrefix;
  /** kapi's response sizes, filled in as the kapi phases run (the bare https baseline reads them). */
  readonly sizes: ResponseSizes;
  readonly log: (msg: string) => void;
  /** A line kept for the report's notes. */
  readonly note: (msg: string) => void;
  /** How the unmeasured fill to 10k and 1k objects is done; default: creates through kapi. */
  readonly fill?: Filler;
}

const rate = (n: number): string => `${Math.round(n)}/s`;

async function createNamespace(t: HttpTarget, name: string): Promise<void> {
  await sendOk(t, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
}

function itemCount(body: Buffer): number {
  const doc: unknown = JSON.parse(body.toString('utf8'));
  if (typeof doc === 'object' && doc !== null && 'items' in doc && Array.isArray(doc.items)) return doc.items.length;
  return -1;
}

interface PairedRates {
  readonly kapi: number;
  readonly base: number;
  readonly kapiOps: number;
}

/** ROUNDS rounds of kapi then baseline; each side's rate is its total ops over its total time. */
async function paired(kapiRun: () => Promise<Throughput>, baseRun: () => Promise<Throughput>): Promise<PairedRates> {
  const k = { ops: 0, ms: 0 };
  const b = { ops: 0, ms: 0 };
  for (let i = 0; i < ROUNDS; i++) {
    const kr = await kapiRun();
    k.ops += kr.ops;
    k.ms += kr.elapsedMs;
    const br = await baseRun();
    b.ops += br.ops;
    b.ms += br.elapsedMs;
  }
  return { kapi: k.ops / (k.ms / 1000), base: b.ops / (b.ms / 1000), kapiOps: k.ops };
}

/** Runs every phase on kapi (over HTTPS) and on `base`; resolves with the six figures. */
export async function measure(kapi: HttpTarget, base: Baseline, ctx: MeasureContext): Promise<Figure[]> {
  const { sizes, log, note } = ctx;
  const budget = (durationMs: number, maxOps: number): Budget => ({ workers: ctx.workers, durationMs, maxOps });
  const name = (n: BaseFigureName): `${FigurePrefix}${BaseFigureName}` => `${ctx.prefix}${n}`;
  const k = kapiRoutes;
  const figures: Figure[] = [];
  await createNamespace(kapi, NS_1K);
  await createNamespace(kapi, NS_WATCH);

  // create: the measured creates also populate the 10k namespace, topped up afterwards.
  log(`${name('create')}…`);
  const objects = newObjectSet(NS_10K);
  sizes.create = (await createObjects(kapi, k, objects, 'cm-', budget(60_000, CREATE_WARMUP))).responseBytes;
  await base.create(NS_10K, budget(60_000, CREATE_WARMUP));
  const perRound = Math.floor((10_000 - CREATE_WARMUP) / ROUNDS);
  const create = await paired(async () => {
    const r = await createObjects(kapi, k, objects, 'cm-', budget(ROUND_MS, perRound));
    sizes.create = r.responseBytes;
    return r;
  }, () => base.create(NS_10K, budget(ROUND_MS, UNLIMITED)));
  figures.push(figure(name('create'), 'ops/s', create.kapi, create.base));
  note(`${name('create')}: kapi ${rate(create.kapi)} (${create.kapiOps} creates), ${base.label} ${rate(create.base)}; ` +
    `response ${sizes.create} B`);

  log('filling namespaces to 10k and 1k configmaps…');
  const fill: Filler = ctx.fill ?? (async (set, prefix, count, timeoutMs) => {
    await createObjects(kapi, k, set, prefix, budget(timeoutMs, count - set.rv.size));
  });
  await fill(objects, 'cm-', 10_000, 90_000);
  const small = newObjectSet(NS_1K);
  await fill(small, 'cm-', 1000, 30_000);
  if (objects.rv.size !== 10_000 || small.rv.size !== 1000) {
    throw new Error(`fill incomplete: ${objects.rv.size} and ${small.rv.size} objects`);
  }

  log(`${name('get')}…`);
  await getObjects(kapi, k, objects, budget(WARMUP_MS, UNLIMITED));
  sizes.get = (await sendOk(kapi, 'GET', k.get(NS_10K, 'cm-0'))).body.length;
  await base.get(NS_10K, budget(WARMUP_MS, UNLIMITED));
  const get = await paired(() => getObjects(kapi, k, objects, budget(ROUND_MS, UNLIMITED)),
    () => base.get(NS_10K, budget(ROUND_MS, UNLIMITED)));
  figures.push(figure(name('get'), 'ops/s', get.kapi, get.base));
  note(`${name('get')}: kapi ${rate(get.kapi)}, ${base.label} ${rate(get.base)}; response ${sizes.get} B`);

  log(`${name('update')}…`);
  await updateObjects(kapi, k, objects, budget(WARMUP_MS, UNLIMITED), 1);
  sizes.update = sizes.get;
  await base.update(NS_10K, budget(WARMUP_MS, UNLIMITED));
  let generation = 1_000_000;
  const update = await paired(async () => {
    const r = await updateObjects(kapi, k, objects, budget(ROUND_MS, UNLIMITED), generation);
    generation += r.ops + ctx.workers;
    sizes.update = r.responseBytes;
    return r;
  }, () => base.update(NS_10K, budget(ROUND_MS, UNLIMITED)));
  figures.push(figure(name('update'), 'ops/s', update.kapi, update.base));
  note(`${name('update')}: kapi ${rate(update.kapi)}, ${base.label} ${rate(update.base)}; response ${sizes.update} B`);

  for (const [ns, list] of [[NS_1K, 'list-1k'], [NS_10K, 'list-10k']] as const) {
    log(`${name(list)}…`);
    const first = await listOnce(kapi, k, ns);
    const items = itemCount(first.body);
    // Every namespace also holds kube-root-ca.crt, as on a real cluster.
    const want = (ns === NS_1K ? 1000 : 10_000) + 1;
    if (items !== want) throw new Error(`${name(list)}: list returned ${items} items, want ${want}`);
    sizes.list.set(ns, first.body.length);
    const kSamples: number[] = [];
    const bSamples: number[] = [];
    for (let i = 0; i < LIST_WARMUP + LIST_RUNS[ns]; i++) {
      const kr = await listOnce(kapi, k, ns);
      const bMs = await base.list(ns, want);
      if (i < LIST_WARMUP) continue;
      kSamples.push(kr.ms);
      bSamples.push(bMs);
    }
    const kMs = median(kSamples);
    const bMs = median(bSamples);
    figures.push(figure(name(list), 'ms', kMs, bMs));
    note(`${name(list)}: median of ${LIST_RUNS[ns]}: kapi ${kMs.toFixed(1)} ms, ${base.label} ${bMs.toFixed(1)} ms; ` +
      `body ${(first.body.length / 1024 / 1024).toFixed(2)} MiB`);
  }

  log(`${name('watch-p99')}…`);
  const kProbe = await openWatchProbe(kapi, k, NS_WATCH);
  let bProbe: WatchProbe | undefined;
  try {
    for (let i = 0; i < WATCH_WARMUP; i++) await kProbe.write(`warm-${i}`);
    sizes.watchEvent = kProbe.eventBytes();
    bProbe = await base.openWatchProbe(NS_WATCH);
    for (let i = 0; i < WATCH_WARMUP; i++) await bProbe.write(`warm-${i}`);
    const kSamples: number[] = [];
    const bSamples: number[] = [];
    for (let block = 0; block < WATCH_BLOCKS; block++) {
      for (let i = 0; i < WATCH_BLOCK_WRITES; i++) kSamples.push(await kProbe.write(`watch-${block}-${i}`));
      for (let i = 0; i < WATCH_BLOCK_WRITES; i++) bSamples.push(await bProbe.write(`watch-${block}-${i}`));
    }
    const kP99 = percentile(kSamples, 99);
    const bP99 = percentile(bSamples, 99);
    figures.push(figure(name('watch-p99'), 'ms', kP99, bP99));
    note(`${name('watch-p99')}: ${kSamples.length} sequential creates; kapi p50 ${median(kSamples).toFixed(2)} ms ` +
      `p99 ${kP99.toFixed(2)} ms, ${base.label} p50 ${median(bSamples).toFixed(2)} ms p99 ${bP99.toFixed(2)} ms; ` +
      `event ${sizes.watchEvent} B`);
  } finally {
    kProbe.close();
    bProbe?.close();
  }
  return figures;
}
