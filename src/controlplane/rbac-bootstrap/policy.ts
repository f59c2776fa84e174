// The whole default RBAC policy of kube-apiserver v1.36, as the rbac/bootstrap-roles post-start
// hook reconciles it: cluster roles (controller roles included), cluster role bindings, and the
// namespaced roles and bindings.
// Counterpart of plugin/pkg/auth/authorizer/rbac/bootstrappolicy.
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../apis/rbac/v1/types.ts';
import { CLUSTER_ROLES_TO_AGGREGATE, clusterRoles } from './cluster-roles.ts';
import { clusterRoleBindings, clusterRoleBindingsToSplit } from './cluster-role-bindings.ts';
import { controllerRoleBindings, controllerRoles } from './controller-roles.ts';
import { policyFeatures, type PolicyFeatures } from './features.ts';
import { namespaceRoleBindings, namespaceRoles } from './namespace-roles.ts';

export interface BootstrapPolicy {
  readonly clusterRoles: readonly ClusterRole[];
  readonly clusterRoleBindings: readonly ClusterRoleBinding[];
  /** Roles in kube-system and kube-public. */
  readonly roles: readonly Role[];
  readonly roleBindings: readonly RoleBinding[];
  /** Old role name → aggregated source role its rules migrate to (see primeAggregatedClusterRoles). */
  readonly clusterRolesToAggregate: Readonly<Record<string, string>>;
  /** Existing binding name → the binding to create from its subjects (see primeSplitClusterRoleBindings). */
  readonly clusterRoleBindingsToSplit: ReadonlyMap<string, ClusterRoleBinding>;
}

/** The policy for a set of feature gates (default: v1.36's). Fresh objects on every call. */
export function bootstrapPolicy(features: PolicyFeatures = policyFeatures()): BootstrapPolicy {
  return {
    clusterRoles: [...clusterRoles(features), ...controllerRoles(features)],
    clusterRoleBindings: [...clusterRoleBindings(features), ...controllerRoleBindings(features)],
    roles: namespaceRoles(),
    roleBindings: namespaceRoleBindings(),
    clusterRolesToAggregate: CLUSTER_ROLES_TO_AGGREGATE,
    clusterRoleBindingsToSplit: clusterRoleBindingsToSplit(features),
  };
}
