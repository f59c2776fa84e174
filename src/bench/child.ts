// Runs a helper script of this folder in a child process, so the server under test and the load
// generator do not share an event loop. The child prints one JSON line on stdout when ready and
// exits when its stdin closes.
// No Go counterpart: the bench.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Child<T> {
  readonly info: T;
  /** Writes `line` to the child's stdin and resolves with the next JSON line it prints. */
  command(line: string): Promise<unknown>;
  /** Closes the child's stdin and waits for it to exit (killing it after a bounded wait). */
  stop(): Promise<void>;
}

const STDERR_TAIL = 4000;

/** Under tsx the sources run as .ts; after the build they are .js next to this file. */
function scriptCommand(name: string): { file: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const file = fileURLToPath(new URL(`./${name}${fromSource ? '.ts' : '.js'}`, import.meta.url));
  return { file, execArgv: fromSource ? ['--import', 'tsx'] : [] };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts `name` (a script in src/bench) and resolves with its first stdout line, checked by `parse`. */
export function startChild<T>(name: string, args: readonly string[], parse: (v: unknown) => T,
  startTimeoutMs: number): Promise<Child<T>> {
  const { file, execArgv } = scriptCommand(name);
  const child = spawn(process.execPath, [...execArgv, file, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (c: string) => {
    stderr = (stderr + c).slice(-STDERR_TAIL);
  });
  const stop = async (): Promise<void> => {
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited(child);
    clearTimeout(timer);
  };
  // Lines after the ready line answer command() calls, in order.
  const waiting: ((v: unknown) => void)[] = [];
  const command = (line: string): Promise<unknown> => new Promise((resolve) => {
    waiting.push(resolve);
    child.stdin?.write(`${line}\n`);
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let settled = false;
    const failStart = (why: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${name}: ${why}\n${stderr}`));
    };
    const timer = setTimeout(() => failStart(`not ready after ${startTimeoutMs} ms`), startTimeoutMs);
    child.on('exit', (code, signal) => failStart(`exited (${code ?? signal ?? '?'}) before it was ready`));
    child.on('error', (err) => failStart(err.message));
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (c: string) => {
      out += c;
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (settled) {
          waiting.shift()?.(JSON.parse(line) as unknown);
          continue;
        }
        try {
          const info = parse(JSON.parse(line) as unknown);
          settled = true;
          clearTimeout(timer);
          resolve({ info, stop, command });
        } catch (err) {
          failStart(`bad ready line: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    });
  });
}

/** Reads a string property of a parsed JSON object; throws when it is missing. */
export function stringField(v: unknown, key: string): string {
  if (typeof v === 'object' && v !== null && key in v) {
    const value: unknown = (v as Record<string, unknown>)[key];
    if (typeof value === 'string') return value;
  }
  throw new Error(`missing string field ${key}`);
}
