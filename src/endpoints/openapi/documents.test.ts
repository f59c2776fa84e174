import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildOpenAPIV2, buildOpenAPIV3GroupVersion, openAPIV3DocumentNames } from './documents.ts';
import { operationGroupVersion, operationTag, toValidOperationID } from './operations.ts';
import { OpenAPIService } from './service.ts';
import type { ServedResource } from './served.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => {
  assert.ok(typeof v === 'object' && v !== null && !Array.isArray(v), `not an object: ${JSON.stringify(v)}`);
  return v as Obj;
};
const at = (v: unknown, ...path: string[]): unknown => path.reduce<unknown>((o, k) => obj(o)[k], v);

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const served: ServedResource[] = [
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: VERBS },
  { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: [{ name: 'status', kind: 'Namespace', verbs: ['get', 'patch', 'update'] }] },
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true, verbs: VERBS,
    subresources: [{ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] }] },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false, verbs: VERBS },
];

test('operation id pieces', () => {
  const cases = [
    { name: 'core', got: operationGroupVersion('', 'v1'), want: 'CoreV1' },
    { name: 'k8s.io suffix dropped', got: operationGroupVersion('rbac.authorization.k8s.io', 'v1'), want: 'RbacAuthorizationV1' },
    { name: 'beta version', got: operationGroupVersion('flowcontrol.apiserver.k8s.io', 'v1beta3'), want: 'FlowcontrolApiserverV1beta3' },
    { name: 'crd group', got: operationGroupVersion('stable.example.com', 'v1'), want: 'StableExampleComV1' },
    { name: 'tag', got: operationTag('rbac.authorization.k8s.io', 'v1'), want: 'rbacAuthorization_v1' },
    { name: 'core tag', got: operationTag('', 'v1'), want: 'core_v1' },
    { name: 'dashes', got: toValidOperationID('my-group.io', true), want: 'MyGroupIo' },
  ];
  for (const c of cases) assert.equal(c.got, c.want, c.name);
});

test('v2 document: kube operation ids, actions and GVKs', () => {
  const doc = buildOpenAPIV2(served);
  assert.equal(doc['swagger'], '2.0');
  const cases = [
    { path: '/api/v1/namespaces/{namespace}/configmaps', method: 'get', id: 'listCoreV1NamespacedConfigMap', action: 'list' },
    { path: '/api/v1/namespaces/{namespace}/configmaps', method: 'post', id: 'createCoreV1NamespacedConfigMap', action: 'post' },
    { path: '/api/v1/namespaces/{namespace}/configmaps', method: 'delete', id: 'deleteCoreV1CollectionNamespacedConfigMap', action: 'deletecollection' },
    { path: '/api/v1/namespaces/{namespace}/configmaps/{name}', method: 'put', id: 'replaceCoreV1NamespacedConfigMap', action: 'put' },
    { path: '/api/v1/watch/namespaces/{namespace}/configmaps', method: 'get', id: 'watchCoreV1NamespacedConfigMapList', action: 'watchlist' },
    { path: '/api/v1/watch/configmaps', method: 'get', id: 'watchCoreV1ConfigMapListForAllNamespaces', action: 'watchlist' },
    { path: '/api/v1/configmaps', method: 'get', id: 'listCoreV1ConfigMapForAllNamespaces', action: 'list' },
    { path: '/api/v1/namespaces/{name}/status', method: 'patch', id: 'patchCoreV1NamespaceStatus', action: 'patch' },
    { path: '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale', method: 'get', id: 'readAppsV1NamespacedDeploymentScale', action: 'get' },
    { path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/{name}', method: 'delete', id: 'deleteRbacAuthorizationV1ClusterRole', action: 'delete' },
  ];
  for (const c of cases) {
    const op = at(doc, 'paths', c.path, c.method);
    assert.equal(at(op, 'operationId'), c.id, c.id);
    assert.equal(at(op, 'x-kubernetes-action'), c.action, c.id);
  }
  assert.deepEqual(at(doc, 'paths', '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale', 'put', 'x-kubernetes-group-version-kind'),
    { group: 'autoscaling', kind: 'Scale', version: 'v1' });
  assert.equal(at(doc, 'paths', '/apis/', 'get', 'operationId'), 'getAPIVersions');
  assert.equal(at(doc, 'paths', '/apis/apps/', 'get', 'operationId'), 'getAppsAPIGroup');
  assert.equal(at(doc, 'paths', '/api/v1/', 'get', 'operationId'), 'getCoreV1APIResources');
  const defs = obj(doc['definitions']);
  assert.ok(defs['io.k8s.api.apps.v1.Deployment'] !== undefined);
  assert.equal(at(defs, 'io.k8s.api.core.v1.ConfigMap', 'properties', 'metadata', '$ref'), '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
  assert.equal(defs['io.k8s.api.core.v1.Pod'], undefined, 'only what is served');
});

test('write operations list fieldValidation, dryRun and fieldManager (kubectl then sends fieldValidation=Strict)', () => {
  const doc = buildOpenAPIV3GroupVersion(served, 'api/v1');
  assert.ok(doc !== undefined);
  for (const [path, method] of [['/api/v1/namespaces/{namespace}/configmaps', 'post'], ['/api/v1/namespaces/{namespace}/configmaps/{name}', 'put'],
    ['/api/v1/namespaces/{namespace}/configmaps/{name}', 'patch']] as const) {
    const params = at(doc, 'paths', path, method, 'parameters') as Obj[];
    const names = params.filter((p) => p['in'] === 'query').map((p) => p['name']);
    for (const n of ['dryRun', 'fieldManager', 'fieldValidation']) assert.ok(names.includes(n), `${method} ${path}: ${n}`);
  }
  // What kubectl's QueryParamVerifierV3 looks for: a PATCH operation of the GVK with the query parameter.
  const patch = obj(at(doc, 'paths', '/api/v1/namespaces/{namespace}/configmaps/{name}', 'patch'));
  assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: '', kind: 'ConfigMap', version: 'v1' });
  assert.deepEqual(Object.keys(obj(at(patch, 'requestBody', 'content'))), ['application/json-patch+json', 'application/merge-patch+json',
    'application/strategic-merge-patch+json', 'application/apply-patch+yaml', 'application/apply-patch+cbor']);
  assert.equal(at(patch, 'responses', '200', 'content', 'application/json', 'schema', '$ref'), '#/components/schemas/io.k8s.api.core.v1.ConfigMap');
});

test('v3 documents: one per group version, refs as components, allOf around refs with siblings', () => {
  assert.deepEqual(openAPIV3DocumentNames(served),
    ['api', 'api/v1', 'apis', 'apis/apps', 'apis/apps/v1', 'apis/rbac.authorization.k8s.io', 'apis/rbac.authorization.k8s.io/v1', 'version']);
  const apps = buildOpenAPIV3GroupVersion(served, 'apis/apps/v1');
  assert.equal(apps?.['openapi'], '3.0.0');
  const paths = Object.keys(obj(apps?.['paths']));
  assert.ok(paths.every((p) => p.startsWith('/apis/apps/v1/')), paths.join(' '));
  const schemas = obj(at(apps, 'components', 'schemas'));
  assert.ok(schemas['io.k8s.api.autoscaling.v1.Scale'] !== undefined);
  assert.equal(schemas['io.k8s.api.core.v1.ConfigMap'], undefined);
  // a property with $ref and extensions: kube-openapi wraps the ref
  const containers = at(schemas, 'io.k8s.api.core.v1.PodSpec', 'properties', 'containers');
  assert.equal(at(containers, 'items', '$ref'), '#/components/schemas/io.k8s.api.core.v1.Container');
  assert.equal(at(containers, 'x-kubernetes-patch-merge-key'), 'name');
  assert.deepEqual(at(schemas, 'io.k8s.api.apps.v1.DeploymentSpec', 'properties', 'strategy'),
    { allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy' }], 'x-kubernetes-patch-strategy': 'retainKeys' });
  assert.deepEqual(at(schemas, 'io.k8s.api.apps.v1.DeploymentSpec', 'properties', 'selector'),
    { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' });
  // v2 keeps siblings next to $ref, as swagger.json does
  assert.deepEqual(at(buildOpenAPIV2(served), 'definitions', 'io.k8s.api.apps.v1.DeploymentSpec', 'properties', 'strategy'),
    { $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentStrategy', 'x-kubernetes-patch-strategy': 'retainKeys' });
  assert.equal(buildOpenAPIV3GroupVersion(served, 'apis/batch/v1'), undefined);
  assert.equal(at(buildOpenAPIV3GroupVersion(served, 'apis/apps'), 'paths', '/apis/apps/', 'get', 'operationId'), 'getAppsAPIGroup');
});

test('service: index with hashes, ETags, immutable caching, redirects, negotiation', async () => {
  const svc = new OpenAPIService(served, { docs: {} });
  const req = (path: string, extra: { query?: string; accept?: string; ifNoneMatch?: string; method?: string } = {}) =>
    svc.handle({ method: extra.method ?? 'GET', path, query: new URLSearchParams(extra.query ?? ''), accept: extra.accept, ifNoneMatch: extra.ifNoneMatch });

  const index = await req('/openapi/v3');
  assert.ok(index !== undefined);
  assert.equal(index.status, 200);
  // kube-aggregator's index goes through ServeContent untyped: Go sniffs text/plain, and sets no ETag.
  assert.equal(index.headers['Content-Type'], 'text/plain; charset=utf-8');
  assert.equal(index.headers['Etag'], undefined);
  const listed = obj(at(JSON.parse(index.body.toString()), 'paths'));
  const v1 = await svc.v3Document('api/v1');
  assert.ok(v1 !== undefined);
  assert.match(v1.etag, /^[0-9A-F]{128}$/);
  assert.deepEqual(listed['api/v1'], { serverRelativeURL: `/openapi/v3/api/v1?hash=${v1.etag}` });

  const fresh = await req('/openapi/v3/api/v1', { query: `hash=${v1.etag}`, accept: 'application/json, */*' });
  assert.equal(fresh?.status, 200);
  assert.equal(fresh?.headers['Cache-Control'], 'public, immutable');
  assert.equal(fresh?.headers['Etag'], `"${v1.etag}"`);
  assert.equal(fresh?.headers['Content-Type'], 'application/json');
  assert.deepEqual(JSON.parse(fresh?.body.toString() ?? ''), JSON.parse(v1.body.toString()));

  const plain = await req('/openapi/v3/api/v1');
  assert.equal(plain?.status, 200);
  assert.equal(plain?.headers['Cache-Control'], undefined);

  const stale = await req('/openapi/v3/api/v1', { query: 'hash=ABC' });
  assert.equal(stale?.status, 301);
  assert.equal(stale?.headers['Location'], `/openapi/v3/api/v1?hash=${v1.etag}`);

  assert.equal((await req('/openapi/v3/api/v1', { ifNoneMatch: `"${v1.etag}"` }))?.status, 304);
  assert.equal((await req('/openapi/v3/apis/batch/v1'))?.status, 404);
  assert.equal((await req('/openapi/v2', { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' }))?.status, 200);
  assert.equal((await req('/openapi/v3/api/v1', { accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' }))?.status, 406);
  const v2 = await req('/openapi/v2', { accept: 'application/json' });
  assert.equal(v2?.status, 200);
  assert.equal(JSON.parse(v2?.body.toString() ?? '')['swagger'], '2.0');
  assert.equal(await req('/version'), undefined);

  svc.update(served.slice(0, 1));
  assert.equal(await svc.v3Document('apis/apps/v1'), undefined);
  assert.notEqual((await svc.v3Document('api/v1'))?.etag, v1.etag);
});

test('/version/ is published in v2 and in the "version" v3 document, with kube\'s info and security scheme', () => {
  const v2 = buildOpenAPIV2(served, { docs: {} });
  assert.equal(at(v2, 'paths', '/version/', 'get', 'operationId'), 'getCodeVersion');
  assert.deepEqual(at(v2, 'info'), { title: 'Kubernetes', version: '1.36' });
  assert.equal(at(v2, 'securityDefinitions', 'BearerToken', 'description'), 'Bearer Token authentication');
  const version = buildOpenAPIV3GroupVersion(served, 'version', { docs: {} });
  assert.deepEqual(Object.keys(obj(version?.['paths'])), ['/version/']);
  assert.equal(at(version, 'paths', '/version/', 'get', 'responses', '200', 'content', 'application/json', 'schema', '$ref'),
    '#/components/schemas/io.k8s.apimachinery.pkg.version.Info');
});

test('custom resources are routed as apiextensions-apiserver routes them: no watch, no discovery, no group document', () => {
  const cr: ServedResource = { group: 'stable.example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true, verbs: VERBS,
    definition: 'com.example.stable.v1.Widget', strategicMergePatch: false, customResource: true,
    schemas: { 'com.example.stable.v1.Widget': { type: 'object' }, 'com.example.stable.v1.WidgetList': { type: 'object' } } };
  const all = [...served, cr];
  assert.ok(!openAPIV3DocumentNames(all).includes('apis/stable.example.com'));
  const crPaths = (paths: unknown): string[] => Object.keys(obj(paths)).filter((p) => p.includes('stable.example.com')).sort();
  const want = ['/apis/stable.example.com/v1/namespaces/{namespace}/widgets', '/apis/stable.example.com/v1/namespaces/{namespace}/widgets/{name}',
    '/apis/stable.example.com/v1/widgets'];
  assert.deepEqual(crPaths(buildOpenAPIV2(all, { docs: {} })['paths']), want);
  assert.deepEqual(crPaths(buildOpenAPIV3GroupVersion(all, 'apis/stable.example.com/v1', { docs: {} })?.['paths']), want);
  // apiextensions-apiserver's operation texts, with kube's article rule
  const v2 = buildOpenAPIV2([...all, { ...cr, resource: 'instances', kind: 'Instance', definition: 'com.example.stable.v1.Instance',
    schemas: { 'com.example.stable.v1.Instance': { type: 'object' }, 'com.example.stable.v1.InstanceList': { type: 'object' } } }], { docs: {} });
  const texts = [['/apis/stable.example.com/v1/namespaces/{namespace}/widgets', 'get', 'list objects of kind Widget'],
    ['/apis/stable.example.com/v1/namespaces/{namespace}/widgets', 'post', 'create a Widget'],
    ['/apis/stable.example.com/v1/namespaces/{namespace}/widgets', 'delete', 'delete collection of Widget'],
    ['/apis/stable.example.com/v1/namespaces/{namespace}/widgets/{name}', 'patch', 'partially update the specified Widget'],
    ['/apis/stable.example.com/v1/namespaces/{namespace}/instances/{name}', 'delete', 'delete an Instance']] as const;
  for (const [path, method, want] of texts) assert.equal(at(v2, 'paths', path, method, 'description'), want, `${method} ${path}`);
  const crDoc = buildOpenAPIV3GroupVersion(all, 'apis/stable.example.com/v1', { docs: {} });
  assert.deepEqual(crDoc?.['info'], { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' });
  assert.equal(at(crDoc, 'components', 'securitySchemes'), undefined);
  // built-in resources keep theirs
  assert.ok(Object.keys(obj(buildOpenAPIV2(all, { docs: {} })['paths'])).includes('/apis/apps/v1/watch/namespaces/{namespace}/deployments'));
});
