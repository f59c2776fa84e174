// kube-controller-manager's clusterrole-aggregation controller (pkg/controller/clusterroleaggregation):
// a ClusterRole with an aggregationRule gets as rules the union of the rules of every other
// ClusterRole its selectors match, in a deterministic order (selectors in order, matching roles by
// name, rules in order, duplicates dropped), and keeps it so as ClusterRoles change.
import { isNotFound } from '../../apimachinery/errors/status-error.ts';
import { labelSelectorAsSelector } from '../../apimachinery/labels/label-selector.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { ClusterRole, PolicyRule } from '../../apis/rbac/v1/types.ts';
import { Controller, type ControllerOptions } from '../../client/controller.ts';
import type { SharedInformer } from '../../client/cache/shared-informer.ts';
import { ItemExponentialFailureRateLimiter } from '../../client/workqueue/rate-limiter.ts';
import { semanticEqual } from './reconcile.ts';
import type { ResourceStore } from '../../registry/rest/strategy.ts';

const RETRY_MS = 500;

/** Go's string order (byte-wise for the ASCII names ClusterRoles have). */
const byName = (a: ClusterRole, b: ClusterRole): number => {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * The rules `role` aggregates from `all` (which may include `role` itself, skipped). Throws a
 * LabelSelectorError for an invalid selector.
 */
export function aggregateRules(role: ClusterRole, all: Iterable<ClusterRole>): PolicyRule[] {
  const out: PolicyRule[] = [];
  const roles = [...all];
  for (const sel of role.aggregationRule?.clusterRoleSelectors ?? []) {
    const selector = labelSelectorAsSelector(sel);
    const matching = roles.filter((r) => selector.matches(r.metadata.labels)).sort(byName);
    for (const r of matching) {
      if (r.metadata.name === role.metadata.name) continue;
      for (const rule of r.rules ?? []) {
        if (!out.some((have) => semanticEqual(have, rule))) out.push(structuredClone(rule));
      }
    }
  }
  return out;
}

const SKIP = new Error('no longer aggregated');

export interface AggregationControllerOptions {
  /** Where sync failures go. Default: console.error. */
  readonly warn?: (message: string) => void;
  /** The shared informers (absent: a private one). */
  readonly controller?: ControllerOptions;
}

export class ClusterRoleAggregationController extends Controller {
  private readonly informer: SharedInformer;

  constructor(private readonly clusterRoles: ResourceStore<KubeObject>, opts: AggregationControllerOptions = {}) {
    super('clusterrole aggregation', {
      rateLimiter: new ItemExponentialFailureRateLimiter(RETRY_MS, 8 * RETRY_MS), quiet: isNotFound,
      ...(opts.warn !== undefined ? { log: opts.warn } : {}), ...opts.controller,
    });
    // Which aggregated role depends on which is not tracked: any change queues every aggregated
    // role, as kube's controller does (the set of ClusterRoles is small).
    const changed = (): void => { for (const r of this.informer.list()) if ((r as ClusterRole).aggregationRule !== undefined) this.queue.add(r.metadata.name ?? ''); };
    this.informer = this.follow(clusterRoles, 'clusterroles.rbac.authorization.k8s.io', { onAdd: changed, onUpdate: changed, onDelete: changed });
  }

  /** Resolves when no sync is queued or running (for tests and orderly shutdown). */
  async idle(): Promise<void> {
    while (this.queue.busy) await new Promise((r) => setImmediate(r));
  }

  protected async sync(name: string): Promise<void> {
    const role = this.informer.get('', name) as ClusterRole | undefined;
    if (role?.aggregationRule === undefined) return;
    const rules = aggregateRules(role, this.informer.list() as ClusterRole[]);
    if (semanticEqual(rules, role.rules ?? [])) return;
    const ctx = systemContext('');
    try {
      await this.clusterRoles.update(ctx, name, {
        updatedObject: (_c, cur) => {
          if (cur === undefined || (cur as ClusterRole).aggregationRule === undefined) throw SKIP;
          const next = structuredClone(cur) as ClusterRole;
          if (rules.length > 0) next.rules = rules; else delete next.rules;
          return next as KubeObject;
        },
      }, undefined, undefined, false, { dryRun: false, fieldManager: 'clusterrole-aggregation-controller' });
    } catch (err) {
      if (err === SKIP) return;
      throw err;
    }
  }
}
