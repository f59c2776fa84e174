// The oracle build's kube-controller-manager (scripts/build-oracle.sh) run as a child process
// against a server given by a kubeconfig, its log in a temporary file for failure messages.
// No Go counterpart: the e2e test harness.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exited, freePort } from '../../storage/etcd3/local-etcd.ts';
import { ORACLE_BUILD_COMMAND, oracleBuildLocation } from './oracle.ts';

/** Why kube-controller-manager cannot run on this machine, or undefined when its build is cached. */
export function kubeControllerManagerUnavailable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const b = oracleBuildLocation(env);
  if (existsSync(b.kubeControllerManager)) return undefined;
  return `the oracle kube-controller-manager ${b.version} is not built on this machine (${b.kubeControllerManager} missing); ` +
    `run ${ORACLE_BUILD_COMMAND} (about 10 minutes per binary on 2 cores) to enable this test`;
}

export interface KubeControllerManager {
  /** Its --secure-port on 127.0.0.1. */
  readonly port: number;
  readonly logPath: string;
  /** The whole log so far. */
  log(): Promise<string>;
  /** GETs `path` from its secure port (its own self-signed certificate; no credentials). */
  get(path: string): Promise<{ status: number; text: string }>;
  /** Whether the process is still running. */
  running(): boolean;
  /** SIGTERM (SIGKILL after a grace period), then removes its files. Idempotent. */
  stop(): Promise<void>;
}

export interface StartKubeControllerManagerOptions {
  /** Its --kubeconfig, also used for delegated authentication and authorization of its own port. */
  readonly kubeconfigPath: string;
  /** More flags, after the defaults (a later flag wins). */
  readonly flags?: readonly string[];
}

const STOP_TIMEOUT_MS = 20_000;

/** Starts kube-controller-manager; resolves once the process is spawned (not once it leads). */
export async function startKubeControllerManager(opts: StartKubeControllerManagerOptions): Promise<KubeControllerManager> {
  const missing = kubeControllerManagerUnavailable();
  if (missing !== undefined) throw new Error(missing);
  const dir = await mkdtemp(join(tmpdir(), 'kapi-kcm-'));
  const logPath = join(dir, 'kube-controller-manager.log');
  const port = await freePort();
  const args = [
    '--kubeconfig', opts.kubeconfigPath,
    '--authentication-kubeconfig', opts.kubeconfigPath, '--authorization-kubeconfig', opts.kubeconfigPath,
    // No client CA to find: the extension-apiserver-authentication ConfigMap only exists when
    // kube-apiserver has --client-ca-file or --requestheader-* flags (neither kapi nor the oracle here).
    '--authentication-skip-lookup=true',
    '--bind-address', '127.0.0.1', '--secure-port', String(port), '--cert-dir', join(dir, 'certs'),
    '-v', '2',
    ...(opts.flags ?? []),
  ];
  const fd = openSync(logPath, 'w');
  let proc: ChildProcess;
  try {
    proc = spawn(oracleBuildLocation().kubeControllerManager, args, { stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  let stopping: Promise<void> | undefined;
  const running = (): boolean => proc.exitCode === null && proc.signalCode === null;
  return {
    port, logPath,
    log: () => readFile(logPath, 'utf8'),
    get: (path) => new Promise((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port, path, method: 'GET', rejectUnauthorized: false, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (s: string) => { text += s; }).on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject).end();
    }),
    running,
    stop() {
      stopping ??= (async () => {
        if (running()) {
          proc.kill('SIGTERM');
          const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_TIMEOUT_MS);
          await exited(proc);
          clearTimeout(timer);
        }
        await rm(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}
