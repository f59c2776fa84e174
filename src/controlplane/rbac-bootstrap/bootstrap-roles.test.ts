import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { ClusterRole, ClusterRoleBinding, RoleBinding } from '../../apis/rbac/v1/types.ts';
import type { ResourceStore } from '../../registry/rest/strategy.ts';
import { RBACBootstrapController, type ReconcileOutcome } from './bootstrap-roles.ts';
import { bootstrapPolicy } from './policy.ts';
import { newTestStores, type TestStores } from './testing.ts';

const ctx = (ns = '') => systemContext(ns);
const quiet = { warn: () => {}, retryDelaysMs: [1, 5, 10, 20, 50] };
const get = async <T>(store: ResourceStore<KubeObject>, name: string, ns = ''): Promise<T> => (await store.get(ctx(ns), name, {})) as unknown as T;
const put = async (store: ResourceStore<KubeObject>, obj: KubeObject, ns = ''): Promise<void> => {
  await store.update(ctx(ns), obj.metadata.name ?? '', { updatedObject: () => obj }, undefined, undefined, false, { dryRun: false });
};
const byOp = (outcomes: readonly ReconcileOutcome[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const o of outcomes) out[o.operation] = (out[o.operation] ?? 0) + 1;
  return out;
};

describe('rbac/bootstrap-roles', () => {
  let stores: TestStores;
  before(async () => { stores = await newTestStores(); });
  after(async () => { await stores.close(); });

  it('creates the whole policy on an empty store and turns ready', async () => {
    const hook = new RBACBootstrapController(stores, quiet);
    assert.throws(() => hook.healthCheck.check());
    const outcomes = await hook.start();
    assert.equal(hook.healthCheck.name, 'poststarthook/rbac/bootstrap-roles');
    hook.healthCheck.check();
    assert.deepEqual(outcomes.filter((o) => o.error !== undefined), []);
    assert.deepEqual(byOp(outcomes), { Create: 69 + 50 + 7 + 7 });
    assert.equal((await stores.clusterRoles.list(ctx(), {})).items.length, 69);
    assert.equal((await stores.clusterRoleBindings.list(ctx(), {})).items.length, 50);
    assert.equal((await stores.roles.list(ctx(), {})).items.length, 7);
    assert.equal((await stores.roleBindings.list(ctx(), {})).items.length, 7);
    const admin = await get<ClusterRole>(stores.clusterRoles, 'cluster-admin');
    assert.deepEqual(admin.rules, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }]);
    assert.equal(admin.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate'], 'true');
    const reader = await get<RoleBinding>(stores.roleBindings, 'system::extension-apiserver-authentication-reader', 'kube-system');
    assert.equal(reader.roleRef.name, 'extension-apiserver-authentication-reader');
  });

  it('a second start changes nothing', async () => {
    const outcomes = await new RBACBootstrapController(stores, quiet).start();
    assert.deepEqual(byOp(outcomes), { None: 133 });
  });

  it('adds rules and subjects that went missing, and keeps what users added', async () => {
    const view = await get<ClusterRole>(stores.clusterRoles, 'system:aggregate-to-view');
    const custom = { verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] };
    const trimmed = (view.rules ?? []).slice(1);
    await put(stores.clusterRoles, { ...view, rules: [...trimmed, custom] } as KubeObject);
    const binding = await get<ClusterRoleBinding>(stores.clusterRoleBindings, 'system:public-info-viewer');
    const alice = { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' };
    await put(stores.clusterRoleBindings, { ...binding, subjects: [alice] } as KubeObject);

    const outcomes = await new RBACBootstrapController(stores, quiet).start();
    assert.deepEqual(outcomes.filter((o) => o.operation !== 'None').map((o) => `${o.kind}/${o.name}:${o.operation}`),
      ['ClusterRole/system:aggregate-to-view:Update', 'ClusterRoleBinding/system:public-info-viewer:Update']);

    const after = await get<ClusterRole>(stores.clusterRoles, 'system:aggregate-to-view');
    const rules = after.rules ?? [];
    assert.deepEqual(rules.slice(0, trimmed.length + 1), [...trimmed, custom], 'user rules stay, in place');
    // The first default rule comes back broken down: one verb and resource per rule.
    const first = bootstrapPolicy().clusterRoles.find((r) => r.metadata.name === 'system:aggregate-to-view')?.rules?.[0];
    assert.equal(rules.length - trimmed.length - 1, (first?.verbs?.length ?? 0) * (first?.resources?.length ?? 0));
    assert.ok(rules.some((r) => r.resources?.[0] === 'pods' && r.verbs?.[0] === 'watch'));
    const afterBinding = await get<ClusterRoleBinding>(stores.clusterRoleBindings, 'system:public-info-viewer');
    assert.deepEqual(afterBinding.subjects, [alice, ...(binding.subjects ?? [])]);
  });

  it('leaves objects annotated autoupdate "false" alone', async () => {
    const role = await get<ClusterRole>(stores.clusterRoles, 'system:heapster');
    const annotations = { ...role.metadata.annotations, 'rbac.authorization.kubernetes.io/autoupdate': 'false' };
    await put(stores.clusterRoles, { ...role, metadata: { ...role.metadata, annotations }, rules: [] } as KubeObject);
    const warnings: string[] = [];
    const outcomes = await new RBACBootstrapController(stores, { ...quiet, warn: (m) => warnings.push(m) }).start();
    const heapster = outcomes.find((o) => o.name === 'system:heapster');
    assert.deepEqual({ op: heapster?.operation, prot: heapster?.protected }, { op: 'Update', prot: true });
    assert.deepEqual((await get<ClusterRole>(stores.clusterRoles, 'system:heapster')).rules ?? [], []);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /reconcile-protected ClusterRole system:heapster/);
  });

  it('recreates a binding whose role changed', async () => {
    const b = await get<ClusterRoleBinding>(stores.clusterRoleBindings, 'system:kube-dns');
    await stores.clusterRoleBindings.delete(ctx(), 'system:kube-dns', undefined, {});
    await stores.clusterRoleBindings.create(ctx(), { ...b, metadata: { name: 'system:kube-dns' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' } } as KubeObject, undefined, { dryRun: false });
    const outcomes = await new RBACBootstrapController(stores, quiet).start();
    assert.equal(outcomes.find((o) => o.name === 'system:kube-dns' && o.kind === 'ClusterRoleBinding')?.operation, 'Recreate');
    const now = await get<ClusterRoleBinding>(stores.clusterRoleBindings, 'system:kube-dns');
    assert.equal(now.roleRef.name, 'system:kube-dns');
  });

  it('servers starting together on one store converge without errors', async () => {
    const fresh = await newTestStores();
    try {
      const runs = await Promise.all([1, 2, 3].map(() => new RBACBootstrapController(fresh, quiet).start()));
      for (const r of runs) assert.deepEqual(r.filter((o) => o.error !== undefined), []);
      const creates = runs.flat().filter((o) => o.operation === 'Create').length;
      assert.equal(creates, 133, 'each object created exactly once');
      assert.equal((await fresh.clusterRoles.list(ctx(), {})).items.length, 69);
      assert.deepEqual(byOp(await new RBACBootstrapController(fresh, quiet).start()), { None: 133 });
    } finally {
      await fresh.close();
    }
  });

  it('migrates custom rules of a pre-aggregation admin, and splits system:discovery\'s subjects', async () => {
    const fresh = await newTestStores();
    try {
      const custom = [{ verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] }];
      await fresh.clusterRoles.create(ctx(), { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
        metadata: { name: 'admin' }, rules: custom } as KubeObject, undefined, { dryRun: false });
      const old = [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:unauthenticated' }];
      await fresh.clusterRoleBindings.create(ctx(), { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding',
        metadata: { name: 'system:discovery' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:discovery' },
        subjects: old } as KubeObject, undefined, { dryRun: false });
      await new RBACBootstrapController(fresh, quiet).start();
      const migrated = await get<ClusterRole>(fresh.clusterRoles, 'system:aggregate-to-admin');
      assert.deepEqual(migrated.rules?.[0], custom[0]);
      const viewer = await get<ClusterRoleBinding>(fresh.clusterRoleBindings, 'system:public-info-viewer');
      assert.deepEqual(viewer.subjects?.[0], old[0]);
      const admin = await get<ClusterRole>(fresh.clusterRoles, 'admin');
      assert.ok(admin.aggregationRule !== undefined, 'admin became aggregated');
    } finally {
      await fresh.close();
    }
  });
});
