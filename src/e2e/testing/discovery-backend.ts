// A backend of the test's own for the aggregator's discovery and OpenAPI tests: an HTTPS server
// (its own CA) serving the group wardle.example.com's aggregated and legacy discovery and its
// OpenAPI v2 and v3 documents, recording who asked for what; and the Service, EndpointSlice and
// APIService that point a server at it.
// No Go counterpart: the e2e test harness.
import assert from 'node:assert/strict';
import * as https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestPKI } from '../../webhook/testing.ts';
import type { RawRequest, RawResponse } from './https-client.ts';

export const GROUP = 'wardle.example.com';
export const GV = `${GROUP}/v1alpha1`;
export const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
export const GVK = [{ group: GROUP, version: 'v1alpha1', kind: 'Flunder' }];

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
    // The availability check asks for this.
    [`/apis/${GV}`]: { type: 'application/json', body: { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: GV, resources: [
      { name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list'], shortNames: ['fl'] },
    ] } },
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

export interface Seen {
  readonly path: string;
  readonly user: string | undefined;
  readonly groups: string | undefined;
  readonly accept: string | undefined;
}

export interface DiscoveryBackend {
  readonly server: https.Server;
  readonly port: number;
  readonly seen: Seen[];
}

export async function startBackend(pki: TestPKI, host: string): Promise<DiscoveryBackend> {
  const seen: Seen[] = [];
  const docs = documents();
  const server = https.createServer({ cert: pki.serving.cert, key: pki.serving.key }, (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const one = (h: string | string[] | undefined): string | undefined => (Array.isArray(h) ? h.join(',') : h);
    seen.push({ path, user: one(req.headers['x-remote-user']), groups: one(req.headers['x-remote-group']), accept: req.headers.accept });
    const aggregated = path === '/apis' && (req.headers.accept ?? '').includes('g=apidiscovery.k8s.io');
    const doc = docs[aggregated ? '/apis#aggregated' : path];
    if (doc === undefined) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'Content-Type': doc.type }).end(JSON.stringify(doc.body));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

export type Send = (req: RawRequest) => Promise<RawResponse>;

/** The namespace, Service (443 → the backend), its ready EndpointSlice and the APIService, sent through `send`. */
export async function createBackendObjects(send: Send, backend: DiscoveryBackend, address: string, caBundle: string): Promise<void> {
  const objects: [string, unknown][] = [
    ['/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wardle' } }],
    ['/api/v1/namespaces/wardle/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'api', namespace: 'wardle' },
      spec: { ports: [{ name: 'https', port: 443, targetPort: backend.port }] } }],
    ['/apis/discovery.k8s.io/v1/namespaces/wardle/endpointslices', { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
      metadata: { name: 'api-1', namespace: 'wardle', labels: { 'kubernetes.io/service-name': 'api' } },
      addressType: 'IPv4', ports: [{ name: 'https', port: backend.port }], endpoints: [{ addresses: [address], conditions: { ready: true } }] }],
    ['/apis/apiregistration.k8s.io/v1/apiservices', { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: `v1alpha1.${GROUP}` },
      spec: { group: GROUP, version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15, caBundle, service: { namespace: 'wardle', name: 'api', port: 443 } } }],
  ];
  for (const [path, body] of objects) {
    const r = await send({ method: 'POST', path, body: JSON.stringify(body), contentType: 'application/json' });
    assert.equal(r.status, 201, `${path}: ${r.text}`);
  }
}
