// A Job's pod failure policy and success policy (validatePodFailurePolicy, validateSuccessPolicy
// of pkg/apis/batch/validation), and how kube prints them as bad values: internal structs without
// JSON tags, so with their Go field names.
import {
  duplicate, GoSyntax, invalid, notSupported, OMIT_VALUE, required, tooLong, tooMany, type FieldError, type FieldPath,
} from '../../../apimachinery/errors/field-errors.ts';
import { isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { JobSpec, PodFailurePolicy, PodFailurePolicyRule } from '../v1/types.ts';
import { countIndexes, indexesFormatError } from './indexes.ts';

type RO<T> = DeepReadonly<T>;

const MAX_RULES = 20;
const MAX_EXIT_CODE_VALUES = 255;
const MAX_CONDITION_PATTERNS = 20;
const MAX_SUCCESS_RULES = 20;
const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

/** Go's %q of a []string, as the "valid values" details print them: ["a" "b"]. */
const goQuotedList = (v: readonly string[]): string => `[${v.map((s) => JSON.stringify(s)).join(' ')}]`;
const json = (v: unknown): string => JSON.stringify(v ?? null);

/** The internal PodFailurePolicy as a bad value. */
export function goPodFailurePolicy(pfp: RO<PodFailurePolicy> | undefined): GoSyntax {
  if (pfp === undefined) return new GoSyntax('null');
  const rule = (r: RO<PodFailurePolicyRule>): string => {
    const ec = r.onExitCodes;
    const exit = ec === undefined ? 'null'
      : `{"ContainerName":${json(ec.containerName)},"Operator":${json(ec.operator ?? '')},"Values":${json(ec.values)}}`;
    const conds = r.onPodConditions === undefined ? 'null'
      : `[${r.onPodConditions.map((c) => `{"Type":${json(c.type ?? '')},"Status":${json(c.status ?? '')}}`).join(',')}]`;
    return `{"Action":${json(r.action ?? '')},"OnExitCodes":${exit},"OnPodConditions":${conds}}`;
  };
  return new GoSyntax(`{"Rules":${pfp.rules === undefined ? 'null' : `[${pfp.rules.map(rule).join(',')}]`}}`);
}

/** The internal SuccessPolicy as a bad value. */
export function goSuccessPolicy(sp: RO<JobSpec['successPolicy']>): GoSyntax {
  if (sp === undefined) return new GoSyntax('null');
  const rules = sp.rules === undefined ? 'null'
    : `[${sp.rules.map((r) => `{"SucceededIndexes":${json(r['succeededIndexes'])},"SucceededCount":${json(r['succeededCount'])}}`).join(',')}]`;
  return new GoSyntax(`{"Rules":${rules}}`);
}

function validateOnExitCodes(ec: RO<NonNullable<PodFailurePolicyRule['onExitCodes']>>, p: FieldPath, containers: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const op = ec.operator ?? '';
  if (op === '') errs.push(required(p.child('operator'), `valid values: ${goQuotedList(OPERATORS)}`));
  else if (!OPERATORS.includes(op)) errs.push(notSupported(p.child('operator'), op, OPERATORS));
  if (ec.containerName !== undefined && !containers.has(ec.containerName)) {
    errs.push(invalid(p.child('containerName'), ec.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const vp = p.child('values');
  const values = ec.values ?? [];
  if (values.length === 0) errs.push(invalid(vp, new GoSyntax(json(values)), 'at least one value is required'));
  else if (values.length > MAX_EXIT_CODE_VALUES) errs.push(tooMany(vp, values.length, MAX_EXIT_CODE_VALUES));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (op === 'In' && v === 0) errs.push(invalid(vp.index(j), v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(duplicate(vp.index(j), v));
    else seen.add(v);
    if (j > 0 && (values[j - 1] ?? 0) > v) ordered = false;
  });
  if (!ordered) errs.push(invalid(vp, new GoSyntax(json(values)), 'must be ordered'));
  return errs;
}

function validateRule(spec: RO<JobSpec>, r: RO<PodFailurePolicyRule>, p: FieldPath, containers: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const ap = p.child('action');
  const action = r.action ?? '';
  if (action === '') errs.push(required(ap, `valid values: ${goQuotedList(ACTIONS)}`));
  else if (action === 'FailIndex') {
    if (spec.backoffLimitPerIndex === undefined) errs.push(invalid(ap, action, 'requires the backoffLimitPerIndex to be set'));
  } else if (!ACTIONS.includes(action)) errs.push(notSupported(ap, action, ACTIONS));
  if (r.onExitCodes !== undefined) errs.push(...validateOnExitCodes(r.onExitCodes, p.child('onExitCodes'), containers));
  const conds = r.onPodConditions ?? [];
  if (conds.length > 0) {
    const cp = p.child('onPodConditions');
    if (conds.length > MAX_CONDITION_PATTERNS) errs.push(tooMany(cp, conds.length, MAX_CONDITION_PATTERNS));
    conds.forEach((c, j) => {
      const type = c.type ?? '';
      errs.push(...isQualifiedName(type).map((m) => invalid(cp.index(j).child('type'), type, m)));
      const st = c.status ?? '';
      if (st === '') errs.push(required(cp.index(j).child('status'), `valid values: ${goQuotedList(CONDITION_STATUSES)}`));
      else if (!CONDITION_STATUSES.includes(st)) errs.push(notSupported(cp.index(j).child('status'), st, CONDITION_STATUSES));
    });
  }
  if (r.onExitCodes !== undefined && conds.length > 0) {
    errs.push(invalid(p, OMIT_VALUE, 'specifying both OnExitCodes and OnPodConditions is not supported'));
  }
  if (r.onExitCodes === undefined && conds.length === 0) {
    errs.push(invalid(p, OMIT_VALUE, 'specifying one of OnExitCodes and OnPodConditions is required'));
  }
  return errs;
}

/** validatePodFailurePolicy: at most 20 rules, each with one valid action and one kind of requirement. */
export function validatePodFailurePolicy(spec: RO<JobSpec>, p: FieldPath): FieldError[] {
  const rules = spec.podFailurePolicy?.rules ?? [];
  const rp = p.child('rules');
  const errs: FieldError[] = rules.length > MAX_RULES ? [tooMany(rp, rules.length, MAX_RULES)] : [];
  const podSpec = spec.template?.spec;
  const containers = new Set([...(podSpec?.containers ?? []), ...(podSpec?.initContainers ?? [])].map((c) => c.name));
  rules.forEach((r, i) => errs.push(...validateRule(spec, r, rp.index(i), containers)));
  return errs;
}

/** validateSuccessPolicy (an Indexed job's): 1 to 20 rules, each naming indexes within completions or a count. */
export function validateSuccessPolicy(spec: RO<JobSpec>, p: FieldPath): FieldError[] {
  const rules = spec.successPolicy?.rules ?? [];
  const rp = p.child('rules');
  const errs: FieldError[] = [];
  if (rules.length === 0) errs.push(required(rp, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_RULES) errs.push(tooMany(rp, rules.length, MAX_SUCCESS_RULES));
  const completions = spec.completions ?? 0;
  rules.forEach((r, i) => {
    const at = rp.index(i);
    const indexes = r['succeededIndexes'];
    const count = r['succeededCount'];
    if (indexes === undefined && count === undefined) errs.push(required(at, 'at least one of succeededCount or succeededIndexes must be specified'));
    let total = 0;
    if (typeof indexes === 'string') {
      const ip = at.child('succeededIndexes');
      if (indexes.length > MAX_SUCCEEDED_INDEXES_LENGTH) errs.push(tooLong(ip, '', MAX_SUCCEEDED_INDEXES_LENGTH));
      const e = indexesFormatError(indexes, completions);
      if (e !== undefined) errs.push(invalid(ip, indexes, `error parsing succeededIndexes: ${e}`));
      else total = countIndexes(indexes, completions);
    }
    if (typeof count === 'number') {
      const cp = at.child('succeededCount');
      if (count < 0) errs.push(invalid(cp, count, 'must be greater than or equal to 0'));
      if (count > completions) errs.push(invalid(cp, count, `must be less than or equal to ${completions} (the number of specified completions)`));
      if (indexes !== undefined && count > total) {
        errs.push(invalid(cp, count, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`));
      }
    }
  });
  return errs;
}
