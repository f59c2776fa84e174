// Deployment validation (pkg/apis/apps/validation: ValidateDeployment*, plus the selector
// immutability that the apps/v1 strategy adds on update).
import { fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateNonnegativeField, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Deployment, DeploymentSpec, DeploymentStatus, DeploymentStrategy, RollingUpdateDeployment } from '../v1/types.ts';
import { goIntOrString, goRollingUpdate, goStrategy, goSyntax } from '../validation/go-syntax.ts';
import {
  intOrPercentValue, isNotMoreThan100Percent, validateCollisionCountUpdate, validateNonnegativeCounters, validateNotGreaterThan,
  validatePositiveIntOrPercent, validateSelectorAndTemplate,
  validateImmutableSelector,
} from '../validation/workload.ts';

type RO<T> = DeepReadonly<T>;

function validateRollingUpdateDeployment(ru: RO<RollingUpdateDeployment>, p: FieldPath): FieldError[] {
  const errs = [
    ...validatePositiveIntOrPercent(ru.maxUnavailable, p.child('maxUnavailable')),
    ...validatePositiveIntOrPercent(ru.maxSurge, p.child('maxSurge')),
  ];
  if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
    errs.push(invalid(p.child('maxUnavailable'), goSyntax(goIntOrString(ru.maxUnavailable)), 'may not be 0 when `maxSurge` is 0'));
  }
  errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, p.child('maxUnavailable')));
  return errs;
}

function validateDeploymentStrategy(s: RO<DeploymentStrategy> | undefined, p: FieldPath): FieldError[] {
  switch (s?.type) {
    case 'Recreate':
      return s.rollingUpdate === undefined ? [] : [forbidden(p.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")];
    case 'RollingUpdate':
      return s.rollingUpdate === undefined
        ? [required(p.child('rollingUpdate'), 'this should be defaulted and never be nil')]
        : validateRollingUpdateDeployment(s.rollingUpdate, p.child('rollingUpdate'));
    default:
      return [notSupported(p, goStrategy(s, goRollingUpdate), ['Recreate', 'RollingUpdate'])];
  }
}

function validateDeploymentSpec(spec: RO<DeploymentSpec>, p: FieldPath): FieldError[] {
  const errs = validateNonnegativeField(spec.replicas ?? 0, p.child('replicas'));
  errs.push(...validateSelectorAndTemplate(spec.selector, spec.template, 'deployment', p));
  errs.push(...validateDeploymentStrategy(spec.strategy, p.child('strategy')));
  const minReady = spec.minReadySeconds ?? 0;
  errs.push(...validateNonnegativeField(minReady, p.child('minReadySeconds')));
  if (spec.revisionHistoryLimit !== undefined) errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, p.child('revisionHistoryLimit')));
  if (spec.progressDeadlineSeconds !== undefined) {
    errs.push(...validateNonnegativeField(spec.progressDeadlineSeconds, p.child('progressDeadlineSeconds')));
    if (spec.progressDeadlineSeconds <= minReady) {
      errs.push(invalid(p.child('progressDeadlineSeconds'), spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

export function validateDeployment(d: RO<Deployment>): FieldError[] {
  return [
    ...validateObjectMeta(d.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }, fieldPath('metadata')),
    ...validateDeploymentSpec(d.spec, fieldPath('spec')),
  ];
}

export function validateDeploymentUpdate(d: RO<Deployment>, old: RO<Deployment>): FieldError[] {
  return [
    ...validateDeploymentSpec(d.spec, fieldPath('spec')),
    ...validateImmutableSelector(d.spec.selector, old.spec.selector, fieldPath('spec', 'selector')),
  ];
}

function validateDeploymentStatus(s: RO<DeploymentStatus>, p: FieldPath): FieldError[] {
  const counters = ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'terminatingReplicas', 'collisionCount'];
  const msg = 'cannot be greater than status.replicas';
  return [
    ...validateNonnegativeCounters(s, counters, p),
    ...validateNotGreaterThan(s, [
      ['updatedReplicas', 'replicas', msg], ['readyReplicas', 'replicas', msg], ['availableReplicas', 'replicas', msg],
      ['availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas'],
    ], p),
  ];
}

export function validateDeploymentStatusUpdate(d: RO<Deployment>, old: RO<Deployment>): FieldError[] {
  const p = fieldPath('status');
  return [
    ...validateDeploymentStatus(d.status ?? {}, p),
    ...validateCollisionCountUpdate(d.status?.collisionCount, old.status?.collisionCount, p.child('collisionCount')),
  ];
}
