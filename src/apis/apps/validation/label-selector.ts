// metav1 validation of a LabelSelector (ValidateLabelSelector / ValidateLabelSelectorRequirement).
import { forbidden, invalid, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import { validateLabelName, validateLabels } from '../../../apimachinery/validation/object-meta.ts';
import { isValidLabelValue } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';

export interface LabelSelectorValidationOptions {
  /** Old objects may keep label values that are no longer valid. */
  readonly allowInvalidLabelValueInSelector?: boolean;
}

export function validateLabelSelector(ps: DeepReadonly<LabelSelector> | null | undefined, opts: LabelSelectorValidationOptions,
  path: FieldPath): FieldError[] {
  if (ps === null || ps === undefined) return [];
  const errs = validateLabels(ps.matchLabels, path.child('matchLabels'));
  (ps.matchExpressions ?? []).forEach((sr, i) => {
    const p = path.child('matchExpressions').index(i);
    const values = sr.values ?? [];
    switch (sr.operator) {
      case 'In': case 'NotIn':
        if (values.length === 0) errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists': case 'DoesNotExist':
        if (values.length > 0) errs.push(forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(invalid(p.child('operator'), sr.operator, 'not a valid selector operator'));
    }
    errs.push(...validateLabelName(sr.key ?? '', p.child('key')));
    if (opts.allowInvalidLabelValueInSelector !== true) {
      values.forEach((v, j) => {
        for (const m of isValidLabelValue(v)) errs.push(invalid(p.child('values').index(j), v, m));
      });
    }
  });
  return errs;
}
