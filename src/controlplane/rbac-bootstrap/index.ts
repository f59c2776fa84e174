// The default RBAC policy of kube-apiserver v1.36 and what keeps it in place: the
// rbac/bootstrap-roles post-start hook and the ClusterRole aggregation controller.
// Counterpart of pkg/registry/rbac/rest/storage_rbac.go (PostStartHook) and
// pkg/controller/clusterroleaggregation.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { Store } from '../../registry/generic/store.ts';
import type { HealthCheck } from '../../server/healthz.ts';
import { ClusterRoleAggregationController } from './aggregation-controller.ts';
import { RBACBootstrapController, rbacStoresFrom, type RBACBootstrapOptions, type ReconcileOutcome } from './bootstrap-roles.ts';

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

/**
 * Both halves together, for the control plane: `start` reconciles the default policy (after the
 * system namespaces exist) and then starts the aggregation controller; `readyz` turns healthy once
 * the policy is in place.
 */
export class RBACBootstrap {
  readonly readyz: HealthCheck;
  private readonly hook: RBACBootstrapController;
  private readonly aggregation: ClusterRoleAggregationController;

  /** `stores`: the server's stores keyed "resource.group" (the RBAC ones must be there; namespaces is used when present). */
  constructor(stores: ReadonlyMap<string, Store<KubeObject>>, opts: RBACBootstrapOptions = {}) {
    const rbac = rbacStoresFrom(stores);
    this.hook = new RBACBootstrapController(rbac, opts);
    this.aggregation = new ClusterRoleAggregationController(rbac.clusterRoles);
    this.readyz = this.hook.healthCheck;
  }

  /** Resolves when the policy is reconciled and the controller follows ClusterRoles; rejects only if listing them fails. */
  async start(): Promise<readonly ReconcileOutcome[]> {
    const outcomes = await this.hook.start();
    await this.aggregation.start();
    return outcomes;
  }

  stop(): void {
    this.hook.stop();
    this.aggregation.stop();
  }
}
