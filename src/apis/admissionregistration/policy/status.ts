// ValidatingAdmissionPolicy status updates (ValidateValidatingAdmissionPolicyStatusUpdate): the
// type-checking warnings name a field (a JSONPath that parses) and say something; conditions are
// metav1 Conditions.
// Counterpart of pkg/apis/admissionregistration/validation
// (ValidateValidatingAdmissionPolicyStatusUpdate).
import { fieldPath, invalid, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { jsonPathSyntaxError } from '../../../apimachinery/util/jsonpath-syntax.ts';
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
    // strings.TrimSpace, then the parse of "{<fieldRef>}"
    const ref = (w.fieldRef ?? '').replace(/^[\s\u0085\u00a0]+|[\s\u0085\u00a0]+$/g, '');
    const p = warningsPath.index(i).child('fieldRef');
    if (ref === '') errs.push(required(p));
    else {
      const err = jsonPathSyntaxError(`{${ref}}`);
      if (err !== undefined) errs.push(invalid(p, ref, `invalid JSONPath: ${err}`));
    }
  });
  errs.push(...validateConditions(status.conditions, fieldPath('status', 'conditions')));
  return errs;
}
