// Rule resolution over fixed lists of roles and bindings. The RBAC registry uses it for escalation
// checks, loaded from storage rather than the authorizer's cache (kube's registry adapters), so a
// role or binding written a moment ago counts; a missing role is then reported as the registry
// reports it (`roles.rbac.authorization.k8s.io "x" not found`).
// Counterpart of pkg/registry/rbac/validation/rule.go (DefaultRuleResolver).
import { newNotFound } from '../../apimachinery/errors/status-error.ts';
import type { KubeList, KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext, type RequestContext } from '../../apimachinery/request/context.ts';
import { BindingIndex } from './cache.ts';
import { RBAC_GROUP, type BindingObject, type ClusterRoleObject, type RBACListers, type RoleObject } from './types.ts';

export interface ObjectLister {
  /** Rejects with a StatusError when storage fails. */
  list(ctx: RequestContext, opts: { readonly resourceVersion?: string }): Promise<KubeList>;
}

export interface RBACReaders {
  readonly roles: ObjectLister;
  readonly roleBindings: ObjectLister;
  readonly clusterRoles: ObjectLister;
  readonly clusterRoleBindings: ObjectLister;
}

export interface RBACObjects {
  readonly roles?: readonly KubeObject[];
  readonly roleBindings?: readonly KubeObject[];
  readonly clusterRoles?: readonly KubeObject[];
  readonly clusterRoleBindings?: readonly KubeObject[];
}

/**
 * Listers over fixed objects. A missing role is a NotFound on `roles`/`clusterroles` (the
 * registry's names) unless `singular` (the informer listers' `role`/`clusterrole`).
 */
export function staticListers(objects: RBACObjects, singular = false): RBACListers {
  const key = (ns: string, name: string): string => `${ns}/${name}`;
  const roles = new Map((objects.roles ?? []).map((o) => [key(o.metadata.namespace ?? '', o.metadata.name ?? ''), o as RoleObject]));
  const clusterRoles = new Map((objects.clusterRoles ?? []).map((o) => [o.metadata.name ?? '', o as ClusterRoleObject]));
  const crbs = new BindingIndex();
  for (const b of objects.clusterRoleBindings ?? []) crbs.set(b as BindingObject);
  const rbs = new Map<string, BindingIndex>();
  for (const b of objects.roleBindings ?? []) {
    const ns = b.metadata.namespace ?? '';
    let idx = rbs.get(ns);
    if (idx === undefined) rbs.set(ns, idx = new BindingIndex());
    idx.set(b as BindingObject);
  }
  return {
    getRole(ns, name) {
      const r = roles.get(key(ns, name));
      if (r === undefined) throw newNotFound({ group: RBAC_GROUP, resource: singular ? 'role' : 'roles' }, name);
      return r;
    },
    getClusterRole(name) {
      const r = clusterRoles.get(name);
      if (r === undefined) throw newNotFound({ group: RBAC_GROUP, resource: singular ? 'clusterrole' : 'clusterroles' }, name);
      return r;
    },
    listRoleBindings: (ns, user) => rbs.get(ns)?.candidates(user) ?? [],
    listClusterRoleBindings: (user) => crbs.candidates(user),
  };
}

/** Everything cluster-wide, and the roles and bindings of `namespace` (when not ''), read from storage. */
export async function loadRBACSnapshot(readers: RBACReaders, namespace: string): Promise<RBACListers> {
  const cluster = systemContext('');
  const local = systemContext(namespace);
  const [clusterRoles, clusterRoleBindings, roles, roleBindings] = await Promise.all([
    readers.clusterRoles.list(cluster, {}),
    readers.clusterRoleBindings.list(cluster, {}),
    namespace === '' ? undefined : readers.roles.list(local, {}),
    namespace === '' ? undefined : readers.roleBindings.list(local, {}),
  ]);
  return staticListers({
    clusterRoles: clusterRoles.items, clusterRoleBindings: clusterRoleBindings.items,
    roles: roles?.items ?? [], roleBindings: roleBindings?.items ?? [],
  });
}
