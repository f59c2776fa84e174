// The aggregator's discovery and OpenAPI with a real backend: a test HTTPS server of its own (own
// CA, on a non-loopback address of a test network namespace, since EndpointSlices may not point
// at loopback) serves the group wardle.example.com; an APIService, a Service and an EndpointSlice
// point kapi at it. kubectl api-resources lists its resource, kubectl explain explains it from
// the backend's OpenAPI v3 document, /openapi/v2 carries its paths, and discovery forgets it once
// the APIService is deleted.
import assert from 'node:assert/strict';
import * as https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { newTestPKI, type TestPKI } from '../webhook/testing.ts';
import { createTestAddress, testAddressUnavailable, type TestAddress } from './testing/netns.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const GROUP = 'wardle.example.com';
const GV = `${GROUP}/v1alpha1`;
const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const GVK = [{ group: GROUP, version: 'v1alpha1', kind: 'Flunder' }];

const flunderSchema = {
  type: 'object', description: 'A flunder of the wardle backend.',
  properties: {
    apiVersion: { type: 'string' }, kind: { type: 'string' },
    spec: { type: 'object', description: 'What the flunder wants.', properties: { reference: { type: 'string', description: 'The flunder it follows.' } } },
  },
  'x-kubernetes-group-version-kind': GVK,
};

/** What the backend serves, by path. */
function documents(): Record<string, { type: string; body: unknown }> {
  const list = `/apis/${GV}/namespaces/{namespace}/flunders`;
  return {
    '/apis#aggregated': { type: V2, body: { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items: [{
      metadata: { name: GROUP }, versions: [{ version: 'v1alpha1', freshness: 'Current', resources: [{
        resource: 'flunders', responseKind: GVK[0], scope: 'Namespaced', singularResource: 'flunder', verbs: ['get', 'list'], shortNames: ['fl'],
      }] }] }] } },
    '/apis': { type: 'application/json', body: { kind: 'APIGroupList', apiVersion: 'v1', groups: [] } },
    '/openapi/v2': { type: 'application/json', body: {
      swagger: '2.0', info: { title: 'wardle', version: 'v0' },
      paths: { [list]: { get: { operationId: 'listFlunders', 'x-kubernetes-group-version-kind': GVK[0], responses: { 200: { description: 'OK', schema: { $ref: '#/definitions/com.example.wardle.v1alpha1.Flunder' } } } } },
        '/version/': { get: { operationId: 'getVersion', responses: { 200: { description: 'OK' } } } } },
      definitions: { 'com.example.wardle.v1alpha1.Flunder': flunderSchema },
    } },
    '/openapi/v3': { type: 'application/json', body: { paths: { [`apis/${GV}`]: { serverRelativeURL: `/openapi/v3/apis/${GV}?hash=W4RDL3` } } } },
    [`/openapi/v3/apis/${GV}`]: { type: 'application/json', body: {
      openapi: '3.0.0', info: { title: 'wardle', version: 'v0' },
      paths: { [list]: { get: { operationId: 'listFlunders', 'x-kubernetes-group-version-kind': GVK[0], responses: { 200: { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/com.example.wardle.v1alpha1.Flunder' } } } } } } } },
      components: { schemas: { 'com.example.wardle.v1alpha1.Flunder': flunderSchema } },
    } },
  };
}

interface Seen { path: string; user: string | undefined }

async function startBackend(pki: TestPKI, host: string): Promise<{ server: https.Server; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const docs = documents();
  const server = https.createServer({ cert: pki.serving.cert, key: pki.serving.key }, (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const user = req.headers['x-remote-user'];
    seen.push({ path, user: typeof user === 'string' ? user : undefined });
    const aggregated = path === '/apis' && (req.headers.accept ?? '').includes('g=apidiscovery.k8s.io');
    const doc = docs[aggregated ? '/apis#aggregated' : path];
    if (doc === undefined) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'Content-Type': doc.type }).end(JSON.stringify(doc.body));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

describe('aggregated discovery and OpenAPI of an APIService backend', async () => {
  const why = await testAddressUnavailable();
  let s: Suite;
  let local: TestAddress;
  let backend: Awaited<ReturnType<typeof startBackend>>;

  before(async () => {
    if (why !== undefined) return;
    local = await createTestAddress();
    const pki = await newTestPKI(['api.wardle.svc'], [local.address]);
    backend = await startBackend(pki, local.address);
    s = await startSuite();
    const setup = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wardle' } },
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'api', namespace: 'wardle' }, spec: { ports: [{ name: 'https', port: 443, targetPort: backend.port }] } },
      { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'api-1', namespace: 'wardle', labels: { 'kubernetes.io/service-name': 'api' } },
        addressType: 'IPv4', ports: [{ name: 'https', port: backend.port }], endpoints: [{ addresses: [local.address], conditions: { ready: true } }] },
      { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: `v1alpha1.${GROUP}` },
        spec: { group: GROUP, version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15, caBundle: pki.caBundle,
          service: { namespace: 'wardle', name: 'api', port: 443 } } },
    ];
    const r = await s.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: setup }));
    assert.equal(r.code, 0, r.stderr);
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
