import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import type { AdmissionPolicy } from '../v1/types.ts';
import { validateValidatingAdmissionPolicyStatus } from './status.ts';

const T0 = '2024-01-01T00:00:00Z';
const policy = (status: Record<string, unknown>): AdmissionPolicy => ({ metadata: { name: 'p' }, spec: {}, status }) as AdmissionPolicy;
const REASON = "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', " +
  "and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', " +
  "regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')";

describe('ValidatingAdmissionPolicy status (ValidateValidatingAdmissionPolicyStatusUpdate)', () => {
  const cases: { name: string; status: Record<string, unknown>; want: string[] }[] = [
    { name: 'a type-checked policy', status: { observedGeneration: 1, typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'w' }] },
      conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', lastTransitionTime: T0 }] }, want: [] },
    { name: 'an expression warning needs a field and a warning (blank counts as empty)', status: { typeChecking: { expressionWarnings: [{ fieldRef: '  ', warning: '' }] } },
      want: ['status.typeChecking.expressionWarnings[0].warning: Required value', 'status.typeChecking.expressionWarnings[0].fieldRef: Required value'] },
    { name: 'metav1 condition rules', status: { conditions: [{ type: 'Ok', status: 'Bogus', reason: 'bad reason' }] },
      want: ['status.conditions[0].status: Unsupported value: "Bogus": supported values: "False", "True", "Unknown"',
        'status.conditions[0].lastTransitionTime: Required value', `status.conditions[0].reason: Invalid value: "bad reason": ${REASON}`] },
    { name: 'reason required, types unique', status: { conditions: [{ type: 'Ok', status: 'True', lastTransitionTime: T0 }, { type: 'Ok', status: 'True', reason: 'R', lastTransitionTime: T0 }] },
      want: ['status.conditions[0].reason: Required value', 'status.conditions[1].type: Duplicate value: "Ok"'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validateValidatingAdmissionPolicyStatus(policy(c.status)).map(formatFieldError), c.want));
});
