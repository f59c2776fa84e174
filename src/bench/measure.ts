// The phases of one bench run against one kapi server, its baseline and, when given, the reference
// kube-apiserver: create, get, update, list-1k, list-10k, watch-p99, in that order (later phases
// use the objects earlier ones made). kube-apiserver runs exactly kapi's workload (same routes,
// budgets and client), in the same rounds.
// No Go counterpart: the bench.
import type { Baseline } from './baseline.ts';
import { send, sendOk, type HttpTarget } from './http-client.ts';
import { configMapBody, createObjects, getObjects, listOnce, newObjectSet, openWatchProbe, updateObjects, type Budget, type ObjectSet,
  type Throughput, type WatchProbe } from './phases.ts';
import { figure, type BaseFigureName, type Figure, type FigurePrefix } from './report.ts';
import { kapiRoutes, type ResponseSizes } from './routes.ts';
import { median, percentile } from './stats.ts';

export const NS_10K = 'default';
const NS_1K = 'bench-1k';
const NS_WATCH = 'bench-watch';
/** kapi, the baseline and kube-apiserver alternate in rounds, so a burst of noise from elsewhere on
 * the machine hits every side rather than one figure. */
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
  /** undefined without a reference. */
  readonly ref: number | undefined;
  readonly kapiOps: number;
}

/** ROUNDS rounds of kapi, baseline, reference; each side's rate is its total ops over its total time. */
async function paired(kapiRun: () => Promise<Throughput>, baseRun: () => Promise<Throughput>,
  refRun: (() => Promise<Throughput>) | undefined): Promise<PairedRates> {
  const sides = [kapiRun, baseRun, refRun].map((run) => ({ run, ops: 0, ms: 0 }));
  for (let i = 0; i < ROUNDS; i++) {
    for (const side of sides) {
      if (side.run === undefined) continue;
      const r = await side.run();
      side.ops += r.ops;
      side.ms += r.elapsedMs;
    }
  }
  const [k, b, r] = sides.map((s) => (s.run === undefined ? undefined : s.ops / (s.ms / 1000)));
  return { kapi: k!, base: b!, ref: r, kapiOps: sides[0]!.ops };
}

const KUBE = 'kube-apiserver';
/** ", kube-apiserver <text>" when there is a reference figure. */
const refNote = (v: number | undefined, text: (v: number) => string): string => (v === undefined ? '' : `, ${KUBE} ${text(v)}`);

/** A ConfigMap standing in for kube-root-ca.crt, which kube-controller-manager (not running here) publishes. */
async function addRootCAStandIn(t: HttpTarget, ns: string): Promise<void> {
  const res = await send(t, 'POST', kapiRoutes.create(ns), configMapBody(ns, 'kube-root-ca.crt', 0));
  if (res.status !== 201 && res.status !== 409) throw new Error(`${KUBE}: kube-root-ca.crt in ${ns}: HTTP ${res.status}`);
}

/**
 * Runs every phase on kapi (over HTTPS), on `base` and on `ref` (kube-apiserver, with kapi's
 * routes) when given; resolves with the six figures.
 */
export async function measure(kapi: HttpTarget, base: Baseline, ctx: MeasureContext, ref?: HttpTarget): Promise<Figure[]> {
  const { sizes, log, note } = ctx;
  const budget = (durationMs: number, maxOps: number): Budget => ({ workers: ctx.workers, durationMs, maxOps });
  const name = (n: BaseFigureName): `${FigurePrefix}${BaseFigureName}` => `${ctx.prefix}${n}`;
  const k = kapiRoutes;
  const figures: Figure[] = [];
  for (const t of ref === undefined ? [kapi] : [kapi, ref]) {
    await createNamespace(t, NS_1K);
    await createNamespace(t, NS_WATCH);
  }
  const refObjects = newObjectSet(NS_10K);

  // create: the measured creates also populate the 10k namespace, topped up afterwards.
  log(`${name('create')}…`);
  const objects = newObjectSet(NS_10K);
  sizes.create = (await createObjects(kapi, k, objects, 'cm-', budget(60_000, CREATE_WARMUP))).responseBytes;
  await base.create(NS_10K, budget(60_000, CREATE_WARMUP));
  if (ref !== undefined) await createObjects(ref, k, refObjects, 'cm-', budget(60_000, CREATE_WARMUP));
  const perRound = Math.floor((10_000 - CREATE_WARMUP) / ROUNDS);
  const create = await paired(async () => {
    const r = await createObjects(kapi, k, objects, 'cm-', budget(ROUND_MS, perRound));
    sizes.create = r.responseBytes;
    return r;
  }, () => base.create(NS_10K, budget(ROUND_MS, UNLIMITED)),
  ref && (() => createObjects(ref, k, refObjects, 'cm-', budget(ROUND_MS, perRound))));
  figures.push(figure(name('create'), 'ops/s', create.kapi, create.base, create.ref));
  note(`${name('create')}: kapi ${rate(create.kapi)} (${create.kapiOps} creates), ${base.label} ${rate(create.base)}` +
    `${refNote(create.ref, rate)}; response ${sizes.create} B`);

  log('filling namespaces to 10k and 1k configmaps…');
  const apiFill = (t: HttpTarget): Filler => async (set, prefix, count, timeoutMs) => {
    await createObjects(t, k, set, prefix, budget(timeoutMs, count - set.rv.size));
  };
  const fill: Filler = ctx.fill ?? apiFill(kapi);
  await fill(objects, 'cm-', 10_000, 90_000);
  const small = newObjectSet(NS_1K);
  await fill(small, 'cm-', 1000, 30_000);
  const refSmall = newObjectSet(NS_1K);
  if (ref !== undefined) {
    await apiFill(ref)(refObjects, 'cm-', 10_000, 180_000);
    await apiFill(ref)(refSmall, 'cm-', 1000, 60_000);
    for (const ns of [NS_10K, NS_1K]) await addRootCAStandIn(ref, ns);
  }
  if (objects.rv.size !== 10_000 || small.rv.size !== 1000) {
    throw new Error(`fill incomplete: ${objects.rv.size} and ${small.rv.size} objects`);
  }
  if (ref !== undefined && (refObjects.rv.size !== 10_000 || refSmall.rv.size !== 1000)) {
    throw new Error(`${KUBE} fill incomplete: ${refObjects.rv.size} and ${refSmall.rv.size} objects`);
  }

  log(`${name('get')}…`);
  await getObjects(kapi, k, objects, budget(WARMUP_MS, UNLIMITED));
  sizes.get = (await sendOk(kapi, 'GET', k.get(NS_10K, 'cm-0'))).body.length;
  await base.get(NS_10K, budget(WARMUP_MS, UNLIMITED));
  if (ref !== undefined) await getObjects(ref, k, refObjects, budget(WARMUP_MS, UNLIMITED));
  const get = await paired(() => getObjects(kapi, k, objects, budget(ROUND_MS, UNLIMITED)),
    () => base.get(NS_10K, budget(ROUND_MS, UNLIMITED)),
    ref && (() => getObjects(ref, k, refObjects, budget(ROUND_MS, UNLIMITED))));
  figures.push(figure(name('get'), 'ops/s', get.kapi, get.base, get.ref));
  note(`${name('get')}: kapi ${rate(get.kapi)}, ${base.label} ${rate(get.base)}${refNote(get.ref, rate)}; response ${sizes.get} B`);

  log(`${name('update')}…`);
  await updateObjects(kapi, k, objects, budget(WARMUP_MS, UNLIMITED), 1);
  sizes.update = sizes.get;
  await base.update(NS_10K, budget(WARMUP_MS, UNLIMITED));
  if (ref !== undefined) await updateObjects(ref, k, refObjects, budget(WARMUP_MS, UNLIMITED), 1);
  let generation = 1_000_000;
  let refGeneration = 1_000_000;
  const update = await paired(async () => {
    const r = await updateObjects(kapi, k, objects, budget(ROUND_MS, UNLIMITED), generation);
    generation += r.ops + ctx.workers;
    sizes.update = r.responseBytes;
    return r;
  }, () => base.update(NS_10K, budget(ROUND_MS, UNLIMITED)), ref && (async () => {
    const r = await updateObjects(ref, k, refObjects, budget(ROUND_MS, UNLIMITED), refGeneration);
    refGeneration += r.ops + ctx.workers;
    return r;
  }));
  figures.push(figure(name('update'), 'ops/s', update.kapi, update.base, update.ref));
  note(`${name('update')}: kapi ${rate(update.kapi)}, ${base.label} ${rate(update.base)}${refNote(update.ref, rate)}; ` +
    `response ${sizes.update} B`);

  for (const [ns, list] of [[NS_1K, 'list-1k'], [NS_10K, 'list-10k']] as const) {
    log(`${name(list)}…`);
    const first = await listOnce(kapi, k, ns);
    const items = itemCount(first.body);
    // Every namespace also holds kube-root-ca.crt, as on a real cluster.
    const want = (ns === NS_1K ? 1000 : 10_000) + 1;
    if (items !== want) throw new Error(`${name(list)}: list returned ${items} items, want ${want}`);
    sizes.list.set(ns, first.body.length);
    if (ref !== undefined) {
      const refItems = itemCount((await listOnce(ref, k, ns)).body);
      if (refItems !== want) throw new Error(`${KUBE} ${name(list)}: list returned ${refItems} items, want ${want}`);
    }
    const kSamples: number[] = [];
    const bSamples: number[] = [];
    const rSamples: number[] = [];
    for (let i = 0; i < LIST_WARMUP + LIST_RUNS[ns]; i++) {
      const kr = await listOnce(kapi, k, ns);
      const bMs = await base.list(ns, want);
      const rr = ref === undefined ? undefined : await listOnce(ref, k, ns);
      if (i < LIST_WARMUP) continue;
      kSamples.push(kr.ms);
      bSamples.push(bMs);
      if (rr !== undefined) rSamples.push(rr.ms);
    }
    const kMs = median(kSamples);
    const bMs = median(bSamples);
    const rMs = ref === undefined ? undefined : median(rSamples);
    figures.push(figure(name(list), 'ms', kMs, bMs, rMs));
    note(`${name(list)}: median of ${LIST_RUNS[ns]}: kapi ${kMs.toFixed(1)} ms, ${base.label} ${bMs.toFixed(1)} ms` +
      `${refNote(rMs, (v) => `${v.toFixed(1)} ms`)}; body ${(first.body.length / 1024 / 1024).toFixed(2)} MiB`);
  }

  log(`${name('watch-p99')}…`);
  const kProbe = await openWatchProbe(kapi, k, NS_WATCH);
  let bProbe: WatchProbe | undefined;
  let rProbe: WatchProbe | undefined;
  try {
    for (let i = 0; i < WATCH_WARMUP; i++) await kProbe.write(`warm-${i}`);
    sizes.watchEvent = kProbe.eventBytes();
    bProbe = await base.openWatchProbe(NS_WATCH);
    for (let i = 0; i < WATCH_WARMUP; i++) await bProbe.write(`warm-${i}`);
    if (ref !== undefined) {
      rProbe = await openWatchProbe(ref, k, NS_WATCH);
      for (let i = 0; i < WATCH_WARMUP; i++) await rProbe.write(`warm-${i}`);
    }
    const kSamples: number[] = [];
    const bSamples: number[] = [];
    const rSamples: number[] = [];
    for (let block = 0; block < WATCH_BLOCKS; block++) {
      for (let i = 0; i < WATCH_BLOCK_WRITES; i++) kSamples.push(await kProbe.write(`watch-${block}-${i}`));
      for (let i = 0; i < WATCH_BLOCK_WRITES; i++) bSamples.push(await bProbe.write(`watch-${block}-${i}`));
      if (rProbe !== undefined) {
        for (let i = 0; i < WATCH_BLOCK_WRITES; i++) rSamples.push(await rProbe.write(`watch-${block}-${i}`));
      }
    }
    const kP99 = percentile(kSamples, 99);
    const bP99 = percentile(bSamples, 99);
    const rP99 = rProbe === undefined ? undefined : percentile(rSamples, 99);
    figures.push(figure(name('watch-p99'), 'ms', kP99, bP99, rP99));
    note(`${name('watch-p99')}: ${kSamples.length} sequential creates; kapi p50 ${median(kSamples).toFixed(2)} ms ` +
      `p99 ${kP99.toFixed(2)} ms, ${base.label} p50 ${median(bSamples).toFixed(2)} ms p99 ${bP99.toFixed(2)} ms` +
      `${refNote(rP99, (v) => `p50 ${median(rSamples).toFixed(2)} ms p99 ${v.toFixed(2)} ms`)}; event ${sizes.watchEvent} B`);
  } finally {
    kProbe.close();
    bProbe?.close();
    rProbe?.close();
  }
  return figures;
}
