// On etcd, lists the watch cache answers make no etcd request at all (the aim: zero
// storage calls per list with resourceVersion=0), counted by etcd_requests_total of the resource;
// a consistent list on storage still reads etcd. With --watch-cache=false every list does.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { configMap, createNamespace, expectJSON, type ObjList } from './testing/objects.ts';
import { parsePrometheusText, sampleValue } from './testing/prometheus.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-cache-etcd';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const N = 20;

/** etcd requests of configmaps so far, but the object count a /metrics scrape itself may make (kube's tracker). */
async function etcdCalls(s: Suite): Promise<number> {
  const r = await s.request({ method: 'GET', path: '/metrics' });
  assert.equal(r.status, 200);
  const m = parsePrometheusText(r.text);
  return ['get', 'list', 'create', 'update', 'delete']
    .reduce((n, operation) => n + (sampleValue(m, 'etcd_requests_total', { operation, group: '', resource: 'configmaps' }) ?? 0), 0);
}

for (const c of [{ cache: true, flags: [] }, { cache: false, flags: ['--watch-cache=false'] }]) {
  describe(`lists on etcd, watch cache ${c.cache ? 'on' : 'off'}`, () => {
    let s: Suite;
    before(async () => {
      s = await startSuite({ backend: 'etcd3', flags: c.flags });
      await createNamespace(s, NS);
      for (let i = 0; i < N; i++) {
        const r = await s.request({ method: 'POST', path: CM, body: configMap(`cm-${i}`, { i: String(i) }) });
        assert.equal(r.status, 201, r.text);
      }
      await eventually('every configmap listed', async () => {
        const l = expectJSON<ObjList>(await s.request({ method: 'GET', path: `${CM}?resourceVersion=0` }), 200, 'list');
        // kube-root-ca.crt too, from the namespace defaults controller.
        return l.items.filter((o) => o.metadata.name.startsWith('cm-')).length === N && l.items.length === N + 1 ? true : undefined;
      });
    });
    after(async () => { await s?.close(); });

    it(c.cache ? 'resourceVersion=0 and NotOlderThan lists make no etcd request' : 'every list reads etcd', async () => {
      const queries = ['?resourceVersion=0', '?resourceVersion=0&limit=5', '?resourceVersion=1&resourceVersionMatch=NotOlderThan'];
      const start = await etcdCalls(s);
      for (let i = 0; i < 20; i++) {
        const q = queries[i % queries.length] ?? '';
        const l = expectJSON<ObjList>(await s.request({ method: 'GET', path: `${CM}${q}` }), 200, q);
        assert.ok(l.items.length >= 5, q);
      }
      assert.equal(await etcdCalls(s) - start, c.cache ? 0 : 20);
    });
  });
}
