// The priority classes kube-apiserver creates at start (scheduling/v1 SystemPriorityClasses) and
// the check that reserves the `system-` prefix for them.
// Counterpart of pkg/apis/scheduling (SystemPriorityClasses) and pkg/registry/scheduling/rest (the
// post-start hook).
import type { PriorityClass } from '../v1/types.ts';

export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';
/** scheduling.SystemCriticalPriority: 2 * HighestUserDefinablePriority. */
const SYSTEM_CRITICAL_PRIORITY = 2000000000;

/** system-node-critical and system-cluster-critical, ready to create (apiVersion/kind included). */
export function systemPriorityClasses(): PriorityClass[] {
  return [
    {
      apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass',
      metadata: { name: 'system-node-critical' },
      value: SYSTEM_CRITICAL_PRIORITY + 1000,
      description: 'Used for system critical pods that must not be moved from their current node.',
      preemptionPolicy: 'PreemptLowerPriority',
    },
    {
      apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass',
      metadata: { name: 'system-cluster-critical' },
      value: SYSTEM_CRITICAL_PRIORITY,
      description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
      preemptionPolicy: 'PreemptLowerPriority',
    },
  ];
}

/** IsKnownSystemPriorityClass: undefined when name, value and globalDefault match a system class, else why not. */
export function isKnownSystemPriorityClass(name: string, value: number, globalDefault: boolean): string | undefined {
  for (const spc of systemPriorityClasses()) {
    if (spc.metadata.name !== name) continue;
    if (spc.value !== value) return `value of ${name} PriorityClass must be ${spc.value ?? 0}`;
    if ((spc.globalDefault ?? false) !== globalDefault) return `globalDefault of ${name} PriorityClass must be ${String(spc.globalDefault ?? false)}`;
    return undefined;
  }
  return `${name} is not a known system priority class`;
}
