// The default Roles and RoleBindings in kube-system and kube-public (bootstrappolicy/namespace_policy.go):
// reading the extension-apiserver-authentication ConfigMap, leader locking of the controller
// manager and scheduler, and the bootstrap-signer, cloud-provider and token-cleaner controllers.
// Counterpart of plugin/pkg/auth/authorizer/rbac/bootstrappolicy/namespace_policy.go.
import type { PolicyRule, Role, RoleBinding, Subject } from '../../apis/rbac/v1/types.ts';
import { KUBE_CONTROLLER_MANAGER, KUBE_SCHEDULER } from './cluster-role-bindings.ts';
import { CONTROLLER_ROLE_PREFIX } from './controller-roles.ts';
import { bootstrapMetadata, eventsRule, G, RBAC_GROUP, rule, serviceAccountSubject, userSubject } from './rule.ts';

const KUBE_SYSTEM = 'kube-system';
const KUBE_PUBLIC = 'kube-public';

function role(namespace: string, name: string, rules: PolicyRule[]): Role {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: bootstrapMetadata(name, {}, namespace), rules };
}

/** A RoleBinding of the Role `roleName` in `namespace`, named `name` (by default after the role). */
function binding(namespace: string, roleName: string, subjects: readonly Subject[], name = roleName): RoleBinding {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding',
    metadata: bootstrapMetadata(name, {}, namespace),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: roleName },
    subjects: [...subjects],
  };
}

const leaderLocking = (component: string): string => `system::leader-locking-${component}`;

export function namespaceRoles(): Role[] {
  return [
    role(KUBE_SYSTEM, 'extension-apiserver-authentication-reader', [
      rule(['get', 'list', 'watch'], [G.core], ['configmaps'], ['extension-apiserver-authentication']),
    ]),
    role(KUBE_SYSTEM, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [
      rule(['get', 'list', 'watch'], [G.core], ['secrets']),
    ]),
    // Deprecated since 1.10; kept as kube keeps it.
    role(KUBE_SYSTEM, `${CONTROLLER_ROLE_PREFIX}cloud-provider`, [
      rule(['create', 'get', 'list', 'watch'], [G.core], ['configmaps']),
    ]),
    role(KUBE_SYSTEM, `${CONTROLLER_ROLE_PREFIX}token-cleaner`, [
      rule(['get', 'list', 'watch', 'delete'], [G.core], ['secrets']),
      eventsRule(),
    ]),
    role(KUBE_SYSTEM, leaderLocking('kube-controller-manager'), [
      rule(['watch'], [G.core], ['configmaps']),
      rule(['get', 'update'], [G.core], ['configmaps'], ['kube-controller-manager']),
      rule(['get', 'watch', 'list', 'create', 'update'], [G.coordination], ['leases']),
    ]),
    role(KUBE_SYSTEM, leaderLocking('kube-scheduler'), [
      rule(['watch'], [G.core], ['configmaps']),
      rule(['get', 'update'], [G.core], ['configmaps'], ['kube-scheduler']),
    ]),
    role(KUBE_PUBLIC, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [
      rule(['get', 'list', 'watch'], [G.core], ['configmaps']),
      rule(['update'], [G.core], ['configmaps'], ['cluster-info']),
      eventsRule(),
    ]),
  ];
}

export function namespaceRoleBindings(): RoleBinding[] {
  const sa = (name: string): Subject => serviceAccountSubject(KUBE_SYSTEM, name);
  return [
    binding(KUBE_SYSTEM, 'extension-apiserver-authentication-reader',
      [userSubject(KUBE_CONTROLLER_MANAGER), userSubject(KUBE_SCHEDULER)], 'system::extension-apiserver-authentication-reader'),
    binding(KUBE_SYSTEM, leaderLocking('kube-controller-manager'),
      [userSubject(KUBE_CONTROLLER_MANAGER), sa('kube-controller-manager'), sa('leader-election-controller')]),
    binding(KUBE_SYSTEM, leaderLocking('kube-scheduler'), [userSubject(KUBE_SCHEDULER), sa('kube-scheduler')]),
    binding(KUBE_SYSTEM, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [sa('bootstrap-signer')]),
    binding(KUBE_SYSTEM, `${CONTROLLER_ROLE_PREFIX}cloud-provider`, [sa('cloud-provider')]),
    binding(KUBE_SYSTEM, `${CONTROLLER_ROLE_PREFIX}token-cleaner`, [sa('token-cleaner')]),
    binding(KUBE_PUBLIC, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [sa('bootstrap-signer')]),
  ];
}
