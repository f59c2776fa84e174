// The default ClusterRoleBindings of kube-apiserver (bootstrappolicy/policy.go): who holds the
// user-facing and system roles out of the box.
// Counterpart of plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go.
import type { ClusterRoleBinding, Subject } from '../../apis/rbac/v1/types.ts';
import type { PolicyFeatures } from './features.ts';
import { bootstrapMetadata, groupSubject, RBAC_GROUP, serviceAccountSubject, userSubject } from './rule.ts';

/** The well-known users and groups (k8s.io/apiserver/pkg/authentication/user and serviceaccount). */
const SYSTEM_MASTERS = 'system:masters';
const MONITORING_GROUP = 'system:monitoring';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
const ALL_SERVICE_ACCOUNTS = 'system:serviceaccounts';
const KUBE_PROXY = 'system:kube-proxy';
export const KUBE_CONTROLLER_MANAGER = 'system:kube-controller-manager';
export const KUBE_SCHEDULER = 'system:kube-scheduler';

/** A ClusterRoleBinding named after the ClusterRole it grants (NewClusterBinding). */
export function clusterBinding(role: string, subjects: readonly Subject[]): ClusterRoleBinding {
  const b: ClusterRoleBinding = {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding',
    metadata: bootstrapMetadata(role),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
  };
  if (subjects.length > 0) b.subjects = [...subjects];
  return b;
}

export function clusterRoleBindings(f: PolicyFeatures): ClusterRoleBinding[] {
  const bindings = [
    clusterBinding('cluster-admin', [groupSubject(SYSTEM_MASTERS)]),
    clusterBinding('system:monitoring', [groupSubject(MONITORING_GROUP)]),
    clusterBinding('system:discovery', [groupSubject(ALL_AUTHENTICATED)]),
    clusterBinding('system:basic-user', [groupSubject(ALL_AUTHENTICATED)]),
    clusterBinding('system:public-info-viewer', [groupSubject(ALL_AUTHENTICATED), groupSubject(ALL_UNAUTHENTICATED)]),
    clusterBinding('system:node-proxier', [userSubject(KUBE_PROXY)]),
    clusterBinding('system:kube-controller-manager', [userSubject(KUBE_CONTROLLER_MANAGER)]),
    clusterBinding('system:kube-dns', [serviceAccountSubject('kube-system', 'kube-dns')]),
    clusterBinding('system:kube-scheduler', [userSubject(KUBE_SCHEDULER)]),
    clusterBinding('system:volume-scheduler', [userSubject(KUBE_SCHEDULER)]),
    // The Node authorizer replaced this grant; the binding stays, without subjects.
    clusterBinding('system:node', []),
    // Every in-cluster workload may read the service account issuer's discovery documents.
    clusterBinding('system:service-account-issuer-discovery', [groupSubject(ALL_SERVICE_ACCOUNTS)]),
  ];
  if (f.ClusterTrustBundle) bindings.push(clusterBinding('system:cluster-trust-bundle-discovery', [groupSubject(ALL_SERVICE_ACCOUNTS)]));
  return bindings;
}

/**
 * Bindings split from an older one on upgrade (ClusterRoleBindingsToSplit): when the source exists
 * and the target does not, the target is created with the source's subjects, labels and annotations.
 */
export function clusterRoleBindingsToSplit(f: PolicyFeatures): ReadonlyMap<string, ClusterRoleBinding> {
  const out = new Map<string, ClusterRoleBinding>();
  for (const b of clusterRoleBindings(f)) {
    if (b.metadata.name === 'system:public-info-viewer') out.set('system:discovery', b);
  }
  return out;
}
