// Whether one set of rules grants everything another does (component-helpers/auth/rbac/validation
// policy_comparator.go): the servant rules are broken down into single verb/group/resource/name
// rules, and each must be covered by one owner rule.
// Counterpart of k8s.io/component-helpers/auth/rbac/validation/policy_comparator.go.
import { API_GROUP_ALL, RESOURCE_ALL, VERB_ALL } from './evaluation-helpers.ts';
import type { PolicyRule } from './types.ts';

/** Every combination of group, resource, verb (and name) of `rule`, then of URL and verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        const names = rule.resourceNames ?? [];
        if (names.length > 0) {
          for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

const has = (set: readonly string[] | undefined, s: string): boolean => (set ?? []).includes(s);
const hasAll = (set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean =>
  (wanted ?? []).every((w) => has(set, w));

function resourceCoversAll(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (has(owner, RESOURCE_ALL) || hasAll(owner, wanted)) return true;
  for (const path of wanted ?? []) {
    if (has(owner, path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!has(owner, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  return owner === sub || (owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, '')));
}

function nonResourceURLsCoverAll(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  return (wanted ?? []).every((path) => (owner ?? []).some((o) => nonResourceURLCovers(o, path)));
}

/** Whether `owner` covers `sub`, a rule of breakdownRule (one verb, resource and name at most). */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, VERB_ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, API_GROUP_ALL) || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = nonResourceURLsCoverAll(owner.nonResourceURLs, sub.nonResourceURLs);
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const names = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && names && urls;
}

/** Whether `owner` rules cover `servant` rules, and the broken-down servant rules they do not. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const sub of servant.flatMap(breakdownRule)) {
    if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  }
  return { covered: missing.length === 0, missing };
}
