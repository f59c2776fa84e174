// PodDisruptionBudget validation (pkg/apis/policy/validation).
import { fieldPath, invalid, notSupported, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateNonnegativeField, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isValidPercent } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { validateLabelSelector } from '../../../apimachinery/validation/label-selector.ts';
import type { IntOrString, PodDisruptionBudget, PodDisruptionBudgetSpec, PodDisruptionBudgetStatus } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;

const UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

/** ValidatePositiveIntOrPercent (apps validation): a non-negative integer or an "N%" string. */
export function validatePositiveIntOrPercent(v: IntOrString, p: FieldPath): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((m) => invalid(p, v, m));
  return validateNonnegativeField(v, p);
}

/** IsNotMoreThan100Percent. */
export function isNotMoreThan100Percent(v: IntOrString, p: FieldPath): FieldError[] {
  if (typeof v !== 'string' || !v.endsWith('%')) return [];
  const n = Number.parseInt(v.slice(0, -1), 10);
  return Number.isNaN(n) || n <= 100 ? [] : [invalid(p, v, 'must not be greater than 100%')];
}

export function validatePodDisruptionBudgetSpec(spec: RO<PodDisruptionBudgetSpec>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errs.push(invalid(p, spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  for (const k of ['minAvailable', 'maxUnavailable'] as const) {
    const v = spec[k];
    if (v !== undefined) errs.push(...validatePositiveIntOrPercent(v, p.child(k)), ...isNotMoreThan100Percent(v, p.child(k)));
  }
  errs.push(...validateLabelSelector(spec.selector, {}, p.child('selector')));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !UNHEALTHY_POD_EVICTION_POLICIES.includes(policy)) {
    errs.push(notSupported(p.child('unhealthyPodEvictionPolicy'), policy, UNHEALTHY_POD_EVICTION_POLICIES));
  }
  return errs;
}

export function validatePodDisruptionBudget(pdb: RO<PodDisruptionBudget>): FieldError[] {
  const errs = validateObjectMeta(pdb.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  return [...errs, ...validatePodDisruptionBudgetSpec(pdb.spec ?? {}, fieldPath('spec'))];
}

/** ValidatePodDisruptionBudgetStatusUpdate (policy/v1 rules): counters are never negative. */
export function validatePodDisruptionBudgetStatus(status: RO<PodDisruptionBudgetStatus> | undefined): FieldError[] {
  const p = fieldPath('status');
  const errs: FieldError[] = [];
  for (const k of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const) {
    errs.push(...validateNonnegativeField(status?.[k] ?? 0, p.child(k)));
  }
  return errs;
}
