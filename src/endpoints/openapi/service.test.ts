// How the OpenAPI documents are served: ETags, conditional requests, gzip, the immutable
// ?hash= URLs and what a change of the served resources rebuilds, as kube-openapi's handlers
// (behind kube-aggregator) answer them in kube-apiserver v1.36.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { OpenAPIService, type OpenAPIRequest } from './service.ts';
import type { ServedResource } from './served.ts';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const CONFIGMAPS: ServedResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: VERBS };
const crd = (revision: string, description: string): ServedResource => ({
  group: 'stable.example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true, verbs: VERBS,
  definition: 'com.example.stable.v1.Widget', strategicMergePatch: false, revision,
  schemas: { 'com.example.stable.v1.Widget': { type: 'object' }, 'com.example.stable.v1.WidgetList': { type: 'object' } },
  publishedSchemas: () => ({ 'com.example.stable.v1.Widget': { description, type: 'object' }, 'com.example.stable.v1.WidgetList': { type: 'object' } }),
});

const get = (path: string, extra: Partial<OpenAPIRequest> = {}): OpenAPIRequest =>
  ({ method: 'GET', path, query: new URLSearchParams(), ...extra });
const PB = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

test('ETags, 304s and gzip as kube-openapi serves them', async () => {
  const svc = new OpenAPIService([CONFIGMAPS]);
  const v2 = await svc.v2();
  const etag = `"${v2.etag}"`;
  const apps = await svc.v3Document('api/v1');
  assert.ok(apps !== undefined);
  const v3etag = `"${apps.etag}"`;
  const future = new Date(Date.now() + 3600_000).toUTCString();
  const past = new Date(Date.now() - 3600_000).toUTCString();
  const cases: { name: string; req: OpenAPIRequest; status: number; headers: Record<string, string | undefined>; gzip?: boolean }[] = [
    { name: 'v2 JSON', req: get('/openapi/v2'), status: 200,
      headers: { 'Etag': etag, 'Vary': 'Accept-Encoding, Accept', 'Content-Type': 'application/json', 'Accept-Ranges': 'bytes', 'Content-Encoding': undefined } },
    { name: 'v2 protobuf shares the JSON ETag', req: get('/openapi/v2', { accept: PB }), status: 200,
      headers: { 'Etag': etag, 'Content-Type': 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf' } },
    { name: 'v2 If-None-Match current: 304 without Content-Type or Last-Modified', req: get('/openapi/v2', { ifNoneMatch: etag }), status: 304,
      headers: { 'Etag': etag, 'Vary': 'Accept-Encoding, Accept', 'Content-Type': undefined, 'Last-Modified': undefined, 'Accept-Ranges': undefined } },
    { name: 'protobuf 304 on the JSON ETag', req: get('/openapi/v2', { accept: PB, ifNoneMatch: etag }), status: 304, headers: { 'Etag': etag } },
    { name: 'weak and listed tags match', req: get('/openapi/v2', { ifNoneMatch: `"x", W/${etag}` }), status: 304, headers: {} },
    { name: 'star matches', req: get('/openapi/v2', { ifNoneMatch: '*' }), status: 304, headers: {} },
    { name: 'stale tag: 200', req: get('/openapi/v2', { ifNoneMatch: '"ABC"' }), status: 200, headers: { 'Etag': etag } },
    { name: 'If-Modified-Since not before Last-Modified: 304', req: get('/openapi/v2', { ifModifiedSince: future }), status: 304, headers: {} },
    { name: 'If-Modified-Since before: 200', req: get('/openapi/v2', { ifModifiedSince: past }), status: 200, headers: {} },
    { name: 'If-None-Match wins over If-Modified-Since', req: get('/openapi/v2', { ifNoneMatch: '"ABC"', ifModifiedSince: future }), status: 200, headers: {} },
    { name: 'POST is not conditional', req: get('/openapi/v2', { method: 'POST', ifNoneMatch: etag }), status: 200, headers: {} },
    { name: 'gzip when accepted', req: get('/openapi/v2', { acceptEncoding: 'deflate, gzip' }), status: 200, headers: { 'Content-Encoding': 'gzip', 'Etag': etag }, gzip: true },
    { name: 'gzip;q=0 is refused', req: get('/openapi/v2', { acceptEncoding: 'gzip;q=0' }), status: 200, headers: { 'Content-Encoding': undefined } },
    { name: 'v2 not acceptable', req: get('/openapi/v2', { accept: 'text/plain' }), status: 406, headers: { 'Vary': 'Accept-Encoding, Accept' } },
    { name: 'v3 document', req: get('/openapi/v3/api/v1', { acceptEncoding: 'gzip' }), status: 200,
      headers: { 'Etag': v3etag, 'Vary': 'Accept', 'Content-Type': 'application/json', 'Cache-Control': undefined, 'Content-Encoding': undefined } },
    { name: 'v3 current hash: immutable for a year, Expires in Go RFC1123 UTC', req: get('/openapi/v3/api/v1', { query: new URLSearchParams({ hash: apps.etag }) }),
      status: 200, headers: { 'Cache-Control': 'public, immutable', 'Etag': v3etag } },
    { name: 'v3 current hash and tag: 304 keeps the caching headers', req: get('/openapi/v3/api/v1', { query: new URLSearchParams({ hash: apps.etag }), ifNoneMatch: v3etag }),
      status: 304, headers: { 'Cache-Control': 'public, immutable', 'Etag': v3etag, 'Vary': 'Accept', 'Content-Type': undefined } },
    { name: 'v3 stale hash: 301 to the current one', req: get('/openapi/v3/api/v1', { query: new URLSearchParams({ hash: 'ABC' }) }), status: 301,
      headers: { 'Location': `/openapi/v3/api/v1?hash=${apps.etag}`, 'Etag': v3etag, 'Content-Type': 'application/json', 'Vary': 'Accept' } },
    { name: 'v3 unknown document: empty 404', req: get('/openapi/v3/apis/nope/v1'), status: 404, headers: { 'Content-Type': undefined } },
    { name: 'v3 index: sniffed text/plain, no ETag', req: get('/openapi/v3'), status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Etag': undefined } },
    { name: 'v3 index ignores If-None-Match', req: get('/openapi/v3', { ifNoneMatch: '*' }), status: 200, headers: {} },
  ];
  for (const c of cases) {
    const r = await svc.handle(c.req);
    assert.ok(r !== undefined, c.name);
    assert.equal(r.status, c.status, c.name);
    for (const [k, v] of Object.entries(c.headers)) assert.equal(r.headers[k], v, `${c.name}: ${k}`);
    if (c.status === 304 || c.status === 301 || c.status === 404) assert.equal(r.body.length, 0, `${c.name}: no body`);
    if (c.gzip === true) assert.deepEqual(gunzipSync(r.body), v2.body, c.name);
  }
  const immutable = await svc.handle(get('/openapi/v3/api/v1', { query: new URLSearchParams({ hash: apps.etag }) }));
  assert.match(immutable?.headers['Expires'] ?? '', /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} UTC$/);
  const head = await svc.handle(get('/openapi/v2', { method: 'HEAD' }));
  assert.equal(head?.status, 200);
  assert.equal(head?.body.length, 0);
});

test('a CRD change rebuilds /openapi/v2 and its own v3 document, not the others', async () => {
  const svc = new OpenAPIService([CONFIGMAPS, crd('uid/1', 'first')]);
  const before = { v2: await svc.v2(), core: await svc.v3Document('api/v1'), crd: await svc.v3Document('apis/stable.example.com/v1') };
  svc.update([CONFIGMAPS, crd('uid/1', 'first')]);
  assert.equal(await svc.v3Document('apis/stable.example.com/v1'), before.crd, 'same revision: kept');
  svc.update([CONFIGMAPS, crd('uid/2', 'second')]);
  const after = { v2: await svc.v2(), core: await svc.v3Document('api/v1'), crd: await svc.v3Document('apis/stable.example.com/v1') };
  assert.equal(after.core, before.core, 'core/v1 untouched: same bytes, ETag and Last-Modified');
  assert.notEqual(after.crd?.etag, before.crd?.etag);
  assert.notEqual(after.v2.etag, before.v2.etag);
  assert.match(after.v2.body.toString(), /"description":"second"/);
  const index = JSON.parse((await svc.v3Index()).body.toString()) as { paths: Record<string, { serverRelativeURL: string }> };
  assert.equal(index.paths['apis/stable.example.com/v1']?.serverRelativeURL, `/openapi/v3/apis/stable.example.com/v1?hash=${after.crd?.etag ?? ''}`);
  svc.update([CONFIGMAPS]);
  assert.equal(await svc.v3Document('apis/stable.example.com/v1'), undefined, 'deleted CRD: gone');
  assert.equal((await svc.handle(get('/openapi/v2', { ifNoneMatch: `"${after.v2.etag}"` })))?.status, 200, 'old ETag no longer matches');
});

test('built-in documents carry kube descriptions, enums and v3 defaults', async () => {
  const svc = new OpenAPIService([{ group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true, verbs: VERBS }]);
  type Node = Record<string, unknown>;
  const at = (v: unknown, ...path: string[]): unknown => path.reduce<unknown>((o, k) => (o as Node | undefined)?.[k], v);
  const v2 = JSON.parse((await svc.v2()).body.toString()) as Node;
  const v3 = JSON.parse((await svc.v3Document('apis/apps/v1'))?.body.toString() ?? '{}') as Node;
  const v2defs = at(v2, 'definitions');
  const v3defs = at(v3, 'components', 'schemas');
  assert.equal(at(v2defs, 'io.k8s.api.apps.v1.DeploymentSpec', 'properties', 'replicas', 'description'),
    'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.');
  for (const defs of [v2defs, v3defs]) {
    const policy = at(defs, 'io.k8s.api.core.v1.PodSpec', 'properties', 'restartPolicy') as Node;
    assert.deepEqual(policy['enum'], ['Always', 'Never', 'OnFailure']);
    assert.match(String(policy['description']), /\n\nPossible enum values:\n - `"Always"`/);
  }
  // v3 wraps a described $ref in allOf and publishes defaults; v2 keeps siblings and no defaults.
  assert.deepEqual(at(v3defs, 'io.k8s.api.apps.v1.DeploymentSpec', 'properties', 'template'), {
    description: 'Template describes the pods that will be created. The only allowed template.spec.restartPolicy value is "Always".',
    allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodTemplateSpec' }], default: {},
  });
  assert.deepEqual(at(v2defs, 'io.k8s.api.apps.v1.DeploymentSpec', 'properties', 'template'), {
    description: 'Template describes the pods that will be created. The only allowed template.spec.restartPolicy value is "Always".',
    $ref: '#/definitions/io.k8s.api.core.v1.PodTemplateSpec',
  });
  assert.deepEqual(at(v3defs, 'io.k8s.apimachinery.pkg.api.resource.Quantity', 'oneOf'), [{ type: 'string' }, { type: 'number' }]);
  assert.equal(at(v3defs, 'io.k8s.apimachinery.pkg.api.resource.Quantity', 'type'), undefined);
  assert.equal(at(v2defs, 'io.k8s.apimachinery.pkg.api.resource.Quantity', 'type'), 'string');
  // Operations and parameters carry kube's texts too.
  const list = at(v2, 'paths', '/apis/apps/v1/namespaces/{namespace}/deployments', 'get') as Node;
  assert.equal(list['description'], 'list or watch objects of kind Deployment');
  // v2 shares parameters as kube-openapi does, under kube's own names.
  const limitRef = (list['parameters'] as Node[]).map((p) => p['$ref'])
    .find((r) => String(r).startsWith('#/parameters/limit-'));
  assert.equal(limitRef, '#/parameters/limit-1NfNmdNH');
  assert.match(String(at(v2, 'parameters', 'limit-1NfNmdNH', 'description')), /^limit is a maximum number of responses to return for a list call/);
  const inline = (at(v2, 'paths', '/apis/apps/v1/namespaces/{namespace}/deployments', 'post', 'parameters') as Node[]).map((p) => p['name'] ?? p['$ref']);
  assert.ok(inline.includes('dryRun') && inline.includes('fieldValidation'), 'dryRun and fieldValidation stay inline for kubectl');
  const name = (at(v3, 'paths', '/apis/apps/v1/namespaces/{namespace}/deployments/{name}', 'parameters') as Node[]).find((p) => p['name'] === 'name');
  assert.equal(name?.['description'], 'name of the Deployment');
  assert.equal(at(v3, 'paths', '/apis/apps/v1/namespaces/{namespace}/deployments/{name}', 'patch', 'description'),
    'partially update the specified Deployment');
  assert.deepEqual(at(v3defs, 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions', 'x-kubernetes-group-version-kind'),
    [{ group: '', kind: 'DeleteOptions', version: 'v1' }, { group: 'apps', kind: 'DeleteOptions', version: 'v1' }]);
});
