#!/usr/bin/env node
// The `kapi` command: `kapi serve [flags]` runs the API server until SIGTERM or SIGINT.
// Counterpart of cmd/kube-apiserver.
import { FlagError, parseServeFlags, serveHelp } from './flags.ts';
import { runServer } from './serve.ts';

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`kapi: a Kubernetes API server\n\nUsage:\n  kapi serve [flags]\n\n${serveHelp()}`);
    return 0;
  }
  if (command !== 'serve') {
    process.stderr.write(`Error: unknown command "${command}" for "kapi"\nRun 'kapi --help' for usage.\n`);
    return 1;
  }
  let opts;
  try {
    opts = parseServeFlags(rest);
  } catch (err) {
    if (err instanceof FlagError) { process.stderr.write(`Error: ${err.message}\n`); return 1; }
    throw err;
  }
  if (opts.help) { process.stdout.write(serveHelp()); return 0; }
  const server = await runServer(opts, (line) => process.stderr.write(`${line}\n`));
  await new Promise<void>((resolve) => {
    const stop = (): void => { resolve(); };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  process.stderr.write('shutting down\n');
  await server.close();
  return 0;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err: unknown) => {
  process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
