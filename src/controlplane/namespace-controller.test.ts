import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deletionConditions } from './namespace-controller.ts';

// The conditions of kube's namespace controller (pkg/controller/namespace/deletion/status_condition_utils.go).
describe('deletionConditions', () => {
  const byType = (c: ReturnType<typeof deletionConditions>): Record<string, string> =>
    Object.fromEntries(c.map((x) => [x.type, `${x.status} ${x.reason ?? ''}: ${x.message ?? ''}`]));
  const cases: { name: string; args: Parameters<typeof deletionConditions>; want: Record<string, string> }[] = [
    { name: 'a pod past its grace period is a deletion failure, nothing counted as remaining', args: [new Map(), new Map(),
      ['unexpected items still remain in namespace: x for gvr: /v1, Resource=pods']],
    want: {
      NamespaceDeletionContentFailure: 'True ContentDeletionFailed: Failed to delete all resource types, 1 remaining: unexpected items still remain in namespace: x for gvr: /v1, Resource=pods',
      NamespaceContentRemaining: 'False ContentRemoved: All content successfully removed',
    } },
    { name: 'content held by a finalizer', args: [new Map([['configmaps.', 1]]), new Map([['example.com/hold', 1]])],
      want: {
        NamespaceDeletionContentFailure: 'False ContentDeleted: All content successfully deleted, may be waiting on finalization',
        NamespaceContentRemaining: 'True SomeResourcesRemain: Some resources are remaining: configmaps. has 1 resource instances',
      } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = byType(deletionConditions(...c.args));
      for (const [type, want] of Object.entries(c.want)) assert.equal(got[type], want);
      assert.equal(Object.keys(got).length, 5);
    });
  }
});
