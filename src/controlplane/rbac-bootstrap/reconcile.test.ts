import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterRole, ClusterRoleBinding } from '../../apis/rbac/v1/types.ts';
import { reconcileBinding, reconcileRole, semanticEqual } from './reconcile.ts';

const AUTO = 'rbac.authorization.kubernetes.io/autoupdate';
const LABEL = 'kubernetes.io/bootstrapping';

const expectedRole = (): ClusterRole => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
  metadata: { name: 'r', labels: { [LABEL]: 'rbac-defaults' }, annotations: { [AUTO]: 'true' } },
  rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }],
});

describe('reconcileRole', () => {
  it('creates a missing role as expected', () => {
    const r = reconcileRole(undefined, expectedRole());
    assert.equal(r.operation, 'Create');
    assert.deepEqual(r.object, expectedRole());
  });

  it('nothing to do when the stored role has everything', () => {
    const existing = { ...expectedRole(), metadata: { ...expectedRole().metadata, resourceVersion: '5' } };
    const r = reconcileRole(existing, expectedRole());
    assert.equal(r.operation, 'None');
    assert.deepEqual(r.missingRules, []);
  });

  it('adds missing rules, broken down, and keeps what users added', () => {
    const existing: ClusterRole = {
      metadata: { name: 'r', resourceVersion: '7', labels: { [LABEL]: 'rbac-defaults' }, annotations: { [AUTO]: 'true' } },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['*'], apiGroups: ['custom.io'], resources: ['things'] }],
    };
    const r = reconcileRole(existing, expectedRole());
    assert.equal(r.operation, 'Update');
    assert.equal(r.protected, false);
    assert.deepEqual(r.object.rules, [
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['*'], apiGroups: ['custom.io'], resources: ['things'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
      { nonResourceURLs: ['/healthz'], verbs: ['get'] },
    ]);
    assert.equal(r.object.metadata.resourceVersion, '7');
    assert.deepEqual(existing.rules?.length, 2, 'the stored object is not changed');
  });

  it('adds missing labels and annotations; stored values win', () => {
    const existing: ClusterRole = {
      metadata: { name: 'r', labels: { mine: 'x' }, annotations: { note: 'y' } }, rules: expectedRole().rules ?? [],
    };
    const r = reconcileRole(existing, expectedRole());
    assert.equal(r.operation, 'Update');
    assert.deepEqual(r.object.metadata.labels, { [LABEL]: 'rbac-defaults', mine: 'x' });
    assert.deepEqual(r.object.metadata.annotations, { [AUTO]: 'true', note: 'y' });
    const customised: ClusterRole = { metadata: { name: 'r', labels: { [LABEL]: 'mine' }, annotations: { [AUTO]: 'true' } }, rules: expectedRole().rules ?? [] };
    assert.equal(reconcileRole(customised, expectedRole()).operation, 'None');
  });

  it('autoupdate "false" protects the stored role', () => {
    const existing: ClusterRole = { metadata: { name: 'r', annotations: { [AUTO]: 'false' } }, rules: [] };
    const r = reconcileRole(existing, expectedRole());
    assert.equal(r.protected, true);
    assert.equal(r.operation, 'Update', 'what reconciling would do, for the warning');
    assert.equal(r.missingRules.length, 3);
  });

  it('adds missing aggregation selectors and keeps the stored ones', () => {
    const sel = (v: string) => ({ matchLabels: { [v]: 'true' } });
    const expected: ClusterRole = { ...expectedRole(), rules: [], aggregationRule: { clusterRoleSelectors: [sel('a')] } };
    const existing: ClusterRole = { metadata: { ...expectedRole().metadata }, aggregationRule: { clusterRoleSelectors: [sel('b')] },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] };
    const r = reconcileRole(existing, expected);
    assert.equal(r.operation, 'Update');
    assert.deepEqual(r.object.aggregationRule, { clusterRoleSelectors: [sel('b'), sel('a')] });
    assert.deepEqual(r.object.rules, existing.rules, 'aggregated rules are not the reconciler\'s');
    assert.equal(reconcileRole({ ...existing, aggregationRule: { clusterRoleSelectors: [sel('a')] } }, expected).operation, 'None');
  });

  it('drops an aggregation rule the default does not have', () => {
    const existing: ClusterRole = { ...expectedRole(), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } };
    const r = reconcileRole(existing, expectedRole());
    assert.equal(r.operation, 'Update');
    assert.equal(r.object.aggregationRule, undefined);
  });
});

const expectedBinding = (): ClusterRoleBinding => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding',
  metadata: { name: 'b', labels: { [LABEL]: 'rbac-defaults' }, annotations: { [AUTO]: 'true' } },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
  subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' }],
});

describe('reconcileBinding', () => {
  it('creates a missing binding', () => {
    assert.equal(reconcileBinding(undefined, expectedBinding()).operation, 'Create');
  });

  it('adds missing subjects and keeps added ones', () => {
    const mine = { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' };
    const existing: ClusterRoleBinding = { ...expectedBinding(), subjects: [mine] };
    const r = reconcileBinding(existing, expectedBinding());
    assert.equal(r.operation, 'Update');
    assert.deepEqual(r.object.subjects, [mine, ...(expectedBinding().subjects ?? [])]);
    assert.equal(reconcileBinding(r.object, expectedBinding()).operation, 'None');
  });

  it('a binding to another role is recreated', () => {
    const existing: ClusterRoleBinding = { ...expectedBinding(), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'other' } };
    const r = reconcileBinding(existing, expectedBinding());
    assert.equal(r.operation, 'Recreate');
    assert.deepEqual(r.object, expectedBinding());
  });

  it('autoupdate "false" protects the stored binding', () => {
    const existing: ClusterRoleBinding = { ...expectedBinding(), metadata: { name: 'b', annotations: { [AUTO]: 'false' } }, subjects: [] };
    const r = reconcileBinding(existing, expectedBinding());
    assert.equal(r.protected, true);
  });
});

describe('semanticEqual', () => {
  const cases: { name: string; a: unknown; b: unknown; want: boolean }[] = [
    { name: 'absent and empty lists', a: { verbs: ['get'], resourceNames: [] }, b: { verbs: ['get'] }, want: true },
    { name: 'key order', a: { a: 1, b: 2 }, b: { b: 2, a: 1 }, want: true },
    { name: 'list order matters', a: { verbs: ['get', 'list'] }, b: { verbs: ['list', 'get'] }, want: false },
    { name: 'empty and absent maps', a: { matchLabels: {} }, b: {}, want: true },
  ];
  for (const c of cases) it(c.name, () => assert.equal(semanticEqual(c.a, c.b), c.want));
});
