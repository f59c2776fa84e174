// PodDisruptionBudget validation (pkg/apis/policy/validation). kube checks no more of the metadata
// than every object gets (a path segment name), so a PDB may be named Bad_Name.
import { fieldPath, GoSyntax, invalid, notSupported, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { validateConditions } from '../../../apimachinery/validation/conditions.ts';
import { validateNonnegativeField } from '../../../apimachinery/validation/object-meta.ts';
import { isValidPercent } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { goJSON, goLabelSelector } from '../../apps/validation/go-syntax.ts';
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

/** The internal PodDisruptionBudgetSpec as field errors print it (Go field names, no JSON tags). */
function goSpec(spec: RO<PodDisruptionBudgetSpec>): GoSyntax {
  const ptr = (v: unknown): string => (v === undefined ? 'null' : goJSON(v));
  return new GoSyntax(`{"MinAvailable":${ptr(spec.minAvailable)},"Selector":${goLabelSelector(spec.selector)},` +
    `"MaxUnavailable":${ptr(spec.maxUnavailable)},"UnhealthyPodEvictionPolicy":${ptr(spec.unhealthyPodEvictionPolicy)}}`);
}

function validatePodDisruptionBudgetSpec(spec: RO<PodDisruptionBudgetSpec>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errs.push(invalid(p, goSpec(spec), 'minAvailable and maxUnavailable cannot be both set'));
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
  return validatePodDisruptionBudgetSpec(pdb.spec ?? {}, fieldPath('spec'));
}

/** ValidatePodDisruptionBudgetStatusUpdate (policy/v1 rules): valid conditions, counters never negative. */
export function validatePodDisruptionBudgetStatus(status: RO<PodDisruptionBudgetStatus> | undefined): FieldError[] {
  const p = fieldPath('status');
  const errs = validateConditions(status?.conditions, p.child('conditions'));
  for (const k of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const) {
    errs.push(...validateNonnegativeField(status?.[k] ?? 0, p.child(k)));
  }
  return errs;
}
