import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEtcdBackend } from '../storage/etcd3/etcd3-backend.ts';
import { openSqliteBackend } from '../storage/sqlite/sqlite-backend.ts';
import { startEtcd, type EtcdServer } from '../storage/testing/etcd-server.ts';
import { runTransferCommand } from './store-transfer.ts';

describe('kapi export-etcd / import-etcd', () => {
  let etcd: EtcdServer;
  const dirs: string[] = [];
  const dir = (): string => { const d = mkdtempSync(join(tmpdir(), 'kapi-transfer-')); dirs.push(d); return d; };
  before(async () => { etcd = await startEtcd(); });
  after(async () => {
    await etcd?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('moves a data dir to etcd under --etcd-prefix and back into another data dir', async () => {
    const from = dir();
    const into = dir();
    const src = await openSqliteBackend({ path: join(from, 'kapi.db') });
    await src.create('/kapi-x/configmaps/default/a', 'k8s\u0000\u00ff bytes');
    await src.create('/elsewhere/b', 'not copied');
    await src.close();
    const lines: string[] = [];
    const flags = (d: string): string[] => ['--data-dir', d, '--etcd-servers', etcd.endpoint, '--etcd-prefix', '/kapi-x'];
    assert.equal(await runTransferCommand('export-etcd', flags(from), (l) => lines.push(l)), 0);
    assert.equal(await runTransferCommand('import-etcd', flags(into), (l) => lines.push(l)), 0);
    assert.deepEqual(lines, ['export-etcd: copied 1 keys under /kapi-x/', 'import-etcd: copied 1 keys under /kapi-x/']);
    const remote = await openEtcdBackend({ endpoints: [etcd.endpoint], compactionIntervalMs: 0 });
    const back = await openSqliteBackend({ path: join(into, 'kapi.db') });
    try {
      assert.equal((await remote.range('/kapi-x/configmaps/default/a')).kvs[0]?.value, 'k8s\u0000\u00ff bytes');
      assert.equal((await back.range('/kapi-x/configmaps/default/a')).kvs[0]?.value, 'k8s\u0000\u00ff bytes');
      assert.equal((await back.range('/elsewhere/b')).kvs.length, 0);
    } finally {
      await remote.close();
      await back.close();
    }
  });

  it('needs --etcd-servers', async () => {
    const lines: string[] = [];
    assert.equal(await runTransferCommand('export-etcd', ['--data-dir', dir()], (l) => lines.push(l)), 1);
    assert.deepEqual(lines, ['Error: --etcd-servers must be specified']);
  });
});
