// metav1 Condition validation (apis/meta/v1/validation.ValidateConditions and ValidateCondition).
// Counterpart of k8s.io/apimachinery/pkg/apis/meta/v1/validation (ValidateConditions).
import { duplicate, invalid, notSupported, required, tooLong, type FieldError, type FieldPath } from '../errors/field-errors.ts';
import { validateLabelName } from './object-meta.ts';
import type { DeepReadonly } from './readonly.ts';
import { byteLength, regexError } from './validation.ts';

/** A metav1.Condition as it is on the wire. */
export interface MetaCondition {
  type?: string;
  status?: string;
  observedGeneration?: number;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const MAX_REASON_LENGTH = 1024;
const MAX_MESSAGE_LENGTH = 32 * 1024;
const conditionReasonFmt = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const conditionReasonRe = new RegExp(`^${conditionReasonFmt}$`);
const conditionReasonErrMsg = "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";

function validateCondition(c: DeepReadonly<MetaCondition>, path: FieldPath): FieldError[] {
  const errs = validateLabelName(c.type ?? '', path.child('type'));
  if (!CONDITION_STATUSES.includes(c.status ?? '')) errs.push(notSupported(path.child('status'), c.status ?? '', CONDITION_STATUSES));
  if ((c.observedGeneration ?? 0) < 0) errs.push(invalid(path.child('observedGeneration'), c.observedGeneration, 'must be greater than or equal to zero'));
  if ((c.lastTransitionTime ?? '') === '') errs.push(required(path.child('lastTransitionTime')));
  const reason = c.reason ?? '';
  if (reason === '') errs.push(required(path.child('reason')));
  else {
    if (!conditionReasonRe.test(reason)) {
      errs.push(invalid(path.child('reason'), reason, regexError(conditionReasonErrMsg, conditionReasonFmt, 'my_name', 'MY_NAME', 'MyName', 'ReasonA,ReasonB', 'ReasonA:ReasonB')));
    }
    if (byteLength(reason) > MAX_REASON_LENGTH) errs.push(tooLong(path.child('reason'), reason, MAX_REASON_LENGTH));
  }
  if (byteLength(c.message ?? '') > MAX_MESSAGE_LENGTH) errs.push(tooLong(path.child('message'), c.message, MAX_MESSAGE_LENGTH));
  return errs;
}

/** ValidateConditions: each condition valid, types unique. */
export function validateConditions(conditions: DeepReadonly<MetaCondition[]> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const type = c.type ?? '';
    if (seen.has(type)) errs.push(duplicate(path.index(i).child('type'), type));
    seen.add(type);
    errs.push(...validateCondition(c, path.index(i)));
  });
  return errs;
}
