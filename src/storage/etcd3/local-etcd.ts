// A real single-member etcd on free loopback ports with a throwaway data dir, for the tests and
// the bench. Fails (never skips) when the `etcd` binary is missing.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LocalEtcd {
  /** Client URL, e.g. http://127.0.0.1:41234. */
  readonly endpoint: string;
  readonly dataDir: string;
  /** Kills etcd (as a crash would) and keeps the data dir. */
  kill(): Promise<void>;
  /** Starts etcd again on the same ports and data dir; resolves when it is healthy. */
  restart(): Promise<void>;
  /** Stops etcd and removes the data dir. Idempotent. */
  stop(): Promise<void>;
}

export interface LocalEtcdOptions {
  /** The member name (also the data dir's prefix). */
  readonly name?: string;
  /** More etcd flags, e.g. ['--max-request-bytes', '4096']. */
  readonly extraArgs?: readonly string[];
  /** The error message when there is no `etcd` binary. */
  readonly missingMessage?: string;
}

const START_TIMEOUT_MS = 20_000;
const OUTPUT_TAIL = 4000;

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

/** Starts etcd and resolves once /health answers. */
export async function startLocalEtcd(opts: LocalEtcdOptions = {}): Promise<LocalEtcd> {
  const name = opts.name ?? 'kapi-etcd';
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  const peer = `http://127.0.0.1:${await freePort()}`;
  const args = [...etcdArgs(name, dataDir, endpoint, peer), ...(opts.extraArgs ?? [])];
  let proc: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    let output = '';
    let spawnError: NodeJS.ErrnoException | undefined;
    const p = spawn('etcd', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    proc = p;
    p.once('error', (err) => { spawnError = err; });
    const keep = (chunk: Buffer): void => { output = (output + chunk.toString()).slice(-OUTPUT_TAIL); };
    p.stdout?.on('data', keep);
    p.stderr?.on('data', keep);
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (spawnError !== undefined) {
        throw new Error(spawnError.code === 'ENOENT'
          ? opts.missingMessage ?? 'etcd binary not found on PATH (apt-get install etcd-server)'
          : `etcd failed to start: ${spawnError.message}`);
      }
      if (p.exitCode !== null || p.signalCode !== null) throw new Error(`etcd exited during start-up:\n${output}`);
      if (await healthy(endpoint)) return;
      if (Date.now() > deadline) throw new Error(`etcd did not become healthy within ${START_TIMEOUT_MS} ms:\n${output}`);
      await sleep(50);
    }
  };

  const kill = async (): Promise<void> => {
    const p = proc;
    if (p === undefined) return;
    proc = undefined;
    p.kill('SIGKILL');
    await exited(p);
  };

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await kill();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await launch();
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint, dataDir, kill, restart: async () => { await kill(); await launch(); }, stop };
}
