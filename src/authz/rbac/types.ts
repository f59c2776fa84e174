// The parts of rbac.authorization.k8s.io/v1 objects the authorizer reads, in their JSON shape.
// (The API group's own types live in apis/rbac, a layer above this one.)
// Counterpart of k8s.io/api/rbac/v1 (the fields the authorizer reads).
import type { KubeObject } from '../../apimachinery/meta/types.ts';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

export interface PolicyRule {
  readonly verbs?: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

export interface Subject { readonly kind?: string; readonly apiGroup?: string; readonly name?: string; readonly namespace?: string }
export interface RoleRef { readonly apiGroup?: string; readonly kind?: string; readonly name?: string }

/** A Role or a ClusterRole. */
export interface RoleObject extends KubeObject { readonly rules?: readonly PolicyRule[] }
export interface ClusterRoleObject extends RoleObject {
  readonly aggregationRule?: { readonly clusterRoleSelectors?: readonly unknown[] } | null;
}
/** A RoleBinding or a ClusterRoleBinding. */
export interface BindingObject extends KubeObject { readonly subjects?: readonly Subject[]; readonly roleRef: RoleRef }

/** The four kinds of objects RBAC is made of, as the rule resolver reads them (listers in kube). */
export interface RBACListers {
  /** Throws the not-found error of the source when the role does not exist. */
  getRole(namespace: string, name: string): RoleObject;
  /** Throws the not-found error of the source when the cluster role does not exist. */
  getClusterRole(name: string): ClusterRoleObject;
  /** The role bindings of `namespace` that may apply to `user` (all of them, or an index's candidates). */
  listRoleBindings(namespace: string, user: { readonly name: string; readonly groups: readonly string[] }): readonly BindingObject[];
  /** The cluster role bindings that may apply to `user`. */
  listClusterRoleBindings(user: { readonly name: string; readonly groups: readonly string[] }): readonly BindingObject[];
}
