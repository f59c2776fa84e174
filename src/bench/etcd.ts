// The bench's own etcd, started and stopped by the bench (storage/etcd3/local-etcd.ts).
// No Go counterpart: the bench.
import { startLocalEtcd, type LocalEtcd } from '../storage/etcd3/local-etcd.ts';

export { etcdArgs } from '../storage/etcd3/local-etcd.ts';

export type BenchEtcd = Pick<LocalEtcd, 'endpoint' | 'stop'>;

export const ETCD_MISSING = 'etcd is not installed: no `etcd` binary on PATH (install it, e.g. `apt-get install etcd-server`, ' +
  'or run the bench with --backend sqlite)';

/** Starts etcd and resolves once /health answers; rejects with ETCD_MISSING when there is no binary. */
export function startBenchEtcd(): Promise<BenchEtcd> {
  return startLocalEtcd({ name: 'kapi-bench', missingMessage: ETCD_MISSING });
}
