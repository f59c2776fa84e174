// The default RBAC policy as kubectl sees it: the rbac/bootstrap-roles post-start hook created
// kube-apiserver v1.36's roles and bindings, and the aggregation controller filled admin, edit
// and view (and keeps them up to date as labelled ClusterRoles come and go).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding } from '../apis/rbac/v1/types.ts';
import { bootstrapPolicy } from '../controlplane/rbac-bootstrap/index.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const policy = bootstrapPolicy();
const expectedClusterRole = (name: string): ClusterRole => {
  const r = policy.clusterRoles.find((x) => x.metadata.name === name);
  assert.ok(r, name);
  return r;
};

const covers = (rules: readonly PolicyRule[] | undefined, group: string, resource: string, verb: string): boolean =>
  (rules ?? []).some((r) => (r.apiGroups ?? []).includes(group) && (r.resources ?? []).includes(resource) && (r.verbs ?? []).includes(verb));

describe('default RBAC policy', () => {
  let s: Suite;
  const getJSON = async <T>(args: string[]): Promise<T> => {
    const r = await s.kubectl([...args, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as T;
  };

  before(async () => { s = await startSuite(); });
  after(async () => { await s?.close(); });

  it('readyz reports the rbac/bootstrap-roles post-start hook', async () => {
    const r = await s.kubectl(['get', '--raw', '/readyz?verbose']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\[\+\]poststarthook\/rbac\/bootstrap-roles ok/);
  });

  it('cluster-admin may do anything', async () => {
    const r = await s.kubectl(['get', 'clusterrole', 'cluster-admin', '-o', 'yaml']);
    assert.equal(r.code, 0, r.stderr);
    const role = parse(r.stdout) as ClusterRole;
    assert.deepEqual(role.rules, [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ]);
    assert.equal(role.metadata.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults');
    assert.equal(role.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate'], 'true');
  });

  it('cluster-admin is bound to system:masters', async () => {
    const b = await getJSON<ClusterRoleBinding>(['get', 'clusterrolebinding', 'cluster-admin']);
    assert.deepEqual(b.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' });
    assert.deepEqual(b.subjects, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }]);
    const table = await s.kubectl(['get', 'clusterrolebinding', 'cluster-admin', '-o', 'wide']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^cluster-admin\s+ClusterRole\/cluster-admin\s+\S+\s+system:masters\s*$/m);
  });

  it('who discovers, who reads public info', async () => {
    const discovery = await getJSON<ClusterRoleBinding>(['get', 'clusterrolebinding', 'system:discovery']);
    assert.deepEqual(discovery.subjects, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }]);
    const basic = await getJSON<ClusterRoleBinding>(['get', 'clusterrolebinding', 'system:basic-user']);
    assert.deepEqual(basic.subjects, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' }]);
    const info = await getJSON<ClusterRoleBinding>(['get', 'clusterrolebinding', 'system:public-info-viewer']);
    assert.deepEqual(info.subjects, [
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' },
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:unauthenticated' },
    ]);
    const kcm = await getJSON<ClusterRoleBinding>(['get', 'clusterrolebinding', 'system:controller:deployment-controller']);
    assert.deepEqual(kcm.subjects, [{ kind: 'ServiceAccount', name: 'deployment-controller', namespace: 'kube-system' }]);
  });

  it('every default ClusterRole and ClusterRoleBinding exists', async () => {
    const roles = await getJSON<{ items: ClusterRole[] }>(['get', 'clusterroles']);
    const roleNames = new Set(roles.items.map((r) => r.metadata.name));
    for (const r of policy.clusterRoles) assert.ok(roleNames.has(r.metadata.name), `clusterrole ${r.metadata.name ?? ''}`);
    const bindings = await getJSON<{ items: ClusterRoleBinding[] }>(['get', 'clusterrolebindings']);
    const bindingNames = new Set(bindings.items.map((b) => b.metadata.name));
    for (const b of policy.clusterRoleBindings) assert.ok(bindingNames.has(b.metadata.name), `clusterrolebinding ${b.metadata.name ?? ''}`);
  });

  it('whole roles are v1.36\'s', async () => {
    for (const name of ['system:basic-user', 'system:discovery', 'system:public-info-viewer', 'system:aggregate-to-admin',
      'system:aggregate-to-edit', 'system:aggregate-to-view', 'system:node', 'system:kube-scheduler',
      'system:controller:namespace-controller', 'system:controller:clusterrole-aggregation-controller']) {
      const got = await getJSON<ClusterRole>(['get', 'clusterrole', name]);
      const want = expectedClusterRole(name);
      assert.deepEqual(got.rules, want.rules, name);
      assert.deepEqual(got.metadata.labels, want.metadata.labels, name);
      assert.deepEqual(got.metadata.annotations, want.metadata.annotations, name);
    }
  });

  it('admin, edit and view hold the aggregated rules', async () => {
    const edit = await eventually('edit aggregated', async () => {
      const r = await getJSON<ClusterRole>(['get', 'clusterrole', 'edit']);
      return covers(r.rules, 'apps', 'deployments', 'create') && covers(r.rules, '', 'pods/log', 'get') ? r : undefined;
    });
    assert.deepEqual(edit.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } }] });
    assert.ok(!covers(edit.rules, 'rbac.authorization.k8s.io', 'rolebindings', 'create'), 'edit does not grant RBAC writes');
    const view = await getJSON<ClusterRole>(['get', 'clusterrole', 'view']);
    assert.deepEqual(view.rules, expectedClusterRole('system:aggregate-to-view').rules);
    assert.ok(!covers(view.rules, '', 'secrets', 'get'), 'view does not read secrets');
    const admin = await eventually('admin aggregated', async () => {
      const r = await getJSON<ClusterRole>(['get', 'clusterrole', 'admin']);
      return covers(r.rules, 'rbac.authorization.k8s.io', 'rolebindings', 'create') && covers(r.rules, 'apps', 'deployments', 'create') ? r : undefined;
    });
    assert.ok(covers(admin.rules, '', 'secrets', 'get'));
  });

  it('a ClusterRole labelled aggregate-to-view shows up in view, edit and admin', async () => {
    const manifest = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: e2e-widgets-view
  labels:
    rbac.authorization.k8s.io/aggregate-to-view: "true"
rules:
- apiGroups: ["example.com"]
  resources: ["widgets"]
  verbs: ["get", "list", "watch"]
`;
    const c = await s.kubectl(['apply', '-f', '-'], manifest);
    assert.equal(c.code, 0, c.stderr);
    for (const name of ['view', 'edit', 'admin']) {
      await eventually(`${name} aggregates widgets`, async () => {
        const r = await getJSON<ClusterRole>(['get', 'clusterrole', name]);
        return covers(r.rules, 'example.com', 'widgets', 'watch') ? r : undefined;
      });
    }
    const d = await s.kubectl(['delete', 'clusterrole', 'e2e-widgets-view']);
    assert.equal(d.code, 0, d.stderr);
    await eventually('view drops widgets', async () => {
      const r = await getJSON<ClusterRole>(['get', 'clusterrole', 'view']);
      return covers(r.rules, 'example.com', 'widgets', 'watch') ? undefined : r;
    });
  });

  it('namespaced defaults in kube-system and kube-public', async () => {
    const reader = await getJSON<Role>(['get', 'role', '-n', 'kube-system', 'extension-apiserver-authentication-reader']);
    assert.deepEqual(reader.rules, [{ apiGroups: [''], resourceNames: ['extension-apiserver-authentication'], resources: ['configmaps'],
      verbs: ['get', 'list', 'watch'] }]);
    const locking = await getJSON<RoleBinding>(['get', 'rolebinding', '-n', 'kube-system', 'system::leader-locking-kube-scheduler']);
    assert.deepEqual(locking.subjects, [
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:kube-scheduler' },
      { kind: 'ServiceAccount', name: 'kube-scheduler', namespace: 'kube-system' },
    ]);
    const signer = await getJSON<Role>(['get', 'role', '-n', 'kube-public', 'system:controller:bootstrap-signer']);
    assert.ok(covers(signer.rules, '', 'configmaps', 'update'));
  });
});
