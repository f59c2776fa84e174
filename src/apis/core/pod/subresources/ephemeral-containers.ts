// pods/ephemeralcontainers (podEphemeralContainersStrategy): a Pod whose only accepted change is
// spec.ephemeralContainers, and only by adding containers.
import { duplicate, fieldPath, forbidden, invalid, notFound, required, type FieldError, type FieldPath } from '../../../../apimachinery/errors/field-errors.ts';
import { deepEqual } from '../../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Label } from '../../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, Strategy } from '../../../../registry/rest/strategy.ts';
import { bumpGenerationIfChanged, copyOf } from '../../common.ts';
import type { Container, Pod } from '../../v1/types.ts';
import { podStrategy } from '../pod.ts';

/** Fields an ephemeral container may not set (validateEphemeralContainers). */
const FORBIDDEN_FIELDS = ['lifecycle', 'livenessProbe', 'ports', 'readinessProbe', 'resizePolicy', 'resources',
  'restartPolicy', 'startupProbe'] as const;

function validateEphemeralContainer(c: DeepReadonly<Container>, p: FieldPath, others: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const name = c.name ?? '';
  if (name === '') errs.push(required(p.child('name')));
  else {
    for (const m of isDNS1123Label(name)) errs.push(invalid(p.child('name'), name, m));
    if (others.has(name)) errs.push(duplicate(p.child('name'), name));
  }
  if ((c.image ?? '') === '') errs.push(required(p.child('image')));
  const fields = c as DeepReadonly<Container> & Readonly<Record<string, unknown>>;
  for (const f of FORBIDDEN_FIELDS) {
    const v = fields[f];
    if (v !== undefined && v !== null && !(typeof v === 'object' && Object.keys(v).length === 0)) {
      errs.push(forbidden(p.child(f), 'cannot be set for an Ephemeral Container'));
    }
  }
  const target = fields['targetContainerName'];
  if (typeof target === 'string' && target !== '' && !others.has(target)) {
    errs.push(notFound(p.child('targetContainerName'), target));
  }
  return errs;
}

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

/** ValidatePodEphemeralContainersUpdate: new ones valid, existing ones neither removed nor changed. */
export function validateEphemeralContainersUpdate(pod: DeepReadonly<Pod>, old: DeepReadonly<Pod>): FieldError[] {
  const specPath = fieldPath('spec');
  const errs: FieldError[] = [];
  const regular = new Set([...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])].map((c) => c.name));
  const seen = new Set<string>(regular);
  const next = pod.spec.ephemeralContainers ?? [];
  next.forEach((c, i) => {
    const p = specPath.child('ephemeralContainers').index(i);
    const existing = (old.spec.ephemeralContainers ?? []).some((o) => o.name === c.name);
    if (!existing) errs.push(...validateEphemeralContainer(c, p, regular));
    if (seen.has(c.name) && existing) errs.push(duplicate(p.child('name'), c.name));
    seen.add(c.name);
  });
  for (const o of old.spec.ephemeralContainers ?? []) {
    const n = next.find((c) => c.name === o.name);
    if (n === undefined) errs.push(forbidden(specPath.child('ephemeralContainers'), `existing ephemeral containers "${o.name}" may not be removed\n`));
    else if (!deepEqual(n, o)) errs.push(forbidden(specPath.child('ephemeralContainers'), `existing ephemeral containers "${o.name}" may not be changed\n`));
  }
  return errs;
}

export const podEphemeralContainersStrategy: Strategy<Pod> = {
  ...podStrategy,
  prepareForUpdate(_ctx, pod, old) {
    keepOnly(pod, old, (next) => {
      if (pod.spec.ephemeralContainers === undefined) delete next.spec.ephemeralContainers;
      else next.spec.ephemeralContainers = pod.spec.ephemeralContainers;
    });
  },
  validateUpdate: (_ctx, pod, old) => validateEphemeralContainersUpdate(pod, old),
};
