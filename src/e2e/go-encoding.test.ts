// Answers read as kube-apiserver encodes them: a write answers with the stored object decoded (Go's
// zero values: a nil list without omitempty is null), and every answer has Go's key order (TypeMeta
// first, struct fields in declaration order, map keys sorted, metadata.resourceVersion after uid; a
// custom resource, unstructured in kube, sorted at every level). Checked against kapi alone; the
// differential corpus compares the same against kube.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespace } from './testing/objects.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-go-encoding';
const ROLES = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
type Json = Record<string, unknown>;
const keys = (v: unknown): string[] => Object.keys(v as object);

describe('answers in Go\'s encoding', () => {
  let s: Suite;
  before(async () => {
    s = await startSuite();
    await createNamespace(s, NS);
  });
  after(async () => { await s?.close(); });

  it('a write answers with what a read gives: nil lists as null, in Go\'s key order', async () => {
    const cases = [
      { name: 'create', method: 'POST', path: ROLES, body: { metadata: { name: 'ge-a', labels: { z: '1', a: '2' } } } },
      { name: 'dry-run create', method: 'POST', path: `${ROLES}?dryRun=All`, body: { metadata: { name: 'ge-b' } } },
      { name: 'update', method: 'PUT', path: `${ROLES}/ge-a`, body: { metadata: { name: 'ge-a', labels: { z: '1', a: '2', m: '3' } } } },
    ];
    for (const c of cases) {
      const r = await s.request({ method: c.method, path: c.path,
        body: JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', ...c.body }) });
      assert.ok(r.status === 200 || r.status === 201, `${c.name}: ${r.text}`);
      const b = r.json() as Json;
      assert.deepEqual(keys(b), ['kind', 'apiVersion', 'metadata', 'rules'], c.name);
      assert.equal(b['rules'], null, c.name);
      const meta = b['metadata'] as Json;
      const want = ['name', 'uid', ...(c.name === 'dry-run create' ? [] : ['resourceVersion']), 'creationTimestamp'];
      assert.deepEqual(keys(meta).slice(0, want.length), want, c.name);
      if (meta['labels'] !== undefined) assert.deepEqual(keys(meta['labels']), [...keys(meta['labels'])].sort(), c.name);
    }
    const got = await s.request({ method: 'GET', path: `${ROLES}/ge-a` });
    assert.equal(got.text.includes('"rules":null'), true, got.text);
    // The dry run stored nothing.
    assert.equal((await s.request({ method: 'GET', path: `${ROLES}/ge-b` })).status, 404);
  });

  it('a typed list has kind first; a custom resource and its list are sorted at every level', async () => {
    const list = await s.request({ method: 'GET', path: `${ROLES}?labelSelector=a%3D2` });
    assert.deepEqual(keys(list.json()), ['kind', 'apiVersion', 'metadata', 'items']);

    const crd = await s.request({ method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: JSON.stringify({
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.ge.example.com' },
      spec: { group: 'ge.example.com', scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
    }) });
    assert.equal(crd.status, 201, crd.text);
    const path = `/apis/ge.example.com/v1/namespaces/${NS}/gadgets`;
    await eventually('gadgets served', async () => ((await s.request({ method: 'GET', path })).status === 200 ? true : undefined));
    const r = await s.request({ method: 'POST', path, body: JSON.stringify({
      kind: 'Gadget', apiVersion: 'ge.example.com/v1', metadata: { name: 'g', labels: { b: '1', a: '2' } }, spec: { z: 1, a: { y: 1, b: 2 } } }) });
    assert.equal(r.status, 201, r.text);
    const b = r.json() as Json;
    assert.deepEqual(keys(b), ['apiVersion', 'kind', 'metadata', 'spec']);
    const meta = b['metadata'] as Json;
    assert.deepEqual(keys(meta), [...keys(meta)].sort());
    assert.ok(keys(meta).includes('resourceVersion'));
    assert.equal(JSON.stringify(b['spec']), '{"a":{"b":2,"y":1},"z":1}');
    const crList = await s.request({ method: 'GET', path });
    assert.deepEqual(keys(crList.json()), ['apiVersion', 'items', 'kind', 'metadata']);
    // PartialObjectMetadata is typed in kube: Go's ObjectMeta order, even for a custom resource.
    const pom = await s.request({ method: 'GET', path: `${path}/g`, headers: { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' } });
    assert.deepEqual(keys((pom.json() as Json)['metadata']).slice(0, 5), ['name', 'namespace', 'uid', 'resourceVersion', 'generation']);
  });
});
