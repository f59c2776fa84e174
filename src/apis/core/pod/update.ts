// Pod update validation (ValidatePodUpdate; status updates are in status-validation.ts): a pod's spec is
// immutable except images, activeDeadlineSeconds, added tolerations and a few more.
// Counterpart of pkg/apis/core/validation/validation.go (ValidatePodUpdate).
import { fieldPath, forbidden, invalid, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Container, Pod, PodSpec, Toleration } from '../v1/types.ts';
import { validateTolerations } from './affinity.ts';
import { validatePodSpecificAnnotationUpdates } from './annotations.ts';
import { validateGatedPodMutation } from './gated-update.ts';
import { podSpecDiff } from './go-pod-spec.ts';
import { validatePodAnnotationsAndSpec } from './validation.ts';

export const POD_UPDATE_FORBIDDEN = 'pod updates may not change fields other than `spec.containers[*].image`,' +
  '`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),' +
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

type RO<T> = DeepReadonly<T>;

/** validateOnlyAddedTolerations: existing tolerations stay, but for their tolerationSeconds. */
function validateOnlyAddedTolerations(next: RO<Toleration[]> | undefined, prev: RO<Toleration[]> | undefined, p: FieldPath): FieldError[] {
  for (const old of prev ?? []) {
    // the old toleration, with the candidate's tolerationSeconds (absent when the candidate has none)
    const found = (next ?? []).some((t) => {
      const { tolerationSeconds: _ignored, ...rest } = old;
      return deepEqual(t.tolerationSeconds === undefined ? rest : { ...rest, tolerationSeconds: t.tolerationSeconds }, t);
    });
    if (!found) return [forbidden(p, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(Array.isArray(next) ? next : [], p);
}

/** validateOnlyDeletedSchedulingGates: gates can be removed, never added. */
function validateOnlyDeletedSchedulingGates(next: RO<PodSpec['schedulingGates']>, prev: RO<PodSpec['schedulingGates']>, p: FieldPath): FieldError[] {
  const old = new Set((prev ?? []).map((g) => g.name));
  const added = new Map<string, number>();
  (next ?? []).forEach((g, i) => added.set(g.name, i));
  return [...added].filter(([name]) => !old.has(name))
    .map(([name, i]) => forbidden(p.index(i).child('name'), `only deletion is allowed, but found new scheduling gate '${name}'`));
}

/** ValidateContainerUpdates: same number of containers, each with an image. */
function validateContainerUpdates(next: RO<Container[]> | undefined, prev: RO<Container[]> | undefined, p: FieldPath): { errs: FieldError[]; stop: boolean } {
  if ((next ?? []).length !== (prev ?? []).length) return { errs: [forbidden(p, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  (next ?? []).forEach((c, i) => {
    const image = c.image ?? '';
    if (image === '') errs.push(required(p.index(i).child('image')));
    if (image.trim() !== image) errs.push(invalid(p.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

export function validatePodUpdate(pod: RO<Pod>, old: RO<Pod>): FieldError[] {
  const specPath = fieldPath('spec');
  // the object meta is checked by the generic update path (ValidateObjectMetaUpdate)
  const errs = validatePodAnnotationsAndSpec(pod);
  errs.push(...validatePodSpecificAnnotationUpdates(pod.metadata.annotations, old.metadata.annotations, pod.spec, fieldPath('metadata', 'annotations')));
  for (const k of ['containers', 'initContainers'] as const) {
    const r = validateContainerUpdates(pod.spec[k], old.spec[k], specPath.child(k));
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const deadline = pod.spec.activeDeadlineSeconds;
  const oldDeadline = old.spec.activeDeadlineSeconds;
  const dp = specPath.child('activeDeadlineSeconds');
  if (typeof deadline === 'number') {
    if (deadline < 0 || deadline > 2147483647) return [...errs, invalid(dp, deadline, 'must be between 0 and 2147483647, inclusive')];
    if (typeof oldDeadline === 'number' && oldDeadline < deadline) return [...errs, invalid(dp, deadline, 'must be less than or equal to previous value')];
  } else if (typeof oldDeadline === 'number') {
    errs.push(invalid(dp, null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...validateOnlyAddedTolerations(pod.spec.tolerations, old.spec.tolerations, specPath.child('tolerations')));
  errs.push(...validateOnlyDeletedSchedulingGates(pod.spec.schedulingGates, old.spec.schedulingGates, specPath.child('schedulingGates')));
  if (deepEqual(pod.spec, old.spec)) return errs;
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
  // a gated pod may gain node constraints before it is scheduled
  if ((old.spec.schedulingGates ?? []).length > 0) errs.push(...validateGatedPodMutation(munged, old.spec, specPath));
  if (!deepEqual(munged, old.spec)) errs.push(forbidden(specPath, `${POD_UPDATE_FORBIDDEN}\n${podSpecDiff(old.spec, munged)}`));
  return errs;
}

function setOrDelete<K extends keyof PodSpec>(spec: PodSpec, key: K, value: PodSpec[K] | undefined): void {
  if (value === undefined) delete spec[key];
  else spec[key] = value;
}
