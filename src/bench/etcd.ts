// The bench's own etcd: a single member on free loopback ports with a throwaway data dir in the OS
// temp dir, started and stopped by the bench. (The test helper in storage/testing is not built
// into dist, where the bench runs.)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface BenchEtcd {
  /** Client URL, e.g. http://127.0.0.1:41234. */
  readonly endpoint: string;
  /** Stops etcd and removes its data dir. Idempotent. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;
const OUTPUT_TAIL = 4000;

export const ETCD_MISSING = 'etcd is not installed: no `etcd` binary on PATH (install it, e.g. `apt-get install etcd-server`, ' +
  'or run the bench with --backend sqlite)';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function exited(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => proc.once('exit', () => resolve()));
}

async function healthy(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1000) });
    const body = await res.json() as { health?: unknown };
    return body.health === 'true';
  } catch {
    return false;
  }
}

/** The flags of a single-member cluster named `name` listening on the given loopback URLs. */
export function etcdArgs(name: string, dataDir: string, clientURL: string, peerURL: string): string[] {
  return [
    '--name', name, '--data-dir', dataDir,
    '--listen-client-urls', clientURL, '--advertise-client-urls', clientURL,
    '--listen-peer-urls', peerURL, '--initial-advertise-peer-urls', peerURL,
    '--initial-cluster', `${name}=${peerURL}`, '--initial-cluster-state', 'new',
    '--logger', 'zap', '--log-level', 'error',
  ];
}

/** Starts etcd and resolves once /health answers; rejects with ETCD_MISSING when there is no binary. */
export async function startBenchEtcd(): Promise<BenchEtcd> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kapi-bench-etcd-'));
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  const peer = `http://127.0.0.1:${await freePort()}`;
  const proc = spawn('etcd', etcdArgs('kapi-bench', dataDir, endpoint, peer), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let spawnError: NodeJS.ErrnoException | undefined;
  proc.once('error', (err) => { spawnError = err; });
  const keep = (chunk: Buffer): void => { output = (output + chunk.toString()).slice(-OUTPUT_TAIL); };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (proc.exitCode === null && proc.signalCode === null && spawnError === undefined) {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited(proc);
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (spawnError !== undefined) {
        throw new Error(spawnError.code === 'ENOENT' ? ETCD_MISSING : `etcd failed to start: ${spawnError.message}`);
      }
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`etcd exited during start-up:\n${output}`);
      if (await healthy(endpoint)) return { endpoint, stop };
      if (Date.now() > deadline) throw new Error(`etcd did not become healthy within ${START_TIMEOUT_MS} ms:\n${output}`);
      await sleep(50);
    }
  } catch (err) {
    await stop();
    throw err;
  }
}
