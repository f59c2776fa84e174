// `npm run bench`: ConfigMap throughput and latency of kapi (embedded SQLite store, HTTPS, admin
// bearer token) against a bare node:https server moving the same bytes, measured in one run.
// The server under test and the baseline each run in a child process; this process is the load
// generator. Progress goes to stderr; stdout gets the table, or one JSON object with --json.
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { pkiPaths } from '../cli/certs.ts';
import { startChild, stringField, type Child } from './child.ts';
import { closeTarget, newTarget, sendOk, type HttpTarget } from './http-client.ts';
import { readAdminKubeconfig } from './kubeconfig.ts';
import { createObjects, getObjects, listOnce, newObjectSet, openWatchProbe, updateObjects, type Budget, type Throughput,
  type WatchProbe } from './phases.ts';
import { figure, toJSON, toTable, type Figure } from './report.ts';
import { baselineRoutes, kapiRoutes, newResponseSizes, type Routes } from './routes.ts';
import { median, percentile } from './stats.ts';

const { values: opts } = parseArgs({
  options: { json: { type: 'boolean', default: false }, concurrency: { type: 'string', default: '64' } },
  strict: true,
});
const WORKERS = Number(opts.concurrency);
if (!Number.isInteger(WORKERS) || WORKERS < 1 || WORKERS > 1024) throw new Error(`bad --concurrency ${opts.concurrency}`);

const NS_10K = 'default';
const NS_1K = 'bench-1k';
const NS_WATCH = 'bench-watch';
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

const log = (msg: string): void => {
  process.stderr.write(`[bench] ${msg}\n`);
};
const notes: string[] = [];
const note = (msg: string): void => {
  notes.push(msg);
  log(msg);
};
const budget = (durationMs: number, maxOps: number): Budget => ({ workers: WORKERS, durationMs, maxOps });
const rate = (n: number): string => `${Math.round(n)}/s`;

function parseServerInfo(v: unknown): { url: string; kubeconfigPath: string; dataDir: string } {
  return { url: stringField(v, 'url'), kubeconfigPath: stringField(v, 'kubeconfigPath'), dataDir: stringField(v, 'dataDir') };
}

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
  readonly bare: number;
  readonly kapiOps: number;
  readonly responseBytes: number;
}

/** ROUNDS rounds of kapi then baseline; each side's rate is its total ops over its total time. */
async function paired(kapiRun: () => Promise<Throughput>, bareRun: () => Promise<Throughput>): Promise<PairedRates> {
  const k = { ops: 0, ms: 0, bytes: 0 };
  const b = { ops: 0, ms: 0 };
  for (let i = 0; i < ROUNDS; i++) {
    const kr = await kapiRun();
    k.ops += kr.ops;
    k.ms += kr.elapsedMs;
    k.bytes = kr.responseBytes;
    const br = await bareRun();
    b.ops += br.ops;
    b.ms += br.elapsedMs;
  }
  return { kapi: k.ops / (k.ms / 1000), bare: b.ops / (b.ms / 1000), kapiOps: k.ops, responseBytes: k.bytes };
}

async function measure(kapi: HttpTarget, bare: HttpTarget): Promise<Figure[]> {
  const sizes = newResponseSizes();
  const k: Routes = kapiRoutes;
  const b: Routes = baselineRoutes(sizes);
  const figures: Figure[] = [];
  await createNamespace(kapi, NS_1K);
  await createNamespace(kapi, NS_WATCH);

  // create: the measured creates also populate the 10k namespace, topped up afterwards.
  log('create…');
  const objects = newObjectSet(NS_10K);
  const bareObjects = newObjectSet(NS_10K);
  sizes.create = (await createObjects(kapi, k, objects, 'cm-', budget(60_000, CREATE_WARMUP))).responseBytes;
  await createObjects(bare, b, bareObjects, 'cm-', budget(60_000, CREATE_WARMUP));
  const perRound = Math.floor((10_000 - CREATE_WARMUP) / ROUNDS);
  const create = await paired(async () => {
    const r = await createObjects(kapi, k, objects, 'cm-', budget(ROUND_MS, perRound));
    sizes.create = r.responseBytes;
    return r;
  }, () => createObjects(bare, b, bareObjects, 'cm-', budget(ROUND_MS, UNLIMITED)));
  figures.push(figure('create', 'ops/s', create.kapi, create.bare));
  note(`create: kapi ${rate(create.kapi)} (${create.kapiOps} creates), bare ${rate(create.bare)}; response ${sizes.create} B`);

  log('filling namespaces to 10k and 1k configmaps…');
  await createObjects(kapi, k, objects, 'cm-', budget(90_000, 10_000 - objects.rv.size));
  const small = newObjectSet(NS_1K);
  await createObjects(kapi, k, small, 'cm-', budget(30_000, 1000));
  if (objects.rv.size !== 10_000 || small.rv.size !== 1000) {
    throw new Error(`fill incomplete: ${objects.rv.size} and ${small.rv.size} objects`);
  }

  log('get…');
  await getObjects(kapi, k, objects, budget(WARMUP_MS, UNLIMITED));
  sizes.get = (await sendOk(kapi, 'GET', k.get(NS_10K, 'cm-0'))).body.length;
  await getObjects(bare, b, objects, budget(WARMUP_MS, UNLIMITED));
  const get = await paired(() => getObjects(kapi, k, objects, budget(ROUND_MS, UNLIMITED)),
    () => getObjects(bare, b, objects, budget(ROUND_MS, UNLIMITED)));
  figures.push(figure('get', 'ops/s', get.kapi, get.bare));
  note(`get: kapi ${rate(get.kapi)}, bare ${rate(get.bare)}; response ${sizes.get} B`);

  log('update…');
  await updateObjects(kapi, k, objects, budget(WARMUP_MS, UNLIMITED), 1);
  sizes.update = sizes.get;
  const bareUpdates = newObjectSet(NS_10K);
  for (const [name, rv] of objects.rv) bareUpdates.rv.set(name, rv);
  await updateObjects(bare, b, bareUpdates, budget(WARMUP_MS, UNLIMITED), 1);
  let generation = 1_000_000;
  const update = await paired(async () => {
    const r = await updateObjects(kapi, k, objects, budget(ROUND_MS, UNLIMITED), generation);
    generation += r.ops + WORKERS;
    sizes.update = r.responseBytes;
    return r;
  }, () => updateObjects(bare, b, bareUpdates, budget(ROUND_MS, UNLIMITED), 1));
  figures.push(figure('update', 'ops/s', update.kapi, update.bare));
  note(`update: kapi ${rate(update.kapi)}, bare ${rate(update.bare)}; response ${sizes.update} B`);

  for (const [ns, name] of [[NS_1K, 'list-1k'], [NS_10K, 'list-10k']] as const) {
    log(`${name}…`);
    const first = await listOnce(kapi, k, ns);
    const items = itemCount(first.body);
    const want = ns === NS_1K ? 1000 : 10_000;
    if (items !== want) throw new Error(`${name}: list returned ${items} items, want ${want}`);
    sizes.list.set(ns, first.body.length);
    const kSamples: number[] = [];
    const bSamples: number[] = [];
    for (let i = 0; i < LIST_WARMUP + LIST_RUNS[ns]; i++) {
      const kr = await listOnce(kapi, k, ns);
      const br = await listOnce(bare, b, ns);
      if (i < LIST_WARMUP) continue;
      kSamples.push(kr.ms);
      bSamples.push(br.ms);
    }
    const kMs = median(kSamples);
    const bMs = median(bSamples);
    figures.push(figure(name, 'ms', kMs, bMs));
    note(`${name}: median of ${LIST_RUNS[ns]}: kapi ${kMs.toFixed(1)} ms, bare ${bMs.toFixed(1)} ms; ` +
      `body ${(first.body.length / 1024 / 1024).toFixed(2)} MiB`);
  }

  log('watch…');
  const kProbe = await openWatchProbe(kapi, k, NS_WATCH);
  let bProbe: WatchProbe | undefined;
  try {
    for (let i = 0; i < WATCH_WARMUP; i++) await kProbe.write(`warm-${i}`);
    sizes.watchEvent = kProbe.eventBytes();
    bProbe = await openWatchProbe(bare, b, NS_WATCH);
    for (let i = 0; i < WATCH_WARMUP; i++) await bProbe.write(`warm-${i}`);
    const kSamples: number[] = [];
    const bSamples: number[] = [];
    for (let block = 0; block < WATCH_BLOCKS; block++) {
      for (let i = 0; i < WATCH_BLOCK_WRITES; i++) kSamples.push(await kProbe.write(`watch-${block}-${i}`));
      for (let i = 0; i < WATCH_BLOCK_WRITES; i++) bSamples.push(await bProbe.write(`watch-${block}-${i}`));
    }
    const kP99 = percentile(kSamples, 99);
    const bP99 = percentile(bSamples, 99);
    figures.push(figure('watch-p99', 'ms', kP99, bP99));
    note(`watch: ${kSamples.length} sequential creates; kapi p50 ${median(kSamples).toFixed(2)} ms p99 ${kP99.toFixed(2)} ms, ` +
      `bare p50 ${median(bSamples).toFixed(2)} ms p99 ${bP99.toFixed(2)} ms; event ${sizes.watchEvent} B`);
  } finally {
    kProbe.close();
    bProbe?.close();
  }
  return figures;
}

async function main(): Promise<void> {
  const started = Date.now();
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  note(`machine: ${cpus().length} CPUs, load average ${load} at start (other work on the machine skews every figure)`);
  log('starting kapi (child process)…');
  const server = await startChild('server-child', [], parseServerInfo, 60_000);
  let baseline: Child<{ url: string }> | undefined;
  let kapi: HttpTarget | undefined;
  let bare: HttpTarget | undefined;
  try {
    const creds = await readAdminKubeconfig(server.info.kubeconfigPath);
    const pki = pkiPaths(server.info.dataDir);
    baseline = await startChild('baseline-server', [pki.serverCert, pki.serverKey], (v) => ({ url: stringField(v, 'url') }), 30_000);
    kapi = newTarget(creds.server, creds.ca, creds.token, WORKERS);
    bare = newTarget(baseline.info.url, creds.ca, creds.token, WORKERS);
    log(`kapi at ${creds.server}, bare https at ${baseline.info.url}, ${WORKERS} concurrent requests`);
    const figures = await measure(kapi, bare);
    note(`total ${((Date.now() - started) / 1000).toFixed(1)} s; ratio = kapi / bare https`);
    process.stdout.write(`${opts.json ? toJSON(figures) : toTable(figures, notes)}\n`);
  } finally {
    if (kapi !== undefined) closeTarget(kapi);
    if (bare !== undefined) closeTarget(bare);
    await baseline?.stop();
    await server.stop();
  }
}

await main();
