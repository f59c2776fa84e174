// Pods (pkg/registry/core/pod/strategy.go): status reset to Pending with the QoS class on
// create, spec immutable but for a few fields, graceful deletion for pods bound to a node.
import type { DeleteOptions } from '../../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../../apimachinery/request/context.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { applyAppArmorVersionSkew } from './apparmor-skew.ts';
import { mutatePodAffinity, mutateTopologySpreadConstraints } from './label-keys.ts';
import { podNameWarnings, podWarnings } from './warnings.ts';
import { copyOf, setOptional, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import type { Pod } from '../v1/types.ts';
import { defaultPod } from './defaults.ts';
import { dropDisabledPodSpecFields } from './disabled-fields.ts';
import { podQOSClass } from './qos.ts';
import { podTable } from './table.ts';
import { validatePodStatusUpdate } from './status-validation.ts';
import { validatePodUpdate } from './update.ts';
import { validatePodCreate } from './validation.ts';
import { repeatedMetadataErrors } from '../../../apimachinery/validation/object-meta.ts';

/** Gated pods carry PodScheduled=False/SchedulingGated from the start (applySchedulingGatedCondition). */
function applySchedulingGatedCondition(pod: Pod): void {
  if ((pod.spec.schedulingGates ?? []).length === 0) return;
  const conditions = (pod.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
  conditions.push({ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' });
  pod.status = { ...pod.status, conditions };
}

/** The grace period of a delete (podStrategy.CheckGracefulDelete). */
export function podGracePeriod(pod: DeepReadonly<Pod>, options: DeleteOptions): number {
  let period = options.gracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 0;
  if ((pod.spec.nodeName ?? '') === '') period = 0;
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') period = 0;
  if (period < 0) period = 1;
  return period;
}

export const podStrategy = specStatusStrategy<Pod>({
  validate: validatePodCreate,
  hasStatus: true,
  generation: true,
  prepareForCreate(ctx: RequestContext, pod: Pod) {
    pod.status = { phase: 'Pending', qosClass: podQOSClass(pod) };
    dropDisabledPodSpecFields(pod.spec, undefined);
    applySchedulingGatedCondition(pod);
    mutatePodAffinity(pod);
    mutateTopologySpreadConstraints(pod);
    applyAppArmorVersionSkew(ctx, pod);
  },
  // Only on create: kube skips warnings on pod updates (a high-frequency path nobody reads them on).
  warningsOnCreate: (pod) => [...podNameWarnings(pod.metadata.name), ...podWarnings(pod)],
  normalizeForUpdate(_ctx, pod, old) { dropDisabledPodSpecFields(pod.spec, old.spec); },
  // ValidatePodUpdate repeats the metadata checks of update and create
  revalidateOnUpdate: false,
  validateUpdate: (pod, old) => [...validatePodUpdate(pod, old), ...repeatedMetadataErrors(pod.metadata, old.metadata, { update: true, create: { namespaced: true } })],
  checkGracefulDelete: (_ctx, pod, options) => podGracePeriod(pod, options),
});

export const podStatusStrategy = statusStrategy(podStrategy, {
  resetFields: [['spec'], ['metadata', 'deletionTimestamp'], ['metadata', 'ownerReferences']],
  prepareForUpdate(_ctx, pod, old) {
    // old kubelets corrupt owner references: /status may not touch them
    setOptional(pod.metadata, 'ownerReferences', old.metadata.ownerReferences === undefined ? undefined
      : copyOf<Pod['metadata']['ownerReferences']>(old.metadata.ownerReferences));
    pod.metadata.generation = old.metadata.generation ?? 1;
  },
  validate: (pod, old) => [...validatePodStatusUpdate(pod, old), ...repeatedMetadataErrors(pod.metadata, old.metadata, { update: true })],
});

export const pods = {
  group: '', kind: 'Pod', resource: 'pods', singular: 'pod', shortNames: ['po'], categories: ['all'], namespaced: true,
  strategy: podStrategy,
  statusStrategy: podStatusStrategy,
  defaults: defaultPod,
  selectableFields: (pod) => ({
    'metadata.name': pod.metadata.name ?? '',
    'metadata.namespace': pod.metadata.namespace ?? '',
    'spec.nodeName': pod.spec.nodeName ?? '',
    'spec.restartPolicy': pod.spec.restartPolicy ?? '',
    'spec.schedulerName': pod.spec.schedulerName ?? '',
    'spec.serviceAccountName': pod.spec.serviceAccountName ?? '',
    'spec.hostNetwork': String(pod.spec.hostNetwork === true),
    'status.phase': pod.status?.phase ?? '',
    'status.podIP': pod.status?.podIPs?.[0]?.ip ?? '',
    'status.nominatedNodeName': pod.status?.nominatedNodeName ?? '',
  }),
  watchCacheIndexes: ['spec.nodeName'],
  table: podTable,
} satisfies ResourceDefinition<Pod>;
