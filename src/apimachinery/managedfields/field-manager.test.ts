import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../errors/status-error.ts';
import type { KubeObject, ManagedFieldsEntry } from '../meta/types.ts';
import { schemaForGVK } from '../openapi/index.ts';
import { apply, updateManagedFields } from './field-manager.ts';
import { LAST_APPLIED_CONFIG_ANNOTATION } from './last-applied.ts';
import { resetFieldsOf } from './fields.ts';

const cmScope = { apiVersion: 'v1', kind: 'ConfigMap', schema: schemaForGVK({ group: '', version: 'v1', kind: 'ConfigMap' }) };
const depScope = { apiVersion: 'apps/v1', kind: 'Deployment', schema: schemaForGVK({ group: 'apps', version: 'v1', kind: 'Deployment' }) };
const svcScope = { apiVersion: 'v1', kind: 'Service', schema: schemaForGVK({ group: '', version: 'v1', kind: 'Service' }) };
const T1 = '2024-05-01T10:00:00Z';
const T2 = '2024-05-01T10:01:00.500Z';
const T3 = '2024-05-01T10:02:00Z';

type Obj = KubeObject & Record<string, unknown>;
const stored = (o: Obj): Obj => ({ ...o, metadata: { ...o.metadata, uid: 'uid-1', resourceVersion: '1', creationTimestamp: T1 } });
const entries = (o: KubeObject): ManagedFieldsEntry[] => o.metadata.managedFields ?? [];
const byManager = (o: KubeObject, m: string, op = 'Apply'): ManagedFieldsEntry | undefined =>
  entries(o).find((e) => e.manager === m && e.operation === op);
const conflictOf = (fn: () => unknown): StatusError => {
  try { fn(); } catch (e) { if (e instanceof StatusError) return e; throw e; }
  assert.fail('expected a conflict');
};

const configMap = (data: Record<string, string>, labels?: Record<string, string>): Obj => ({
  apiVersion: 'v1', kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'default', ...(labels === undefined ? {} : { labels }) }, data,
});
const created = stored(updateManagedFields({ ...cmScope, live: undefined, updated: configMap({ key: 'v' }, { app: 'web' }), manager: 'kubectl-create', time: T1 }));

describe('updateManagedFields', () => {
  it('records what kubectl create sets, in kube\'s entry shape', () => {
    assert.equal(JSON.stringify(entries(created)), JSON.stringify([{
      manager: 'kubectl-create', operation: 'Update', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { '.': {}, 'f:key': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
    }]));
  });

  it('a CRD\'s spec.names is a Go struct held by value: creating it adds no "." (kube v1.36.3 answers so)', () => {
    const scope = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
      schema: schemaForGVK({ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' }) };
    const crd: Obj = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'foos.x.io' },
      spec: { group: 'x.io', scope: 'Namespaced', names: { plural: 'foos', kind: 'Foo' }, conversion: { strategy: 'None' },
        versions: [{ name: 'v1', served: true, storage: true }] },
    };
    const out = updateManagedFields({ ...scope, live: undefined, updated: crd, manager: 'm', time: T1 });
    assert.deepEqual(byManager(out, 'm', 'Update')?.fieldsV1, { 'f:spec': {
      'f:conversion': { '.': {}, 'f:strategy': {} }, 'f:group': {}, 'f:names': { 'f:kind': {}, 'f:plural': {} }, 'f:scope': {}, 'f:versions': {},
    } });
  });

  it('a null field of a built-in kind is a Go nil: no field of the Update (a custom resource keeps it)', () => {
    const scope = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
      schema: schemaForGVK({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole' }) };
    const role: Obj = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r', labels: { a: 'b' } }, rules: null } as unknown as Obj;
    const cases = [
      { name: 'typed', typed: true, want: { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } } },
      { name: 'unstructured', typed: false, want: { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } }, 'f:rules': {} } },
    ];
    for (const c of cases) {
      const out = updateManagedFields({ ...scope, typed: c.typed, live: undefined, updated: role, manager: 'm', time: T1 });
      assert.deepEqual(byManager(out, 'm', 'Update')?.fieldsV1, c.want, c.name);
      assert.equal((out as unknown as { rules: unknown }).rules, null, `${c.name}: the object keeps its null`);
    }
  });

  it('gives a label update to kubectl-label and keeps the creator', () => {
    const labeled = updateManagedFields({ ...cmScope, live: created, manager: 'kubectl-label', time: T2,
      updated: { ...created, metadata: { ...created.metadata, labels: { app: 'web', tier: 'fe' } } } });
    assert.deepEqual(entries(labeled).map((e) => [e.manager, e.time, e.fieldsV1]), [
      ['kubectl-create', T1, { 'f:data': { '.': {}, 'f:key': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }],
      ['kubectl-label', '2024-05-01T10:01:00Z', { 'f:metadata': { 'f:labels': { 'f:tier': {} } } }],
    ]);
  });

  const cases = [
    // kubectl-create loses data.key; the "data" member it added at creation stays with it.
    { name: 'a removed field leaves every manager', managedFields: undefined, data: {},
      want: [['kubectl-create', { 'f:data': {}, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }]] },
    { name: 'managedFields [] resets tracking', managedFields: [], data: { key: 'changed' }, want: [] },
    { name: 'managedFields sent unchanged are kept', managedFields: 'same', data: { key: 'v', other: 'x' },
      want: [['kubectl-create', { 'f:data': { '.': {}, 'f:key': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }],
        ['kubectl-edit', { 'f:data': { 'f:other': {} } }]] },
    { name: 'invalid managedFields from the client fall back to live', managedFields: [{ manager: 'x' }], data: { key: 'v' },
      want: [['kubectl-create', { 'f:data': { '.': {}, 'f:key': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }]] },
  ] as const;
  for (const c of cases) {
    it(c.name, () => {
      const meta: KubeObject['metadata'] = { ...created.metadata };
      if (c.managedFields === undefined) delete meta.managedFields;
      else meta.managedFields = c.managedFields === 'same' ? entries(created) : [...c.managedFields] as ManagedFieldsEntry[];
      const out = updateManagedFields({ ...cmScope, live: created, manager: 'kubectl-edit', time: T2, updated: { ...created, metadata: meta, data: c.data } });
      const got = entries(out).map((e) => [e.manager, e.fieldsV1]);
      assert.deepEqual(got, c.want);
      if (c.managedFields !== undefined && Array.isArray(c.managedFields) && c.managedFields.length === 0) {
        assert.equal(out.metadata.managedFields, undefined);
      }
    });
  }

  it('records a subresource entry', () => {
    const dep = stored(updateManagedFields({ ...depScope, live: undefined, manager: 'kubectl', time: T1, updated: { ...deployment(1, [{ name: 'web', image: 'nginx' }]), status: {} } }));
    const out = updateManagedFields({ ...depScope, subresource: 'status', live: dep, manager: 'kube-controller-manager', time: T2,
      updated: { ...dep, status: { replicas: 1 } } });
    const e = byManager(out, 'kube-controller-manager', 'Update');
    assert.deepEqual(e, { manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'apps/v1', time: '2024-05-01T10:01:00Z',
      fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:replicas': {} } }, subresource: 'status' });
  });

  it('drops the reset fields of the strategy', () => {
    const out = updateManagedFields({ ...depScope, resetFields: resetFieldsOf(['status']), live: undefined, manager: 'm', time: T1,
      updated: { ...deployment(1, [{ name: 'web', image: 'nginx' }]), status: { replicas: 3 } } });
    assert.equal(JSON.stringify(entries(out)[0]?.fieldsV1).includes('f:status'), false);
  });
});

function deployment(replicas: number | undefined, containers: Record<string, unknown>[]): Obj {
  const spec: Record<string, unknown> = { selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers } } };
  if (replicas !== undefined) spec['replicas'] = replicas;
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec };
}

describe('apply', () => {
  const applyCm = (live: Obj | undefined, data: Record<string, string>, manager: string, force = false, time = T2) =>
    apply({ ...cmScope, live, patch: configMap(data), manager, force, time }).object;

  it('creates: the applier owns what it applied, no "." for struct fields', () => {
    const out = applyCm(undefined, { key: 'v' }, 'kubectl');
    assert.deepEqual(entries(out), [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: '2024-05-01T10:01:00Z',
      fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:key': {} } } }]);
    assert.deepEqual(out.data, { key: 'v' });
  });

  it('reports a conflict with another manager as kube does', () => {
    const err = conflictOf(() => applyCm(created, { key: 'new' }, 'm1'));
    assert.deepEqual(err.status, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "kubectl-create" using v1: .data.key',
      reason: 'Conflict', code: 409,
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-create" using v1', field: '.data.key' }] },
    });
  });

  it('lists several conflicts per manager', () => {
    const dep = stored(updateManagedFields({ ...depScope, live: undefined, manager: 'm1', time: T1, updated: deployment(1, [{ name: 'web', image: 'nginx' }]) }));
    const err = conflictOf(() => apply({ ...depScope, live: dep, manager: 'm2', force: false, time: T2,
      patch: deployment(3, [{ name: 'web', image: 'nginx:2' }]) }));
    assert.equal(err.status.message, 'Apply failed with 2 conflicts: conflicts with "m1" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name="web"].image');
    assert.deepEqual(err.status.details?.causes?.map((c) => c.field), ['.spec.replicas', '.spec.template.spec.containers[name="web"].image']);
  });

  it('with force, moves the conflicting fields to the applier', () => {
    const out = applyCm(created, { key: 'new' }, 'm1', true);
    assert.deepEqual(out.data, { key: 'new' });
    assert.deepEqual(byManager(out, 'm1')?.fieldsV1, { 'f:data': { 'f:key': {} } });
    assert.deepEqual(byManager(out, 'kubectl-create', 'Update')?.fieldsV1, { 'f:data': {}, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } });
  });

  it('removes a field the applier stops applying', () => {
    const first = stored(applyCm(undefined, { a: '1', b: '2' }, 'm1'));
    const out = applyCm(first, { a: '1' }, 'm1', false, T3);
    assert.deepEqual(out.data, { a: '1' });
    assert.deepEqual(byManager(out, 'm1')?.fieldsV1, { 'f:data': { 'f:a': {} } });
  });

  it('keeps a field another applier still applies', () => {
    const first = stored(applyCm(undefined, { shared: 'x', a: '1' }, 'm1'));
    const second = stored(applyCm(first, { shared: 'x' }, 'm2'));
    const out = applyCm(second, { a: '1' }, 'm1', false, T3);
    assert.deepEqual(out.data, { shared: 'x', a: '1' });
    assert.deepEqual(byManager(out, 'm2')?.fieldsV1, { 'f:data': { 'f:shared': {} } });
  });

  it('merges containers by name and keeps the other manager\'s container', () => {
    const dep = stored(apply({ ...depScope, live: undefined, manager: 'm1', force: false, time: T1,
      patch: deployment(undefined, [{ name: 'web', image: 'nginx' }]) }).object);
    const out = apply({ ...depScope, live: dep, manager: 'm2', force: false, time: T2,
      patch: deployment(undefined, [{ name: 'sidecar', image: 'envoy' }]) }).object;
    const spec = out['spec'] as { template: { spec: { containers: { name: string }[] } } };
    assert.deepEqual(spec.template.spec.containers, [{ name: 'web', image: 'nginx' }, { name: 'sidecar', image: 'envoy' }]);
    assert.deepEqual(byManager(out, 'm2')?.fieldsV1, { 'f:spec': { 'f:selector': {}, 'f:template': {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"sidecar"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } } });
  });

  it('matches service ports by port and the defaulted protocol', () => {
    const svc = (ports: Record<string, unknown>[]): Obj => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports } });
    const live = stored(updateManagedFields({ ...svcScope, live: undefined, manager: 'kubectl-create', time: T1,
      updated: svc([{ port: 80, protocol: 'TCP', targetPort: 8080 }]) }));
    const out = apply({ ...svcScope, live, manager: 'm', force: true, time: T2, patch: svc([{ port: 80, targetPort: 9090 }]) }).object;
    assert.deepEqual((out['spec'] as { ports: unknown[] }).ports, [{ port: 80, protocol: 'TCP', targetPort: 9090 }]);
    assert.deepEqual(byManager(out, 'm')?.fieldsV1, { 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {}, 'f:targetPort': {} } } } });
  });

  it('gives untracked fields to before-first-apply', () => {
    const legacy = stored(configMap({ old: '1' }));
    const out = applyCm(legacy, { key: 'v' }, 'm1');
    assert.deepEqual(byManager(out, 'before-first-apply', 'Update')?.fieldsV1, { 'f:data': { '.': {}, 'f:old': {} } });
  });

  it('lets kubectl take over fields of its last-applied configuration', () => {
    const last = JSON.stringify(configMap({ key: 'v' }));
    const csa = stored(updateManagedFields({ ...cmScope, live: undefined, manager: 'kubectl-client-side-apply', time: T1,
      updated: { ...configMap({ key: 'v' }), metadata: { name: 'cm', namespace: 'default', annotations: { [LAST_APPLIED_CONFIG_ANNOTATION]: last } } } }));
    assert.match(conflictOf(() => applyCm(csa, { key: 'new' }, 'm1')).status.message, /kubectl-client-side-apply/);
    const out = applyCm(csa, { key: 'new' }, 'kubectl');
    assert.deepEqual(out.data, { key: 'new' });
    assert.equal(out.metadata.annotations?.[LAST_APPLIED_CONFIG_ANNOTATION], '{"apiVersion":"v1","data":{"key":"new"},"kind":"ConfigMap","metadata":{"name":"cm","namespace":"default"}}\n');
  });

  const bad = [
    { name: 'wrong kind', patch: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'cm' } }, code: 400, message: 'invalid object type: /v1, Kind=Secret' },
    { name: 'managedFields set', patch: { ...configMap({}), metadata: { name: 'cm', managedFields: [] } }, code: 400, message: 'metadata.managedFields must be nil' },
  ];
  for (const c of bad) {
    it(`rejects a patch with ${c.name}`, () => {
      const err = conflictOf(() => apply({ ...cmScope, live: created, patch: c.patch, manager: 'm', force: false, time: T2 }));
      assert.equal(err.status.code, c.code);
      assert.equal(err.status.message, c.message);
    });
  }

  it('rejects duplicate keys in the applied list with a 500', () => {
    const err = conflictOf(() => apply({ ...depScope, live: undefined, manager: 'm', force: false, time: T1,
      patch: deployment(1, [{ name: 'a', image: 'x' }, { name: 'a', image: 'y' }]) }));
    assert.equal(err.status.code, 500);
    assert.equal(err.status.message, 'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="a"]');
  });

  const undeclared = [
    { name: 'in a keyed list item', patch: deployment(1, [{ name: 'nginx', image: 'nginx', foo: 1 }]),
      message: '.spec.template.spec.containers[name="nginx"].foo: field not declared in schema' },
    { name: 'in two places', patch: { ...deployment(1, [{ name: 'nginx', image: 'nginx' }]), metadata: { name: 'web', namespace: 'default', bogus: 'x' }, extra: true },
      message: 'errors:\n  .metadata.bogus: field not declared in schema\n  .extra: field not declared in schema' },
    { name: 'and a list item without its key', patch: deployment(1, [{ image: 'nginx' }]),
      message: '.spec.template.spec.containers: element 0: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)' },
  ];
  for (const c of undeclared) {
    it(`rejects a field the schema does not declare ${c.name} with a 500`, () => {
      const err = conflictOf(() => apply({ ...depScope, live: undefined, manager: 'm', force: false, time: T1, patch: c.patch }));
      assert.deepEqual(err.status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: '', code: 500,
        message: `failed to create typed patch object (default/web; apps/v1, Kind=Deployment): ${c.message}` });
    });
  }

  it('keeps unknown fields where the schema preserves them, and everywhere without a schema', () => {
    const schema = { type: 'object', properties: {
      apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { $ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
      spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { size: { type: 'integer' },
        nested: { type: 'object', properties: { a: { type: 'string' } } } } },
    } } as const;
    const cr = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1, color: 'red', nested: { a: 'x', b: 'y' } } };
    for (const scope of [{ apiVersion: 'example.com/v1', kind: 'Widget', schema }, { apiVersion: 'example.com/v1', kind: 'Widget', schema: undefined }]) {
      const out = apply({ ...scope, live: undefined, manager: 'm', force: false, time: T1, patch: cr }).object;
      assert.deepEqual(out['spec'], cr.spec);
    }
    const closed = { ...schema, properties: { ...schema.properties, spec: { type: 'object', properties: { size: { type: 'integer' } } } } };
    const err = conflictOf(() => apply({ apiVersion: 'example.com/v1', kind: 'Widget', schema: closed, live: undefined, manager: 'm',
      force: false, time: T1, patch: cr }));
    assert.equal(err.status.message, 'failed to create typed patch object (/w; example.com/v1, Kind=Widget): .spec.color: field not declared in schema');
  });

  it('a no-op apply keeps the object and the previous time', () => {
    const first = stored(applyCm(undefined, { key: 'v' }, 'm1'));
    const out = applyCm(first, { key: 'v' }, 'm1', false, T3);
    assert.deepEqual(out.data, { key: 'v' });
    assert.equal(byManager(out, 'm1')?.time, '2024-05-01T10:01:00Z');
  });
});
