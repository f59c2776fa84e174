// `npm run bench`: ConfigMap throughput and latency of kapi (embedded SQLite store, HTTPS, admin
// bearer token) against a bare node:https server moving the same bytes, measured in one run.
// The server under test and the baseline each run in a child process; this process is the load
// generator. Progress goes to stderr; stdout gets the table, or one JSON object with --json.
import { parseArgs } from 'node:util';
import { pkiPaths } from '../cli/certs.ts';
import { startChild, stringField, type Child } from './child.ts';
import { closeTarget, newTarget, sendOk, type HttpTarget } from './http-client.ts';
import { readAdminKubeconfig } from './kubeconfig.ts';
import { createObjects, getObjects, listLatency, newObjectSet, updateObjects, watchLatency, type Budget } from './phases.ts';
import { figure, toJSON, toTable, type Figure } from './report.ts';
import { baselineRoutes, kapiRoutes, newResponseSizes, type Routes } from './routes.ts';

const { values: opts } = parseArgs({
  options: { json: { type: 'boolean', default: false }, concurrency: { type: 'string', default: '64' } },
  strict: true,
});
const WORKERS = Number(opts.concurrency);
if (!Number.isInteger(WORKERS) || WORKERS < 1 || WORKERS > 1024) throw new Error(`bad --concurrency ${opts.concurrency}`);

const NS_10K = 'default';
const NS_1K = 'bench-1k';
const NS_WATCH = 'bench-watch';
const WARMUP_MS = 1000;
const MEASURE_MS = 5000;
const CREATE_WARMUP = 200;
const CREATE_MEASURE_MS = 8000;
const LIST_RUNS = { [NS_1K]: 15, [NS_10K]: 7 } as const;
const WATCH_WRITES = 2000;
const WATCH_WARMUP = 100;

const log = (msg: string): void => {
  process.stderr.write(`[bench] ${msg}\n`);
};
const notes: string[] = [];
const note = (msg: string): void => {
  notes.push(msg);
  log(msg);
};
const budget = (durationMs: number, maxOps: number): Budget => ({ workers: WORKERS, durationMs, maxOps });
const perSecond = (n: number): string => `${Math.round(n)}/s`;

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
  await createObjects(kapi, k, objects, 'cm-', budget(60_000, CREATE_WARMUP));
  const kCreate = await createObjects(kapi, k, objects, 'cm-', budget(CREATE_MEASURE_MS, 10_000 - CREATE_WARMUP));
  sizes.create = kCreate.responseBytes;
  const bareObjects = newObjectSet(NS_10K);
  await createObjects(bare, b, bareObjects, 'cm-', budget(60_000, CREATE_WARMUP));
  const bCreate = await createObjects(bare, b, bareObjects, 'cm-', budget(MEASURE_MS, Number.MAX_SAFE_INTEGER));
  figures.push(figure('create', 'ops/s', kCreate.perSecond, bCreate.perSecond));
  note(`create: kapi ${kCreate.ops} creates in ${Math.round(kCreate.elapsedMs)} ms (${perSecond(kCreate.perSecond)}), ` +
    `bare ${perSecond(bCreate.perSecond)}; response ${sizes.create} B`);

  log('filling namespaces to 10k and 1k configmaps…');
  await createObjects(kapi, k, objects, 'cm-', budget(90_000, 10_000 - objects.rv.size));
  const small = newObjectSet(NS_1K);
  await createObjects(kapi, k, small, 'cm-', budget(30_000, 1000));
  if (objects.rv.size !== 10_000 || small.rv.size !== 1000) {
    throw new Error(`fill incomplete: ${objects.rv.size} and ${small.rv.size} objects`);
  }

  log('get…');
  await getObjects(kapi, k, objects, budget(WARMUP_MS, Number.MAX_SAFE_INTEGER));
  const kGet = await getObjects(kapi, k, objects, budget(MEASURE_MS, Number.MAX_SAFE_INTEGER));
  sizes.get = kGet.responseBytes;
  await getObjects(bare, b, objects, budget(WARMUP_MS, Number.MAX_SAFE_INTEGER));
  const bGet = await getObjects(bare, b, objects, budget(MEASURE_MS, Number.MAX_SAFE_INTEGER));
  figures.push(figure('get', 'ops/s', kGet.perSecond, bGet.perSecond));
  note(`get: kapi ${perSecond(kGet.perSecond)}, bare ${perSecond(bGet.perSecond)}; response ${sizes.get} B`);

  log('update…');
  await updateObjects(kapi, k, objects, budget(WARMUP_MS, Number.MAX_SAFE_INTEGER), 1);
  const kUpdate = await updateObjects(kapi, k, objects, budget(MEASURE_MS, Number.MAX_SAFE_INTEGER), 1_000_000);
  sizes.update = kUpdate.responseBytes;
  const bareUpdates = newObjectSet(NS_10K);
  for (const [name, rv] of objects.rv) bareUpdates.rv.set(name, rv);
  await updateObjects(bare, b, bareUpdates, budget(WARMUP_MS, Number.MAX_SAFE_INTEGER), 1);
  const bUpdate = await updateObjects(bare, b, bareUpdates, budget(MEASURE_MS, Number.MAX_SAFE_INTEGER), 1_000_000);
  figures.push(figure('update', 'ops/s', kUpdate.perSecond, bUpdate.perSecond));
  note(`update: kapi ${perSecond(kUpdate.perSecond)}, bare ${perSecond(bUpdate.perSecond)}; response ${sizes.update} B`);

  for (const [ns, name] of [[NS_1K, 'list-1k'], [NS_10K, 'list-10k']] as const) {
    log(`${name}…`);
    const runs = LIST_RUNS[ns];
    const kList = await listLatency(kapi, k, ns, runs, 2);
    const items = itemCount(kList.body);
    const want = ns === NS_1K ? 1000 : 10_000;
    if (items !== want) throw new Error(`${name}: list returned ${items} items, want ${want}`);
    sizes.list.set(ns, kList.bytes);
    const bList = await listLatency(bare, b, ns, runs, 2);
    figures.push(figure(name, 'ms', kList.medianMs, bList.medianMs));
    note(`${name}: median of ${runs}: kapi ${kList.medianMs.toFixed(1)} ms, bare ${bList.medianMs.toFixed(1)} ms; ` +
      `body ${(kList.bytes / 1024 / 1024).toFixed(2)} MiB`);
  }

  log('watch…');
  const kWatch = await watchLatency(kapi, k, NS_WATCH, WATCH_WRITES, WATCH_WARMUP);
  sizes.watchEvent = kWatch.eventBytes;
  const bWatch = await watchLatency(bare, b, NS_WATCH, WATCH_WRITES, WATCH_WARMUP);
  figures.push(figure('watch-p99', 'ms', kWatch.p99Ms, bWatch.p99Ms));
  note(`watch: ${WATCH_WRITES} sequential creates; kapi p50 ${kWatch.medianMs.toFixed(2)} ms p99 ${kWatch.p99Ms.toFixed(2)} ms, ` +
    `bare p50 ${bWatch.medianMs.toFixed(2)} ms p99 ${bWatch.p99Ms.toFixed(2)} ms; event ${sizes.watchEvent} B`);
  return figures;
}

async function main(): Promise<void> {
  const started = Date.now();
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
