// When a namespace's enforce level tightens, its existing pods are checked against the new level
// and the violations are returned as warnings: one per distinct set of reasons, naming the first
// pod (by name) and how many others share it. At most 3000 pods, one per controller first, and
// no longer than a second (or half the time the request has left).
// Counterpart of EvaluatePodsInNamespace in k8s.io/pod-security-admission/admission/admission.go.
import type { PodSpec } from '../../../generated/types/corev1.gen.ts';
import { lvString, type LevelVersion } from './api.ts';
import { aggregate, forbiddenReason, type Evaluator } from './policy/registry.ts';
import type { PodMeta } from './policy/check.ts';

export const NAMESPACE_MAX_PODS_TO_CHECK = 3000;
export const NAMESPACE_POD_CHECK_TIMEOUT_MS = 1000;

export interface ListedPod {
  readonly metadata?: PodMeta & { readonly ownerReferences?: readonly { readonly uid: string; readonly controller?: boolean }[] };
  readonly spec?: PodSpec;
}

/**
 * Pods of exempt runtime classes left out; the first pod of each controller before the other
 * pods of that controller, so that a limited check sees as many workloads as it can.
 */
function prioritize(pods: readonly ListedPod[], exemptRuntimeClass: (rc: string | undefined) => boolean): ListedPod[] {
  const first: ListedPod[] = [];
  const rest: ListedPod[] = [];
  const seen = new Set<string>();
  for (const pod of pods) {
    if (exemptRuntimeClass(pod.spec?.runtimeClassName)) continue;
    const controller = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
    if (controller === undefined) first.push(pod);
    else if (seen.has(controller.uid)) rest.push(pod);
    else { seen.add(controller.uid); first.push(pod); }
  }
  return [...first, ...rest];
}

export function evaluatePodsInNamespace(evaluator: Evaluator, namespace: string, enforce: LevelVersion, pods: readonly ListedPod[],
  exemptRuntimeClass: (rc: string | undefined) => boolean, requestDeadline?: number, now: () => number = Date.now,
  maxPods = NAMESPACE_MAX_PODS_TO_CHECK): string[] {
  let timeout = NAMESPACE_POD_CHECK_TIMEOUT_MS;
  if (requestDeadline !== undefined) timeout = Math.min(timeout, (requestDeadline - now()) / 2);
  const deadline = now() + timeout;
  const prioritized = prioritize(pods, exemptRuntimeClass);
  const total = prioritized.length;
  const toCheck = prioritized.slice(0, maxPods);
  let checked = toCheck.length;
  const byWarning = new Map<string, { podName: string; count: number }>();
  for (const [i, pod] of toCheck.entries()) {
    const r = aggregate(evaluator.evaluatePod(enforce, pod.metadata ?? {}, pod.spec ?? { containers: [] }));
    if (!r.allowed) {
      const warning = forbiddenReason(r);
      const name = pod.metadata?.name ?? '';
      const c = byWarning.get(warning);
      if (c === undefined) byWarning.set(warning, { podName: name, count: 1 });
      else byWarning.set(warning, { podName: name < c.podName ? name : c.podName, count: c.count + 1 });
    }
    if (now() >= deadline) { checked = i + 1; break; }
  }
  const warnings: string[] = [];
  if (checked < total) warnings.push(`new PodSecurity enforce level only checked against the first ${checked} of ${total} existing pods`);
  if (byWarning.size > 0) warnings.push(`existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${lvString(enforce)}"`);
  const podWarnings = [...byWarning.entries()].map(([warning, c]) => {
    if (c.count === 1) return `${c.podName}: ${warning}`;
    if (c.count === 2) return `${c.podName} (and 1 other pod): ${warning}`;
    return `${c.podName} (and ${c.count - 1} other pods): ${warning}`;
  }).sort();
  return [...warnings, ...podWarnings];
}
