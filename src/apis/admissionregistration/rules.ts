// Rule validation and defaults shared by webhooks and admission policies
// (pkg/apis/admissionregistration/validation validateRule*, validateMatchResources, v1 SetDefaults_Rule).
import { duplicate, invalid, notSupported, required, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import { validateLabelSelector } from '../../apimachinery/validation/label-selector.ts';
import { validatePathSegmentName } from '../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { MatchResources, RuleWithOperations } from './v1/types.ts';

const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
/** A mutating admission policy cannot act on DELETE. */
const MUTATING_OPERATIONS = ['*', 'CONNECT', 'CREATE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
export const MATCH_POLICIES = ['Equivalent', 'Exact'];

/** SetDefaults_Rule: scope "*". */
export function defaultRule(r: RuleWithOperations): void {
  r.scope ??= '*';
}

/** SetDefaults_MatchResources: Equivalent, empty selectors, rule scopes. */
export function defaultMatchResources(m: MatchResources): void {
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const r of m.resourceRules ?? []) defaultRule(r);
  for (const r of m.excludeResourceRules ?? []) defaultRule(r);
}

/** A list where '*' stands for everything may not name anything else beside it. */
function wildcardAlone(list: readonly string[], p: FieldPath, what: string): FieldError[] {
  return list.length > 1 && list.includes('*') ? [invalid(p, list, `if '*' is present, must not specify other ${what}`)] : [];
}

/** validateResources: "res/sub" entries, where "res/*", "*\/sub", "*\/*" and "*" cover others. */
function validateResources(resources: readonly string[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(p, ''));
  const wildcardSub = new Set<string>();
  const wildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let plainResource = false;
  resources.forEach((rs, i) => {
    if (rs === '') { errs.push(required(p.index(i), '')); return; }
    if (rs === '*/*') doubleWildcard = true;
    if (rs === '*') singleWildcard = true;
    const slash = rs.indexOf('/');
    // kube keeps the last plain entry's verdict, so "*" after "pods" clears it
    if (slash < 0) { plainResource = rs !== '*'; return; }
    const res = rs.slice(0, slash);
    const sub = rs.slice(slash + 1);
    if (wildcardSub.has(res)) errs.push(invalid(p.index(i), rs, `if '${res}/*' is present, must not specify ${rs}`));
    if (wildcardRes.has(sub)) errs.push(invalid(p.index(i), rs, `if '*/${sub}' is present, must not specify ${rs}`));
    if (sub === '*') wildcardSub.add(res);
    if (res === '*') wildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(invalid(p, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && plainResource) errs.push(invalid(p, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

export function validateRuleWithOperations(r: DeepReadonly<RuleWithOperations>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const ops = r.operations ?? [];
  if (ops.length === 0) errs.push(required(p.child('operations'), ''));
  errs.push(...wildcardAlone(ops, p.child('operations'), 'operations'));
  ops.forEach((o, i) => { if (!OPERATIONS.includes(o)) errs.push(notSupported(p.child('operations').index(i), o, OPERATIONS)); });
  const groups = r.apiGroups ?? [];
  if (groups.length === 0) errs.push(required(p.child('apiGroups'), ''));
  errs.push(...wildcardAlone(groups, p.child('apiGroups'), 'API groups'));
  const versions = r.apiVersions ?? [];
  if (versions.length === 0) errs.push(required(p.child('apiVersions'), ''));
  errs.push(...wildcardAlone(versions, p.child('apiVersions'), 'API versions'));
  versions.forEach((v, i) => { if (v === '') errs.push(required(p.child('apiVersions').index(i), '')); });
  errs.push(...validateResources(r.resources ?? [], p.child('resources')));
  if (r.scope !== undefined && !SCOPES.includes(r.scope)) errs.push(notSupported(p.child('scope'), r.scope, SCOPES));
  return errs;
}

/** validateNamedRuleWithOperations: resource names are path segments, each once. */
function validateNamedRule(r: DeepReadonly<RuleWithOperations>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (r.resourceNames ?? []).forEach((n, i) => {
    for (const m of validatePathSegmentName(n, false)) errs.push(invalid(p.child('resourceNames').index(i), n, m));
    if (seen.has(n)) errs.push(duplicate(p.child('resourceNames').index(i), n));
    seen.add(n);
  });
  return [...errs, ...validateRuleWithOperations(r, p)];
}

/** validateMatchResources: the policy and selectors are defaulted before this runs. */
export function validateMatchResources(m: DeepReadonly<MatchResources> | undefined, p: FieldPath): FieldError[] {
  if (m === undefined) return [];
  const errs: FieldError[] = [];
  if (m.matchPolicy === undefined) errs.push(required(p.child('matchPolicy'), ''));
  else if (!MATCH_POLICIES.includes(m.matchPolicy)) errs.push(notSupported(p.child('matchPolicy'), m.matchPolicy, MATCH_POLICIES));
  for (const key of ['namespaceSelector', 'objectSelector'] as const) {
    const sel = m[key];
    if (sel === undefined) errs.push(required(p.child(key), ''));
    else errs.push(...validateLabelSelector(sel, {}, p.child(key)));
  }
  (m.resourceRules ?? []).forEach((r, i) => errs.push(...validateNamedRule(r, p.child('resourceRules').index(i))));
  (m.excludeResourceRules ?? []).forEach((r, i) => errs.push(...validateNamedRule(r, p.child('excludeResourceRules').index(i))));
  return errs;
}

/** A mutating policy or binding: each DELETE (or unknown) operation of its resource rules, on a path without an index. */
export function validateMutatingOperations(m: DeepReadonly<MatchResources> | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const r of m?.resourceRules ?? []) {
    for (const op of r.operations ?? []) if (!MUTATING_OPERATIONS.includes(op)) errs.push(notSupported(p.child('resourceRules', 'operations'), op, MUTATING_OPERATIONS));
  }
  return errs;
}
