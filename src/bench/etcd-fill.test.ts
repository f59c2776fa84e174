import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openEtcdBackend, type EtcdBackend } from '../storage/etcd3/etcd3-backend.ts';
import { startEtcd, type EtcdServer } from '../storage/testing/etcd-server.ts';
import { etcdFiller, renamedCopy } from './etcd-fill.ts';
import { newObjectSet } from './phases.ts';

const TEMPLATE = JSON.stringify({
  kind: 'ConfigMap', apiVersion: 'v1',
  metadata: { name: 'cm-0', namespace: 'default', uid: 'u-0', creationTimestamp: '2026-01-01T00:00:00Z' },
  data: { payload: 'p' },
});

test('renamedCopy changes only name, namespace and uid, keeping the key order', () => {
  assert.equal(renamedCopy(TEMPLATE, 'bench-1k', 'cm-7', 'u-7'), JSON.stringify({
    kind: 'ConfigMap', apiVersion: 'v1',
    metadata: { name: 'cm-7', namespace: 'bench-1k', uid: 'u-7', creationTimestamp: '2026-01-01T00:00:00Z' },
    data: { payload: 'p' },
  }));
  assert.throws(() => renamedCopy('{"kind":"ConfigMap"}', 'a', 'b', 'c'), /without metadata/);
});

let etcd: EtcdServer;
let raw: EtcdBackend;

before(async () => {
  etcd = await startEtcd();
  raw = await openEtcdBackend({ endpoints: [etcd.endpoint], compactionIntervalMs: 0 });
  await raw.create('/registry/configmaps/default/cm-0', TEMPLATE);
});
after(async () => {
  await raw.close();
  await etcd.stop();
});

test('etcdFiller tops a set up with copies of the template under kapi\'s keys', async () => {
  const fill = etcdFiller(raw, '/registry', 3, 'default', 'cm-0');
  const set = newObjectSet('bench-1k');
  await fill(set, 'cm-', 5, 30_000);
  assert.deepEqual([...set.rv.keys()].sort(), ['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4']);
  const stored = await raw.range('/registry/configmaps/bench-1k/', { prefix: true });
  assert.equal(stored.kvs.length, 5);
  const uids = new Set<unknown>();
  for (const kv of stored.kvs) {
    const obj = JSON.parse(kv.value) as { metadata: { name: string; namespace: string; uid: string } };
    assert.equal(kv.key, `/registry/configmaps/bench-1k/${obj.metadata.name}`);
    assert.equal(obj.metadata.namespace, 'bench-1k');
    assert.equal(set.rv.get(obj.metadata.name), String(kv.modRevision), 'resourceVersion is the revision of the write');
    uids.add(obj.metadata.uid);
  }
  assert.equal(uids.size, 5);
  await fill(set, 'cm-', 5, 30_000); // already full: writes nothing
  assert.equal((await raw.count('/registry/configmaps/bench-1k/')), 5);
});

test('etcdFiller rejects a missing template and an existing key', async () => {
  await assert.rejects(etcdFiller(raw, '/registry', 1, 'default', 'nope')(newObjectSet('x'), 'cm-', 1, 30_000),
    /\/registry\/configmaps\/default\/nope not found in etcd/);
  await assert.rejects(etcdFiller(raw, '/registry', 1, 'default', 'cm-0')(newObjectSet('default'), 'cm-', 1, 30_000),
    /\/registry\/configmaps\/default\/cm-0 exists/);
});
