// `kapi export-etcd` and `kapi import-etcd`: move a data dir's store (the embedded SQLite file)
// to etcd and back, with the serve command's --data-dir, --etcd-servers, --etcd-prefix and etcd
// TLS flags. Values are copied byte for byte (both backends store kube's encodings), so what
// kube-apiserver or kapi wrote stays readable by either. Run them while no server uses the store.
// No Go counterpart (kube's own path is an etcd snapshot).
import { join, resolve } from 'node:path';
import { openSqliteBackend } from '../storage/sqlite/sqlite-backend.ts';
import { copyKeys } from '../storage/copy.ts';
import { FlagError, parseServeFlags } from './flags.ts';

export type TransferDirection = 'export-etcd' | 'import-etcd';

export const TRANSFER_HELP = `  kapi export-etcd --data-dir DIR --etcd-servers URL [--etcd-prefix /registry]   copy DIR's store to etcd
  kapi import-etcd --data-dir DIR --etcd-servers URL [--etcd-prefix /registry]   copy etcd's keys into DIR's store
`;

/** Runs one transfer; resolves the exit code. */
export async function runTransferCommand(direction: TransferDirection, args: readonly string[], out: (line: string) => void): Promise<number> {
  let opts;
  try {
    opts = parseServeFlags(args);
  } catch (err) {
    if (err instanceof FlagError) { out(`Error: ${err.message}`); return 1; }
    throw err;
  }
  if (opts.etcdServers.length === 0) { out('Error: --etcd-servers must be specified'); return 1; }
  const sqlite = await openSqliteBackend({ path: join(resolve(opts.dataDir), 'kapi.db'), compactionIntervalMs: 0 });
  try {
    // etcd's gRPC client loads only for these subcommands, not with every command.
    const { openEtcdBackend } = await import('../storage/etcd3/etcd3-backend.ts');
    const etcd = await openEtcdBackend({
      endpoints: opts.etcdServers, compactionIntervalMs: 0,
      ...(opts.etcdCAFile !== undefined ? { caFile: opts.etcdCAFile } : {}),
      ...(opts.etcdCertFile !== undefined ? { certFile: opts.etcdCertFile } : {}),
      ...(opts.etcdKeyFile !== undefined ? { keyFile: opts.etcdKeyFile } : {}),
    });
    try {
      const prefix = `${opts.etcdPrefix.replace(/\/+$/, '')}/`;
      const n = direction === 'export-etcd' ? await copyKeys(sqlite, etcd, prefix) : await copyKeys(etcd, sqlite, prefix);
      out(`${direction}: copied ${n} keys under ${prefix}`);
      return 0;
    } finally {
      await etcd.close();
    }
  } finally {
    await sqlite.close();
  }
}
