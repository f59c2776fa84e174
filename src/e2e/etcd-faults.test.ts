// etcd failing under two kapi servers: writes fail fast with a 5xx Status, the health checks say
// `[-]etcd failed`, open watches end so clients re-list, and once etcd is back both servers serve
// again with every acknowledged write in place. Restarting one of the two servers loses nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEtcd, type EtcdServer } from '../storage/testing/etcd-server.ts';
import { startKapiOnEtcd, type EtcdKapi } from './testing/etcd-kapi.ts';
import { configMapBody, expectStatus, guard, type ListJSON, type ObjectJSON } from './testing/etcd-e2e.ts';
import { asStatus } from './testing/https-client.ts';
import { eventually } from './testing/suite.ts';
import type { WatchStream } from './testing/watch-stream.ts';

const NS = 'faults';
/** Generous: a request must come back while etcd is down, however slowly; this only keeps the suite from hanging. */
const RETURN_GUARD_MS = 15_000;

const createPath = `/api/v1/namespaces/${NS}/configmaps`;
const names = (l: ListJSON): string[] => l.items.map((o) => o.metadata.name);

/** Writers that keep creating configmaps through their server and remember which creates were acknowledged. */
function startLoad(servers: readonly EtcdKapi[], prefix: string): { acked: Set<string>; failed(): number; stop(): Promise<void> } {
  const acked = new Set<string>();
  let failures = 0;
  let running = true;
  const loops = servers.flatMap((s, si) => [0, 1].map(async (w) => {
    for (let i = 0; running; i++) {
      const name = `${prefix}-${si}-${w}-${i}`;
      try {
        const r = await guard(`create ${name}`, RETURN_GUARD_MS, s.request({ method: 'POST', path: createPath, body: configMapBody(name, { i: String(i) }) }));
        if (r.status === 201) acked.add(name);
        else failures++;
      } catch {
        failures++;
      }
      // Between failures, do not spin: the servers answer fast while etcd is down.
      if (failures > 0) await new Promise((r) => setTimeout(r, 20));
    }
  }));
  return {
    acked,
    failed: () => failures,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe('etcd faults under two kapi servers', () => {
  let etcd: EtcdServer;
  let a: EtcdKapi;
  let b: EtcdKapi;
  const servers = (): [string, EtcdKapi][] => [['a', a], ['b', b]];

  before(async () => {
    etcd = await startEtcd();
    a = await startKapiOnEtcd(etcd.endpoint);
    b = await startKapiOnEtcd(etcd.endpoint);
    expectStatus(await a.request({ method: 'POST', path: '/api/v1/namespaces',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }) }), 201, 'create namespace');
  });
  after(async () => {
    await a?.dispose();
    await b?.dispose();
    await etcd?.stop();
  });

  it('etcd killed under load: 5xx writes, failed health checks, ended watches, then full recovery', async () => {
    const load = startLoad([a, b], 'load');
    const watches: [string, WatchStream][] = [];
    let loadStopped = false;
    try {
      const list = expectStatus(await a.request({ method: 'GET', path: createPath }), 200, 'list') as ListJSON;
      for (const [name, s] of servers()) {
        const w = await s.watch(`${createPath}?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
        assert.equal(w.status, 200, name);
        watches.push([name, w]);
      }
      await eventually('20 acknowledged writes', async () => (load.acked.size >= 20 ? true : undefined));
      for (const [name, w] of watches) await w.waitFor((ev) => ev.length > 0, `${name}: events before the outage`);

      await etcd.kill();

      for (const [name, s] of servers()) {
        const r = await guard(`${name}: create while etcd is down`, RETURN_GUARD_MS,
          s.request({ method: 'POST', path: createPath, body: configMapBody(`down-${name}`, {}) }));
        assert.ok(r.status >= 500 && r.status <= 599, `${name}: create while etcd is down: ${r.status} ${r.text}`);
        const st = asStatus(r.json());
        assert.equal(st.kind, 'Status', name);
        assert.equal(st.status, 'Failure', name);
        assert.equal(st.code, r.status, name);

        const g = await guard(`${name}: get while etcd is down`, RETURN_GUARD_MS, s.request({ method: 'GET', path: `${createPath}/down-${name}` }));
        assert.ok(g.status >= 500 && g.status <= 599, `${name}: get while etcd is down: ${g.status} ${g.text}`);
        assert.equal(asStatus(g.json()).kind, 'Status', name);

        for (const probe of ['readyz', 'livez']) {
          const h = await guard(`${name}: /${probe}`, RETURN_GUARD_MS, s.request({ method: 'GET', path: `/${probe}?verbose` }));
          assert.notEqual(h.status, 200, `${name}: /${probe}: ${h.text}`);
          assert.ok(h.text.includes('[-]etcd failed'), `${name}: /${probe}: ${h.text}`);
          assert.ok(h.text.includes(`${probe} check failed`), `${name}: /${probe}: ${h.text}`);
        }
      }
      for (const [name, w] of watches) await w.waitEnded(`${name}: the watch to end while etcd is down`);

      await load.stop();
      loadStopped = true;
      assert.ok(load.failed() > 0, 'the load saw the outage');
      await etcd.restart();

      for (const [name, s] of servers()) {
        await eventually(`${name}: /readyz 200 after etcd restarted`, async () => {
          const r = await guard(`${name}: /readyz`, RETURN_GUARD_MS, s.request({ method: 'GET', path: '/readyz' }));
          return r.status === 200 ? true : undefined;
        });
        const l = expectStatus(await s.request({ method: 'GET', path: createPath }), 200, `${name}: list after the outage`) as ListJSON;
        const present = new Set(names(l));
        assert.deepEqual([...load.acked].filter((n) => !present.has(n)), [], `${name}: every acknowledged write is present`);
        expectStatus(await s.request({ method: 'POST', path: createPath, body: configMapBody(`after-${name}`, {}) }), 201, `${name}: create after the outage`);
      }

      // The re-list and watch a client does after its watch ended works on both servers.
      const relist = expectStatus(await b.request({ method: 'GET', path: createPath }), 200, 're-list') as ListJSON;
      const rewatch = await a.watch(`${createPath}?watch=1&resourceVersion=${relist.metadata.resourceVersion}`);
      try {
        expectStatus(await b.request({ method: 'POST', path: createPath, body: configMapBody('rewatched', {}) }), 201, 'create rewatched');
        const ev = await rewatch.waitFor((e) => e.some((x) => x.object.metadata?.name === 'rewatched'), 'ADDED rewatched');
        assert.deepEqual(ev.map((e) => `${e.type} ${e.object.metadata?.name}`), ['ADDED rewatched']);
      } finally {
        rewatch.stop();
      }
    } finally {
      if (!loadStopped) await load.stop();
      for (const [, w] of watches) w.stop();
    }
  });

  it('restarting one kapi of two on the same etcd loses nothing', async () => {
    const before = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const s = i % 2 === 0 ? a : b;
      expectStatus(await s.request({ method: 'POST', path: createPath, body: configMapBody(`pre-${i}`, {}) }), 201, `create pre-${i}`);
      before.add(`pre-${i}`);
    }
    const start = expectStatus(await a.request({ method: 'GET', path: createPath }), 200, 'list') as ListJSON;
    const watch = await a.watch(`${createPath}?watch=1&resourceVersion=${start.metadata.resourceVersion}`);
    try {
      await b.close();
      // While b is down, a serves alone.
      expectStatus(await a.request({ method: 'POST', path: createPath, body: configMapBody('while-b-down', {}) }), 201, 'create while b is down');
      b = await startKapiOnEtcd(etcd.endpoint, { dataDir: b.dataDir });
      const ready = await b.request({ method: 'GET', path: '/readyz' });
      assert.deepEqual([ready.status, ready.text], [200, 'ok'], 'b ready after its restart');

      const lb = expectStatus(await b.request({ method: 'GET', path: createPath }), 200, 'list on restarted b') as ListJSON;
      const la = expectStatus(await a.request({ method: 'GET', path: createPath }), 200, 'list on a') as ListJSON;
      assert.deepEqual(names(lb), names(la));
      for (const n of [...before, 'while-b-down']) assert.ok(names(lb).includes(n), `${n} on the restarted server`);

      const created = expectStatus(await b.request({ method: 'POST', path: createPath, body: configMapBody('from-new-b', {}) }), 201,
        'create on restarted b') as ObjectJSON;
      const seen = await watch.waitFor((e) => e.some((x) => x.object.metadata?.name === 'from-new-b'), 'ADDED from-new-b on a');
      assert.deepEqual(seen.map((e) => `${e.type} ${e.object.metadata?.name}`), ['ADDED while-b-down', 'ADDED from-new-b']);
      assert.equal(seen[1]?.object.metadata?.resourceVersion, created.metadata.resourceVersion);

      // The bootstrap of the restarted server added nothing twice.
      const svc = expectStatus(await b.request({ method: 'GET', path: '/api/v1/namespaces/default/services' }), 200, 'services') as ListJSON;
      assert.deepEqual(names(svc), ['kubernetes']);
    } finally {
      watch.stop();
    }
  });
});
