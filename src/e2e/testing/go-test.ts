// Runs `go test -json` on a Go module of the repo against a server, and sums up what it reports:
// which tests passed, failed or were skipped, and the output of the failed ones.
// No Go counterpart: the e2e test harness.
import { spawn } from 'node:child_process';

export interface GoTestEvent {
  readonly Action: string;
  readonly Package?: string;
  readonly Test?: string;
  readonly Output?: string;
  readonly Elapsed?: number;
}

export interface GoTestRun {
  /** go test's exit code (1 when a test failed, 2 or more when the build did). */
  readonly exitCode: number;
  /** `package/TestName` (subtests as `package/TestName/sub`) by final action: pass, fail or skip. */
  readonly results: ReadonlyMap<string, string>;
  /** Everything go test printed, tests' output and build errors alike, in order. */
  readonly output: string;
  readonly elapsedMs: number;
}

export interface GoTestOptions {
  /** The module's directory. */
  readonly dir: string;
  /** go test's arguments after `-json`, e.g. ['-count=1', './...']. */
  readonly args: readonly string[];
  /** Added to this process's environment. */
  readonly env: Readonly<Record<string, string>>;
}

/** Why `go` cannot run here, or undefined when it can; for a clear failure instead of ENOENT. */
export async function goUnavailable(): Promise<string | undefined> {
  return new Promise((resolve) => {
    const p = spawn('go', ['version'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    p.once('error', (err) => {
      resolve(`cannot run "go" (${err.message}): the Go client tests need Go 1.26 or newer on PATH (https://go.dev/dl)`);
    });
    p.once('close', (code) => {
      resolve(code === 0 ? undefined : `"go version" exited with ${String(code)}: ${out.trim()}`);
    });
  });
}

/**
 * Runs go test asynchronously, so that an in-process server keeps serving meanwhile. Lines that
 * are not test2json events (build errors) are kept in `output`.
 */
export async function runGoTest(opts: GoTestOptions): Promise<GoTestRun> {
  const start = performance.now();
  const child = spawn('go', ['test', '-json', ...opts.args],
    { cwd: opts.dir, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const results = new Map<string, string>();
  let output = '';
  let pending = '';
  const onLine = (line: string): void => {
    if (line === '') return;
    let ev: GoTestEvent;
    try {
      ev = JSON.parse(line) as GoTestEvent;
    } catch {
      output += `${line}\n`;
      return;
    }
    if (ev.Output !== undefined) output += ev.Output;
    if (ev.Test !== undefined && (ev.Action === 'pass' || ev.Action === 'fail' || ev.Action === 'skip')) {
      results.set(`${ev.Package ?? ''}/${ev.Test}`, ev.Action);
    }
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const l of lines) onLine(l);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => { output += chunk; });
  const exitCode = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => { resolve(code ?? 1); });
  });
  onLine(pending);
  return { exitCode, results, output, elapsedMs: performance.now() - start };
}
