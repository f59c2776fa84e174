// rbac.authorization.k8s.io/v1 objects as the authorizer reads them: the generated wire types, read-only.
// Counterpart of k8s.io/api/rbac/v1 (the fields the authorizer reads).
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { DeepReadonly } from '../../apimachinery/validation/readonly.ts';
import type { rbacv1 } from '../../generated/types/index.gen.ts';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/**
 * A rule as the comparator reads it: every field optional, since escalation checks read the
 * rules of a role being written before validation has run.
 */
export type PolicyRule = DeepReadonly<Partial<rbacv1.PolicyRule>>;
export type Subject = DeepReadonly<rbacv1.Subject>;
export type RoleRef = DeepReadonly<rbacv1.RoleRef>;

/** A stored object (metadata as every KubeObject has it) whose own fields are read-only. */
type View<T> = KubeObject & DeepReadonly<Omit<T, 'apiVersion' | 'kind' | 'metadata'>>;

/** A Role or a ClusterRole. */
export type RoleObject = View<rbacv1.Role>;
export type ClusterRoleObject = View<rbacv1.ClusterRole>;
/** A RoleBinding or a ClusterRoleBinding. */
export type BindingObject = View<rbacv1.RoleBinding>;

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
