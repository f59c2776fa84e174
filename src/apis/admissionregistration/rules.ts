// Rule validation and defaults shared by webhooks and admission policies
// (pkg/apis/admissionregistration/validation validateRule*, v1 SetDefaults_Rule).
import { invalid, notSupported, OMIT_VALUE, required, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import { goStringSlice } from '../../apimachinery/goformat/index.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { MatchResources, RuleWithOperations } from './v1/types.ts';

const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
export const MATCH_POLICIES = ['Equivalent', 'Exact'];

/** Go's %#v of a []string, which kube prints as the bad value of list fields. */
export const goStrings = (v: readonly string[]): string => goStringSlice(v);

/** An Invalid error whose bad value is a list, printed the way Go prints it. */
export const invalidList = (p: FieldPath, v: readonly string[], detail: string): FieldError => invalid(p, OMIT_VALUE, `${goStrings(v)}: ${detail}`);

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

export function validateRuleWithOperations(r: DeepReadonly<RuleWithOperations>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const ops = r.operations ?? [];
  if (ops.length === 0) errs.push(required(p.child('operations'), ''));
  if (ops.length > 1 && ops.includes('*')) errs.push(invalidList(p.child('operations'), ops, "if '*' is present, must not specify other operations"));
  ops.forEach((o, i) => { if (!OPERATIONS.includes(o)) errs.push(notSupported(p.child('operations').index(i), o, OPERATIONS)); });
  const groups = r.apiGroups ?? [];
  if (groups.length === 0) errs.push(required(p.child('apiGroups'), ''));
  if (groups.length > 1 && groups.includes('*')) errs.push(invalidList(p.child('apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  const versions = r.apiVersions ?? [];
  if (versions.length === 0) errs.push(required(p.child('apiVersions'), ''));
  if (versions.length > 1 && versions.includes('*')) errs.push(invalidList(p.child('apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => { if (v === '') errs.push(required(p.child('apiVersions').index(i), '')); });
  const resources = r.resources ?? [];
  if (resources.length === 0) errs.push(required(p.child('resources'), ''));
  resources.forEach((res, i) => { if (res === '') errs.push(required(p.child('resources').index(i), '')); });
  if (r.scope !== undefined && !SCOPES.includes(r.scope)) errs.push(notSupported(p.child('scope'), r.scope, SCOPES));
  return errs;
}

export function validateMatchResources(m: DeepReadonly<MatchResources> | undefined, p: FieldPath): FieldError[] {
  if (m === undefined) return [];
  const errs: FieldError[] = [];
  if (m.matchPolicy !== undefined && !MATCH_POLICIES.includes(m.matchPolicy)) errs.push(notSupported(p.child('matchPolicy'), m.matchPolicy, MATCH_POLICIES));
  (m.resourceRules ?? []).forEach((r, i) => errs.push(...validateRuleWithOperations(r, p.child('resourceRules').index(i))));
  (m.excludeResourceRules ?? []).forEach((r, i) => errs.push(...validateRuleWithOperations(r, p.child('excludeResourceRules').index(i))));
  return errs;
}
