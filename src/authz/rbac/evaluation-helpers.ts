// How one PolicyRule matches a request (pkg/apis/rbac/v1/evaluation_helpers.go and RuleAllows in
// plugin/pkg/auth/authorizer/rbac): `*` for verbs, groups and resources, `<resource>/<sub>` and
// `*/<sub>` for subresources, resourceNames (none listed: any name), and nonResourceURLs with a
// trailing `*` matching a prefix.
import type { Attributes } from '../authorizer.ts';
import type { PolicyRule } from './types.ts';

export const VERB_ALL = '*';
export const API_GROUP_ALL = '*';
export const RESOURCE_ALL = '*';
const NON_RESOURCE_ALL = '*';

function verbMatches(rule: PolicyRule, verb: string): boolean {
  return (rule.verbs ?? []).some((v) => v === VERB_ALL || v === verb);
}

function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === API_GROUP_ALL || g === group);
}

/** `combined` is `resource` or `resource/subresource`. */
function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === RESOURCE_ALL || r === combined) return true;
    if (subresource === '') continue;
    if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

function nonResourceURLMatches(rule: PolicyRule, url: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === NON_RESOURCE_ALL || u === url) return true;
    // strings.TrimRight(u, "*"): every trailing star goes.
    if (u.endsWith('*') && url.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

/** Whether `rule` allows the request. */
export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  if (a.resourceRequest) {
    const combined = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
    return verbMatches(rule, a.verb) && apiGroupMatches(rule, a.apiGroup) &&
      resourceMatches(rule, combined, a.subresource) && resourceNameMatches(rule, a.name);
  }
  return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
}

/** Whether any of `rules` allows the request. */
export const rulesAllow = (a: Attributes, rules: readonly PolicyRule[]): boolean => rules.some((r) => ruleAllows(a, r));
