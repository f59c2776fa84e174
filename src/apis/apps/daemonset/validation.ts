// DaemonSet validation (pkg/apis/apps/validation: ValidateDaemonSet*). The selector is not
// required here, but a missing one matches no template.
import { fieldPath, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import {
  nameIsDNSSubdomain, validateNonnegativeField, validateObjectMeta,
} from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { validatePodTemplateSpec } from '../../core/podtemplate/podtemplate.ts';
import type { DaemonSet, DaemonSetSpec, DaemonSetStatus, DaemonSetUpdateStrategy, RollingUpdateDaemonSet } from '../v1/types.ts';
import { goIntOrString, goLabelSelector, goRollingUpdate, goStrategy, goSyntax } from '../validation/go-syntax.ts';
import { validateLabelSelector } from '../../../apimachinery/validation/label-selector.ts';
import {
  intOrPercentValue, isNotMoreThan100Percent, selectorOf, validateCollisionCountUpdate, validateLongRunningTemplate,
  validateNonnegativeCounters, validatePositiveIntOrPercent, validateTemplateLabelsMatch,
  validateImmutableSelector,
} from '../validation/workload.ts';

type RO<T> = DeepReadonly<T>;

function validateRollingUpdateDaemonSet(ru: RO<RollingUpdateDaemonSet>, p: FieldPath): FieldError[] {
  const errs = [
    ...validatePositiveIntOrPercent(ru.maxUnavailable, p.child('maxUnavailable')),
    ...validatePositiveIntOrPercent(ru.maxSurge, p.child('maxSurge')),
    ...isNotMoreThan100Percent(ru.maxUnavailable, p.child('maxUnavailable')),
    ...isNotMoreThan100Percent(ru.maxSurge, p.child('maxSurge')),
  ];
  const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
  if (hasUnavailable && hasSurge) {
    errs.push(invalid(p.child('maxSurge'), goSyntax(goIntOrString(ru.maxSurge)), 'may not be set when maxUnavailable is non-zero'));
  } else if (!hasUnavailable && !hasSurge) {
    errs.push(required(p.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  }
  return errs;
}

function validateDaemonSetUpdateStrategy(s: RO<DaemonSetUpdateStrategy> | undefined, p: FieldPath): FieldError[] {
  switch (s?.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate':
      if (s.rollingUpdate === undefined) return [required(p.child('rollingUpdate'))];
      return validateRollingUpdateDaemonSet(s.rollingUpdate, p.child('rollingUpdate'));
    default:
      return [notSupported(p, goStrategy(s, goRollingUpdate), ['RollingUpdate', 'OnDelete'])];
  }
}

function validateDaemonSetSpec(spec: RO<DaemonSetSpec>, p: FieldPath, templateGeneration: number): FieldError[] {
  const errs = validateLabelSelector(spec.selector, { allowInvalidLabelValueInSelector: false }, p.child('selector'));
  const selector = selectorOf(spec.selector);
  const t = spec.template ?? { spec: { containers: [] } };
  if (selector !== undefined) errs.push(...validateTemplateLabelsMatch(selector, t, p.child('template')));
  const ps = spec.selector;
  if (ps !== undefined && ps !== null && Object.keys(ps.matchLabels ?? {}).length + (ps.matchExpressions ?? []).length === 0) {
    errs.push(invalid(p.child('selector'), goSyntax(goLabelSelector(ps)), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(t, p.child('template')));
  errs.push(...validateLongRunningTemplate(t, 'DaemonSet', p.child('template')));
  errs.push(...validateNonnegativeField(spec.minReadySeconds ?? 0, p.child('minReadySeconds')));
  errs.push(...validateNonnegativeField(templateGeneration, p.child('templateGeneration')));
  errs.push(...validateDaemonSetUpdateStrategy(spec.updateStrategy, p.child('updateStrategy')));
  if (spec.revisionHistoryLimit !== undefined) errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, p.child('revisionHistoryLimit')));
  return errs;
}

/** The template generation kept in the deprecated.daemonset.template.generation annotation. */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

export function templateGenerationOf(ds: RO<DaemonSet>): number {
  const v = ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  return v !== undefined && /^[+-]?\d+$/.test(v) ? Number.parseInt(v, 10) : 0;
}

export function validateDaemonSet(ds: RO<DaemonSet>): FieldError[] {
  return [
    ...validateObjectMeta(ds.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }, fieldPath('metadata')),
    ...validateDaemonSetSpec(ds.spec, fieldPath('spec'), templateGenerationOf(ds)),
  ];
}

export function validateDaemonSetUpdate(ds: RO<DaemonSet>, old: RO<DaemonSet>): FieldError[] {
  return [
    ...validateDaemonSetSpec(ds.spec, fieldPath('spec'), templateGenerationOf(ds)),
    ...validateImmutableSelector(ds.spec.selector, old.spec.selector, fieldPath('spec', 'selector')),
  ];
}

function validateDaemonSetStatus(s: RO<DaemonSetStatus>, p: FieldPath): FieldError[] {
  return validateNonnegativeCounters(s, ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady',
    'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'], p);
}

export function validateDaemonSetStatusUpdate(ds: RO<DaemonSet>, old: RO<DaemonSet>): FieldError[] {
  return [
    ...validateDaemonSetStatus(ds.status ?? {}, fieldPath('status')),
    ...validateCollisionCountUpdate(ds.status?.collisionCount, old.status?.collisionCount, fieldPath('status', 'collisionCount')),
  ];
}

