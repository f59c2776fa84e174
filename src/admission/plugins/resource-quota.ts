// ResourceQuota admission (k8s.io/apiserver/pkg/admission/plugin/resourcequota): a write that would
// take a namespace's usage past a quota's hard limits is refused; an allowed one is charged to the
// quotas' status.used (compare-and-swap) before the object is stored.
import { isNotFound, newForbidden, type StatusError } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation, Plugin } from '../interfaces.ts';
import {
  IGNORED_RESOURCES, objectCountEvaluator, parseObjectCountName, persistentVolumeClaimEvaluator, serviceEvaluator,
  type Evaluator, type GroupResource, type QuotaObject, type ScopeSelector,
} from './resource-quota-evaluators.ts';
import { podEvaluator } from './resource-quota-pods.ts';
import {
  addUsage, exceeded, fromUsage, mask, prettyPrint, removeZeros, subtractNonNegative, toUsage, type Usage,
} from './resource-quota-quantity.ts';

/** How the plugin reads and charges the quotas of a namespace. */
export interface QuotaAccess {
  /** The ResourceQuotas of a namespace (none: an empty list). */
  list(namespace: string): Promise<QuotaObject[]>;
  /**
   * Writes `mutate(current)` as the quota's new status, compare-and-swap, retrying on conflict with
   * the newer quota. Rejects with what `mutate` throws, or NotFound when the quota is gone.
   */
  updateStatus(namespace: string, name: string, mutate: (current: QuotaObject) => QuotaObject): Promise<void>;
}

const LEGACY_COUNT_NAMES: Readonly<Record<string, string>> = {
  configmaps: 'configmaps', secrets: 'secrets', replicationcontrollers: 'replicationcontrollers', resourcequotas: 'resourcequotas',
};

/** The evaluator of a group/resource: pods, services and claims have their own, any other kind is counted. */
export function evaluatorFor(gr: GroupResource): Evaluator {
  if (gr.group === '') {
    if (gr.resource === 'pods') return podEvaluator;
    if (gr.resource === 'services') return serviceEvaluator;
    if (gr.resource === 'persistentvolumeclaims') return persistentVolumeClaimEvaluator;
    const alias = LEGACY_COUNT_NAMES[gr.resource];
    if (alias !== undefined) return objectCountEvaluator(gr, alias);
  }
  return objectCountEvaluator(gr);
}

/** The evaluators that charge any of these quota names (what the quota controller must count). */
export function evaluatorsFor(names: readonly string[]): Evaluator[] {
  const kinds = new Map<string, GroupResource>();
  const add = (gr: GroupResource): void => { kinds.set(`${gr.group}/${gr.resource}`, gr); };
  for (const gr of [podEvaluator, serviceEvaluator, persistentVolumeClaimEvaluator].map((e) => e.groupResource)) add(gr);
  for (const r of Object.keys(LEGACY_COUNT_NAMES)) add({ group: '', resource: r });
  for (const n of names) { const gr = parseObjectCountName(n); if (gr !== undefined) add(gr); }
  return [...kinds.values()].map(evaluatorFor).filter((e) => e.matchingResources(names).length > 0);
}

/** spec.scopes (as Exists) and spec.scopeSelector's expressions. */
export function quotaScopes(q: QuotaObject): ScopeSelector[] {
  return [...(q.spec?.scopes ?? []).map((s) => ({ scopeName: s, operator: 'Exists' })), ...q.spec?.scopeSelector?.matchExpressions ?? []];
}

/** generic.Matches: the quota tracks something this evaluator charges, and the object is in all its scopes. */
export function quotaMatches(e: Evaluator, q: QuotaObject, obj: KubeObject): boolean {
  return e.matchingResources(Object.keys(q.status?.hard ?? {})).length > 0 && quotaScopes(q).every((s) => e.matchesScope(s, obj));
}

type Fail = (message: string) => StatusError;

/** The usage `requested` adds to a quota, refused when it would go past the quota's hard limits. */
function charge(q: QuotaObject, delta: Usage, fail: Fail, enforce: boolean): Usage {
  const hard = toUsage(q.status?.hard);
  const used = toUsage(q.status?.used);
  const requested = mask(delta, hard.keys());
  const next = addUsage(used, requested);
  if (enforce) {
    const over = exceeded(mask(next, requested.keys()), hard);
    if (over.length > 0) {
      throw fail(`exceeded quota: ${q.metadata.name ?? ''}, requested: ${prettyPrint(mask(requested, over))}, ` +
        `used: ${prettyPrint(mask(used, over))}, limited: ${prettyPrint(mask(hard, over))}`);
    }
  }
  return next;
}

/**
 * CheckRequest: for each quota the object falls under, the usage it adds (quotas it adds nothing to
 * are left out). Rejects with Forbidden when a pod lacks a resource a quota tracks, when a quota's
 * usage is not known yet, or when the usage would exceed a quota.
 */
export function checkRequest(quotas: readonly QuotaObject[], a: Attributes, e: Evaluator, now: number, fail: Fail): Map<QuotaObject, Usage> {
  const obj = a.object;
  const out = new Map<QuotaObject, Usage>();
  if (obj === undefined || !e.handles(a)) return out;
  const interesting: QuotaObject[] = [];
  for (const q of quotas) {
    if (!quotaMatches(e, q, obj)) continue;
    const restricted = e.matchingResources(Object.keys(q.status?.hard ?? {}));
    const missing = e.constraints(restricted, obj);
    if (missing !== undefined) throw fail(`failed quota: ${q.metadata.name ?? ''}: ${missing}`);
    const used = q.status?.used ?? {};
    if (restricted.some((r) => !(r in used))) {
      throw fail(`status unknown for quota: ${q.metadata.name ?? ''}, resources: ${[...restricted].sort().join(',')}`);
    }
    interesting.push(q);
  }
  if (interesting.length === 0) return out;
  const input = e.usage(obj, now);
  const negative = [...input].filter(([, v]) => v.nano < 0n).map(([k]) => k).sort();
  if (negative.length > 0) throw fail(`quota usage is negative for resource(s): ${negative.join(',')}`);
  for (const q of interesting) {
    let delta = input;
    const old = a.oldObject;
    if (a.operation === 'UPDATE') {
      if (old === undefined) throw fail('unable to get previous usage since prior version of object was not found');
      if ((old.metadata.resourceVersion ?? '') !== '' && quotaMatches(e, q, old)) delta = subtractNonNegative(input, e.usage(old, now));
    }
    delta = removeZeros(delta);
    if (delta.size === 0) continue;
    charge(q, delta, fail, a.subresource !== 'status');
    out.set(q, delta);
  }
  return out;
}

export interface ResourceQuotaOptions {
  readonly now?: () => number;
}

export function resourceQuotaAdmission(quotas: QuotaAccess, opts: ResourceQuotaOptions = {}): Plugin {
  const now = opts.now ?? Date.now;
  return {
    name: 'ResourceQuota',
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE',
    async validate(_ctx: RequestContext, a: Attributes): Promise<void> {
      if (a.namespace === '' || (a.subresource !== '' && !(a.resource.resource === 'pods' && a.subresource === 'resize'))) return;
      const gr = { group: a.resource.group, resource: a.resource.resource };
      if (IGNORED_RESOURCES.has(`${gr.group}/${gr.resource}`)) return;
      const e = evaluatorFor(gr);
      if (!e.handles(a)) return;
      const list = await quotas.list(a.namespace);
      if (list.length === 0) return;
      const fail: Fail = (message) => newForbidden(gr, a.name, message);
      const deltas = checkRequest(list, a, e, now(), fail);
      if (a.dryRun) return;
      // Charged one quota at a time, each checked again against its newest status.
      for (const [q, delta] of deltas) {
        await quotas.updateStatus(a.namespace, q.metadata.name ?? '', (cur) => {
          const next = structuredClone(cur);
          const used = charge(cur, delta, fail, a.subresource !== 'status');
          next.status = { ...next.status, used: fromUsage(used) };
          return next;
        }).catch((err: unknown) => {
          if (!isNotFound(err)) throw err; // a quota deleted meanwhile limits nothing
        });
      }
    },
  };
}
