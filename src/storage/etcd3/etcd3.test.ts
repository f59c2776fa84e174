// The shared storage contract, run against a real etcd (one server for the file, a fresh key
// prefix per test). etcd-specific behaviour is in etcd3-backend.test.ts.
import { after, before } from 'node:test';
import { runStorageConformance } from '../testing/conformance.ts';
import { startEtcd, type EtcdServer } from '../testing/etcd-server.ts';
import { openEtcdBackend } from './etcd3-backend.ts';

let etcd: EtcdServer | undefined;
before(async () => { etcd = await startEtcd(); });
after(async () => { await etcd?.stop(); });

let n = 0;
runStorageConformance('etcd3', async () => {
  if (etcd === undefined) throw new Error('etcd did not start');
  return openEtcdBackend({ endpoints: [etcd.endpoint], prefix: `/kapi-conformance-${n++}`, compactionIntervalMs: 0 });
});
