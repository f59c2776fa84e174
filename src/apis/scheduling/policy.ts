// The scheduling policy union of Workload pod group templates and PodGroups: exactly one of
// `basic` and `gang`, with positive counts.
// Counterpart of pkg/apis/scheduling/validation (the pod group policy union).
import { invalid, required, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { SchedulingPolicy } from './v1/types.ts';

const POSITIVE = 'must be greater than 0';

export function validateSchedulingPolicy(policy: DeepReadonly<SchedulingPolicy> | undefined, p: FieldPath): FieldError[] {
  const set: string[] = [];
  if (policy?.basic !== undefined) set.push('`basic`');
  if (policy?.gang !== undefined) set.push('`gang`');
  if (set.length === 0) return [invalid(p, '', 'must specify one of: `basic`, `gang`')];
  if (set.length > 1) return [invalid(p, `{${set.join(', ')}}`, 'exactly one of `basic`, `gang` is required, but multiple fields are set')];
  const errs: FieldError[] = [];
  const basic = policy?.basic;
  if (basic?.desiredCount !== undefined && basic.desiredCount <= 0) errs.push(invalid(p.child('basic', 'desiredCount'), basic.desiredCount, POSITIVE));
  const gang = policy?.gang;
  if (gang !== undefined) {
    const min = gang.minCount ?? 0;
    if (min === 0) errs.push(required(p.child('gang', 'minCount'), ''));
    else if (min < 0) errs.push(invalid(p.child('gang', 'minCount'), min, POSITIVE));
    if (gang.desiredCount !== undefined && gang.desiredCount < min) errs.push(invalid(p.child('gang', 'desiredCount'), gang.desiredCount, 'must be greater than or equal to minCount'));
  }
  return errs;
}
