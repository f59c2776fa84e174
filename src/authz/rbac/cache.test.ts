import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeList, KubeObject } from '../../apimachinery/meta/types.ts';
import type { Watch, WatchEvent } from '../../apimachinery/watch/event.ts';
import { attributesRecord } from '../authorizer.ts';
import { RBACCache, type ListWatcher } from './cache.ts';
import { RBACAuthorizer } from './rbac.ts';

/** A source whose list answers `items` and whose watches deliver what the test pushes. */
class FakeSource implements ListWatcher {
  items: KubeObject[] = [];
  lists = 0;
  private readonly watches = new Set<{ push: (e: WatchEvent | undefined) => void }>();

  list(): Promise<KubeList> {
    this.lists++;
    return Promise.resolve({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: String(this.lists) }, items: [...this.items] });
  }

  watch(): Promise<Watch> {
    const queue: (WatchEvent | undefined)[] = [];
    let wake: (() => void) | undefined;
    const entry = { push: (e: WatchEvent | undefined) => { queue.push(e); wake?.(); } };
    this.watches.add(entry);
    const watches = this.watches;
    return Promise.resolve({
      stop: () => { entry.push(undefined); watches.delete(entry); },
      async *[Symbol.asyncIterator]() {
        for (;;) {
          while (queue.length === 0) await new Promise<void>((r) => { wake = r; });
          const e = queue.shift();
          if (e === undefined) return;
          yield e;
        }
      },
    });
  }

  emit(e: WatchEvent): void { for (const w of this.watches) w.push(e); }
}

const until = async (what: string, cond: () => boolean): Promise<void> => {
  for (let i = 0; i < 500; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
};

describe('RBACCache', () => {
  it('lists, follows watches, relists after a watch ends, and indexes bindings by subject', async () => {
    const roles = new FakeSource();
    const roleBindings = new FakeSource();
    const clusterRoles = new FakeSource();
    const clusterRoleBindings = new FakeSource();
    clusterRoles.items = [{ metadata: { name: 'reader' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] } as KubeObject];
    const cache = new RBACCache({ roles, roleBindings, clusterRoles, clusterRoleBindings });
    await cache.start();
    const rbac = new RBACAuthorizer(cache);
    const alice = { name: 'alice', groups: ['system:authenticated'] };
    const getPods = attributesRecord({ user: alice, verb: 'get', resourceRequest: true, resource: 'pods', namespace: 'ns' });
    try {
      assert.equal(rbac.decide(getPods).decision, 'NoOpinion');
      const binding = { metadata: { name: 'b', namespace: 'ns' }, roleRef: { kind: 'ClusterRole', name: 'reader' }, subjects: [{ kind: 'User', name: 'alice' }] } as KubeObject;
      roleBindings.emit({ type: 'ADDED', object: binding });
      await until('the binding', () => rbac.decide(getPods).decision === 'Allow');
      assert.equal(cache.listRoleBindings('ns', { name: 'bob', groups: ['system:authenticated'] }).length, 0);
      assert.equal(cache.listRoleBindings('ns', alice).length, 1);

      // Changing the subjects re-indexes the binding.
      roleBindings.emit({ type: 'MODIFIED', object: { ...binding, subjects: [{ kind: 'Group', name: 'system:authenticated' }] } as KubeObject });
      await until('the group subject', () => cache.listRoleBindings('ns', { name: 'bob', groups: ['system:authenticated'] }).length === 1);

      roleBindings.emit({ type: 'DELETED', object: binding });
      await until('the deletion', () => rbac.decide(getPods).decision === 'NoOpinion');

      // A watch that ends is resumed from the last resourceVersion; one that is too old (410) is
      // followed by a new list.
      roleBindings.items = [binding];
      roleBindings.emit({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410, reason: 'Expired', message: 'too old' } });
      await until('the relist', () => rbac.decide(getPods).decision === 'Allow');
      assert.equal(roleBindings.lists, 2);

      assert.throws(() => cache.getRole('ns', 'x'), { message: 'role.rbac.authorization.k8s.io "x" not found' });
      assert.throws(() => cache.getClusterRole('x'), { message: 'clusterrole.rbac.authorization.k8s.io "x" not found' });
    } finally {
      cache.stop();
    }
  });
});
