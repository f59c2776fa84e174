// Start-up to /readyz, as envtest starts a control plane: from spawning the first process (etcd
// when there is one) to the first /readyz 200 of the API server, on a fresh data dir each time.
// kapi runs as its command (`kapi serve`), so the figure includes Node's start and the module
// load, and kapi's generation of its CA and serving certificate (kube-apiserver's are written
// before its clock starts, as envtest writes them).
// No Go counterpart: the bench.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { exited, freePort } from '../storage/etcd3/local-etcd.ts';
import { startBenchEtcd, type BenchEtcd } from './etcd.ts';
import { startKubeApiserver } from './kube-apiserver.ts';
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

/** ms from the first spawn to kapi's first /readyz 200; on etcd when `withEtcd`. */
async function kapiStartupMs(withEtcd: boolean): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), 'kapi-bench-startup-'));
  const port = await freePort();
  let etcd: BenchEtcd | undefined;
  let proc: ChildProcess | undefined;
  let log = '';
  try {
    // A known admin token, as kube-apiserver gets one: with AlwaysAllow /readyz wants a user.
    const token = randomBytes(32).toString('base64url');
    const tokenFile = join(dataDir, 'tokens.csv');
    await writeFile(tokenFile, `${token},kapi-admin,,"system:masters"\n`, { mode: 0o600 });
    const start = performance.now();
    if (withEtcd) etcd = await startBenchEtcd();
    const { file, execArgv } = kapiCommand();
    const p = spawn(process.execPath, [...execArgv, file, 'serve', '--data-dir', dataDir, '--secure-port', String(port), '--token-auth-file', tokenFile,
      ...(etcd === undefined ? [] : ['--etcd-servers', etcd.endpoint])], { stdio: ['ignore', 'pipe', 'pipe'] });
    proc = p;
    const keep = (chunk: Buffer): void => { log = (log + chunk.toString()).slice(-LOG_TAIL); };
    p.stdout?.on('data', keep);
    p.stderr?.on('data', keep);
    await waitReadyz(`https://127.0.0.1:${port}`, token, p, READY_TIMEOUT_MS, () => `kapi:\n${log}`);
    return performance.now() - start;
  } finally {
    if (proc !== undefined) await stopProcess(proc);
    await etcd?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** ms from spawning etcd to kube-apiserver's first /readyz 200. */
async function kubeStartupMs(oracleDir: string): Promise<number> {
  const kube = await startKubeApiserver(oracleDir);
  await kube.stop();
  return kube.startupMs;
}

export interface StartupSamples {
  readonly kapi: number[];
  readonly kapiEtcd: number[];
  /** Empty without the oracle. */
  readonly kube: number[];
}

/** `runs` rounds of the three start-ups, interleaved so that noise on the machine hits all three. */
export async function measureStartup(runs: number, oracleDir: string | undefined,
  log: (msg: string) => void): Promise<StartupSamples> {
  const s: StartupSamples = { kapi: [], kapiEtcd: [], kube: [] };
  for (let i = 0; i < runs; i++) {
    s.kapi.push(await kapiStartupMs(false));
    s.kapiEtcd.push(await kapiStartupMs(true));
    if (oracleDir !== undefined) s.kube.push(await kubeStartupMs(oracleDir));
    log(`start-up round ${i + 1}/${runs}: kapi ${s.kapi.at(-1)!.toFixed(0)} ms, kapi+etcd ${s.kapiEtcd.at(-1)!.toFixed(0)} ms` +
      (oracleDir === undefined ? '' : `, kube-apiserver+etcd ${s.kube.at(-1)!.toFixed(0)} ms`));
  }
  return s;
}
