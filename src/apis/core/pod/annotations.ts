// Annotations with a meaning for pods (ValidatePodSpecificAnnotations and
// ValidatePodSpecificAnnotationUpdates): the mirror-pod marker, the deletion cost, and the
// deprecated seccomp and AppArmor annotations.
// Counterpart of pkg/apis/core/validation/validation.go (ValidatePodSpecificAnnotations).
import { forbidden, invalid, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { PodSpec } from '../v1/types.ts';
import { containersWithPath } from './security-context.ts';
import { child, obj, optStr, str, type Obj } from './spec-access.ts';
import { validateLocalDescendingPath } from './volumes.ts';

export const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
export const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

type Annotations = DeepReadonly<Record<string, string>> | undefined;

/** helper.GetDeletionCostFromPodAnnotations: a decimal int32 without '+' or leading zeros. */
function isDeletionCost(v: string): boolean {
  if (!/^(-?[1-9][0-9]*|0|-0+|-0*[1-9][0-9]*)$/.test(v)) return false;
  const n = Number(v);
  return n >= -(2 ** 31) && n <= 2 ** 31 - 1;
}

/** ValidateSeccompProfile of an annotation value. */
function validateSeccompAnnotation(v: string, p: FieldPath): FieldError[] {
  if (v === 'runtime/default' || v === 'docker/default' || v === 'unconfined') return [];
  if (v.startsWith('localhost/')) return validateLocalDescendingPath(v.slice('localhost/'.length), p);
  return [invalid(p, v, 'must be a valid seccomp profile')];
}

export function validatePodSpecificAnnotations(annotations: Annotations, spec: DeepReadonly<PodSpec>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const a = annotations ?? {};
  const mirror = a[MIRROR_ANNOTATION];
  if (mirror !== undefined && (spec.nodeName ?? '') === '') {
    errs.push(invalid(p.key(MIRROR_ANNOTATION), mirror, 'must set spec.nodeName if mirror pod annotation is set'));
  }
  const cost = a[DELETION_COST];
  if (cost !== undefined && !isDeletionCost(cost)) errs.push(invalid(p.key(DELETION_COST), cost, 'must be a 32bit integer'));
  const seccompPod = a[SECCOMP_POD];
  // kube names these annotation paths as children, not keys
  if (seccompPod !== undefined) errs.push(...validateSeccompAnnotation(seccompPod, p.child(SECCOMP_POD)));
  for (const [k, v] of Object.entries(a)) {
    if (k.startsWith(SECCOMP_CONTAINER_PREFIX)) errs.push(...validateSeccompAnnotation(v, p.child(k)));
  }
  const names = new Set(containersWithPath(spec, p).map(({ c }) => str(c, 'name')));
  for (const [k, v] of Object.entries(a)) {
    if (!k.startsWith(APPARMOR_PREFIX)) continue;
    const container = k.slice(APPARMOR_PREFIX.length);
    if (!names.has(container)) errs.push(invalid(p.key(k), container, 'container not found'));
    if (v !== '' && v !== 'runtime/default' && v !== 'unconfined' && !v.startsWith('localhost/')) {
      errs.push(invalid(p.key(k), v, `invalid AppArmor profile name: ${JSON.stringify(v)}`));
    }
  }
  return errs;
}

/** ValidatePodSpecificAnnotationUpdates: mirror and AppArmor annotations are fixed at creation. */
export function validatePodSpecificAnnotationUpdates(next: Annotations, prev: Annotations, spec: DeepReadonly<PodSpec>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const n = next ?? {};
  const o = prev ?? {};
  for (const [k, v] of Object.entries(o)) {
    if (Object.hasOwn(n, k) && n[k] === v) continue;
    if (k.startsWith(APPARMOR_PREFIX)) errs.push(forbidden(p.key(k), 'may not remove or update AppArmor annotations'));
    if (k === MIRROR_ANNOTATION) errs.push(forbidden(p.key(k), 'may not remove or update mirror pod annotation'));
  }
  for (const k of Object.keys(n)) {
    if (Object.hasOwn(o, k)) continue;
    if (k.startsWith(APPARMOR_PREFIX)) errs.push(forbidden(p.key(k), 'may not add AppArmor annotations'));
    if (k === MIRROR_ANNOTATION) errs.push(forbidden(p.key(k), 'may not add mirror pod annotation'));
  }
  return [...errs, ...validatePodSpecificAnnotations(next, spec, p)];
}

/** validateSeccompAnnotationsAndFieldsMatch: an annotation and a field set together say the same. */
function seccompMatch(annotation: string, profile: Obj, p: FieldPath): FieldError[] {
  const type = str(profile, 'type');
  const mismatch = [forbidden(p.child('type'), 'seccomp type in annotation and field must match')];
  if (type === 'Unconfined') return annotation === 'unconfined' ? [] : mismatch;
  if (type === 'RuntimeDefault') return annotation === 'runtime/default' || annotation === 'docker/default' ? [] : mismatch;
  if (type === 'Localhost') {
    if (!annotation.startsWith('localhost/')) return mismatch;
    const local = profile['localhostProfile'];
    if (typeof local !== 'string' || annotation.slice('localhost/'.length) !== local) {
      return [forbidden(p.child('localhostProfile'), 'seccomp profile in annotation and field must match')];
    }
  }
  return [];
}

/** validateSeccompAnnotationsAndFields (on create): the deprecated annotations agree with the seccompProfile fields. */
export function validateSeccompAnnotationsAndFields(annotations: Annotations, spec: DeepReadonly<PodSpec>, specPath: FieldPath): FieldError[] {
  const a = annotations ?? {};
  const errs: FieldError[] = [];
  const podProfile = child(obj(spec.securityContext), 'seccompProfile');
  const podAnnotation = a[SECCOMP_POD];
  if (podProfile !== undefined && podAnnotation !== undefined) {
    errs.push(...seccompMatch(podAnnotation, podProfile, specPath.child('securityContext', 'seccompProfile')));
  }
  for (const { c, path } of containersWithPath(spec, specPath)) {
    const profile = child(child(c, 'securityContext'), 'seccompProfile');
    const annotation = a[`${SECCOMP_CONTAINER_PREFIX}${str(c, 'name')}`];
    if (profile !== undefined && annotation !== undefined) errs.push(...seccompMatch(annotation, profile, path.child('securityContext', 'seccompProfile')));
  }
  return errs;
}

/**
 * validateAppArmorAnnotationsAndFieldsMatchOnCreate: a container's deprecated AppArmor annotation says
 * what its profile field (or else the pod's) says. Windows pods are not checked.
 */
export function validateAppArmorAnnotationsAndFields(annotations: Annotations, spec: DeepReadonly<PodSpec>, specPath: FieldPath): FieldError[] {
  if (str(child(obj(spec), 'os'), 'name') === 'windows') return [];
  const a = annotations ?? {};
  const podProfile = child(obj(spec.securityContext), 'appArmorProfile');
  const errs: FieldError[] = [];
  for (const { c, path } of containersWithPath(spec, specPath)) {
    const profile = child(child(c, 'securityContext'), 'appArmorProfile') ?? podProfile;
    const annotation = a[`${APPARMOR_PREFIX}${str(c, 'name')}`];
    if (profile === undefined || annotation === undefined) continue;
    const p = path.child('securityContext', 'appArmorProfile');
    const typeMismatch = forbidden(p.child('type'), 'apparmor type in annotation and field must match');
    switch (str(profile, 'type')) {
      case 'Unconfined': if (annotation !== 'unconfined') errs.push(typeMismatch); break;
      case 'RuntimeDefault': if (annotation !== 'runtime/default') errs.push(typeMismatch); break;
      case 'Localhost':
        if (!annotation.startsWith('localhost/')) errs.push(typeMismatch);
        else if (annotation.slice('localhost/'.length) !== optStr(profile, 'localhostProfile')) {
          errs.push(forbidden(p.child('localhostProfile'), 'apparmor profile in annotation and field must match'));
        }
        break;
      default: break;
    }
  }
  return errs;
}
