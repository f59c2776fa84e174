import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { ClusterRole, PolicyRule } from '../../apis/rbac/v1/types.ts';
import { aggregateRules, ClusterRoleAggregationController } from './aggregation-controller.ts';
import { RBACBootstrapController } from './bootstrap-roles.ts';
import { bootstrapPolicy } from './policy.ts';
import { semanticEqual } from './reconcile.ts';
import { newTestStores, type TestStores } from './testing.ts';

const r = (resource: string, verbs = ['get']): PolicyRule => ({ verbs, apiGroups: [''], resources: [resource] });
const role = (name: string, labels: Record<string, string>, rules: PolicyRule[], aggregateFrom?: string[]): ClusterRole => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name, labels }, rules,
  ...(aggregateFrom !== undefined ? { aggregationRule: { clusterRoleSelectors: aggregateFrom.map((l) => ({ matchLabels: { [l]: 'true' } })) } } : {}),
});

describe('aggregateRules', () => {
  const target = role('target', {}, [], ['a', 'b']);
  const cases: { name: string; roles: ClusterRole[]; want: PolicyRule[] }[] = [
    { name: 'nothing matches', roles: [role('x', { c: 'true' }, [r('pods')])], want: [] },
    { name: 'matching roles by name, rules in order',
      roles: [role('z', { a: 'true' }, [r('secrets')]), role('m', { a: 'true' }, [r('pods'), r('services')])],
      want: [r('pods'), r('services'), r('secrets')] },
    { name: 'selectors in order, duplicates once',
      roles: [role('b1', { b: 'true' }, [r('nodes'), r('pods')]), role('a1', { a: 'true' }, [r('pods')])],
      want: [r('pods'), r('nodes')] },
    { name: 'a role matching both selectors is taken twice, its rules once',
      roles: [role('ab', { a: 'true', b: 'true' }, [r('pods')])], want: [r('pods')] },
    { name: 'the role itself is skipped', roles: [{ ...role('target', { a: 'true' }, [r('pods')]) }], want: [] },
    { name: 'label values must match', roles: [role('x', { a: 'false' }, [r('pods')])], want: [] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(aggregateRules(target, c.roles), c.want));
});

describe('ClusterRoleAggregationController', () => {
  let stores: TestStores;
  let controller: ClusterRoleAggregationController;
  const ctx = systemContext('');
  const get = async (name: string): Promise<ClusterRole> => (await stores.clusterRoles.get(ctx, name, {})) as unknown as ClusterRole;
  const create = async (obj: ClusterRole): Promise<void> => {
    await stores.clusterRoles.create(ctx, obj as KubeObject, undefined, { dryRun: false });
  };
  /** Polls until `pred` holds for the role (a guard against a hang, not a timing assertion). */
  const until = async (name: string, pred: (r: ClusterRole) => boolean): Promise<ClusterRole> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      await controller.idle();
      const got = await get(name);
      if (pred(got)) return got;
      if (Date.now() > deadline) assert.fail(`${name}: condition never held; rules ${JSON.stringify(got.rules)}`);
      await new Promise((res) => setTimeout(res, 20));
    }
  };
  const hasResource = (res: string) => (x: ClusterRole): boolean => (x.rules ?? []).some((y) => y.resources?.includes(res));

  before(async () => {
    stores = await newTestStores();
    await new RBACBootstrapController(stores, { warn: () => {} }).start();
    controller = new ClusterRoleAggregationController(stores.clusterRoles, { warn: () => {} });
    await controller.start();
  });
  after(async () => {
    controller.stop();
    await stores.close();
  });

  it('admin, edit and view get kube\'s aggregated rules', async () => {
    const policy = bootstrapPolicy();
    const source = (name: string): PolicyRule[] => policy.clusterRoles.find((x) => x.metadata.name === name)?.rules ?? [];
    const view = await until('view', (x) => (x.rules ?? []).length > 0);
    assert.deepEqual(view.rules, source('system:aggregate-to-view'));
    const edit = await until('edit', (x) => hasResource('deployments')(x) && hasResource('pods/log')(x));
    // edit aggregates system:aggregate-to-edit and view (sorted by name), view holding the view rules.
    const viewRules = source('system:aggregate-to-view');
    const expectedEdit: PolicyRule[] = [];
    for (const rule of [...source('system:aggregate-to-edit'), ...viewRules]) {
      if (!expectedEdit.some((w) => semanticEqual(w, rule))) expectedEdit.push(rule);
    }
    assert.deepEqual(edit.rules, expectedEdit);
    const admin = await until('admin', (x) => hasResource('rolebindings')(x) && hasResource('pods/log')(x) && hasResource('deployments')(x));
    const expectedAdmin: PolicyRule[] = [];
    // admin's matches sorted by name: edit, system:aggregate-to-admin.
    for (const rule of [...expectedEdit, ...source('system:aggregate-to-admin')]) {
      if (!expectedAdmin.some((w) => semanticEqual(w, rule))) expectedAdmin.push(rule);
    }
    assert.deepEqual(admin.rules, expectedAdmin);
  });

  it('a new role labelled aggregate-to-view reaches view, edit and admin', async () => {
    await create(role('widgets-view', { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
      [{ verbs: ['get', 'list', 'watch'], apiGroups: ['example.com'], resources: ['widgets'] }]));
    for (const name of ['view', 'edit', 'admin']) await until(name, hasResource('widgets'));
  });

  it('changes of a source role follow', async () => {
    const w = await get('widgets-view');
    await stores.clusterRoles.update(ctx, 'widgets-view', {
      updatedObject: () => ({ ...w, rules: [{ verbs: ['get'], apiGroups: ['example.com'], resources: ['gadgets'] }] }) as KubeObject,
    }, undefined, undefined, false, { dryRun: false });
    const view = await until('view', (x) => hasResource('gadgets')(x) && !hasResource('widgets')(x));
    assert.ok(!hasResource('widgets')(view));
  });

  it('removing the label or the role takes its rules away', async () => {
    const w = await get('widgets-view');
    await stores.clusterRoles.update(ctx, 'widgets-view', {
      updatedObject: () => ({ ...w, metadata: { ...w.metadata, labels: {} } }) as KubeObject,
    }, undefined, undefined, false, { dryRun: false });
    await until('admin', (x) => !hasResource('gadgets')(x));
    await create(role('more-view', { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }, [r('configmaps/custom')]));
    await until('view', hasResource('configmaps/custom'));
    await stores.clusterRoles.delete(ctx, 'more-view', undefined, {});
    await until('view', (x) => !hasResource('configmaps/custom')(x));
  });

  it('a custom aggregated role is kept up to date too, and one without matches has no rules', async () => {
    await create(role('mine', {}, [r('stale')], ['example.com/aggregate-to-mine']));
    await until('mine', (x) => (x.rules ?? []).length === 0);
    await create(role('part', { 'example.com/aggregate-to-mine': 'true' }, [r('pods', ['list'])]));
    const mine = await until('mine', hasResource('pods'));
    assert.deepEqual(mine.rules, [r('pods', ['list'])]);
  });
});
