// One kapi server per e2e test file: the in-process library server (startServer), or the `kapi serve`
// CLI in a child process for the restart and crash tests.
// No Go counterpart: the e2e test harness.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../../index.ts';
import { startEtcd, type EtcdServer, type StartEtcdOptions } from '../../storage/testing/etcd-server.ts';
import { loadAdminCredentials, rawRequest, type AdminCredentials, type RawRequest, type RawResponse } from './https-client.ts';
import { kubectl, kubectlStream, type KubectlResult, type KubectlStream, type KubectlTarget } from './kubectl.ts';

export interface Suite {
  readonly server: RunningServer;
  readonly creds: AdminCredentials;
  /** The suite's own etcd on the etcd3 backend, else undefined. */
  readonly etcd: EtcdServer | undefined;
  /** `env` adds variables to kubectl's environment (e.g. EDITOR). */
  kubectl(args: readonly string[], input?: string, env?: Readonly<Record<string, string>>): Promise<KubectlResult>;
  kubectlStream(args: readonly string[]): KubectlStream;
  request(req: RawRequest): Promise<RawResponse>;
  close(): Promise<void>;
}

export type SuiteBackend = 'sqlite' | 'etcd3';

export interface SuiteOptions {
  /** Default: the environment variable KAPI_E2E_BACKEND (`etcd3` or `sqlite`), else sqlite. */
  readonly backend?: SuiteBackend;
  /** Extra kube-apiserver flags, e.g. ['--etcd-compaction-interval', '1s']. */
  readonly flags?: readonly string[];
  /** On the etcd3 backend: how the suite's etcd starts, e.g. { tls: true } (kapi then gets its TLS files). */
  readonly etcd?: StartEtcdOptions;
}

/** The kube-apiserver flags that point at `etcd`: its URL and, when it serves TLS, the CA and a client certificate. */
export function etcdFlags(etcd: EtcdServer): string[] {
  const tls = etcd.tls === undefined ? [] : ['--etcd-cafile', etcd.tls.caFile, '--etcd-certfile', etcd.tls.certFile, '--etcd-keyfile', etcd.tls.keyFile];
  return ['--etcd-servers', etcd.endpoint, ...tls];
}

/** The backend KAPI_E2E_BACKEND asks for; anything but `etcd3` or `sqlite` is an error, not a silent default. */
export function backendFromEnv(): SuiteBackend {
  const v = process.env['KAPI_E2E_BACKEND'];
  if (v === undefined || v === '' || v === 'sqlite') return 'sqlite';
  if (v === 'etcd3') return 'etcd3';
  throw new Error(`KAPI_E2E_BACKEND=${v}: expected etcd3 or sqlite`);
}

/**
 * Starts an in-process server and a fresh HOME for kubectl. On the etcd3 backend a throwaway etcd
 * is started for the suite (and stopped by close()).
 */
export async function startSuite(options: SuiteOptions = {}): Promise<Suite> {
  const backend = options.backend ?? backendFromEnv();
  const home = await mkdtemp(join(tmpdir(), 'kapi-e2e-home-'));
  let etcd: EtcdServer | undefined;
  let server: RunningServer;
  try {
    if (backend === 'etcd3') etcd = await startEtcd(options.etcd);
    const flags = [...(etcd === undefined ? [] : etcdFlags(etcd)), ...(options.flags ?? [])];
    server = await startServer({ flags });
  } catch (err) {
    await etcd?.stop();
    await rm(home, { recursive: true, force: true });
    throw err;
  }
  const creds = await loadAdminCredentials(server.kubeconfigPath);
  const target: KubectlTarget = { kubeconfigPath: server.kubeconfigPath, home };
  return {
    server, creds, etcd,
    kubectl: (args, input, env) => kubectl(target, args, input, env),
    kubectlStream: (args) => kubectlStream(target, args),
    request: (req) => rawRequest(creds, req),
    async close() {
      try {
        await server.close();
      } finally {
        await etcd?.stop();
        await rm(home, { recursive: true, force: true });
      }
    },
  };
}

/** A guard against a hang, not a timing assertion. */
const HANG_GUARD_MS = 60_000;

/** Polls `probe` until it returns a value other than undefined. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + HANG_GUARD_MS;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface CliServer {
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly pid: number;
  stderr(): string;
  /** Sends `signal` and resolves with how the process ended. */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with how the process ended, sending nothing. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));

/** The argv that runs the `kapi` command from the sources. */
export const KAPI_COMMAND: readonly string[] = [process.execPath, '--import', 'tsx', MAIN];
export { REPO_ROOT };

/** Runs `kapi serve --secure-port 0 --data-dir <dataDir> [flags]` and waits for its "serving on" line. */
export function startCliServer(dataDir: string, flags: readonly string[] = []): Promise<CliServer> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath,
    ['--import', 'tsx', MAIN, 'serve', '--secure-port', '0', '--data-dir', dataDir, ...flags], { cwd: REPO_ROOT });
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  child.stdout.resume();
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`kapi serve did not start:\n${err}`)); }, HANG_GUARD_MS);
    void exited.then(({ code, signal }) => {
      clearTimeout(guard);
      reject(new Error(`kapi serve exited (code ${code}, signal ${signal}) before serving:\n${err}`));
    });
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      err += s;
      const m = /kapi serving on (\S+) \(kubeconfig: (.+)\)/.exec(err);
      if (m === null || m[1] === undefined || m[2] === undefined) return;
      clearTimeout(guard);
      resolve({
        url: m[1], kubeconfigPath: m[2], pid: child.pid ?? -1,
        stderr: () => err,
        async stop(signal) {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
        exited: () => exited,
      });
    });
  });
}
