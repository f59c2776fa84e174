// Reads answered from the watch cache's shared (frozen) objects at every served version of a
// multi-version resource: an object of the storage version converted without a conversion
// function (identical shapes), and one converted by an in-place function (resource.k8s.io
// v1beta1 requests). Each answer is the object in the version asked for; the cache is not changed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectJSON, type Obj, type ObjList } from './testing/objects.ts';
import { startSuite, type Suite } from './testing/suite.ts';
import { openWatch } from './testing/watch-stream.ts';

const NS = 'e2e-cache-versions';
const CLAIMS = (v: string): string => `/apis/resource.k8s.io/${v}/namespaces/${NS}/resourceclaims`;
const CLASSES = (v: string): string => `/apis/resource.k8s.io/${v}/deviceclasses`;

describe('watch-cached objects at every version', () => {
  let s: Suite;
  let claimRV = '';
  let classRV = '';
  before(async () => {
    s = await startSuite({ flags: ['--runtime-config=resource.k8s.io/v1beta1=true'] });
    const post = async (path: string, body: unknown): Promise<Obj> =>
      expectJSON<Obj>(await s.request({ method: 'POST', path, body: JSON.stringify(body) }), 201, `POST ${path}`);
    await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    classRV = (await post(CLASSES('v1'), { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'gpu' }, spec: {} }))
      .metadata.resourceVersion ?? '';
    claimRV = (await post(CLAIMS('v1'), {
      apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'c' },
      spec: { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'gpu' } }] } },
    })).metadata.resourceVersion ?? '';
  });
  after(async () => { await s?.close(); });

  const requestOf = (o: Obj): unknown => (o as { spec?: { devices?: { requests?: unknown[] } } }).spec?.devices?.requests?.[0];
  const cases = [
    { name: 'DeviceClass v1beta1 (identical shapes)', path: () => `${CLASSES('v1beta1')}/gpu`, list: () => CLASSES('v1beta1'), rv: () => classRV,
      apiVersion: 'resource.k8s.io/v1beta1', check: (_o: Obj): void => {} },
    { name: 'ResourceClaim v1beta1 (in-place conversion)', path: () => `${CLAIMS('v1beta1')}/c`, list: () => CLAIMS('v1beta1'), rv: () => claimRV,
      apiVersion: 'resource.k8s.io/v1beta1',
      check: (o: Obj): void => { assert.deepEqual(requestOf(o), { name: 'r', deviceClassName: 'gpu', allocationMode: 'ExactCount', count: 1 }); } },
    { name: 'ResourceClaim v1 (storage version)', path: () => `${CLAIMS('v1')}/c`, list: () => CLAIMS('v1'), rv: () => claimRV,
      apiVersion: 'resource.k8s.io/v1',
      check: (o: Obj): void => { assert.equal((requestOf(o) as { exactly?: { deviceClassName?: string } }).exactly?.deviceClassName, 'gpu'); } },
  ];
  for (const c of cases) {
    it(`${c.name}: GET (with and without resourceVersion) and lists from the cache, twice each`, async () => {
      for (let round = 0; round < 2; round++) {
        for (const path of [`${c.path()}?resourceVersion=${c.rv()}`, `${c.path()}?resourceVersion=0`, c.path()]) {
          const o = expectJSON<Obj>(await s.request({ method: 'GET', path }), 200, `GET ${path}`);
          assert.equal(o.apiVersion, c.apiVersion, path);
          c.check(o);
        }
        for (const q of ['?resourceVersion=0', '', `?resourceVersion=${c.rv()}&resourceVersionMatch=NotOlderThan`]) {
          const l = expectJSON<ObjList>(await s.request({ method: 'GET', path: `${c.list()}${q}` }), 200, `LIST ${q}`);
          assert.equal(l.items.length, 1, q);
          c.check(l.items[0]!);
        }
        // A watch's initial state comes from the cache too.
        const w = await openWatch(s.creds, `${c.list()}?watch=1&resourceVersion=0`);
        try {
          assert.equal(w.status, 200);
          const evs = await w.waitFor((e) => e.length > 0, 'the ADDED event');
          assert.equal(evs[0]?.type, 'ADDED', JSON.stringify(evs[0]));
          c.check(evs[0]!.object as Obj);
        } finally {
          w.stop();
        }
      }
    });
  }
});
