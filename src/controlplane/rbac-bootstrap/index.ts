// The default RBAC policy of kube-apiserver v1.36 and what keeps it in place: the
// rbac/bootstrap-roles post-start hook and the ClusterRole aggregation controller (both run as
// post-start hooks, controlplane/hooks.ts).
// Counterpart of plugin/pkg/auth/authorizer/rbac/bootstrappolicy and pkg/registry/rbac/rest.
export { aggregateRules, ClusterRoleAggregationController, type AggregationControllerOptions } from './aggregation-controller.ts';
export {
  RBACBootstrapController, rbacStoresFrom, type RBACBootstrapOptions, type RBACStores, type ReconcileOutcome,
} from './bootstrap-roles.ts';
export { AGGREGATE_TO_ADMIN, AGGREGATE_TO_EDIT, AGGREGATE_TO_VIEW } from './cluster-roles.ts';
export { covers, breakdownRule } from '../../authz/rbac/policy-comparator.ts';
export { policyFeatures, V1_36_FEATURES, type PolicyFeature, type PolicyFeatures } from './features.ts';
export { bootstrapPolicy, type BootstrapPolicy } from './policy.ts';
export { reconcileBinding, reconcileRole, semanticEqual, type ReconcileOperation } from './reconcile.ts';
export { AUTOUPDATE_ANNOTATION, BOOTSTRAPPING_LABEL } from './rule.ts';
