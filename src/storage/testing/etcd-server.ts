// Test helper: a real single-member etcd on free loopback ports with a throwaway data dir.
// Fails (never skips) when the `etcd` binary is missing: install it with `apt-get install etcd-server`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface EtcdServer {
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

const START_TIMEOUT_MS = 20_000;

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

export interface StartEtcdOptions {
  /** More etcd flags, e.g. ['--max-request-bytes', '4096']. */
  readonly extraArgs?: readonly string[];
}

export async function startEtcd(opts: StartEtcdOptions = {}): Promise<EtcdServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kapi-etcd-'));
  const clientPort = await freePort();
  const peerPort = await freePort();
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const args = [
    '--name', 'kapi-test', '--data-dir', dataDir,
    '--listen-client-urls', endpoint, '--advertise-client-urls', endpoint,
    '--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer,
    '--initial-cluster', `kapi-test=${peer}`, '--initial-cluster-state', 'new',
    '--logger', 'zap', '--log-level', 'error', ...(opts.extraArgs ?? []),
  ];
  let proc: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    let output = '';
    let spawnError: Error | undefined;
    const p = spawn('etcd', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    proc = p;
    p.once('error', (err) => { spawnError = err; });
    const keep = (chunk: Buffer): void => { output = (output + chunk.toString()).slice(-4000); };
    p.stdout?.on('data', keep);
    p.stderr?.on('data', keep);
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (spawnError !== undefined) {
        const missing = (spawnError as NodeJS.ErrnoException).code === 'ENOENT';
        throw new Error(missing ? 'etcd binary not found on PATH (apt-get install etcd-server)' : `etcd failed to start: ${spawnError.message}`);
      }
      if (p.exitCode !== null || p.signalCode !== null) throw new Error(`etcd exited during start-up: ${output}`);
      if (await healthy(endpoint)) return;
      if (Date.now() > deadline) {
        p.kill('SIGKILL');
        throw new Error(`etcd did not become healthy within ${START_TIMEOUT_MS}ms: ${output}`);
      }
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
  try {
    await launch();
  } catch (err) {
    await kill();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    endpoint,
    dataDir,
    kill,
    restart: async () => {
      await kill();
      await launch();
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
