// pods/eviction (pkg/registry/core/pod/storage/eviction.go): deletes a pod unless that would
// violate its PodDisruptionBudget, whose allowance it consumes.
import { newBadRequest, newForbidden, newTooManyRequests, type StatusError } from '../../../../apimachinery/errors/status-error.ts';
import { labelSelectorAsSelector, type LabelSelector } from '../../../../apimachinery/labels/index.ts';
import type { DeleteOptions, KubeObject, ObjectMeta } from '../../../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../../../apimachinery/request/context.ts';
import { nowRFC3339 } from '../../../../registry/generic/names.ts';
import type { ResourceStore } from '../../../../registry/rest/strategy.ts';
import type { Creater, GroupVersionAcceptor } from '../../../../registry/rest/capabilities.ts';
import type { StoreLookup } from '../../../../registry/rest/group.ts';
import type { Pod } from '../../v1/types.ts';
import { statusSuccess, unknownError } from './status.ts';

export interface Eviction { apiVersion?: string; kind?: string; metadata: ObjectMeta; deleteOptions?: DeleteOptions }

/** The parts of a policy/v1 PodDisruptionBudget eviction reads and writes. */
interface PDB {
  metadata: ObjectMeta;
  spec?: { selector?: LabelSelector | null; unhealthyPodEvictionPolicy?: 'IfHealthyBudget' | 'AlwaysAllow' };
  status?: {
    observedGeneration?: number; disruptionsAllowed?: number; currentHealthy?: number; desiredHealthy?: number;
    disruptedPods?: Record<string, string>;
    conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string; observedGeneration?: number }[];
  };
}

export const EVICTION_VIOLATES_BUDGET = "Cannot evict pod as it would violate the pod's disruption budget.";
/** kube refuses to grow the disruptedPods map beyond this (MaxDisruptedPodSize). */
const MAX_DISRUPTED_PODS = 2000;
const PDB_RESOURCE = { group: 'policy', resource: 'poddisruptionbudget' };

function budgetError(message: string, retryAfterSeconds: number): StatusError {
  const err = newTooManyRequests(EVICTION_VIOLATES_BUDGET, retryAfterSeconds);
  err.status.details = { ...err.status.details, causes: [{ reason: 'DisruptionBudget', message }] };
  return err;
}

/** Terminal, pending or already deleting pods are not protected by a budget (canIgnorePDB). */
function canIgnoreBudget(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' ||
    (pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null);
}

const isReady = (pod: Pod): boolean => (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** Whether a not-ready pod may go without consuming the budget (unhealthyPodEvictionPolicy). */
function unhealthyMayGo(pdb: PDB, pod: Pod): boolean {
  if (isReady(pod)) return false;
  if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return true;
  const desired = pdb.status?.desiredHealthy ?? 0;
  return (pdb.status?.currentHealthy ?? 0) >= desired && desired > 0;
}

/** checkAndDecrement: takes one disruption from the budget, or says why it cannot. */
export function decrementBudget(pdb: PDB, podName: string, now: string): PDB {
  const name = pdb.metadata.name ?? '';
  const status = pdb.status ?? {};
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) {
    throw budgetError(`The disruption budget ${name} is still being processed by the server.`, 10);
  }
  const allowed = status.disruptionsAllowed ?? 0;
  if (allowed < 0) throw newForbidden(PDB_RESOURCE, name, 'pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length >= MAX_DISRUPTED_PODS) {
    throw newForbidden(PDB_RESOURCE, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (allowed === 0) {
    throw budgetError(`The disruption budget ${name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`, 0);
  }
  const next = structuredClone(pdb);
  const s = next.status ?? {};
  s.disruptionsAllowed = allowed - 1;
  s.disruptedPods = { ...s.disruptedPods, [podName]: now };
  if (s.disruptionsAllowed === 0) {
    const conditions = (s.conditions ?? []).filter((c) => c.type !== 'DisruptionAllowed');
    conditions.push({ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '',
      lastTransitionTime: now, observedGeneration: s.observedGeneration ?? 0 });
    s.conditions = conditions;
  }
  next.status = s;
  return next;
}

/** An empty selector selects every pod of the namespace in policy/v1; a missing one none. */
function selects(pdb: PDB, pod: Pod): boolean {
  const sel = pdb.spec?.selector;
  if (sel === undefined || sel === null) return false;
  try {
    return labelSelectorAsSelector(sel).matches(pod.metadata.labels ?? {});
  } catch {
    return false; // an invalid selector matches nothing
  }
}

export function newEvictionREST(pods: ResourceStore<KubeObject>, lookup: StoreLookup): Creater & GroupVersionAcceptor {
  return {
    // EvictionREST.AcceptsGroupVersion: both Eviction versions have the same fields.
    acceptsGroupVersion: (gv) => gv.group === 'policy' && (gv.version === 'v1' || gv.version === 'v1beta1'),
    async create(ctx: RequestContext, obj, validate, opts) {
      const name = ctx.info.name;
      const eviction = obj as Eviction;
      if (name !== (eviction.metadata.name ?? '')) throw newBadRequest('name in URL does not match name in Eviction object');
      const deleteOptions: DeleteOptions = { ...eviction.deleteOptions };
      if (opts.dryRun) deleteOptions.dryRun = ['All'];
      if (validate !== undefined) await validate(structuredClone(obj));
      const pod = await pods.get(ctx, name, {}) as Pod;
      const budgets = lookup('poddisruptionbudgets.policy');
      if (!canIgnoreBudget(pod) && budgets !== undefined) {
        const list = await budgets.list(ctx, {});
        const matching = (list.items as PDB[]).filter((p) => selects(p, pod));
        if (matching.length > 1) {
          throw unknownError('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
        }
        const pdb = matching[0];
        if (pdb !== undefined && !unhealthyMayGo(pdb, pod)) {
          const dryRun = (deleteOptions.dryRun ?? []).length > 0;
          await budgets.updateUnchecked(ctx, pdb.metadata.name ?? '',
            (cur) => decrementBudget(cur as PDB, name, nowRFC3339()) as KubeObject, { dryRun });
          // the budget was spent on this very pod: it must not have changed meanwhile
          if (deleteOptions.preconditions === undefined) deleteOptions.preconditions = { resourceVersion: pod.metadata.resourceVersion ?? '' };
        }
      }
      await pods.delete(ctx, name, undefined, deleteOptions);
      return statusSuccess() as KubeObject;
    },
  };
}
