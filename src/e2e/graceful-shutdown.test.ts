// Graceful shutdown as kube-apiserver's: on SIGTERM /readyz fails at once while everything else is
// served for --shutdown-delay-duration, requests in flight finish, and the process exits 0. With
// the lease endpoint reconciler, two servers on one etcd both appear in the kubernetes endpoints,
// and a server that stops takes itself out.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEtcd, type EtcdServer } from '../storage/testing/etcd-server.ts';
import { startKapiOnEtcd, type EtcdKapi } from './testing/etcd-kapi.ts';
import { loadAdminCredentials, rawRequest, type AdminCredentials } from './testing/https-client.ts';
import { eventually, startCliServer, startSuite } from './testing/suite.ts';

/** A create whose body arrives in two parts; resolves the status once the answer comes. */
function createInTwoParts(creds: AdminCredentials, name: string, second: Promise<void>): Promise<number> {
  const u = new URL(creds.server);
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
  const cut = Math.floor(body.length / 2);
  return new Promise((resolve, reject) => {
    const r = httpsRequest({
      hostname: u.hostname, port: u.port, path: '/api/v1/namespaces/default/configmaps', method: 'POST', ca: creds.ca, agent: false,
      headers: { Authorization: `Bearer ${creds.token}`, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
    }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
    r.on('error', reject);
    r.write(body.slice(0, cut));
    void second.then(() => r.end(body.slice(cut)));
  });
}

/** A watch; resolves how its stream ended: 'end' (cleanly) or the error. */
function watchUntilEnd(creds: AdminCredentials): Promise<string> {
  const u = new URL(creds.server);
  return new Promise((resolve) => {
    const r = httpsRequest({
      hostname: u.hostname, port: u.port, path: '/api/v1/namespaces/default/configmaps?watch=1', method: 'GET', ca: creds.ca, agent: false,
      headers: { Authorization: `Bearer ${creds.token}` },
    }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve('end'));
      res.on('error', (e) => resolve(e.message));
    });
    r.on('error', (e) => resolve(e.message));
    r.end();
  });
}

describe('graceful shutdown on SIGTERM', () => {
  let dir: string;
  before(async () => { dir = await mkdtemp(join(tmpdir(), 'kapi-shutdown-')); });
  after(async () => { if (dir !== undefined) await rm(dir, { recursive: true, force: true }); });

  it('fails /readyz first, keeps serving through the delay, finishes in-flight requests, ends watches cleanly and exits 0', async () => {
    const server = await startCliServer(dir, ['--shutdown-delay-duration', '3s', '--shutdown-watch-termination-grace-period', '5s']);
    try {
      const creds = await loadAdminCredentials(server.kubeconfigPath);
      const get = (path: string): Promise<number> => rawRequest(creds, { method: 'GET', path }).then((r) => r.status);
      assert.equal(await get('/readyz'), 200);
      // Requests in flight when the signal comes: their bodies complete during the delay.
      let release = (): void => {};
      const released = new Promise<void>((resolve) => { release = resolve; });
      const inFlight = ['a', 'b', 'c'].map((n) => createInTwoParts(creds, `in-flight-${n}`, released));
      const watchEnd = watchUntilEnd(creds);
      await sleep(200);
      process.kill(server.pid, 'SIGTERM');
      await eventually('/readyz failing', async () => ((await get('/readyz')) === 500 ? true : undefined));
      const verbose = await rawRequest(creds, { method: 'GET', path: '/readyz?verbose' });
      assert.match(verbose.text, /\[-\]shutdown failed: reason withheld/);
      // Everything else is still served.
      assert.equal(await get('/livez'), 200);
      assert.equal(await get('/healthz'), 200);
      assert.equal(await get('/api/v1/namespaces/default'), 200);
      release();
      assert.deepEqual(await Promise.all(inFlight), [201, 201, 201]);
      // The watch stream ends with its last chunk, not a cut connection.
      assert.equal(await watchEnd, 'end');
      const exit = await server.exited();
      assert.deepEqual(exit, { code: 0, signal: null }, server.stderr());
    } finally {
      await server.stop('SIGKILL');
    }
  });
});

describe('--shutdown-send-retry-after', () => {
  let dir: string;
  before(async () => { dir = await mkdtemp(join(tmpdir(), 'kapi-shutdown-')); });
  after(async () => { if (dir !== undefined) await rm(dir, { recursive: true, force: true }); });

  it('after the delay answers new requests 429 with Retry-After while in-flight ones drain', async () => {
    const server = await startCliServer(dir, ['--shutdown-delay-duration', '1s', '--shutdown-send-retry-after']);
    try {
      const creds = await loadAdminCredentials(server.kubeconfigPath);
      let release = (): void => {};
      const released = new Promise<void>((resolve) => { release = resolve; });
      const inFlight = createInTwoParts(creds, 'draining', released);
      await sleep(200);
      process.kill(server.pid, 'SIGTERM');
      const refused = await eventually('a 429 once the delay is over', async () => {
        const r = await rawRequest(creds, { method: 'GET', path: '/api/v1/namespaces/default' });
        return r.status === 429 ? r : undefined;
      });
      assert.equal(refused.text, 'The apiserver is shutting down, please try again later.\n');
      assert.equal(refused.headers['retry-after'], '5');
      assert.equal(refused.headers['connection'], 'close');
      // Health checks are exempt.
      assert.equal((await rawRequest(creds, { method: 'GET', path: '/livez' })).status, 200);
      release();
      assert.equal(await inFlight, 201);
      assert.deepEqual(await server.exited(), { code: 0, signal: null }, server.stderr());
    } finally {
      await server.stop('SIGKILL');
    }
  });
});

describe('the lease endpoint reconciler with two servers on one etcd', () => {
  let etcd: EtcdServer;
  let a: EtcdKapi | undefined;
  let b: EtcdKapi | undefined;
  const addresses = async (s: EtcdKapi): Promise<string[]> => {
    const ep = (await s.request({ method: 'GET', path: '/api/v1/namespaces/default/endpoints/kubernetes' })).json() as
      { subsets?: { addresses?: { ip: string }[] }[] };
    return (ep.subsets ?? []).flatMap((x) => (x.addresses ?? []).map((y) => y.ip));
  };
  const sliceAddresses = async (s: EtcdKapi): Promise<string[]> => {
    const sl = (await s.request({ method: 'GET', path: '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes' })).json() as
      { endpoints?: { addresses: string[] }[] };
    return (sl.endpoints ?? []).flatMap((e) => e.addresses);
  };

  before(async () => {
    etcd = await startEtcd();
    // Addresses of a documentation range: only written into the endpoints, never dialled.
    a = await startKapiOnEtcd(etcd.endpoint, { flags: ['--advertise-address', '192.0.2.10'] });
    b = await startKapiOnEtcd(etcd.endpoint, { flags: ['--advertise-address', '192.0.2.11'] });
  });
  after(async () => {
    await a?.dispose();
    await b?.dispose();
    await etcd?.stop();
  });

  it('lists both live servers, then only the one left when the other stops', async () => {
    const both = ['192.0.2.10', '192.0.2.11'];
    const sa = a as EtcdKapi;
    const sb = b as EtcdKapi;
    await eventually('both servers in the endpoints', async () => (JSON.stringify(await addresses(sa)) === JSON.stringify(both) ? true : undefined));
    assert.deepEqual(await sliceAddresses(sb), both);
    await sa.close();
    // Its own shutdown took it out: no waiting for its lease to expire.
    assert.deepEqual(await addresses(sb), ['192.0.2.11']);
    assert.deepEqual(await sliceAddresses(sb), ['192.0.2.11']);
    // The identity Lease of kube's naming, held by the server that runs.
    const leases = (await sb.request({ method: 'GET', path: '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?labelSelector=apiserver.kubernetes.io%2Fidentity%3Dkube-apiserver' })).json() as
      { items: { metadata: { name: string; labels: Record<string, string> }; spec: { leaseDurationSeconds: number; holderIdentity: string } }[] };
    assert.equal(leases.items.length, 1);
    assert.match(leases.items[0]?.metadata.name ?? '', /^apiserver-[a-z2-7]{26}$/);
    assert.equal(leases.items[0]?.spec.leaseDurationSeconds, 3600);
    assert.ok(leases.items[0]?.spec.holderIdentity.startsWith(`${leases.items[0]?.metadata.name}_`));
  });
});

describe('--endpoint-reconciler-type=none', () => {
  it('leaves the kubernetes endpoints to nobody: the service exists, its endpoints do not', async () => {
    const s = await startSuite({ flags: ['--endpoint-reconciler-type=none', '--advertise-address', '192.0.2.12'] });
    try {
      assert.equal((await s.request({ method: 'GET', path: '/api/v1/namespaces/default/services/kubernetes' })).status, 200);
      assert.equal((await s.request({ method: 'GET', path: '/api/v1/namespaces/default/endpoints/kubernetes' })).status, 404);
    } finally {
      await s.close();
    }
  });
});
