// metav1 LabelSelector validation (apis/meta/v1/validation.ValidateLabelSelector), for every
// resource with a selector.
// Counterpart of k8s.io/apimachinery/pkg/apis/meta/v1/validation (ValidateLabelSelector).
import { fieldPath, forbidden, invalid, required, type FieldError, type FieldPath } from '../errors/field-errors.ts';
import type { LabelSelector, LabelSelectorRequirement } from '../labels/label-selector.ts';
import { validateLabelName, validateLabels } from './object-meta.ts';
import { isValidLabelValue } from './validation.ts';
import type { DeepReadonly } from './readonly.ts';

export interface LabelSelectorValidationOptions {
  /** Tolerates invalid values in matchExpressions (kept for objects stored before the check). */
  readonly allowInvalidLabelValueInSelector?: boolean;
}

function validateLabelSelectorRequirement(sr: DeepReadonly<LabelSelectorRequirement>, opts: LabelSelectorValidationOptions,
  path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const values = sr.values ?? [];
  switch (sr.operator) {
    case 'In': case 'NotIn':
      if (values.length === 0) errs.push(required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists': case 'DoesNotExist':
      if (values.length > 0) errs.push(forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      errs.push(invalid(path.child('operator'), sr.operator, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(sr.key, path.child('key')));
  if (opts.allowInvalidLabelValueInSelector !== true) {
    values.forEach((v, i) => { for (const m of isValidLabelValue(v)) errs.push(invalid(path.child('values').index(i), v, m)); });
  }
  return errs;
}

/** ValidateLabelSelector: nothing to check for a missing selector. */
export function validateLabelSelector(ps: DeepReadonly<LabelSelector> | undefined | null, opts: LabelSelectorValidationOptions,
  path: FieldPath = fieldPath('selector')): FieldError[] {
  if (ps === undefined || ps === null) return [];
  const errs = validateLabels(ps.matchLabels, path.child('matchLabels'));
  (ps.matchExpressions ?? []).forEach((e, i) => errs.push(...validateLabelSelectorRequirement(e, opts, path.child('matchExpressions').index(i))));
  return errs;
}
