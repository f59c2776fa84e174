#!/usr/bin/env node
// The `kapi` command: `kapi serve [flags]` runs the API server until SIGTERM or SIGINT.
// Counterpart of cmd/kube-apiserver.
import { serveHelp } from './flags.ts';
import { exitWith, runServeCommand } from './serve-command.ts';
import { runTransferCommand, TRANSFER_HELP } from './store-transfer.ts';

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`kapi: a Kubernetes API server\n\nUsage:\n  kapi serve [flags]\n${TRANSFER_HELP}\n${serveHelp()}`);
    return 0;
  }
  if (command === 'export-etcd' || command === 'import-etcd') {
    return await runTransferCommand(command, rest, (line) => process.stderr.write(`${line}\n`));
  }
  if (command !== 'serve') {
    process.stderr.write(`Error: unknown command "${command}" for "kapi"\nRun 'kapi --help' for usage.\n`);
    return 1;
  }
  return await runServeCommand(rest, 'kapi serve');
}

exitWith(main(process.argv.slice(2)));
