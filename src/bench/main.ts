// `npm run bench`: ConfigMap throughput and latency of kapi over HTTPS with the admin bearer token,
// measured in one run against baselines of the least work behind each figure:
//   * embedded SQLite store: a bare node:https server moving the same bytes;
//   * a real etcd (started here, figures named etcd-*): raw etcd requests through kapi's own etcd
//     gRPC client, with the values kapi stored;
// and, when the oracle is cached (scripts/build-oracle.sh --print), against kube-apiserver v1.36
// on its own etcd, a fresh one for each store's run, driven with kapi's exact workload in the same
// rounds. The kapi servers, the bare baseline, etcd and kube-apiserver each run in a child
// process; this process is the load generator. The phases run in the order start-up, throughput,
// watchers, hostile (src/bench/hostile.ts: on the embedded store only, on the same server).
// Progress goes to stderr; stdout gets the table, a markdown table with --markdown, or one JSON
// object with --json.
// No Go counterpart: the bench.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pkiPaths } from '../cli/certs.ts';
import { openEtcdBackend, type EtcdBackend } from '../storage/etcd3/etcd3-backend.ts';
import { startChild, stringField, type Child } from './child.ts';
import { measureAPF } from './apf-phase.ts';
import { etcdBaseline } from './etcd-baseline.ts';
import { etcdFiller } from './etcd-fill.ts';
import { startBenchEtcd, type BenchEtcd } from './etcd.ts';
import { closeTarget, newTarget, type HttpTarget } from './http-client.ts';
import { measureHostile } from './hostile.ts';
import { measureCEL } from './cel-phase.ts';
import { measureWebhooks } from './webhook-phase.ts';
import { measureCache } from './cache-phase.ts';
import { measureStorage } from './storage-phase.ts';
import { httpsBaseline } from './https-baseline.ts';
import { readAdminKubeconfig } from './kubeconfig.ts';
import { measure, NS_10K, type MeasureContext } from './measure.ts';
import { builtOracleEtcd } from '../oracle/etcd.ts';
import { cachedOracleDir, startKubeApiserver, type KubeApiserver } from './kube-apiserver.ts';
import { BENCH_HELP, parseBenchArgs, type BenchOptions, type BenchPhase } from './options.ts';
import { figure, toJSON, toMarkdown, toTable, type Figure, type FigurePrefix } from './report.ts';
import { newResponseSizes } from './routes.ts';
import { measureStartup, STARTUP_OBJECTS } from './startup.ts';
import { median } from './stats.ts';
import { measureWatchers } from './watchers-phase.ts';

function parseOrExit(): BenchOptions {
  try {
    return parseBenchArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${BENCH_HELP}`);
    process.exit(2);
  }
}
const opts = parseOrExit();
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

const has = (p: BenchPhase): boolean => opts.phases.includes(p);

interface ServerInfo {
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly dataDir: string;
}

function parseServerInfo(v: unknown): ServerInfo {
  return { url: stringField(v, 'url'), kubeconfigPath: stringField(v, 'kubeconfigPath'), dataDir: stringField(v, 'dataDir') };
}

/** Runs `fn` with a fresh kube-apiserver (on its own etcd) when the oracle is there, else with undefined. */
async function withKube<T>(oracleDir: string | undefined, fn: (kube: KubeApiserver | undefined) => Promise<T>): Promise<T> {
  if (oracleDir === undefined || !(has('throughput') || has('watchers') || has('cel') || has('webhooks'))) return await fn(undefined);
  log('starting etcd and kube-apiserver (the reference)…');
  const kube = await startKubeApiserver(oracleDir);
  try {
    log(`kube-apiserver at ${kube.url}`);
    return await fn(kube);
  } finally {
    await kube.stop();
  }
}

const kubeTarget = (kube: KubeApiserver | undefined): HttpTarget | undefined =>
  kube === undefined ? undefined : newTarget(kube.url, kube.ca, kube.token, WORKERS);

/** The watchers phase on kapi and kube-apiserver. */
async function benchWatchers(creds: { server: string; ca: string; token: string }, kube: KubeApiserver | undefined,
  prefix: FigurePrefix): Promise<Figure[]> {
  log(`${prefix}watchers: ${opts.watchers} watches on one namespace…`);
  const kapi = newTarget(creds.server, creds.ca, creds.token, WORKERS);
  const ref = kubeTarget(kube);
  try {
    return await measureWatchers(kapi, ref, { watchers: opts.watchers, prefix, log, note });
  } finally {
    closeTarget(kapi);
    if (ref !== undefined) closeTarget(ref);
  }
}

/** The cel or webhooks phase on kapi and kube-apiserver. */
async function benchCEL(creds: { server: string; ca: string; token: string }, kube: KubeApiserver | undefined,
  measure = measureCEL): Promise<Figure[]> {
  const kapi = newTarget(creds.server, creds.ca, creds.token, WORKERS);
  const ref = kubeTarget(kube);
  try {
    return await measure(kapi, ref, WORKERS, log);
  } finally {
    closeTarget(kapi);
    if (ref !== undefined) closeTarget(ref);
  }
}

/** The apf phase: this server (APF on) against one started with it off and one auditing at level None. */
async function benchAPF(creds: { server: string; ca: string; token: string }): Promise<Figure[]> {
  log('starting kapi with --enable-priority-and-fairness=false, and one with an audit policy of level None (child processes)…');
  const dir = await mkdtemp(join(tmpdir(), 'kapi-bench-audit-'));
  const policy = join(dir, 'policy.yaml');
  await writeFile(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n');
  const off = await startChild('server-child', ['--enable-priority-and-fairness=false'], parseServerInfo, 60_000);
  const audit = await startChild('server-child', ['--audit-policy-file', policy, '--audit-log-path', join(dir, 'audit.log')], parseServerInfo, 60_000)
    .catch(async (err: unknown) => { await off.stop(); throw err; });
  const on = newTarget(creds.server, creds.ca, creds.token, WORKERS);
  const targets: HttpTarget[] = [on];
  try {
    const target = async (info: { kubeconfigPath: string }): Promise<HttpTarget> => {
      const c = await readAdminKubeconfig(info.kubeconfigPath);
      const t = newTarget(c.server, c.ca, c.token, WORKERS);
      targets.push(t);
      return t;
    };
    return await measureAPF(on, await target(off.info), await target(audit.info), WORKERS, log);
  } finally {
    for (const t of targets) closeTarget(t);
    await off.stop();
    await audit.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** kapi on the embedded store against the bare https server, then the watchers and hostile phases. */
async function benchSqlite(oracleDir: string | undefined): Promise<Figure[]> {
  log('starting kapi on the embedded store (child process)…');
  const server = await startChild('server-child', [], parseServerInfo, 60_000);
  try {
    const creds = await readAdminKubeconfig(server.info.kubeconfigPath);
    const figures = await withKube(oracleDir, async (kube) => [
      ...(has('throughput') ? await benchThroughput(server.info, creds, kube) : []),
      ...(has('watchers') ? await benchWatchers(creds, kube, '') : []),
      ...(has('cel') ? await benchCEL(creds, kube) : []),
      ...(has('apf') ? await benchAPF(creds) : []),
      ...(has('webhooks') ? await benchCEL(creds, kube, measureWebhooks) : []),
    ]);
    if (has('hostile')) {
      log('hostile inputs, each while another client polls /readyz…');
      figures.push(...await measureHostile({ server, url: creds.server, ca: creds.ca, token: creds.token, log, note }));
    }
    return figures;
  } finally {
    await server.stop();
  }
}

async function benchThroughput(info: ServerInfo, creds: { server: string; ca: string; token: string },
  kube: KubeApiserver | undefined): Promise<Figure[]> {
  let baseline: Child<{ url: string }> | undefined;
  let kapi: HttpTarget | undefined;
  let bare: HttpTarget | undefined;
  const ref = kubeTarget(kube);
  try {
    const pki = pkiPaths(info.dataDir);
    baseline = await startChild('baseline-server', [pki.serverCert, pki.serverKey], (v) => ({ url: stringField(v, 'url') }), 30_000);
    kapi = newTarget(creds.server, creds.ca, creds.token, WORKERS);
    bare = newTarget(baseline.info.url, creds.ca, creds.token, WORKERS);
    log(`kapi at ${creds.server}, bare https at ${baseline.info.url}, ${WORKERS} concurrent requests`);
    const ctx = context('');
    return await measure(kapi, httpsBaseline(bare, ctx.sizes), ctx, ref);
  } finally {
    if (kapi !== undefined) closeTarget(kapi);
    if (bare !== undefined) closeTarget(bare);
    if (ref !== undefined) closeTarget(ref);
    await baseline?.stop();
  }
}

/** kapi on a real etcd against raw requests to that etcd, then the watchers phase. */
async function benchEtcd(oracleDir: string | undefined): Promise<Figure[]> {
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
    const target = newTarget(creds.server, creds.ca, creds.token, WORKERS);
    kapi = target;
    log(`kapi at ${creds.server}, raw etcd client on ${etcd.endpoint}, ${WORKERS} concurrent requests`);
    // The fill copies cm-0, which kapi created in the create phase and has not updated yet.
    const fill = etcdFiller(raw, ETCD_PREFIX, WORKERS, NS_10K, 'cm-0');
    const base = etcdBaseline(raw, ETCD_PREFIX);
    return await withKube(oracleDir, async (kube) => {
      const ref = kubeTarget(kube);
      try {
        return [
          ...(has('throughput') ? await measure(target, base, { ...context('etcd-'), fill }, ref) : []),
          ...(has('watchers') ? await benchWatchers(creds, kube, 'etcd-') : []),
        ];
      } finally {
        if (ref !== undefined) closeTarget(ref);
      }
    });
  } finally {
    if (kapi !== undefined) closeTarget(kapi);
    await raw?.close();
    await server?.stop();
    await etcd.stop();
  }
}

/** Start-up to /readyz: kapi (embedded store), kapi + etcd, and kube-apiserver + etcd when cached. */
async function benchStartup(oracleDir: string | undefined): Promise<Figure[]> {
  log(`start-up to /readyz, ${opts.startupRuns} rounds…`);
  const s = await measureStartup(opts.startupRuns, oracleDir, log);
  const kube = oracleDir === undefined ? undefined : median(s.kube);
  note(`startup: median of ${opts.startupRuns} from spawn to /readyz 200 (etcd start included): kapi ` +
    `${median(s.kapi).toFixed(0)} ms (empty data dir), ${median(s.kapiRestart).toFixed(0)} ms (restart), ` +
    `${median(s.kapi10k).toFixed(0)} ms (${STARTUP_OBJECTS} configmaps stored), kapi+etcd ${median(s.kapiEtcd).toFixed(0)} ms` +
    `${kube === undefined ? '' : `, kube-apiserver+etcd ${kube.toFixed(0)} ms`}`);
  return [figure('startup', 'ms', median(s.kapi), undefined, kube), figure('startup-restart', 'ms', median(s.kapiRestart), undefined, kube),
    figure('startup-10k', 'ms', median(s.kapi10k), undefined, kube), figure('etcd-startup', 'ms', median(s.kapiEtcd), undefined, kube)];
}

async function main(): Promise<void> {
  if (opts.help) {
    process.stdout.write(BENCH_HELP);
    return;
  }
  const started = Date.now();
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  note(`machine: ${cpus().length} CPUs, load average ${load} at start (other work on the machine skews every figure)`);
  const oracleDir = opts.kube === 'off' ? undefined : await cachedOracleDir();
  if (oracleDir === undefined && opts.kube === 'require') {
    throw new Error('--kube-apiserver require: the oracle is not cached; scripts/build-oracle.sh builds it');
  }
  if (oracleDir === undefined) {
    note(`kube-apiserver not measured: ${opts.kube === 'off' ? '--kube-apiserver off' : 'the oracle is not cached (scripts/build-oracle.sh builds it)'}`);
  } else {
    const etcd = builtOracleEtcd();
    note(`kube-apiserver: ${oracleDir}/kube-apiserver, on its own etcd (${etcd === undefined ? 'etcd of the PATH' : `etcd ${etcd.version}, the oracle's build`}), started fresh for each store's run`);
  }
  const figures: Figure[] = [];
  if (has('startup')) figures.push(...await benchStartup(oracleDir));
  for (const backend of opts.backends) {
    // The hostile, cel, apf and webhooks phases run on the embedded store only.
    if (!(has('throughput') || has('watchers') || (backend === 'sqlite' && (has('hostile') || has('cel') || has('apf') || has('webhooks'))))) continue;
    const t0 = Date.now();
    figures.push(...(backend === 'sqlite' ? await benchSqlite(oracleDir) : await benchEtcd(oracleDir)));
    note(`${backend}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  if (has('cache')) {
    const t0 = Date.now();
    log('the watch cache at scale: lists of 10k and 100k from the cache and from storage, heap per 10k cached objects…');
    figures.push(...await measureCache(opts.backends, log, note));
    note(`cache: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  if (has('storage')) {
    const t0 = Date.now();
    log('storage: Pod writes and reads in process, protobuf against JSON, each encryption provider against identity…');
    figures.push(...await measureStorage(log));
    note(`storage: ${((Date.now() - t0) / 1000).toFixed(1)} s; storage-protobuf's baseline is JSON storage, storage-<provider>'s is identity`);
  }
  note(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end`);
  note(`total ${((Date.now() - started) / 1000).toFixed(1)} s; ratio = kapi / baseline (bare https for the embedded ` +
    'store; for etcd-*, the same requests sent raw to the same etcd through kapi\'s gRPC client)' +
    (oracleDir === undefined ? '' : '; kapi/kube = kapi / kube-apiserver on etcd, same requests, same rounds'));
  const out = opts.json ? toJSON(figures) : opts.markdown ? `${toMarkdown(figures)}\n\n${notes.join('\n')}` : toTable(figures, notes);
  process.stdout.write(`${out}\n`);
}

await main();
