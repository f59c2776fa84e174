// CustomResourceDefinitions end to end with kubectl: the CronTab example of the Kubernetes docs,
// established, served with its printer columns, validated, explained, removed with its namespace
// and by the garbage collector, and with its CRD.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { asStatus, type RawResponse } from './testing/https-client.ts';
import { columns, lines } from './testing/kubectl.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
    additionalPrinterColumns:
    - {name: Spec, type: string, jsonPath: .spec.cronSpec}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              image: {type: string}
              replicas: {type: integer, minimum: 1, default: 1}
`;

const cronTab = (name: string, image: string): string => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
spec:
  cronSpec: "* * * * */5"
  image: ${image}
`;

describe('custom resources with kubectl', () => {
  let s: Suite;
  before(async () => {
    s = await startSuite();
    const applied = await s.kubectl(['apply', '-f', '-'], CRD);
    assert.equal(applied.code, 0, applied.stderr);
    const waited = await s.kubectl(['wait', '--for', 'condition=established', 'crd/crontabs.stable.example.com', '--timeout=30s']);
    assert.equal(waited.code, 0, waited.stderr);
  });
  after(async () => { await s.close(); });

  it('reports the CRD established with accepted names and stored versions', async () => {
    const r = await s.kubectl(['get', 'crd', 'crontabs.stable.example.com', '-o', 'yaml']);
    const crd = parse(r.stdout) as { status: { acceptedNames: { kind: string }; storedVersions: string[];
      conditions: { type: string; status: string }[] }; spec: { names: { listKind: string } } };
    assert.equal(crd.status.acceptedNames.kind, 'CronTab');
    assert.deepEqual(crd.status.storedVersions, ['v1']);
    assert.deepEqual(crd.status.conditions.map((c) => `${c.type}=${c.status}`), ['NamesAccepted=True', 'Established=True']);
    assert.equal(crd.spec.names.listKind, 'CronTabList');
    const table = await s.kubectl(['get', 'crd']);
    assert.deepEqual(columns(lines(table.stdout)[0] ?? ''), ['NAME', 'CREATED AT']);
  });

  it('lists the resource in api-resources', async () => {
    const r = await s.kubectl(['api-resources', '--api-group=stable.example.com', '--no-headers']);
    assert.deepEqual(columns(lines(r.stdout)[0] ?? ''), ['crontabs', 'ct', 'stable.example.com/v1', 'true', 'CronTab']);
  });

  it('creates, applies, gets, patches and deletes a CronTab', async () => {
    assert.equal((await s.kubectl(['create', '-f', '-'], cronTab('one', 'img:1'))).code, 0);
    const applied = await s.kubectl(['apply', '-f', '-'], cronTab('one', 'img:2'));
    assert.equal(applied.code, 0, applied.stderr);
    const table = lines((await s.kubectl(['get', 'crontabs'])).stdout);
    assert.deepEqual(columns(table[0] ?? ''), ['NAME', 'SPEC', 'REPLICAS', 'AGE']);
    assert.deepEqual(columns(table[1] ?? '').slice(0, 3), ['one', '* * * * */5', '1']);
    assert.match(columns(table[1] ?? '')[3] ?? '', /^\d+s$/, 'the date column shows an age');
    const got = parse((await s.kubectl(['get', 'ct', 'one', '-o', 'yaml'])).stdout) as
      { spec: { image: string; replicas: number }; metadata: { generation: number } };
    assert.equal(got.spec.image, 'img:2');
    assert.equal(got.spec.replicas, 1, 'defaulted from the schema');
    assert.equal(got.metadata.generation, 2);
    const patched = await s.kubectl(['patch', 'crontab', 'one', '--type=merge', '-p', '{"spec":{"replicas":3}}', '-o', 'yaml']);
    assert.equal(patched.code, 0, patched.stderr);
    assert.equal((parse(patched.stdout) as { spec: { replicas: number } }).spec.replicas, 3);
    const deleted = await s.kubectl(['delete', 'crontab', 'one']);
    assert.equal(deleted.stdout.trim(), 'crontab.stable.example.com "one" deleted');
  });

  it('server-side apply types CronTab fields with the CRD schema, as kube-apiserver v1.36.3 does', async () => {
    const path = '/apis/stable.example.com/v1/namespaces/default/crontabs';
    const apply = (name: string, spec: string): Promise<RawResponse> => s.request({
      method: 'PATCH', path: `${path}/${name}?fieldManager=typed`, contentType: 'application/apply-patch+yaml',
      body: `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ${name}\nspec:\n${spec}`,
    });
    // spec is a declared field: its FieldsV1 entry has no "." (an untyped, deduced spec would).
    const created = await apply('typed-apply', '  cronSpec: "1 * * * *"\n');
    assert.equal(created.status, 201, created.text);
    const entries = (created.json() as { metadata: { managedFields: { fieldsV1: unknown }[] } }).metadata.managedFields;
    assert.deepEqual(entries.map((e) => e.fieldsV1), [{ 'f:spec': { 'f:cronSpec': {} } }]);
    // A field the schema does not declare fails the typed patch: kube's 500, and nothing is stored.
    const undeclared = await apply('untyped-apply', '  bogus: 1\n');
    assert.deepEqual([undeclared.status, asStatus(undeclared.json()).message], [500,
      'failed to create typed patch object (/untyped-apply; stable.example.com/v1, Kind=CronTab): .spec.bogus: field not declared in schema']);
    assert.equal((await s.request({ method: 'GET', path: `${path}/untyped-apply` })).status, 404);
    assert.equal((await s.request({ method: 'DELETE', path: `${path}/typed-apply` })).status, 200);
  });

  it('rejects an invalid CronTab with 422 naming the field', async () => {
    const bad = (await s.kubectl(['create', '-f', '-'], cronTab('bad', 'img').replace('spec:\n', 'spec:\n  replicas: "many"\n'))).stderr;
    assert.match(bad, /The CronTab "bad" is invalid: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"/);
    const low = await s.request({ method: 'POST', path: '/apis/stable.example.com/v1/namespaces/default/crontabs',
      body: JSON.stringify({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'low' }, spec: { replicas: 0 } }),
      contentType: 'application/json' });
    assert.equal(low.status, 422);
    assert.match(low.text, /spec.replicas in body should be greater than or equal to 1/);
  });

  it('explains the kind from the published schema', async () => {
    const r = await s.kubectl(['explain', 'crontab.spec']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /KIND:\s+CronTab/);
    assert.match(r.stdout, /replicas\s+<integer>/);
  });

  it('deleting a namespace deletes the custom resources in it, then the namespace', async () => {
    assert.equal((await s.kubectl(['create', 'namespace', 'crd-ns'])).code, 0);
    const created = await s.kubectl(['create', '-n', 'crd-ns', '-f', '-'], cronTab('inside', 'img'));
    assert.equal(created.code, 0, created.stderr);
    const del = await s.kubectl(['delete', 'namespace', 'crd-ns', '--timeout=30s']);
    assert.equal(del.code, 0, del.stderr);
    assert.equal(del.stdout.trim(), 'namespace "crd-ns" deleted');
    const gone = await s.request({ method: 'GET', path: '/apis/stable.example.com/v1/namespaces/crd-ns/crontabs/inside' });
    assert.equal(gone.status, 404, gone.text);
    assert.equal((await s.request({ method: 'GET', path: '/api/v1/namespaces/crd-ns' })).status, 404);
  });

  it('the garbage collector follows owner references to and from custom resources', async () => {
    const owner = parse((await s.kubectl(['create', '-f', '-', '-o', 'yaml'], cronTab('owner', 'img'))).stdout) as
      { metadata: { uid: string } };
    const cm = await s.kubectl(['create', '-f', '-'], `apiVersion: v1
kind: ConfigMap
metadata:
  name: owned-by-crontab
  ownerReferences:
  - {apiVersion: stable.example.com/v1, kind: CronTab, name: owner, uid: ${owner.metadata.uid}}
`);
    assert.equal(cm.code, 0, cm.stderr);
    const ownerCM = parse((await s.kubectl(['create', 'configmap', 'owns-a-crontab', '-o', 'yaml'])).stdout) as { metadata: { uid: string } };
    const dependent = await s.kubectl(['create', '-f', '-'], cronTab('owned', 'img').replace('metadata:\n', `metadata:
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: owns-a-crontab, uid: ${ownerCM.metadata.uid}}
`));
    assert.equal(dependent.code, 0, dependent.stderr);

    assert.equal((await s.kubectl(['delete', 'crontab', 'owner'])).code, 0);
    await eventually('the ConfigMap owned by the deleted CronTab to be collected', async () =>
      ((await s.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/owned-by-crontab' })).status === 404 ? true : undefined));
    assert.equal((await s.kubectl(['delete', 'configmap', 'owns-a-crontab'])).code, 0);
    await eventually('the CronTab owned by the deleted ConfigMap to be collected', async () =>
      ((await s.request({ method: 'GET', path: '/apis/stable.example.com/v1/namespaces/default/crontabs/owned' })).status === 404 ? true : undefined));
  });

  it('deletes the CronTabs with their CRD', async () => {
    assert.equal((await s.kubectl(['create', '-f', '-'], cronTab('two', 'img'))).code, 0);
    const del = await s.kubectl(['delete', 'crd', 'crontabs.stable.example.com']);
    assert.equal(del.code, 0, del.stderr);
    await eventually('the CRD to be gone', async () => {
      const r = await s.kubectl(['get', 'crd', '-o', 'name']);
      return r.stdout.includes('crontabs') ? undefined : true;
    });
    const raw = await s.request({ method: 'GET', path: '/apis/stable.example.com/v1/namespaces/default/crontabs' });
    assert.equal(raw.status, 404);
  });
});
