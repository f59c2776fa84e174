// Copies a store's keys to another store, values byte for byte: both backends hold the same
// encodings (protobuf, JSON), so a data dir moves to etcd and back unchanged. Revisions are the
// target's own (as after an etcd snapshot restore into a new cluster, resourceVersions change).
// No Go counterpart: kapi's `export-etcd` / `import-etcd` subcommands.
import type { Backend } from './backend.ts';

const PAGE = 500;
const LEASED_KEY_TTL_SECONDS = 3600;

/**
 * Copies every key under `prefix` (at the source's newest revision) to `to`, overwriting what
 * is there; a key with an expiry keeps its remaining time (from etcd, whose range does not
 * report it: an hour). Resolves the number of keys copied.
 * Rejects with the backends' StorageErrors.
 */
export async function copyKeys(from: Backend, to: Backend, prefix: string): Promise<number> {
  let copied = 0;
  let revision = 0;
  for (let startKey: string | undefined; ;) {
    const page = await from.range(prefix, { prefix: true, limit: PAGE, ...(revision > 0 ? { revision } : {}), ...(startKey === undefined ? {} : { startKey }) });
    revision = page.revision;
    for (const kv of page.kvs) {
      // etcd's range does not tell a lease's remaining time: such keys (events) get --event-ttl's default.
      const ttl = kv.expiresAt > 0 ? Math.max(1, Math.ceil((kv.expiresAt - Date.now()) / 1000))
        : kv.lease !== 0 ? LEASED_KEY_TTL_SECONDS : undefined;
      const created = await to.create(kv.key, kv.value, ttl);
      if (!created.succeeded && created.kv !== undefined && created.kv.value !== kv.value) {
        await to.update(kv.key, kv.value, created.kv.modRevision, ttl);
      }
      copied++;
    }
    const last = page.kvs[page.kvs.length - 1];
    if (!page.more || last === undefined) return copied;
    startKey = `${last.key}\u0000`;
  }
}
