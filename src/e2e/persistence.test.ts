// Durability of the embedded store through the `kapi serve` CLI: objects survive a graceful restart
// (SIGTERM), and every create the server acknowledged survives a kill -9 in the middle of a stream.
import { ownConfigMaps } from './testing/objects.ts';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAdminCredentials, rawRequest, type AdminCredentials, type RawResponse } from './testing/https-client.ts';
import { startCliServer, type CliServer } from './testing/suite.ts';

interface Obj { metadata: { name: string; uid: string; resourceVersion: string }; data?: Record<string, string> }
interface List { metadata: { resourceVersion: string }; items: Obj[] }

async function connect(server: CliServer): Promise<AdminCredentials> {
  return loadAdminCredentials(server.kubeconfigPath);
}

function createConfigMap(creds: AdminCredentials, ns: string, name: string, data: Record<string, string>): Promise<RawResponse> {
  return rawRequest(creds, { method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`,
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }) });
}

async function listConfigMaps(creds: AdminCredentials, ns: string): Promise<List> {
  const r = await rawRequest(creds, { method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps` });
  assert.equal(r.status, 200, r.text);
  return r.json() as List;
}

describe('persistence across restarts of kapi serve', () => {
  let root: string;
  const running: CliServer[] = [];
  const start = async (dataDir: string): Promise<CliServer> => {
    const srv = await startCliServer(join(root, dataDir));
    running.push(srv);
    return srv;
  };

  before(async () => { root = await mkdtemp(join(tmpdir(), 'kapi-e2e-data-')); });
  after(async () => {
    for (const srv of running) await srv.stop('SIGKILL');
    await rm(root, { recursive: true, force: true });
  });

  it('objects survive SIGTERM and a restart on the same data dir', async () => {
    const first = await start('graceful');
    const creds = await connect(first);
    const ns = await rawRequest(creds, { method: 'POST', path: '/api/v1/namespaces',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'durable' } }) });
    assert.equal(ns.status, 201, ns.text);
    const created: Obj[] = [];
    for (const name of ['a', 'b', 'c']) {
      const r = await createConfigMap(creds, 'durable', name, { name });
      assert.equal(r.status, 201, r.text);
      created.push(r.json() as Obj);
    }
    const del = await rawRequest(creds, { method: 'DELETE', path: '/api/v1/namespaces/durable/configmaps/b' });
    assert.equal(del.status, 200, del.text);
    const before = await listConfigMaps(creds, 'durable');

    const exit = await first.stop('SIGTERM');
    assert.deepEqual(exit, { code: 0, signal: null }, first.stderr());
    assert.match(first.stderr(), /shutting down/);

    const second = await start('graceful');
    const creds2 = await connect(second);
    const after = await listConfigMaps(creds2, 'durable');
    assert.deepEqual(ownConfigMaps(after.items.map((o) => o.metadata.name)), ['a', 'c']);
    for (const o of after.items.filter((x) => x.metadata.name !== 'kube-root-ca.crt')) {
      const orig = created.find((c) => c.metadata.name === o.metadata.name);
      assert.equal(o.metadata.uid, orig?.metadata.uid);
      assert.equal(o.metadata.resourceVersion, orig?.metadata.resourceVersion);
      assert.deepEqual(o.data, { name: o.metadata.name });
    }
    assert.ok(BigInt(after.metadata.resourceVersion) >= BigInt(before.metadata.resourceVersion), 'the store revision does not go back');

    const nsAfter = await rawRequest(creds2, { method: 'GET', path: '/api/v1/namespaces/durable' });
    assert.equal(nsAfter.status, 200, nsAfter.text);
    const missing = await rawRequest(creds2, { method: 'GET', path: '/api/v1/namespaces/durable/configmaps/b' });
    assert.equal(missing.status, 404);

    // The bootstrap objects are there once, not twice.
    const svc = await rawRequest(creds2, { method: 'GET', path: '/api/v1/namespaces/default/services/kubernetes' });
    assert.equal(svc.status, 200, svc.text);
    assert.equal((svc.json() as { spec: { clusterIP: string } }).spec.clusterIP, '10.0.0.1');

    const exit2 = await second.stop('SIGTERM');
    assert.deepEqual(exit2, { code: 0, signal: null }, second.stderr());
  });

  it('every acknowledged create survives kill -9 during a stream of creates', async () => {
    const srv = await start('crash');
    const creds = await connect(srv);
    const ns = await rawRequest(creds, { method: 'POST', path: '/api/v1/namespaces',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'crash' } }) });
    assert.equal(ns.status, 201, ns.text);

    // Four writers create configmaps one after another until the server dies; a 201 is an acknowledgement.
    const acked = new Map<string, string>();
    let killed = false;
    let failure: unknown;
    const writer = async (id: number): Promise<void> => {
      for (let i = 0; failure === undefined; i++) {
        const name = `w${id}-${i}`;
        try {
          const r = await createConfigMap(creds, 'crash', name, { writer: String(id), seq: String(i) });
          if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${r.text}`);
          acked.set(name, (r.json() as Obj).metadata.resourceVersion);
        } catch (err) {
          if (!killed) failure = err;
          return;
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (acked.size >= 120 || failure !== undefined) { clearInterval(check); resolve(); }
      }, 5);
    });
    assert.equal(failure, undefined);
    killed = true;
    const exit = await srv.stop('SIGKILL');
    assert.equal(exit.signal, 'SIGKILL');
    await Promise.all(writers);
    const acknowledged = new Map(acked);

    const restarted = await start('crash');
    const creds2 = await connect(restarted);
    const list = await listConfigMaps(creds2, 'crash');
    const present = new Map(list.items.map((o) => [o.metadata.name, o]));
    const lost = [...acknowledged.keys()].filter((n) => !present.has(n));
    assert.deepEqual(lost, [], `acknowledged creates lost after kill -9 (${acknowledged.size} acknowledged)`);
    for (const [name, rv] of acknowledged) {
      assert.equal(present.get(name)?.metadata.resourceVersion, rv, name);
    }

    // Revisions are never handed out twice, even after a crash.
    const maxAcked = [...acknowledged.values()].reduce((m, rv) => (BigInt(rv) > m ? BigInt(rv) : m), 0n);
    const after = await createConfigMap(creds2, 'crash', 'after-crash', {});
    assert.equal(after.status, 201, after.text);
    assert.ok(BigInt((after.json() as Obj).metadata.resourceVersion) > maxAcked);

    const exit2 = await restarted.stop('SIGTERM');
    assert.deepEqual(exit2, { code: 0, signal: null }, restarted.stderr());
  });
});
