// Store.update and the object's resourceVersion, as kube's generic registry reads it through the
// Versioner: "" and "0" are unconditional where the strategy allows it, any other decimal is
// compared as a number, anything else is the strconv error as a 500. Expected texts are
// kube-apiserver v1.36.3's (asked through src/e2e/testing/oracle.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StatusError } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { Backend } from '../../storage/backend.ts';
import { jsonCodec } from '../../storage/json-codec.ts';
import { openSqliteBackend } from '../../storage/sqlite/sqlite-backend.ts';
import { newStore } from '../../storage/store.ts';
import type { ResourceDefinition, Strategy } from '../rest/strategy.ts';
import { Store } from './store.ts';

const ctx = systemContext('default');
const opts = { dryRun: false, fieldManager: '' };

/** A resource with nothing but the two flags under test (ConfigMap and Lease in kube). */
function definition(group: string, kind: string, resource: string, allowUnconditionalUpdate: boolean, allowCreateOnUpdate: boolean): ResourceDefinition<KubeObject> {
  const strategy: Strategy<KubeObject> = {
    prepareForCreate() {}, validate: () => [], allowCreateOnUpdate, allowUnconditionalUpdate, prepareForUpdate() {}, validateUpdate: () => [],
  };
  return { group, kind, resource, singular: resource.slice(0, -1), namespaced: true, strategy };
}

describe('Store.update and metadata.resourceVersion', () => {
  let backend: Backend;
  let cms: Store<KubeObject>;
  let lss: Store<KubeObject>;
  before(async () => {
    backend = await openSqliteBackend({ path: ':memory:' });
    const storage = newStore(backend, jsonCodec);
    cms = new Store({ definition: definition('', 'ConfigMap', 'configmaps', true, false), storage, keyPrefix: '/registry/configmaps', listApiVersion: 'v1' });
    lss = new Store({ definition: definition('coordination.k8s.io', 'Lease', 'leases', false, true), storage, keyPrefix: '/registry/leases', listApiVersion: 'coordination.k8s.io/v1' });
  });
  after(async () => { await backend.close(); });

  const cm = (name: string, rv: string | undefined, data: Record<string, string>): KubeObject =>
    ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', ...(rv === undefined ? {} : { resourceVersion: rv }) }, data } as KubeObject);
  const lease = (name: string, rv: string | undefined): KubeObject =>
    ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: 'default', ...(rv === undefined ? {} : { resourceVersion: rv }) }, spec: {} } as KubeObject);
  const update = (s: Store<KubeObject>, obj: KubeObject) =>
    s.update(ctx, obj.metadata.name ?? '', { updatedObject: () => structuredClone(obj) }, undefined, undefined, false, opts);

  const unconditional: { name: string; rv: string | undefined }[] = [
    { name: 'no resourceVersion', rv: undefined }, { name: 'an empty resourceVersion', rv: '' }, { name: 'resourceVersion "0"', rv: '0' },
    { name: 'resourceVersion "00"', rv: '00' },
  ];
  for (const c of unconditional) {
    it(`${c.name} updates a ConfigMap unconditionally`, async () => {
      const name = `u-${c.name.replace(/\W+/g, '-')}`.toLowerCase().replace(/-+$/, '');
      await cms.create(ctx, cm(name, undefined, { a: '1' }), undefined, opts);
      const { object } = await update(cms, cm(name, c.rv, { a: '2' }));
      assert.deepEqual((object as KubeObject & { data?: unknown }).data, { a: '2' });
    });
  }

  it('a resourceVersion with leading zeros is compared as a number', async () => {
    const created = await cms.create(ctx, cm('lead', undefined, { a: '1' }), undefined, opts);
    const { object } = await update(cms, cm('lead', `000${created.metadata.resourceVersion ?? ''}`, { a: '2' }));
    assert.deepEqual((object as KubeObject & { data?: unknown }).data, { a: '2' });
  });

  const unparsable: { name: string; rv: string; message: string }[] = [
    { name: 'letters', rv: 'abc', message: 'strconv.ParseUint: parsing "abc": invalid syntax' },
    { name: 'a sign', rv: '-1', message: 'strconv.ParseUint: parsing "-1": invalid syntax' },
    { name: 'beyond uint64', rv: '99999999999999999999999', message: 'strconv.ParseUint: parsing "99999999999999999999999": value out of range' },
  ];
  for (const c of unparsable) {
    it(`a resourceVersion of ${c.name} is a 500 with strconv's text, and nothing is stored`, async () => {
      const name = `bad-${c.name.replace(/\W+/g, '-')}`;
      await cms.create(ctx, cm(name, undefined, { a: '1' }), undefined, opts);
      await assert.rejects(update(cms, cm(name, c.rv, { a: '2' })), (err: unknown) => {
        assert.ok(err instanceof StatusError);
        assert.deepEqual(err.status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, reason: '', message: c.message });
        return true;
      });
      const stored = await cms.get(ctx, name, {});
      assert.deepEqual((stored as KubeObject & { data?: unknown }).data, { a: '1' });
    });
  }

  it('"0" on a resource without unconditional updates is 422 naming the resource and the parsed version', async () => {
    await lss.create(ctx, lease('l0', undefined), undefined, opts);
    await assert.rejects(update(lss, lease('l0', '0')), (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.equal(err.status.code, 422);
      assert.equal(err.status.message, 'leases.coordination.k8s.io "l0" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
      assert.deepEqual(err.status.details, {
        name: 'l0', group: 'coordination.k8s.io', kind: 'leases',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be specified for an update', field: 'metadata.resourceVersion' }],
      });
      return true;
    });
  });

  it('create on update accepts any resourceVersion that parses (it is dropped)', async () => {
    for (const rv of ['5', '0']) {
      const { object, created } = await update(lss, lease(`new-${rv}`, rv));
      assert.equal(created, true);
      assert.notEqual(object.metadata.resourceVersion, rv);
    }
    await assert.rejects(update(lss, lease('new-abc', 'abc')), { message: 'strconv.ParseUint: parsing "abc": invalid syntax' });
  });

  // kube decodes into metav1.ObjectMeta, whose omitempty drops empty maps and lists: a merge
  // patch removing the last label answers (and stores) no `labels` field (kube-apiserver v1.36.3).
  const emptied: { name: string; meta: Record<string, unknown> }[] = [
    { name: 'labels', meta: { labels: {} } }, { name: 'annotations', meta: { annotations: {} } },
    { name: 'finalizers', meta: { finalizers: [] } }, { name: 'ownerReferences', meta: { ownerReferences: [] } },
    { name: 'null labels', meta: { labels: null } },
  ];
  for (const c of emptied) {
    it(`empty ${c.name} are left out on create and update`, async () => {
      const name = `empty-${c.name.replace(/\W+/g, '-')}`.toLowerCase();
      const withEmpty = (): KubeObject => { const o = cm(name, undefined, { a: '1' }); Object.assign(o.metadata, structuredClone(c.meta)); return o; };
      const created = await cms.create(ctx, withEmpty(), undefined, opts);
      assert.deepEqual(Object.keys(created.metadata).filter((k) => k in c.meta), []);
      const { object } = await update(cms, withEmpty());
      assert.deepEqual(Object.keys(object.metadata).filter((k) => k in c.meta), []);
    });
  }
});
