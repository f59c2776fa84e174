// FlowSchema and PriorityLevelConfiguration status updates (ValidateFlowSchemaStatusUpdate,
// ValidatePriorityLevelConfigurationStatusUpdate): each condition has a type, at most once.
// Counterpart of pkg/apis/flowcontrol/validation (ValidateFlowSchemaStatusUpdate).
import { duplicate, fieldPath, required, type FieldError } from '../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';

type WithConditions = DeepReadonly<{ status?: { conditions?: readonly Record<string, unknown>[] } }>;

export function validateFlowControlStatus(obj: WithConditions): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (obj.status?.conditions ?? []).forEach((c, i) => {
    const p = fieldPath('status', 'conditions').index(i);
    const type = typeof c['type'] === 'string' ? c['type'] : '';
    // Go's set holds "" too: a second typeless condition is a duplicate as well as required.
    if (seen.has(type)) errs.push(duplicate(p.child('type'), type));
    seen.add(type);
    if (type === '') errs.push(required(p.child('type')));
  });
  return errs;
}
