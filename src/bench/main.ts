// `npm run bench`: ConfigMap throughput and latency of kapi over HTTPS with the admin bearer token,
// measured in one run against baselines of the least work behind each figure:
//   * embedded SQLite store: a bare node:https server moving the same bytes;
//   * a real etcd (started here, figures named etcd-*): raw etcd requests through kapi's own etcd
//     gRPC client, with the values kapi stored.
// The kapi servers, the bare baseline and etcd each run in a child process; this process is the
// load generator. The hostile phase (src/bench/hostile.ts) runs on the embedded store after the
// throughput figures, on the same server. Progress goes to stderr; stdout gets the table, or one
// JSON object with --json.
import { cpus, loadavg } from 'node:os';
import { pkiPaths } from '../cli/certs.ts';
import { openEtcdBackend, type EtcdBackend } from '../storage/etcd3/etcd3-backend.ts';
import { startChild, stringField, type Child } from './child.ts';
import { etcdBaseline } from './etcd-baseline.ts';
import { etcdFiller } from './etcd-fill.ts';
import { startBenchEtcd, type BenchEtcd } from './etcd.ts';
import { closeTarget, newTarget, type HttpTarget } from './http-client.ts';
import { measureHostile } from './hostile.ts';
import { httpsBaseline } from './https-baseline.ts';
import { readAdminKubeconfig } from './kubeconfig.ts';
import { measure, NS_10K, type MeasureContext } from './measure.ts';
import { parseBenchArgs } from './options.ts';
import { toJSON, toTable, type Figure, type FigurePrefix } from './report.ts';
import { newResponseSizes } from './routes.ts';

const opts = parseBenchArgs(process.argv.slice(2));
const WORKERS = opts.workers;
/** kapi's --etcd-prefix on etcd; the raw baseline lists under it. */
const ETCD_PREFIX = '/registry';

const log = (msg: string): void => {
  process.stderr.write(`[bench] ${msg}\n`);
};
const notes: string[] = [];
const note = (msg: string): void => {
  notes.push(msg);
  log(msg);
};
const context = (prefix: FigurePrefix): MeasureContext => ({ workers: WORKERS, prefix, sizes: newResponseSizes(), log, note });

interface ServerInfo {
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly dataDir: string;
}

function parseServerInfo(v: unknown): ServerInfo {
  return { url: stringField(v, 'url'), kubeconfigPath: stringField(v, 'kubeconfigPath'), dataDir: stringField(v, 'dataDir') };
}

/** kapi on the embedded store against the bare https server, then the hostile phase. */
async function benchSqlite(): Promise<Figure[]> {
  log('starting kapi on the embedded store (child process)…');
  const server = await startChild('server-child', [], parseServerInfo, 60_000);
  try {
    const creds = await readAdminKubeconfig(server.info.kubeconfigPath);
    const figures: Figure[] = opts.phases.includes('throughput') ? await benchThroughput(server.info, creds) : [];
    if (opts.phases.includes('hostile')) {
      log('hostile inputs, each while another client polls /readyz…');
      figures.push(...await measureHostile({ server, url: creds.server, ca: creds.ca, token: creds.token, log, note }));
    }
    return figures;
  } finally {
    await server.stop();
  }
}

async function benchThroughput(info: ServerInfo, creds: { server: string; ca: string; token: string }): Promise<Figure[]> {
  let baseline: Child<{ url: string }> | undefined;
  let kapi: HttpTarget | undefined;
  let bare: HttpTarget | undefined;
  try {
    const pki = pkiPaths(info.dataDir);
    baseline = await startChild('baseline-server', [pki.serverCert, pki.serverKey], (v) => ({ url: stringField(v, 'url') }), 30_000);
    kapi = newTarget(creds.server, creds.ca, creds.token, WORKERS);
    bare = newTarget(baseline.info.url, creds.ca, creds.token, WORKERS);
    log(`kapi at ${creds.server}, bare https at ${baseline.info.url}, ${WORKERS} concurrent requests`);
    const ctx = context('');
    return await measure(kapi, httpsBaseline(bare, ctx.sizes), ctx);
  } finally {
    if (kapi !== undefined) closeTarget(kapi);
    if (bare !== undefined) closeTarget(bare);
    await baseline?.stop();
  }
}

/** kapi on a real etcd against raw requests to that etcd. */
async function benchEtcd(): Promise<Figure[]> {
  log('starting etcd…');
  const etcd: BenchEtcd = await startBenchEtcd();
  let server: Child<ServerInfo> | undefined;
  let raw: EtcdBackend | undefined;
  let kapi: HttpTarget | undefined;
  try {
    log(`etcd at ${etcd.endpoint}; starting kapi on it (child process)…`);
    server = await startChild('server-child', ['--etcd-servers', etcd.endpoint, '--etcd-prefix', ETCD_PREFIX],
      parseServerInfo, 60_000);
    raw = await openEtcdBackend({ endpoints: [etcd.endpoint], compactionIntervalMs: 0, dialTimeoutMs: 10_000 });
    const creds = await readAdminKubeconfig(server.info.kubeconfigPath);
    kapi = newTarget(creds.server, creds.ca, creds.token, WORKERS);
    log(`kapi at ${creds.server}, raw etcd client on ${etcd.endpoint}, ${WORKERS} concurrent requests`);
    // The fill copies cm-0, which kapi created in the create phase and has not updated yet.
    const fill = etcdFiller(raw, ETCD_PREFIX, WORKERS, NS_10K, 'cm-0');
    return await measure(kapi, etcdBaseline(raw, ETCD_PREFIX), { ...context('etcd-'), fill });
  } finally {
    if (kapi !== undefined) closeTarget(kapi);
    await raw?.close();
    await server?.stop();
    await etcd.stop();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  note(`machine: ${cpus().length} CPUs, load average ${load} at start (other work on the machine skews every figure)`);
  const figures: Figure[] = [];
  for (const backend of opts.backends) {
    // The hostile phase runs on the embedded store only.
    if (backend === 'etcd' && !opts.phases.includes('throughput')) continue;
    const t0 = Date.now();
    figures.push(...(backend === 'sqlite' ? await benchSqlite() : await benchEtcd()));
    note(`${backend}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  note(`total ${((Date.now() - started) / 1000).toFixed(1)} s; ratio = kapi / baseline (bare https for the embedded ` +
    'store; for etcd-*, the same requests sent raw to the same etcd through kapi\'s gRPC client)');
  process.stdout.write(`${opts.json ? toJSON(figures) : toTable(figures, notes)}\n`);
}

await main();
