// pods/ephemeralcontainers (podEphemeralContainersStrategy): a Pod whose only accepted change is
// spec.ephemeralContainers, and only by adding containers.
// Counterpart of pkg/registry/core/pod/strategy.go (podEphemeralContainersStrategy).
import { fieldPath, forbidden, type FieldError } from '../../../../apimachinery/errors/field-errors.ts';
import { deepEqual } from '../../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../../../registry/rest/strategy.ts';
import { bumpGenerationIfChanged, copyOf, subresourceStrategy } from '../../../../registry/rest/kit.ts';
import type { Pod } from '../../v1/types.ts';
import { ephemeralContainerDiff } from '../go-pod-spec.ts';
import { MIRROR_ANNOTATION, validatePodSpecificAnnotationUpdates } from '../annotations.ts';
import { podStrategy } from '../pod.ts';
import { validatePodAnnotationsAndSpec } from '../validation.ts';

/**
 * The stored pod with only what `take` copies from the request, keeping the request's identity
 * (name, namespace, uid, resourceVersion), as dropNonEphemeralContainerUpdates does.
 */
export function keepOnly(pod: Pod, old: DeepReadonly<Pod>, take: (next: Pod) => void): void {
  const next = copyOf<Pod>(old);
  for (const k of ['name', 'namespace', 'uid', 'resourceVersion'] as const) {
    const v = pod.metadata[k];
    if (v === undefined) delete next.metadata[k]; else next.metadata[k] = v;
  }
  take(next);
  next.metadata.generation = old.metadata.generation ?? 1;
  bumpGenerationIfChanged(next.metadata, next.spec, old.spec);
  for (const k of Object.keys(pod) as (keyof Pod)[]) delete pod[k];
  Object.assign(pod, next);
}

/**
 * ValidatePodEphemeralContainersUpdate: the whole pod validates (new ephemeral containers through
 * validateEphemeralContainers), static pods take none, and existing ones are neither removed nor changed.
 */
export function validateEphemeralContainersUpdate(pod: DeepReadonly<Pod>, old: DeepReadonly<Pod>): FieldError[] {
  const errs = [
    ...validatePodAnnotationsAndSpec(pod),
    ...validatePodSpecificAnnotationUpdates(pod.metadata.annotations, old.metadata.annotations, pod.spec, fieldPath('metadata', 'annotations')),
  ];
  if (old.metadata.annotations?.[MIRROR_ANNOTATION] !== undefined) return [forbidden('[]', 'static pods do not support ephemeral containers')];
  const specPath = fieldPath('spec', 'ephemeralContainers');
  const next = pod.spec.ephemeralContainers ?? [];
  for (const o of old.spec.ephemeralContainers ?? []) {
    const n = next.find((c) => c.name === o.name);
    if (n === undefined) errs.push(forbidden(specPath, `existing ephemeral containers "${o.name}" may not be removed\n`));
    else if (!deepEqual(n, o)) errs.push(forbidden(specPath, `existing ephemeral containers "${o.name}" may not be changed\n${ephemeralContainerDiff(o, n)}`));
  }
  return errs;
}

export const podEphemeralContainersStrategy = subresourceStrategy(podStrategy, {
  prepareForUpdate(_ctx, pod, old) {
    keepOnly(pod, old, (next) => {
      if (pod.spec.ephemeralContainers === undefined) delete next.spec.ephemeralContainers;
      else next.spec.ephemeralContainers = pod.spec.ephemeralContainers;
    });
  },
  validate: (pod, old) => validateEphemeralContainersUpdate(pod, old),
});
