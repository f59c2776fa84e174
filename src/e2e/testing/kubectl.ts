// Runs the real kubectl (the /usr/bin/kubectl dispatcher) against a kapi server, each suite with its
// own HOME so discovery and /version caches never leak between servers or runs.
// No Go counterpart: the e2e test harness.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';

export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface KubectlTarget {
  readonly kubeconfigPath: string;
  /** A fresh directory used as HOME (and so ~/.kube/cache). */
  readonly home: string;
  /** The kubectl binary; default `kubectl` on PATH (the dispatcher). */
  readonly binary?: string;
}

/** A guard against a hung kubectl, not a timing assertion. */
const HANG_GUARD_MS = 90_000;

function kubectlEnv(t: KubectlTarget, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: t.home,
    KUBECONFIG: t.kubeconfigPath,
    KUBECACHEDIR: `${t.home}/.kube/cache`,
    ...extra,
  };
}

/**
 * Runs kubectl to completion; never rejects on a non-zero exit (the tests assert the code).
 * `env` adds variables (e.g. EDITOR for `kubectl edit`).
 */
export function kubectl(t: KubectlTarget, args: readonly string[], input?: string,
  env?: Readonly<Record<string, string>>): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(t.binary ?? 'kubectl', [...args], {
      env: kubectlEnv(t, env), timeout: HANG_GUARD_MS, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8',
    }, (err, stdout, stderr) => {
      if (err !== null && typeof err.code !== 'number') {
        reject(new Error(`kubectl ${args.join(' ')}: ${err.message}\n${stderr}`));
        return;
      }
      resolve({ code: err === null ? 0 : Number(err.code), stdout, stderr });
    });
    child.stdin?.end(input ?? '');
  });
}

/** A long-running kubectl (e.g. `get -w`) whose output the test reads as it arrives. */
export interface KubectlStream {
  /**
   * Resolves with all stdout (or, with source 'stderr', stderr) so far once `pred` holds for it;
   * rejects if kubectl exits first.
   */
  waitFor(pred: (output: string) => boolean, what: string, source?: 'stdout' | 'stderr'): Promise<string>;
  stdout(): string;
  stderr(): string;
  /** Kills kubectl and waits for it to exit. */
  stop(): Promise<void>;
}

export function kubectlStream(t: KubectlTarget, args: readonly string[]): KubectlStream {
  const child: ChildProcessWithoutNullStreams = spawn(t.binary ?? 'kubectl', [...args], { env: kubectlEnv(t) });
  let out = '';
  let err = '';
  let exited = false;
  const waiters = new Set<() => void>();
  const notify = (): void => { for (const w of [...waiters]) w(); };
  child.stdout.setEncoding('utf8').on('data', (s: string) => { out += s; notify(); });
  child.stderr.setEncoding('utf8').on('data', (s: string) => { err += s; notify(); });
  const exit = new Promise<void>((resolve) => child.on('exit', () => { exited = true; notify(); resolve(); }));
  return {
    stdout: () => out,
    stderr: () => err,
    waitFor(pred, what, source = 'stdout') {
      return new Promise((resolve, reject) => {
        const guard = setTimeout(() => { done(); reject(new Error(`timed out waiting for ${what}; stdout:\n${out}\nstderr:\n${err}`)); }, HANG_GUARD_MS);
        const check = (): void => {
          const text = source === 'stdout' ? out : err;
          if (pred(text)) { done(); resolve(text); } else if (exited) {
            done(); reject(new Error(`kubectl exited before ${what}; stdout:\n${out}\nstderr:\n${err}`));
          }
        };
        const done = (): void => { clearTimeout(guard); waiters.delete(check); };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (!exited) child.kill('SIGKILL');
      await exit;
    },
  };
}

/** Lines of a table or list output, trailing blanks removed. */
export function lines(s: string): string[] {
  return s.split('\n').map((l) => l.trimEnd()).filter((l) => l !== '');
}

/** Cells of a table row: kubectl pads columns with at least three spaces, cells hold at most one. */
export function columns(line: string): string[] {
  return line.trim().split(/\s{2,}/);
}

/**
 * A copy of a kubeconfig without its client certificates, for a test that authenticates with the
 * token only: a certificate wins over a bearer token (kube tries x509 first), and whoami would show
 * the certificate's identity and credential id.
 */
export async function writeTokenOnlyKubeconfig(from: string, to: string): Promise<void> {
  const cfg = parse(await readFile(from, 'utf8')) as { users: { user: Record<string, unknown> }[] };
  for (const u of cfg.users) {
    delete u.user['client-certificate-data'];
    delete u.user['client-key-data'];
  }
  await writeFile(to, stringify(cfg));
}
