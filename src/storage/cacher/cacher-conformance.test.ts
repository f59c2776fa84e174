// The storage conformance suite run through the watch cache, on SQLite and on a real etcd
// (one server for the file, a fresh key prefix per test).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { openEtcdBackend } from '../etcd3/etcd3-backend.ts';
import { openSqliteBackend } from '../sqlite/sqlite-backend.ts';
import { runStorageConformance } from '../testing/conformance.ts';
import { startEtcd, type EtcdServer } from '../testing/etcd-server.ts';
import { newTestCacher } from './testing.ts';

const dirs: string[] = [];
let etcd: EtcdServer | undefined;
before(async () => { etcd = await startEtcd(); });
after(async () => {
  await etcd?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

runStorageConformance('cacher on sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-cacher-'));
  dirs.push(dir);
  return openSqliteBackend({ path: join(dir, 'state.db'), ttlSweepIntervalMs: 100 });
}, { newStore: (backend, opts) => newTestCacher(backend, opts), watchCache: true });

let n = 0;
runStorageConformance('cacher on etcd3', async () => {
  if (etcd === undefined) throw new Error('etcd did not start');
  return openEtcdBackend({ endpoints: [etcd.endpoint], prefix: `/kapi-cacher-${n++}`, compactionIntervalMs: 0 });
}, { newStore: (backend, opts) => newTestCacher(backend, opts), watchCache: true });
