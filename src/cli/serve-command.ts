// Running the server from a command line until SIGTERM or SIGINT: shared by `kapi serve` and the
// `kube-apiserver` command (the same flags; the latter keeps its files in --cert-dir, as envtest
// expects of kube-apiserver).
// Counterpart of cmd/kube-apiserver/app/server.go (NewAPIServerCommand).
import { FlagError, parseServeFlags, serveHelp } from './flags.ts';
import { runServer } from './serve.ts';

export async function runServeCommand(args: readonly string[], command: 'kapi serve' | 'kube-apiserver'): Promise<number> {
  let opts;
  try {
    opts = parseServeFlags(args);
  } catch (err) {
    if (err instanceof FlagError) { process.stderr.write(`Error: ${err.message}\n`); return 1; }
    throw err;
  }
  if (opts.help) { process.stdout.write(serveHelp(command)); return 0; }
  const server = await runServer({ ...opts, kubeApiserverCommand: command === 'kube-apiserver' }, (line) => process.stderr.write(`${line}\n`));
  await new Promise<void>((resolve) => {
    const stop = (): void => { resolve(); };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  process.stderr.write('shutting down\n');
  await server.close();
  return 0;
}

/** Sets the exit code from `run`; an error at start is printed as kube prints it. */
export function exitWith(run: Promise<number>): void {
  run.then((code) => { process.exitCode = code; }, (err: unknown) => {
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
