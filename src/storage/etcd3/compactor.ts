// kube's etcd compaction: every API server sharing an etcd races on one Txn over the key
// compact_rev_key (compare its version, put the revision), so that within one interval only the
// winner compacts. The key's value is the last revision compacted to; compactedRevision reads it.
// Counterpart of k8s.io/apiserver/pkg/storage/etcd3/compact.go.
import type { EtcdClient } from './client.ts';
import { CMP_EQUAL, TARGET_VERSION, type TxnResponse } from './messages.ts';

/** Not under any prefix: shared by every store in the etcd, as kube's compactor does. */
export const COMPACT_REV_KEY = 'compact_rev_key';
const KEY = Buffer.from(COMPACT_REV_KEY);

export interface CompactRevKey {
  /** How many times the key was written (its etcd version): kube's compaction "time". */
  readonly version: number;
  /** The revision last compacted to (0: never). */
  readonly revision: number;
  /** The store revision the read happened at. */
  readonly headerRevision: number;
}

export async function readCompactRevKey(client: EtcdClient): Promise<CompactRevKey> {
  const res = await client.call('KV/Range', { key: KEY });
  const kv = res.kvs[0];
  return {
    version: Number(kv?.version ?? 0),
    revision: kv === undefined ? 0 : Number(kv.value.toString()) || 0,
    headerRevision: Number(res.header?.revision ?? 0),
  };
}

/**
 * Records `revision` as the compaction target if nobody else wrote the key since it had
 * `version`. Resolves whether this caller won, the key's new version and the header revision.
 */
export async function claimCompaction(client: EtcdClient, version: number, revision: number):
  Promise<{ readonly won: boolean; readonly version: number; readonly headerRevision: number }> {
  const res: TxnResponse = await client.call('KV/Txn', {
    compare: [{ result: CMP_EQUAL, target: TARGET_VERSION, key: KEY, version }],
    success: [{ request_put: { key: KEY, value: Buffer.from(String(revision)) } }],
    failure: [{ request_range: { key: KEY } }],
  });
  const headerRevision = Number(res.header?.revision ?? 0);
  if (res.succeeded) return { won: true, version: version + 1, headerRevision };
  const kv = res.responses[0]?.response_range?.kvs[0];
  return { won: false, version: Number(kv?.version ?? 0), headerRevision };
}

export interface Compactor { stop(): void }

/**
 * kube's periodic compactor: each round claims the key and, when it wins, compacts to the
 * revision seen one interval earlier, so that watchers get a full interval to catch up.
 * Errors are reported and the next round tries again.
 */
export function startCompactor(client: EtcdClient, intervalMs: number, onError: (err: unknown) => void): Compactor {
  let version = 0;
  let rev = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const round = async (): Promise<void> => {
    const claim = await claimCompaction(client, version, rev);
    const target = rev;
    version = claim.version;
    rev = claim.headerRevision;
    // Nothing to compact on the first round (as kube: no compaction at bootstrap).
    if (claim.won && target > 0) await client.call('KV/Compact', { revision: target });
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      round().catch(onError).finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return { stop: () => { stopped = true; clearTimeout(timer); } };
}
