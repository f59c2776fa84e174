// ValidatingAdmissionPolicy status updates (ValidateValidatingAdmissionPolicyStatusUpdate): the
// type-checking warnings name a field and say something; conditions are metav1 Conditions.
// kube also parses each fieldRef as a JSONPath; that parse is not done here (only "required").
// Counterpart of pkg/apis/admissionregistration/validation
// (ValidateValidatingAdmissionPolicyStatusUpdate).
import { fieldPath, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { validateConditions, type MetaCondition } from '../../../apimachinery/validation/conditions.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { AdmissionPolicy } from '../v1/types.ts';

interface PolicyStatus {
  typeChecking?: { expressionWarnings?: { fieldRef?: string; warning?: string }[] } | null;
  conditions?: MetaCondition[];
}

export function validateValidatingAdmissionPolicyStatus(policy: DeepReadonly<AdmissionPolicy>): FieldError[] {
  const status = (policy.status ?? {}) as DeepReadonly<PolicyStatus>;
  const errs: FieldError[] = [];
  const warningsPath = fieldPath('status', 'typeChecking', 'expressionWarnings');
  (status.typeChecking?.expressionWarnings ?? []).forEach((w, i) => {
    if ((w.warning ?? '') === '') errs.push(required(warningsPath.index(i).child('warning')));
    if ((w.fieldRef ?? '').trim() === '') errs.push(required(warningsPath.index(i).child('fieldRef')));
  });
  errs.push(...validateConditions(status.conditions, fieldPath('status', 'conditions')));
  return errs;
}
