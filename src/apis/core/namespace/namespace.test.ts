import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { Namespace } from '../v1/types.ts';
import { defaultNamespace, namespaceFinalizeStrategy, namespaces } from './namespace.ts';

const ctx = systemContext();

describe('namespaces', () => {
  it('create sets phase Active and the kubernetes finalizer', () => {
    const ns: Namespace = { metadata: { name: 'team-a' }, status: { phase: 'Terminating' } };
    defaultNamespace(ns);
    namespaces.strategy.prepareForCreate(ctx, ns);
    assert.deepEqual(ns.status, { phase: 'Active' });
    assert.deepEqual(ns.spec, { finalizers: ['kubernetes'] });
    assert.deepEqual(ns.metadata.labels, { 'kubernetes.io/metadata.name': 'team-a' });
    assert.deepEqual(namespaces.strategy.validate(ctx, ns), []);
  });
  it('serves no deletecollection', () => assert.deepEqual(namespaces.disabledVerbs, ['deletecollection']));
  const cases: { name: string; ns: Namespace; want: string[] }[] = [
    { name: 'dots are not allowed', ns: { metadata: { name: 'a.b' } }, want: ['metadata.name: Invalid value: "a.b": must not contain dots'] },
    { name: 'namespace field forbidden', ns: { metadata: { name: 'a', namespace: 'x' } }, want: ['metadata.namespace: Forbidden: not allowed on this type'] },
    { name: 'bad finalizer', ns: { metadata: { name: 'a' }, spec: { finalizers: ['custom'] } },
      want: ['spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(namespaces.strategy.validate(ctx, c.ns).map(formatFieldError), c.want));
  it('update keeps spec.finalizers and status; finalize changes only finalizers', () => {
    const old: Namespace = { metadata: { name: 'a', resourceVersion: '1' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } };
    const upd: Namespace = { metadata: { name: 'a', resourceVersion: '1' }, spec: { finalizers: [] }, status: { phase: 'Terminating' } };
    namespaces.strategy.prepareForUpdate(ctx, upd, old);
    assert.deepEqual(upd.spec, { finalizers: ['kubernetes'] });
    assert.deepEqual(upd.status, { phase: 'Active' });
    const fin: Namespace = { metadata: { name: 'a', resourceVersion: '1' }, spec: { finalizers: [] }, status: { phase: 'Terminating' } };
    namespaceFinalizeStrategy.prepareForUpdate(ctx, fin, old);
    assert.deepEqual(fin.spec, { finalizers: [] });
    assert.deepEqual(fin.status, { phase: 'Active' });
  });
  it('status phase must agree with deletionTimestamp', () => {
    const ns: Namespace = { metadata: { name: 'a' }, status: { phase: 'Terminating' } };
    assert.deepEqual(namespaces.statusStrategy.validateUpdate(ctx, ns, ns).map(formatFieldError),
      ["status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty"]);
  });
  it('table and field selectors', () => {
    const ns: Namespace = { metadata: { name: 'a', creationTimestamp: '2024-01-01T00:00:00Z' }, status: { phase: 'Active' } };
    const now = Date.parse('2024-01-01T00:05:00Z');
    assert.deepEqual(namespaces.table.map((c) => c.cell(ns, now)), ['a', 'Active', '5m']);
    assert.equal(namespaces.selectableFields(ns)['status.phase'], 'Active');
  });
});
