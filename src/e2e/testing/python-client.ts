// The Python client (`kubernetes` from PyPI) for the e2e tests: a venv with the version that
// clients/python/requirements.txt pins, made once per machine in a cache folder and reused, and a
// runner for the unittest suite in clients/python/e2e/ against a kubeconfig.
// No Go counterpart: the e2e test harness.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLIENT_DIR = fileURLToPath(new URL('../../../clients/python/', import.meta.url));
const REQUIREMENTS = join(CLIENT_DIR, 'requirements.txt');
export const PYTHON_E2E_DIR = join(CLIENT_DIR, 'e2e');
/** Marks a venv whose install finished; a half-made one is made again. */
const COMPLETE = '.kapi-complete';
/** Guards against a hang, not timing assertions: pip on a cold cache, then the whole suite. */
const INSTALL_TIMEOUT_MS = 600_000;
const RUN_TIMEOUT_MS = 600_000;

export interface PythonClient {
  /** The `kubernetes` version installed, e.g. 37.0.2. */
  readonly version: string;
  /** The venv's interpreter. */
  readonly python: string;
  /** Whether this call made the venv (false: it was cached). */
  readonly installed: boolean;
}

export interface RunResult { readonly code: number; readonly output: string }

function run(file: string, args: readonly string[], env: NodeJS.ProcessEnv, timeout: number): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      const why = err !== null && typeof err.code !== 'number' ? `\n${err.message}` : '';
      resolve({ code, output: `${stdout}${stderr}${why}` });
    });
  });
}

/** The base interpreter: $KAPI_PYTHON, else python3 on the PATH. */
function basePython(env: NodeJS.ProcessEnv): string {
  return env['KAPI_PYTHON'] ?? 'python3';
}

/** Where the venv of the pinned version and this interpreter lives (or will). */
async function venvLocation(env: NodeJS.ProcessEnv): Promise<{ dir: string; version: string }> {
  const requirements = readFileSync(REQUIREMENTS, 'utf8');
  const version = /^kubernetes==(\S+)/m.exec(requirements)?.[1];
  if (version === undefined) throw new Error(`${REQUIREMENTS} pins no kubernetes==<version>`);
  const py = await run(basePython(env), ['-c', 'import sys; print(sys.version)'], env, 30_000);
  if (py.code !== 0) throw new Error(`${basePython(env)} does not run (install python3): ${py.output}`);
  // A venv belongs to one interpreter: its version is part of the key.
  const key = createHash('sha256').update(requirements).update(py.output).digest('hex').slice(0, 12);
  const cache = env['KAPI_PYTHON_CACHE'] ?? join(env['HOME'] ?? homedir(), '.cache', 'kapi-python');
  return { dir: join(cache, `${version}-${key}`), version };
}

/**
 * Resolves with the cached venv of the pinned client, making it first when it is missing (python3
 * -m venv, then pip install from PyPI). Rejects with pip's or venv's output when that fails: on
 * Debian, `python3 -m venv` needs the python3-venv package.
 */
export async function ensurePythonClient(env: NodeJS.ProcessEnv = process.env): Promise<PythonClient> {
  const { dir, version } = await venvLocation(env);
  const python = join(dir, 'bin', 'python');
  if (existsSync(join(dir, COMPLETE))) return { version, python, installed: false };
  // Made beside its final place and renamed into it, so that a run that dies half-way leaves
  // nothing that looks finished (a venv runs from a new place when used through `python -m`).
  const tmp = `${dir}.tmp-${process.pid}`;
  await mkdir(dirname(dir), { recursive: true });
  await rm(tmp, { recursive: true, force: true });
  try {
    const steps: Array<[string, string[]]> = [
      [basePython(env), ['-m', 'venv', tmp]],
      [join(tmp, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', REQUIREMENTS]],
    ];
    for (const [file, args] of steps) {
      const r = await run(file, args, env, INSTALL_TIMEOUT_MS);
      if (r.code !== 0) throw new Error(`${file} ${args.join(' ')} failed (exit ${r.code}):\n${r.output}`);
    }
    await writeFile(join(tmp, COMPLETE), `kubernetes==${version}\n`);
    await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return { version, python, installed: true };
}

/** Runs the unittest suite of clients/python/e2e against the cluster of `kubeconfigPath`. */
export function runPythonE2E(client: PythonClient, kubeconfigPath: string, env: NodeJS.ProcessEnv = process.env): Promise<RunResult> {
  return run(client.python, ['-m', 'unittest', 'discover', '-v', '-s', PYTHON_E2E_DIR, '-p', 'test_*.py'],
    { ...env, KUBECONFIG: kubeconfigPath, PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' }, RUN_TIMEOUT_MS);
}
