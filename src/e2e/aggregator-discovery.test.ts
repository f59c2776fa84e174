// The aggregator's discovery and OpenAPI with a real backend: a test HTTPS server of its own (own
// CA, on a non-loopback address of a test network namespace, since EndpointSlices may not point
// at loopback) serves the group wardle.example.com; an APIService, a Service and an EndpointSlice
// point kapi at it. kubectl api-resources lists its resource, kubectl explain explains it from
// the backend's OpenAPI v3 document, /openapi/v2 carries its paths, and discovery forgets it once
// the APIService is deleted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newTestPKI } from '../webhook/testing.ts';
import { createBackendObjects, GROUP, GV, GVK, startBackend, V2, type DiscoveryBackend } from './testing/discovery-backend.ts';
import { createTestAddress, testAddressUnavailable, type TestAddress } from './testing/netns.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

describe('aggregated discovery and OpenAPI of an APIService backend', async () => {
  const why = await testAddressUnavailable();
  let s: Suite;
  let local: TestAddress;
  let backend: DiscoveryBackend;

  before(async () => {
    if (why !== undefined) return;
    local = await createTestAddress();
    const pki = await newTestPKI(['api.wardle.svc'], [local.address]);
    backend = await startBackend(pki, local.address);
    s = await startSuite();
    await createBackendObjects((r) => s.request(r), backend, local.address, pki.caBundle);
  });
  after(async () => {
    await s?.close();
    backend?.server.close();
    await local?.close();
  });

  it('kubectl api-resources lists the backend\'s resource', { skip: why }, async () => {
    const line = await eventually('flunders in kubectl api-resources', async () => {
      const r = await s.kubectl(['api-resources', '--api-group', GROUP]);
      return r.stdout.split('\n').find((l) => l.startsWith('flunders'));
    });
    assert.deepEqual(line.split(/\s+/), ['flunders', 'fl', GV, 'true', 'Flunder']);
    // The manager asked for /apis as kube's aggregator does, named in the front-proxy headers.
    assert.ok(backend.seen.some((x) => x.path === '/apis' && x.user === 'system:kube-aggregator'), JSON.stringify(backend.seen));
  });

  it('aggregated /apis carries the backend\'s entry, Current', { skip: why }, async () => {
    const r = await s.request({ method: 'GET', path: '/apis', headers: { accept: V2 } });
    const g = (r.json() as { items: { metadata: { name?: string }; versions: unknown[] }[] }).items.find((x) => x.metadata.name === GROUP);
    assert.deepEqual(g?.versions, [{ version: 'v1alpha1', resources: [{
      resource: 'flunders', responseKind: GVK[0], scope: 'Namespaced', singularResource: 'flunder', verbs: ['get', 'list'], shortNames: ['fl'],
    }], freshness: 'Current' }]);
  });

  it('kubectl explain explains it from the backend\'s OpenAPI v3 document; /openapi/v2 has its paths only', { skip: why }, async () => {
    let last = '';
    const out = await eventually('kubectl explain flunders', async () => {
      const r = await s.kubectl(['explain', 'flunders.spec']);
      last = r.stderr;
      return r.code === 0 ? r.stdout : undefined;
    }).catch((err: unknown) => { throw new Error(`${String(err)}: ${last}`); });
    assert.match(out, /KIND:\s+Flunder/);
    assert.match(out, /What the flunder wants\./);
    assert.match(out, /reference\s+<string>/);
    const v2 = await eventually('the backend\'s paths in /openapi/v2', async () => {
      const r = await s.request({ method: 'GET', path: '/openapi/v2', headers: { accept: 'application/json' } });
      const doc = r.json() as { paths: Record<string, unknown>; definitions: Record<string, unknown> };
      return doc.paths[`/apis/${GV}/namespaces/{namespace}/flunders`] === undefined ? undefined : doc;
    });
    assert.ok(v2.definitions['com.example.wardle.v1alpha1.Flunder'] !== undefined);
    assert.deepEqual((v2.paths['/version/'] as { get?: { operationId?: string } } | undefined)?.get?.operationId, 'getCodeVersion', 'the backend\'s /version/ is not merged');
  });

  it('discovery and OpenAPI forget the group once the APIService is deleted', { skip: why }, async () => {
    const r = await s.kubectl(['delete', 'apiservice', `v1alpha1.${GROUP}`]);
    assert.equal(r.code, 0, r.stderr);
    await eventually('flunders gone from kubectl api-resources', async () => {
      const list = await s.kubectl(['api-resources']);
      return list.code === 0 && !list.stdout.includes('flunders') ? true : undefined;
    });
    const index = await s.request({ method: 'GET', path: '/openapi/v3' });
    assert.equal((index.json() as { paths: Record<string, unknown> }).paths[`apis/${GV}`], undefined);
    const g = await s.request({ method: 'GET', path: `/apis/${GROUP}` });
    assert.equal(g.status, 404);
  });
});
