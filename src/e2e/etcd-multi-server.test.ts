// Two kapi servers on one etcd, as two kube-apiservers of one cluster: a concurrent bootstrap,
// writes through either server seen by the other, watches on both seeing one order, resourceVersions
// and continue tokens valid on both, and the service IP and node port allocators shared in etcd.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEtcd, type EtcdServer } from '../storage/testing/etcd-server.ts';
import { startKapiOnEtcd, type EtcdKapi } from './testing/etcd-kapi.ts';
import { configMapBody, expectStatus, rvNumber, type ListJSON, type ObjectJSON } from './testing/etcd-e2e.ts';
import type { WatchEventJSON } from './testing/watch-stream.ts';

const NS = 'multi';
const BURST = 40;

describe('two kapi servers on one etcd', () => {
  let etcd: EtcdServer;
  let a: EtcdKapi;
  let b: EtcdKapi;
  let concurrentStart: PromiseSettledResult<EtcdKapi>[] = [];

  before(async () => {
    etcd = await startEtcd();
    // Both at once, as a rolling cluster start would; a failure is asserted below, and the missing
    // server started alone so that the other tests still say something.
    concurrentStart = await Promise.allSettled([startKapiOnEtcd(etcd.endpoint), startKapiOnEtcd(etcd.endpoint)]);
    const [ra, rb] = concurrentStart;
    a = ra?.status === 'fulfilled' ? ra.value : await startKapiOnEtcd(etcd.endpoint);
    b = rb?.status === 'fulfilled' ? rb.value : await startKapiOnEtcd(etcd.endpoint);
    expectStatus(await a.request({ method: 'POST', path: '/api/v1/namespaces',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }) }), 201, 'create namespace');
  });
  after(async () => {
    await a?.dispose();
    await b?.dispose();
    await etcd?.stop();
  });

  it('both servers bootstrap concurrently without errors', () => {
    const failures = concurrentStart.flatMap((r, i) => (r.status === 'rejected' ? [`server ${i}: ${String(r.reason)}`] : []));
    assert.deepEqual(failures, []);
  });

  it('the bootstrap objects exist once, seen alike from both servers', async () => {
    for (const [name, s] of [['a', a], ['b', b]] as const) {
      const ns = expectStatus(await s.request({ method: 'GET', path: '/api/v1/namespaces' }), 200, `${name}: list namespaces`) as ListJSON;
      const names = ns.items.map((o) => o.metadata.name).filter((n) => n !== NS);
      assert.deepEqual(names, ['default', 'kube-node-lease', 'kube-public', 'kube-system'], name);
      const svc = expectStatus(await s.request({ method: 'GET', path: '/api/v1/services' }), 200, `${name}: list services`) as ListJSON;
      assert.deepEqual(svc.items.map((o) => `${o.metadata.namespace}/${o.metadata.name} ${o.spec?.clusterIP}`), ['default/kubernetes 10.0.0.1'], name);
    }
  });

  it('writes through both servers are visible on the other, and watches on both see one strictly increasing order', async () => {
    const start = expectStatus(await a.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps` }), 200, 'list') as ListJSON;
    const from = start.metadata.resourceVersion;
    const watchPath = `/api/v1/namespaces/${NS}/configmaps?watch=1&resourceVersion=${from}`;
    const wa = await a.watch(watchPath);
    const wb = await b.watch(watchPath);
    try {
      assert.equal(wa.status, 200);
      assert.equal(wb.status, 200);
      // Each object: created on one server, patched on the other, every third deleted on the first.
      const acked: string[] = [];
      await Promise.all(Array.from({ length: BURST }, async (_, i) => {
        const [first, second] = i % 2 === 0 ? [a, b] : [b, a];
        const name = `cm-${i}`;
        const c = expectStatus(await first.request({ method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`,
          body: configMapBody(name, { v: '1' }) }), 201, `create ${name}`) as ObjectJSON;
        acked.push(`ADDED ${name} ${c.metadata.resourceVersion}`);
        const u = expectStatus(await second.request({ method: 'PATCH', path: `/api/v1/namespaces/${NS}/configmaps/${name}`,
          contentType: 'application/merge-patch+json', body: JSON.stringify({ data: { v: '2' } }) }), 200, `patch ${name}`) as ObjectJSON;
        assert.equal(u.data?.['v'], '2');
        acked.push(`MODIFIED ${name} ${u.metadata.resourceVersion}`);
        if (i % 3 === 0) {
          expectStatus(await first.request({ method: 'DELETE', path: `/api/v1/namespaces/${NS}/configmaps/${name}` }), 200, `delete ${name}`);
        }
      }));
      const deletes = Math.ceil(BURST / 3);
      const total = 2 * BURST + deletes;
      const seenA = await wa.waitFor((ev) => ev.length >= total, `${total} events on a`);
      const seenB = await wb.waitFor((ev) => ev.length >= total, `${total} events on b`);
      const line = (e: WatchEventJSON): string => `${e.type} ${e.object.metadata?.name} ${e.object.metadata?.resourceVersion}`;
      assert.deepEqual(seenB.map(line), seenA.map(line), 'both watches see the same sequence');
      assert.equal(seenA.length, total, 'no event twice');
      const rvs = seenA.map((e) => rvNumber(e.object.metadata?.resourceVersion));
      for (let i = 1; i < rvs.length; i++) {
        assert.ok(rvs[i - 1]! < rvs[i]!, `event ${i} (${line(seenA[i]!)}) after ${line(seenA[i - 1]!)}`);
      }
      assert.ok(rvs[0]! > rvNumber(from), 'every event is newer than the watch resourceVersion');
      const seen = new Set(seenA.map(line));
      assert.deepEqual(acked.filter((x) => !seen.has(x)), [], 'every acknowledged write is in the watch with its resourceVersion');
      assert.equal(seenA.filter((e) => e.type === 'DELETED').length, deletes);

      // Every object reads the same through both servers.
      const la = expectStatus(await a.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps` }), 200, 'list a') as ListJSON;
      const lb = expectStatus(await b.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps?resourceVersion=${la.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan` }),
        200, 'list b') as ListJSON;
      const view = (l: ListJSON): string[] => l.items.filter((o) => o.metadata.name !== 'kube-root-ca.crt').map((o) => `${o.metadata.name} ${o.metadata.resourceVersion} ${o.data?.['v']}`).sort();
      assert.equal(view(la).length, BURST - deletes);
      assert.deepEqual(view(lb), view(la));
      for (let i = 0; i < BURST; i++) {
        const other = i % 2 === 0 ? b : a;
        const r = await other.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps/cm-${i}` });
        assert.equal(r.status, i % 3 === 0 ? 404 : 200, `get cm-${i} on the server that did not create it: ${r.text}`);
      }
    } finally {
      wa.stop();
      wb.stop();
    }
  });

  it('resourceVersions and continue tokens from one server are accepted by the other', async () => {
    const created = expectStatus(await a.request({ method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`,
      body: configMapBody('rv-probe', { v: 'a' }) }), 201, 'create rv-probe') as ObjectJSON;
    const rv = created.metadata.resourceVersion;
    const got = expectStatus(await b.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps/rv-probe?resourceVersion=${rv}` }),
      200, 'get with a resourceVersion from the other server') as ObjectJSON;
    assert.equal(got.metadata.resourceVersion, rv);

    const full = expectStatus(await a.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps` }), 200, 'list a') as ListJSON;
    const listRV = full.metadata.resourceVersion;
    // A write after the list: an exact read at the list's revision on the other server must not see it.
    expectStatus(await b.request({ method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`, body: configMapBody('after-list', {}) }), 201, 'create after-list');
    const names = (l: ListJSON): string[] => l.items.map((o) => o.metadata.name);
    for (const match of ['Exact', 'NotOlderThan']) {
      const l = expectStatus(await b.request({ method: 'GET',
        path: `/api/v1/namespaces/${NS}/configmaps?resourceVersion=${listRV}&resourceVersionMatch=${match}` }), 200, `list ${match}`) as ListJSON;
      if (match === 'Exact') {
        assert.equal(l.metadata.resourceVersion, listRV);
        assert.deepEqual(names(l), names(full));
      } else {
        assert.deepEqual(names(l), [...names(full), 'after-list'].sort());
      }
    }

    // Pages alternate between the servers; all pages are of the first page's snapshot.
    const paged: string[] = [];
    let token: string | undefined;
    let page = 0;
    do {
      const s = page % 2 === 0 ? a : b;
      const q = token === undefined ? `limit=5&resourceVersion=${listRV}&resourceVersionMatch=Exact` : `limit=5&continue=${encodeURIComponent(token)}`;
      const l = expectStatus(await s.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps?${q}` }), 200, `page ${page}`) as ListJSON;
      assert.equal(l.metadata.resourceVersion, listRV, `page ${page} is served at the first page's revision`);
      paged.push(...names(l));
      token = l.metadata.continue === '' ? undefined : l.metadata.continue;
      page++;
    } while (token !== undefined);
    assert.ok(page > 2, 'several pages');
    assert.deepEqual(paged, names(full));
  });

  it('services created concurrently through both servers get distinct ClusterIPs and node ports', async () => {
    const n = 24;
    const results = await Promise.all(Array.from({ length: n }, async (_, i) => {
      const s = i % 2 === 0 ? a : b;
      return expectStatus(await s.request({ method: 'POST', path: `/api/v1/namespaces/${NS}/services`, body: JSON.stringify({
        apiVersion: 'v1', kind: 'Service', metadata: { name: `svc-${i}` },
        spec: { type: 'NodePort', selector: { app: `a${i}` }, ports: [{ port: 80, targetPort: 8080 }] },
      }) }), 201, `create svc-${i}`) as ObjectJSON;
    }));
    const ips = results.map((o) => o.spec?.clusterIP ?? '');
    const ports = results.map((o) => o.spec?.ports?.[0]?.nodePort ?? 0);
    assert.equal(new Set(ips).size, n, `distinct cluster IPs: ${ips.join(' ')}`);
    assert.ok(!ips.includes('10.0.0.1'), 'the kubernetes service IP is never handed out again');
    assert.equal(new Set(ports).size, n, `distinct node ports: ${ports.join(' ')}`);
    for (const p of ports) assert.ok(p >= 30000 && p <= 32767, `node port ${p} in the default range`);
  });

  it('one requested ClusterIP or node port asked of both servers at once goes to exactly one service', async () => {
    // Ask for an IP and a port nothing holds yet (the services above took random ones).
    const all = expectStatus(await a.request({ method: 'GET', path: '/api/v1/services' }), 200, 'list services') as ListJSON;
    const usedIPs = new Set(all.items.map((o) => o.spec?.clusterIP));
    const usedPorts = new Set(all.items.flatMap((o) => (o.spec?.ports ?? []).map((p) => p.nodePort)));
    const ip = Array.from({ length: 200 }, (_, i) => `10.0.0.${250 - i}`).find((x) => !usedIPs.has(x)) ?? '';
    const port = Array.from({ length: 200 }, (_, i) => 32700 - i).find((x) => !usedPorts.has(x)) ?? 0;
    const cases = [
      { name: 'clusterIP', spec: { type: 'ClusterIP', clusterIP: ip, ports: [{ port: 80 }] },
        message: `spec.clusterIPs: Invalid value: ["${ip}"]: failed to allocate IP ${ip}: provided IP is already allocated` },
      { name: 'nodePort', spec: { type: 'NodePort', ports: [{ port: 80, nodePort: port }] },
        message: `spec.ports[0].nodePort: Invalid value: ${port}: provided port is already allocated` },
    ];
    for (const c of cases) {
      const rs = await Promise.all([a, b].map((s, i) => s.request({ method: 'POST', path: `/api/v1/namespaces/${NS}/services`,
        body: JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: `want-${c.name.toLowerCase()}-${i}` }, spec: c.spec }) })));
      const codes = rs.map((r) => r.status).sort();
      assert.deepEqual(codes, [201, 422], `${c.name}: ${rs.map((r) => r.text).join('\n')}`);
      const loser = rs.find((r) => r.status === 422)!.json() as { reason?: string; message?: string };
      assert.equal(loser.reason, 'Invalid', c.name);
      assert.ok(loser.message?.endsWith(c.message), `${c.name}: ${loser.message}`);
    }
  });
});
