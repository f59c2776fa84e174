// Start-up to /readyz, as envtest starts a control plane: from spawning the first process (etcd
// when there is one) to the first /readyz 200 of the API server: on a fresh data dir, a restart
// on it, and a restart with 10k ConfigMaps stored (embedded store).
// kapi runs as its command (`kapi serve`), so the figure includes Node's start and the module
// load, and kapi's generation of its CA and serving certificate (kube-apiserver's are written
// before its clock starts, as envtest writes them).
// No Go counterpart: the bench.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { pkiPaths } from '../cli/certs.ts';
import { exited, freePort } from '../storage/etcd3/local-etcd.ts';
import { startBenchEtcd, type BenchEtcd } from './etcd.ts';
import { closeTarget, newTarget, sendOk } from './http-client.ts';
import { startKubeApiserver } from './kube-apiserver.ts';
import { runLoad } from './load.ts';
import { waitReadyz } from './readyz.ts';

const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;
const LOG_TAIL = 4000;

/** `kapi serve` from the sources under tsx, or from the build. */
function kapiCommand(): { file: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const file = fileURLToPath(new URL(`../cli/main${fromSource ? '.ts' : '.js'}`, import.meta.url));
  return { file, execArgv: fromSource ? ['--import', 'tsx'] : [] };
}

async function stopProcess(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  p.kill('SIGTERM');
  const timer = setTimeout(() => p.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited(p);
  clearTimeout(timer);
}

/** A kapi started on `dataDir`; `ms` from the first spawn (etcd's, when there is one) to its first /readyz 200. */
interface StartedKapi {
  readonly ms: number;
  readonly url: string;
  readonly proc: ChildProcess;
}

/** A known admin token, as kube-apiserver gets one: with AlwaysAllow /readyz wants a user. */
async function adminToken(dataDir: string): Promise<{ token: string; tokenFile: string }> {
  const token = randomBytes(32).toString('base64url');
  const tokenFile = join(dataDir, 'tokens.csv');
  await writeFile(tokenFile, `${token},kapi-admin,,"system:masters"\n`, { mode: 0o600 });
  return { token, tokenFile };
}

async function startKapi(dataDir: string, auth: { token: string; tokenFile: string }, etcdFirst?: () => Promise<BenchEtcd>): Promise<StartedKapi & { etcd?: BenchEtcd }> {
  const port = await freePort();
  let log = '';
  const start = performance.now();
  const etcd = etcdFirst === undefined ? undefined : await etcdFirst();
  const { file, execArgv } = kapiCommand();
  const p = spawn(process.execPath, [...execArgv, file, 'serve', '--data-dir', dataDir, '--secure-port', String(port), '--token-auth-file', auth.tokenFile,
    ...(etcd === undefined ? [] : ['--etcd-servers', etcd.endpoint])], { stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (chunk: Buffer): void => { log = (log + chunk.toString()).slice(-LOG_TAIL); };
  p.stdout?.on('data', keep);
  p.stderr?.on('data', keep);
  const url = `https://127.0.0.1:${port}`;
  try {
    await waitReadyz(url, auth.token, p, READY_TIMEOUT_MS, () => `kapi:\n${log}`);
  } catch (err) {
    await stopProcess(p);
    await etcd?.stop();
    throw err;
  }
  return { ms: performance.now() - start, url, proc: p, ...(etcd === undefined ? {} : { etcd }) };
}

/**
 * On a fresh data dir: ms to /readyz of the first start (CA, certificates, bootstrap objects),
 * then of a restart on the same dir (SQLite only: etcd keeps its data, not the data dir).
 */
async function kapiStartupMs(withEtcd: boolean): Promise<{ first: number; restart?: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'kapi-bench-startup-'));
  try {
    const auth = await adminToken(dataDir);
    const first = await startKapi(dataDir, auth, withEtcd ? startBenchEtcd : undefined);
    await stopProcess(first.proc);
    await first.etcd?.stop();
    if (withEtcd) return { first: first.ms };
    const again = await startKapi(dataDir, auth);
    await stopProcess(again.proc);
    return { first: first.ms, restart: again.ms };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Objects stored for the start-up-with-data figure. */
export const STARTUP_OBJECTS = 10_000;
const FILL_WORKERS = 32;

/** A data dir holding STARTUP_OBJECTS ConfigMaps (created through kapi, unmeasured), and its admin token. */
async function filledDataDir(log: (msg: string) => void): Promise<{ dataDir: string; auth: { token: string; tokenFile: string } }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'kapi-bench-startup-10k-'));
  const auth = await adminToken(dataDir);
  const k = await startKapi(dataDir, auth);
  const target = newTarget(k.url, await readFile(pkiPaths(dataDir).caCert, 'utf8'), auth.token, FILL_WORKERS);
  try {
    log(`start-up: storing ${STARTUP_OBJECTS} configmaps…`);
    const data = { payload: 'x'.repeat(100) };
    await runLoad({
      workers: FILL_WORKERS, durationMs: 600_000, maxOps: STARTUP_OBJECTS,
      op: async (_w, seq) => {
        await sendOk(target, 'POST', '/api/v1/namespaces/default/configmaps',
          JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `startup-${seq}` }, data }));
      },
    });
  } finally {
    closeTarget(target);
    await stopProcess(k.proc);
  }
  return { dataDir, auth };
}

/** ms from spawning etcd to kube-apiserver's first /readyz 200. */
async function kubeStartupMs(oracleDir: string): Promise<number> {
  const kube = await startKubeApiserver(oracleDir);
  await kube.stop();
  return kube.startupMs;
}

export interface StartupSamples {
  /** First start on an empty data dir (embedded store). */
  readonly kapi: number[];
  /** Restart on that data dir. */
  readonly kapiRestart: number[];
  /** Restart with STARTUP_OBJECTS ConfigMaps stored. */
  readonly kapi10k: number[];
  readonly kapiEtcd: number[];
  /** Empty without the oracle. */
  readonly kube: number[];
}

/** `runs` rounds of the start-ups, interleaved so that noise on the machine hits all of them. */
export async function measureStartup(runs: number, oracleDir: string | undefined,
  log: (msg: string) => void): Promise<StartupSamples> {
  const s: StartupSamples = { kapi: [], kapiRestart: [], kapi10k: [], kapiEtcd: [], kube: [] };
  const filled = await filledDataDir(log);
  try {
    for (let i = 0; i < runs; i++) {
      const sqlite = await kapiStartupMs(false);
      s.kapi.push(sqlite.first);
      s.kapiRestart.push(sqlite.restart ?? sqlite.first);
      const big = await startKapi(filled.dataDir, filled.auth);
      await stopProcess(big.proc);
      s.kapi10k.push(big.ms);
      s.kapiEtcd.push((await kapiStartupMs(true)).first);
      if (oracleDir !== undefined) s.kube.push(await kubeStartupMs(oracleDir));
      log(`start-up round ${i + 1}/${runs}: kapi ${s.kapi.at(-1)!.toFixed(0)} ms, restart ${s.kapiRestart.at(-1)!.toFixed(0)} ms, ` +
        `${STARTUP_OBJECTS} objects ${s.kapi10k.at(-1)!.toFixed(0)} ms, kapi+etcd ${s.kapiEtcd.at(-1)!.toFixed(0)} ms` +
        (oracleDir === undefined ? '' : `, kube-apiserver+etcd ${s.kube.at(-1)!.toFixed(0)} ms`));
    }
  } finally {
    await rm(filled.dataDir, { recursive: true, force: true });
  }
  return s;
}
