// rbac.authorization.k8s.io: v1 only (v1alpha1 and v1beta1 are gone from kube-apiserver). With a
// policy, writes go through the escalation checks of policy.ts.
// Counterpart of pkg/registry/rbac/rest.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import type { ResourceDefinition, ResourceStore } from '../../registry/rest/strategy.ts';
import { clusterRoleBindings } from './clusterrolebinding/clusterrolebinding.ts';
import { clusterRoles } from './clusterrole/clusterrole.ts';
import { clusterRoleBindingStorage, clusterRoleStorage, roleBindingStorage, roleStorage, type RBACPolicy } from './policy.ts';
import { roleBindings } from './rolebinding/rolebinding.ts';
import { roles } from './role/role.ts';
import { RBAC_GROUP } from './v1/types.ts';

/** Without `policy` (unit tests), writes are not checked for escalation. */
export function rbacGroup(policy?: RBACPolicy): APIGroupDefinition {
  const guarded = <T extends KubeObject>(d: ResourceDefinition<T>, storage: (p: RBACPolicy) => (store: ResourceStore<T>) => ResourceStore<T>):
    ResourceDefinition<KubeObject> => (policy === undefined ? d : { ...d, customizeStorage: storage(policy) });
  return {
    group: RBAC_GROUP,
    versions: [{
      version: 'v1',
      resources: [
        guarded(clusterRoleBindings, clusterRoleBindingStorage), guarded(clusterRoles, clusterRoleStorage),
        guarded(roleBindings, roleBindingStorage), guarded(roles, roleStorage),
      ],
    }],
  };
}
