// Pod update validation (ValidatePodUpdate, ValidatePodStatusUpdate): a pod's spec is
// immutable except images, activeDeadlineSeconds, added tolerations and a few more.
import { fieldPath, forbidden, invalid, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual } from '../../../apimachinery/validation/object-meta.ts';
import { isValidIPForLegacyField } from '../../../apimachinery/validation/ip.ts';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { objectDiff } from '../printers/diff.ts';
import type { Pod, PodSpec, Toleration } from '../v1/types.ts';
import { validatePodSpec } from './validation.ts';

export const POD_UPDATE_FORBIDDEN = 'pod updates may not change fields other than `spec.containers[*].image`,' +
  '`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),' +
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function tolerationsOnlyAdded(next: DeepReadonly<Toleration[]> | undefined, prev: DeepReadonly<Toleration[]> | undefined): FieldError[] {
  const errs: FieldError[] = [];
  for (const old of prev ?? []) {
    // an existing toleration may only have its tolerationSeconds lowered (or kept)
    const match = (next ?? []).find((t) => t.key === old.key && (t.operator ?? 'Equal') === (old.operator ?? 'Equal') &&
      (t.value ?? '') === (old.value ?? '') && (t.effect ?? '') === (old.effect ?? ''));
    if (match === undefined) {
      errs.push(forbidden(fieldPath('spec', 'tolerations'), 'existing toleration can not be modified except its tolerationSeconds'));
    }
  }
  return errs;
}

export function validatePodUpdate(pod: DeepReadonly<Pod>, old: DeepReadonly<Pod>): FieldError[] {
  const specPath = fieldPath('spec');
  const errs = validatePodSpec(pod.spec, specPath, { resourceIsPod: true });
  const activeDeadline = pod.spec.activeDeadlineSeconds;
  const oldDeadline = old.spec.activeDeadlineSeconds;
  if (oldDeadline !== undefined && (activeDeadline === undefined || activeDeadline > oldDeadline)) {
    errs.push(invalid(specPath.child('activeDeadlineSeconds'), activeDeadline ?? null,
      'must be less than or equal to previous value'));
  }
  if ((pod.spec.containers ?? []).length !== (old.spec.containers ?? []).length ||
      (pod.spec.initContainers ?? []).length !== (old.spec.initContainers ?? []).length) {
    errs.push(forbidden(specPath, `${POD_UPDATE_FORBIDDEN}\n${objectDiff(old.spec, pod.spec)}`));
    return errs;
  }
  errs.push(...tolerationsOnlyAdded(pod.spec.tolerations, old.spec.tolerations));
  // Munge what may change to the old values; anything else that differs is forbidden.
  const munged = structuredClone(pod.spec) as PodSpec;
  munged.containers = munged.containers.map((c, i) => ({ ...c, image: old.spec.containers[i]?.image ?? '' }));
  if (munged.initContainers !== undefined) {
    munged.initContainers = munged.initContainers.map((c, i) => ({ ...c, image: old.spec.initContainers?.[i]?.image ?? '' }));
  }
  setOrDelete(munged, 'activeDeadlineSeconds', old.spec.activeDeadlineSeconds);
  setOrDelete(munged, 'tolerations', old.spec.tolerations === undefined ? undefined : structuredClone(old.spec.tolerations) as Toleration[]);
  setOrDelete(munged, 'schedulingGates', old.spec.schedulingGates === undefined ? undefined : structuredClone(old.spec.schedulingGates) as PodSpec['schedulingGates']);
  const oldGrace = old.spec.terminationGracePeriodSeconds;
  if (oldGrace !== undefined && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (!deepEqual(munged, old.spec)) errs.push(forbidden(specPath, `${POD_UPDATE_FORBIDDEN}\n${objectDiff(old.spec, munged)}`));
  return errs;
}

function setOrDelete<K extends keyof PodSpec>(spec: PodSpec, key: K, value: PodSpec[K] | undefined): void {
  if (value === undefined) delete spec[key];
  else spec[key] = value;
}

/** ValidatePodStatusUpdate: the checks of status the kubelet and scheduler write. */
export function validatePodStatusUpdate(pod: DeepReadonly<Pod>, old: DeepReadonly<Pod>): FieldError[] {
  const errs: FieldError[] = [];
  const status = pod.status ?? {};
  if ((status.nominatedNodeName ?? '') !== '') {
    for (const m of isDNS1123Subdomain(status.nominatedNodeName ?? '')) errs.push(invalid(fieldPath('status', 'nominatedNodeName'), status.nominatedNodeName, m));
  }
  (status.podIPs ?? []).forEach((ip, i) => errs.push(...isValidIPForLegacyField(fieldPath('status', 'podIPs').index(i), ip.ip, false)));
  (status.hostIPs ?? []).forEach((ip, i) => errs.push(...isValidIPForLegacyField(fieldPath('status', 'hostIPs').index(i), ip.ip, false)));
  if ((status.podIPs ?? []).length > 0 && status.podIP !== undefined && status.podIP !== status.podIPs?.[0]?.ip) {
    errs.push(invalid(fieldPath('status', 'podIPs').index(0).child('ip'), status.podIPs?.[0]?.ip, 'must match status.podIP'));
  }
  const oldNode = old.spec.nodeName ?? '';
  if (oldNode !== '' && (pod.spec.nodeName ?? '') !== oldNode) errs.push(forbidden(fieldPath('spec', 'nodeName'), 'may not be changed'));
  return errs;
}
