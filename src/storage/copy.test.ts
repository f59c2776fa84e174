import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { copyKeys } from './copy.ts';
import { openEtcdBackend } from './etcd3/etcd3-backend.ts';
import { openSqliteBackend } from './sqlite/sqlite-backend.ts';
import { startEtcd, type EtcdServer } from './testing/etcd-server.ts';
import { encodeValue } from './value-codec.ts';

const cm = (name: string): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { k: `grüße ${name}` } } as KubeObject);

describe('copyKeys between sqlite and etcd', () => {
  let etcd: EtcdServer;
  const dirs: string[] = [];
  before(async () => { etcd = await startEtcd(); });
  after(async () => {
    await etcd?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const sqlite = async (): Promise<Awaited<ReturnType<typeof openSqliteBackend>>> => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-copy-'));
    dirs.push(dir);
    return openSqliteBackend({ path: join(dir, 'kapi.db') });
  };

  it('moves a data dir to etcd and back byte for byte, keeping expiries', async () => {
    const src = await sqlite();
    const remote = await openEtcdBackend({ endpoints: [etcd.endpoint], compactionIntervalMs: 0 });
    const back = await sqlite();
    try {
      const values = new Map<string, string>();
      for (let i = 0; i < 1203; i++) values.set(`/registry/configmaps/default/cm-${String(i).padStart(4, '0')}`, encodeValue(cm(`cm-${i}`), 'application/vnd.kubernetes.protobuf'));
      values.set('/registry/widgets.example.com/widgets/default/w', encodeValue({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } } as KubeObject, 'application/json'));
      for (const [k, v] of values) await src.create(k, v);
      await src.create('/registry/events/default/e', encodeValue(cm('e'), 'application/json'), 3600);
      await src.create('/other/x', 'outside the prefix');
      // Something already in etcd is overwritten.
      await remote.create('/registry/configmaps/default/cm-0000', 'stale');

      assert.equal(await copyKeys(src, remote, '/registry/'), values.size + 1);
      assert.equal(await copyKeys(remote, back, '/registry/'), values.size + 1);
      const got = await back.range('/registry/', { prefix: true });
      assert.deepEqual(new Map(got.kvs.filter((kv) => !kv.key.startsWith('/registry/events/')).map((kv) => [kv.key, kv.value])), values);
      const ev = (await back.range('/registry/events/default/e')).kvs[0];
      assert.ok(ev !== undefined && ev.expiresAt > Date.now(), 'the event keeps its TTL');
      assert.notEqual((await remote.range('/registry/events/default/e')).kvs[0]?.lease ?? 0, 0, 'a lease in etcd');
      assert.equal((await remote.range('/other/x')).kvs.length, 0);
    } finally {
      await src.close();
      await remote.close();
      await back.close();
    }
  });
});
