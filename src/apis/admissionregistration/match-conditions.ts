// matchConditions of webhooks and admission policies (validateMatchConditions): at most 64, each
// named by a qualified name, once; the expression compiled by the caller's compiler (admission
// policies compile theirs; without one an expression only has to be there).
// Counterpart of pkg/apis/admissionregistration/validation/validation.go (validateMatchConditions).
import { duplicate, internalError, invalid, required, tooMany, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import { deepEqual, validateLabelName } from '../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { MatchCondition } from './v1/types.ts';

const MAX_MATCH_CONDITIONS = 64;

/** A compile error of the i-th condition's expression (kube's cel.Error type and detail). */
export type MatchConditionCompiler = (i: number) => { readonly type: 'invalid' | 'required' | 'internal'; readonly detail: string } | undefined;

export function validateMatchConditions(conditions: DeepReadonly<MatchCondition[]> | undefined, p: FieldPath, compile?: MatchConditionCompiler): FieldError[] {
  const list = conditions ?? [];
  const errs: FieldError[] = [];
  if (list.length > MAX_MATCH_CONDITIONS) errs.push(tooMany(p, list.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  list.forEach((c, i) => {
    const cp = p.index(i);
    const expression = (c.expression ?? '').trim();
    if (expression === '') errs.push(required(cp.child('expression'), ''));
    else {
      const e = compile?.(i);
      if (e !== undefined) {
        const ep = cp.child('expression');
        errs.push(e.type === 'required' ? required(ep, e.detail) : e.type === 'invalid' ? invalid(ep, expression, e.detail) : internalError(ep, e.detail));
      }
    }
    const name = c.name ?? '';
    if (name === '') errs.push(required(cp.child('name'), ''));
    else errs.push(...validateLabelName(name, cp.child('name')));
    if (name !== '') {
      if (names.has(name)) errs.push(duplicate(cp.child('name'), name));
      names.add(name);
    }
  });
  return errs;
}

/** Whether an update left the match conditions as they were, so kube does not check them again. */
export function sameMatchConditions(a: DeepReadonly<MatchCondition[]> | undefined, b: DeepReadonly<MatchCondition[]> | undefined): boolean {
  return deepEqual(a ?? [], b ?? []);
}
