import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { clusterRoleBindings as clusterRoleBindingDef } from '../../apis/rbac/clusterrolebinding/clusterrolebinding.ts';
import { clusterRoles as clusterRoleDef } from '../../apis/rbac/clusterrole/clusterrole.ts';
import { roleBindings as roleBindingDef } from '../../apis/rbac/rolebinding/rolebinding.ts';
import { roles as roleDef } from '../../apis/rbac/role/role.ts';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding } from '../../apis/rbac/v1/types.ts';
import { policyFeatures } from './features.ts';
import { bootstrapPolicy } from './policy.ts';

const policy = bootstrapPolicy();
const clusterRole = (name: string): ClusterRole => {
  const r = policy.clusterRoles.find((x) => x.metadata.name === name);
  assert.ok(r, `no ClusterRole ${name}`);
  return r;
};
const clusterRoleBinding = (name: string): ClusterRoleBinding => {
  const b = policy.clusterRoleBindings.find((x) => x.metadata.name === name);
  assert.ok(b, `no ClusterRoleBinding ${name}`);
  return b;
};
const meta = (name: string, labels: Record<string, string> = {}, namespace?: string) => ({
  name, ...(namespace !== undefined ? { namespace } : {}),
  labels: { ...labels, 'kubernetes.io/bootstrapping': 'rbac-defaults' },
  annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
});
const rbac = 'rbac.authorization.k8s.io/v1';

describe('the default policy of v1.36', () => {
  it('has kube-apiserver v1.36\'s objects', () => {
    assert.equal(policy.clusterRoles.length, 69);
    assert.equal(policy.clusterRoleBindings.length, 50);
    assert.deepEqual(policy.roles.map((r) => `${r.metadata.namespace}/${r.metadata.name}`), [
      'kube-system/extension-apiserver-authentication-reader', 'kube-system/system:controller:bootstrap-signer',
      'kube-system/system:controller:cloud-provider', 'kube-system/system:controller:token-cleaner',
      'kube-system/system::leader-locking-kube-controller-manager', 'kube-system/system::leader-locking-kube-scheduler',
      'kube-public/system:controller:bootstrap-signer',
    ]);
    assert.deepEqual(policy.roleBindings.map((r) => `${r.metadata.namespace}/${r.metadata.name}`), [
      'kube-system/system::extension-apiserver-authentication-reader', 'kube-system/system::leader-locking-kube-controller-manager',
      'kube-system/system::leader-locking-kube-scheduler', 'kube-system/system:controller:bootstrap-signer',
      'kube-system/system:controller:cloud-provider', 'kube-system/system:controller:token-cleaner',
      'kube-public/system:controller:bootstrap-signer',
    ]);
  });

  it('names are unique', () => {
    for (const list of [policy.clusterRoles, policy.clusterRoleBindings, policy.roles, policy.roleBindings]) {
      const keys = list.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`);
      assert.equal(new Set(keys).size, keys.length);
    }
  });

  it('every object is labelled and annotated as kube does', () => {
    for (const o of [...policy.clusterRoles, ...policy.clusterRoleBindings, ...policy.roles, ...policy.roleBindings]) {
      assert.equal(o.metadata.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults', o.metadata.name);
      assert.deepEqual(o.metadata.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' }, o.metadata.name);
    }
  });

  it('every object passes the API validation', () => {
    const ctx = (ns = '') => systemContext(ns);
    const errs = [
      ...policy.clusterRoles.flatMap((o) => clusterRoleDef.strategy.validate(ctx(), o)),
      ...policy.clusterRoleBindings.flatMap((o) => clusterRoleBindingDef.strategy.validate(ctx(), o)),
      ...policy.roles.flatMap((o) => roleDef.strategy.validate(ctx(o.metadata.namespace), o)),
      ...policy.roleBindings.flatMap((o) => roleBindingDef.strategy.validate(ctx(o.metadata.namespace), o)),
    ];
    assert.deepEqual(errs.map(formatFieldError), []);
  });

  it('rule lists are sorted, as kube stores them', () => {
    const all: PolicyRule[] = [...policy.clusterRoles, ...policy.roles].flatMap((r) => r.rules ?? []);
    for (const r of all) {
      for (const list of [r.verbs, r.apiGroups, r.resources, r.resourceNames, r.nonResourceURLs]) {
        if (list !== undefined) assert.deepEqual(list, [...list].sort());
      }
    }
  });

  it('every controller role is bound to its kube-system service account', () => {
    const controllers = policy.clusterRoles.map((r) => r.metadata.name ?? '').filter((n) => n.startsWith('system:controller:'));
    assert.equal(controllers.length, 38);
    for (const name of controllers) {
      const b = clusterRoleBinding(name);
      assert.deepEqual(b.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name });
      assert.deepEqual(b.subjects, [{ kind: 'ServiceAccount', name: name.slice('system:controller:'.length), namespace: 'kube-system' }]);
    }
  });

  const wholeRoles: { name: string; want: ClusterRole }[] = [
    { name: 'cluster-admin', want: { apiVersion: rbac, kind: 'ClusterRole', metadata: meta('cluster-admin'), rules: [
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }] } },
    { name: 'admin', want: { apiVersion: rbac, kind: 'ClusterRole', metadata: meta('admin'),
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] } } },
    { name: 'edit', want: { apiVersion: rbac, kind: 'ClusterRole',
      metadata: meta('edit', { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' }),
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } }] } } },
    { name: 'view', want: { apiVersion: rbac, kind: 'ClusterRole',
      metadata: meta('view', { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' }),
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }] } } },
    { name: 'system:discovery', want: { apiVersion: rbac, kind: 'ClusterRole', metadata: meta('system:discovery'), rules: [
      { verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*',
        '/readyz', '/version', '/version/'] }] } },
    { name: 'system:public-info-viewer', want: { apiVersion: rbac, kind: 'ClusterRole', metadata: meta('system:public-info-viewer'),
      rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }] } },
    { name: 'system:basic-user', want: { apiVersion: rbac, kind: 'ClusterRole', metadata: meta('system:basic-user'), rules: [
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
      { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] }] } },
    { name: 'system:aggregate-to-admin', want: { apiVersion: rbac, kind: 'ClusterRole',
      metadata: meta('system:aggregate-to-admin', { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' }), rules: [
        { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'] },
        { verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
          apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'roles'] }] } },
    { name: 'system:certificates.k8s.io:kubelet-serving-approver', want: { apiVersion: rbac, kind: 'ClusterRole',
      metadata: meta('system:certificates.k8s.io:kubelet-serving-approver'), rules: [
        { verbs: ['approve'], apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/kubelet-serving'] }] } },
    { name: 'system:persistent-volume-provisioner', want: { apiVersion: rbac, kind: 'ClusterRole',
      metadata: meta('system:persistent-volume-provisioner'), rules: [
        { verbs: ['create', 'delete', 'get', 'list', 'watch'], apiGroups: [''], resources: ['persistentvolumes'] },
        { verbs: ['get', 'list', 'update', 'watch'], apiGroups: [''], resources: ['persistentvolumeclaims'] },
        { verbs: ['get', 'list', 'watch'], apiGroups: ['storage.k8s.io'], resources: ['storageclasses'] },
        { verbs: ['watch'], apiGroups: [''], resources: ['events'] },
        { verbs: ['create', 'patch', 'update'], apiGroups: ['', 'events.k8s.io'], resources: ['events'] }] } },
    { name: 'system:controller:clusterrole-aggregation-controller', want: { apiVersion: rbac, kind: 'ClusterRole',
      metadata: meta('system:controller:clusterrole-aggregation-controller'), rules: [
        { verbs: ['escalate', 'get', 'list', 'patch', 'update', 'watch'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'] }] } },
    { name: 'system:controller:namespace-controller', want: { apiVersion: rbac, kind: 'ClusterRole',
      metadata: meta('system:controller:namespace-controller'), rules: [
        { verbs: ['delete', 'get', 'list', 'watch'], apiGroups: [''], resources: ['namespaces'] },
        { verbs: ['update'], apiGroups: [''], resources: ['namespaces/finalize', 'namespaces/status'] },
        { verbs: ['delete', 'deletecollection', 'get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] }] } },
  ];
  for (const c of wholeRoles) it(`ClusterRole ${c.name}`, () => assert.deepEqual(clusterRole(c.name), c.want));

  const wholeBindings: { name: string; want: ClusterRoleBinding }[] = [
    { name: 'cluster-admin', want: { apiVersion: rbac, kind: 'ClusterRoleBinding', metadata: meta('cluster-admin'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' }] } },
    { name: 'system:public-info-viewer', want: { apiVersion: rbac, kind: 'ClusterRoleBinding', metadata: meta('system:public-info-viewer'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:public-info-viewer' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' },
        { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:unauthenticated' }] } },
    { name: 'system:node', want: { apiVersion: rbac, kind: 'ClusterRoleBinding', metadata: meta('system:node'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node' } } },
    { name: 'system:kube-dns', want: { apiVersion: rbac, kind: 'ClusterRoleBinding', metadata: meta('system:kube-dns'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:kube-dns' },
      subjects: [{ kind: 'ServiceAccount', name: 'kube-dns', namespace: 'kube-system' }] } },
  ];
  for (const c of wholeBindings) it(`ClusterRoleBinding ${c.name}`, () => assert.deepEqual(clusterRoleBinding(c.name), c.want));

  it('discovery and basic-user go to every authenticated user', () => {
    for (const name of ['system:discovery', 'system:basic-user']) {
      assert.deepEqual(clusterRoleBinding(name).subjects, [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' }]);
    }
  });

  it('namespaced defaults', () => {
    const reader = policy.roles.find((r) => r.metadata.name === 'extension-apiserver-authentication-reader');
    assert.deepEqual(reader, {
      apiVersion: rbac, kind: 'Role', metadata: meta('extension-apiserver-authentication-reader', {}, 'kube-system'),
      rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['extension-apiserver-authentication'] }],
    } satisfies Role);
    const locking = policy.roleBindings.find((r) => r.metadata.name === 'system::leader-locking-kube-controller-manager');
    assert.deepEqual(locking, {
      apiVersion: rbac, kind: 'RoleBinding', metadata: meta('system::leader-locking-kube-controller-manager', {}, 'kube-system'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'system::leader-locking-kube-controller-manager' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'system:kube-controller-manager' },
        { kind: 'ServiceAccount', name: 'kube-controller-manager', namespace: 'kube-system' },
        { kind: 'ServiceAccount', name: 'leader-election-controller', namespace: 'kube-system' }],
    } satisfies RoleBinding);
  });

  it('v1.36 defaults: DRA is on, its status writes go through resourceclaims/binding', () => {
    const scheduler = clusterRole('system:kube-scheduler').rules ?? [];
    assert.ok(scheduler.some((r) => r.resources?.includes('resourceclaims/binding')));
    assert.ok(scheduler.some((r) => r.resources?.includes('deviceclasses')));
    assert.ok(!scheduler.some((r) => r.resources?.includes('devicetaintrules')), 'DRADeviceTaintRules is off');
    assert.ok(policy.clusterRoles.some((r) => r.metadata.name === 'system:controller:device-taint-eviction-controller'));
    assert.ok(!policy.clusterRoles.some((r) => r.metadata.name === 'system:cluster-trust-bundle-discovery'), 'ClusterTrustBundle is off');
    assert.deepEqual(clusterRole('system:monitoring').rules?.[0]?.nonResourceURLs, ['/flagz', '/healthz', '/healthz/*', '/livez',
      '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*', '/statusz']);
  });

  it('feature gates change the policy as they change kube\'s', () => {
    const off = bootstrapPolicy(policyFeatures({ DynamicResourceAllocation: false, ClusterTrustBundle: true }));
    const hasResourceGroup = off.clusterRoles.some((r) => (r.rules ?? []).some((x) => x.apiGroups?.includes('resource.k8s.io')));
    assert.equal(hasResourceGroup, false);
    assert.ok(off.clusterRoles.some((r) => r.metadata.name === 'system:cluster-trust-bundle-discovery'));
    assert.ok(off.clusterRoleBindings.some((r) => r.metadata.name === 'system:cluster-trust-bundle-discovery'));
  });

  it('returns fresh objects', () => {
    const a = bootstrapPolicy();
    (a.clusterRoles[0]?.rules ?? []).pop();
    assert.equal(bootstrapPolicy().clusterRoles[0]?.rules?.length, 2);
  });
});
