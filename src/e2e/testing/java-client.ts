// The Java client workflow (clients/java: fabric8 kubernetes-client from Maven Central) for the e2e
// tests: built with Maven (dependencies cached in ~/.m2 as usual, classes in clients/java/target),
// then run with `java` against a kubeconfig. The workflow prints one comparable line per step.
// No Go counterpart: the e2e test harness.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT = fileURLToPath(new URL('../../../clients/java/', import.meta.url));
const CLASSPATH_FILE = join(PROJECT, 'target', 'classpath.txt');
const MAIN_CLASS = 'kapi.e2e.Workflow';
/** Guards against a hang, not timing assertions: Maven on an empty ~/.m2, then the workflow. */
const BUILD_TIMEOUT_MS = 600_000;
const RUN_TIMEOUT_MS = 300_000;

export interface RunResult { readonly code: number; readonly output: string; readonly elapsedMs: number }

function run(file: string, args: readonly string[], env: NodeJS.ProcessEnv, timeout: number): Promise<RunResult> {
  const start = performance.now();
  return new Promise((resolve) => {
    execFile(file, args, { cwd: PROJECT, env, timeout, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      const why = err !== null && typeof err.code !== 'number' ? `\n${err.message}` : '';
      resolve({ code, output: `${stdout}${stderr}${why}`, elapsedMs: performance.now() - start });
    });
  });
}

/** Why Maven or Java cannot run here (with the Debian packages that bring them), or undefined. */
export async function javaUnavailable(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  for (const [tool, args] of [['java', ['-version']], ['mvn', ['-v']]] as const) {
    const r = await run(tool, args, env, 60_000);
    if (r.code !== 0) return `cannot run ${tool} (${r.output.trim().split('\n')[0] ?? ''}): apt-get install default-jdk-headless maven`;
  }
  return undefined;
}

export interface JavaWorkflow {
  /** The class path of the compiled workflow and its dependencies. */
  readonly classpath: string;
  /** How long Maven took (dependency downloads included on an empty ~/.m2). */
  readonly buildMs: number;
}

/** Compiles clients/java and resolves its class path; rejects with Maven's output when that fails. */
export async function buildJavaWorkflow(env: NodeJS.ProcessEnv = process.env): Promise<JavaWorkflow> {
  const r = await run('mvn', ['-B', '-q', 'compile', 'dependency:build-classpath', `-Dmdep.outputFile=${CLASSPATH_FILE}`],
    env, BUILD_TIMEOUT_MS);
  if (r.code !== 0) throw new Error(`mvn failed (exit ${r.code}):\n${r.output}`);
  const deps = (await readFile(CLASSPATH_FILE, 'utf8')).trim();
  return { classpath: [join(PROJECT, 'target', 'classes'), deps].join(':'), buildMs: r.elapsedMs };
}

export interface WorkflowRun extends RunResult {
  /** The `STEP name: ...` and `FAIL name: ...` lines, in order. */
  readonly steps: readonly string[];
}

/** Runs the workflow against the cluster of `kubeconfigPath`. */
export async function runJavaWorkflow(w: JavaWorkflow, kubeconfigPath: string, env: NodeJS.ProcessEnv = process.env): Promise<WorkflowRun> {
  const r = await run('java', ['-cp', w.classpath, MAIN_CLASS], { ...env, KUBECONFIG: kubeconfigPath }, RUN_TIMEOUT_MS);
  const steps = r.output.split('\n').filter((l) => l.startsWith('STEP ') || l.startsWith('FAIL '));
  return { ...r, steps };
}
