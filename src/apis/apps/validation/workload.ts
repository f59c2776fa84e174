// Checks shared by the apps workloads (pkg/apis/apps/validation): the required selector,
// the template that must match it, int-or-percent fields, and status counters.
import {
  forbidden, invalid, notSupported, required, type FieldError, type FieldPath,
} from '../../../apimachinery/errors/field-errors.ts';
import { labelSelectorAsSelector, type LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { Selector } from '../../../apimachinery/labels/selector.ts';
import { deepEqual, FIELD_IMMUTABLE_ERROR_MSG, validateNonnegativeField } from '../../../apimachinery/validation/object-meta.ts';
import { isValidPercent } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { validatePodTemplateSpec } from '../../core/podtemplate/podtemplate.ts';
import type { IntOrString, PodTemplateSpec } from '../../core/v1/types.ts';
import { goIntOrString, goLabelSelector, goStringMap, goSyntax } from './go-syntax.ts';
import { validateLabelSelector } from '../../../apimachinery/validation/label-selector.ts';

export const SELECTOR_MISMATCH = '`selector` does not match template `labels`';

/** The selector, or undefined when it cannot be converted (LabelSelectorAsSelector failed). */
export function selectorOf(ps: DeepReadonly<LabelSelector> | null | undefined): Selector | undefined {
  try {
    return labelSelectorAsSelector(ps as LabelSelector | null | undefined);
  } catch {
    return undefined;
  }
}

/** The string form of spec.selector for Scale status and printers ('' when invalid or absent). */
export function selectorString(ps: DeepReadonly<LabelSelector> | null | undefined): string {
  return selectorOf(ps)?.toString() ?? '';
}

/** A required, strictly validated, non-empty selector (Deployment, ReplicaSet, StatefulSet). */
export function validateRequiredSelector(ps: DeepReadonly<LabelSelector> | null | undefined, kind: string, path: FieldPath): FieldError[] {
  if (ps === null || ps === undefined) return [required(path)];
  const errs = validateLabelSelector(ps, { allowInvalidLabelValueInSelector: false }, path);
  if (Object.keys(ps.matchLabels ?? {}).length + (ps.matchExpressions ?? []).length === 0) {
    errs.push(invalid(path, goSyntax(goLabelSelector(ps)), `empty selector is invalid for ${kind}`));
  }
  return errs;
}

/** The selector must select the template's labels (unless it selects everything). */
export function validateTemplateLabelsMatch(selector: Selector, t: DeepReadonly<PodTemplateSpec> | undefined, path: FieldPath): FieldError[] {
  if (selector.empty || selector.matches(t?.metadata?.labels)) return [];
  return [invalid(path.child('metadata', 'labels'), goSyntax(goStringMap(t?.metadata?.labels)), SELECTOR_MISMATCH)];
}

/** restartPolicy Always and no activeDeadlineSeconds: what every long-running workload needs. */
export function validateLongRunningTemplate(t: DeepReadonly<PodTemplateSpec>, kind: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const policy = t.spec?.restartPolicy ?? '';
  if (policy !== 'Always') errs.push(notSupported(path.child('spec', 'restartPolicy'), policy, ['Always']));
  if (t.spec?.activeDeadlineSeconds !== undefined) {
    errs.push(forbidden(path.child('spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return errs;
}

/** ValidatePodTemplateSpecForReplicaSet (also used by Deployments). */
function validatePodTemplateSpecForReplicaSet(t: DeepReadonly<PodTemplateSpec> | undefined, selector: Selector,
  path: FieldPath): FieldError[] {
  if (t === undefined) return [required(path)];
  return [
    ...validateTemplateLabelsMatch(selector, t, path),
    ...validatePodTemplateSpec(t, path),
    ...validateLongRunningTemplate(t, 'ReplicaSet', path),
  ];
}

/** The selector checks and the template checks of a ReplicaSet-like spec, in kube's order. */
export function validateSelectorAndTemplate(ps: DeepReadonly<LabelSelector> | null | undefined,
  t: DeepReadonly<PodTemplateSpec> | undefined, kind: string, path: FieldPath): FieldError[] {
  const errs = validateRequiredSelector(ps, kind, path.child('selector'));
  const selector = selectorOf(ps);
  if (selector === undefined) errs.push(invalid(path.child('selector'), goSyntax(goLabelSelector(ps)), 'invalid label selector'));
  else errs.push(...validatePodTemplateSpecForReplicaSet(t, selector, path.child('template')));
  return errs;
}

function percentValue(v: IntOrString | undefined): number | undefined {
  if (typeof v !== 'string' || isValidPercent(v).length > 0) return undefined;
  return Number.parseInt(v.slice(0, -1), 10);
}

/** getIntOrPercentValue: the percentage, else the integer (a non-numeric string counts as 0). */
export function intOrPercentValue(v: IntOrString | undefined): number {
  const pct = percentValue(v);
  if (pct !== undefined) return pct;
  if (typeof v === 'number') return v;
  const n = /^[+-]?\d+$/.test(v ?? '') ? Number.parseInt(v ?? '', 10) : 0;
  return Number.isNaN(n) ? 0 : n;
}

export function validatePositiveIntOrPercent(v: IntOrString | undefined, path: FieldPath): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((m) => invalid(path, goSyntax(goIntOrString(v)), m));
  return validateNonnegativeField(v ?? 0, path);
}

export function isNotMoreThan100Percent(v: IntOrString | undefined, path: FieldPath): FieldError[] {
  const pct = percentValue(v);
  if (pct === undefined || pct <= 100) return [];
  return [invalid(path, goSyntax(goIntOrString(v)), 'must not be greater than 100%')];
}

/** Non-negative checks for each named counter (absent counts as 0). */
export function validateNonnegativeCounters(status: Readonly<Record<string, unknown>>, names: readonly string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const n of names) {
    const v = status[n];
    if (typeof v === 'number') errs.push(...validateNonnegativeField(v, path.child(n)));
  }
  return errs;
}

/** `<field> cannot be greater than <limit>` for each pair whose value exceeds its limit. */
export function validateNotGreaterThan(status: Readonly<Record<string, unknown>>,
  pairs: readonly (readonly [field: string, limit: string, message: string])[], path: FieldPath): FieldError[] {
  const num = (k: string): number => (typeof status[k] === 'number' ? status[k] : 0);
  return pairs.filter(([f, l]) => num(f) > num(l)).map(([f, , m]) => invalid(path.child(f), num(f), m));
}

/** IsDecremented on status.collisionCount. */
export function validateCollisionCountUpdate(next: number | undefined, old: number | undefined, path: FieldPath): FieldError[] {
  const decremented = old !== undefined && (next === undefined || next < old);
  return decremented ? [invalid(path, next ?? 0, 'cannot be decremented')] : [];
}

/** apps/v1 forbids changing spec.selector (the message shows the new selector as Go prints it). */
export function validateImmutableSelector(next: DeepReadonly<LabelSelector> | null | undefined,
  old: DeepReadonly<LabelSelector> | null | undefined, path: FieldPath): FieldError[] {
  if (deepEqual(next ?? null, old ?? null)) return [];
  return [invalid(path, goSyntax(goLabelSelector(next)), FIELD_IMMUTABLE_ERROR_MSG)];
}
