import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openEtcdBackend, type EtcdBackend } from '../storage/etcd3/etcd3-backend.ts';
import { startEtcd, type EtcdServer } from '../storage/testing/etcd-server.ts';
import { configMapPrefix, etcdBaseline, partition, RAW_ROOT } from './etcd-baseline.ts';

test('configMapPrefix', async (t) => {
  const cases = [
    { name: 'default prefix', etcdPrefix: '/registry', ns: 'default', want: '/registry/configmaps/default/' },
    { name: 'trailing slashes dropped', etcdPrefix: '/kapi//', ns: 'b', want: '/kapi/configmaps/b/' },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(configMapPrefix(c.etcdPrefix, c.ns), c.want));
  }
});

test('partition gives every worker every workers-th key', () => {
  assert.deepEqual(partition(['a', 'b', 'c', 'd', 'e'], 2), [['a', 'c', 'e'], ['b', 'd']]);
  assert.deepEqual(partition(['a'], 2), [['a'], []]);
});

let etcd: EtcdServer;
let raw: EtcdBackend;
const NS = 'ns1';
const budget = (maxOps: number): { workers: number; durationMs: number; maxOps: number } => ({ workers: 2, durationMs: 30_000, maxOps });
// What kapi would have stored: two ConfigMaps of namespace NS, one in another namespace.
const stored = { a: '{"kind":"ConfigMap","metadata":{"name":"a"}}', b: '{"kind":"ConfigMap","metadata":{"name":"b"},"x":1}' };

before(async () => {
  etcd = await startEtcd();
  raw = await openEtcdBackend({ endpoints: [etcd.endpoint], compactionIntervalMs: 0 });
  await raw.create('/registry/configmaps/ns1/a', stored.a);
  await raw.create('/registry/configmaps/ns1/b', stored.b);
  await raw.create('/registry/configmaps/ns10/c', '{}');
});
after(async () => {
  await raw.close();
  await etcd.stop();
});

test('etcdBaseline writes kapi\'s stored value under its own keys and reads it back', async () => {
  const base = etcdBaseline(raw, '/registry');
  assert.equal(base.label, 'raw etcd');
  const created = await base.create(NS, budget(5));
  assert.equal(created.ops, 5);
  assert.equal(created.responseBytes, Buffer.byteLength(stored.a));
  const keys = await raw.range(`${RAW_ROOT}/configmaps/${NS}/`, { prefix: true });
  assert.deepEqual(keys.kvs.map((kv) => kv.key).sort(), [0, 1, 2, 3, 4].map((n) => `${RAW_ROOT}/configmaps/${NS}/cm-${n}`));
  assert.ok(keys.kvs.every((kv) => kv.value === stored.a));

  const got = await base.get(NS, budget(7));
  assert.equal(got.ops, 7);
  assert.equal(got.responseBytes, Buffer.byteLength(stored.a));

  // Updates track each key's mod revision, so repeated updates of the same keys keep succeeding.
  const before = await raw.currentRevision();
  const updated = await base.update(NS, budget(12));
  assert.equal(updated.ops, 12);
  assert.equal(await raw.currentRevision(), before + 12);
});

test('etcdBaseline lists kapi\'s keys of exactly one namespace', async () => {
  const base = etcdBaseline(raw, '/registry');
  assert.ok(await base.list(NS, 2) >= 0);
  await assert.rejects(base.list(NS, 3), /listed 2 keys of ns1, want 3/);
});

test('etcdBaseline rejects phases that have nothing to work on', async () => {
  const base = etcdBaseline(raw, '/registry');
  await assert.rejects(base.create('empty', budget(1)), /kapi stored no ConfigMap under \/registry\/configmaps\/empty\//);
  await assert.rejects(base.get(NS, budget(1)), /get before create/);
});

test('etcdBaseline watch probe times each create until its event arrives', async () => {
  const base = etcdBaseline(raw, '/registry');
  const probe = await base.openWatchProbe(NS);
  try {
    for (const name of ['w-1', 'w-2', 'w-3']) assert.ok(await probe.write(name) >= 0);
    assert.equal(probe.eventBytes(), Buffer.byteLength(stored.a));
    await assert.rejects(probe.write('w-1'), /create .*w-1: key exists/);
  } finally {
    probe.close();
  }
  const written = await raw.range(`${RAW_ROOT}/watch/${NS}/`, { prefix: true });
  assert.equal(written.kvs.length, 3);
});
