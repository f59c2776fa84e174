// RBAC escalation prevention (pkg/registry/rbac/escalation_check.go and validation.ConfirmNoEscalation):
// a user may only write a role, or bind one, whose permissions they already hold, unless they are
// in system:masters or hold `escalate` on the role (for roles) or `bind` on the referenced role
// (for bindings).
import { goQuote } from '../../apimachinery/goformat/index.ts';
import type { RequestInfo, UserInfo } from '../../apimachinery/request/context.ts';
import { aggregateError, attributesRecord, type Authorizer } from '../authorizer.ts';
import { SYSTEM_PRIVILEGED_GROUP } from '../factory.ts';
import { covers } from './policy-comparator.ts';
import type { DefaultRuleResolver } from './rule.ts';
import { RBAC_GROUP, type PolicyRule, type RoleRef } from './types.ts';

/** `*` on everything: what setting an aggregationRule on a ClusterRole requires. */
export const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** Go's %q of a []string: `["a" "b"]`. */
export const goQuoteList = (items: readonly string[]): string => `[${items.map(goQuote).join(' ')}]`;

/** rbacv1helpers.CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`, empty fields left out. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, v: readonly string[] | undefined): void => {
    if (v !== undefined && v.length > 0) parts.push(`${label}:${goQuoteList(v)}`);
  };
  add('APIGroups', r.apiGroups);
  add('Resources', r.resources);
  add('NonResourceURLs', r.nonResourceURLs);
  add('ResourceNames', r.resourceNames);
  add('Verbs', r.verbs);
  return `{${parts.join(', ')}}`;
}

/** A rule with verbs, one group and one resource and nothing else: rules differing only in verbs merge. */
function simpleResource(r: PolicyRule): string | undefined {
  if ((r.resourceNames ?? []).length > 0 || (r.nonResourceURLs ?? []).length > 0) return undefined;
  if (r.apiGroups?.length !== 1 || r.resources?.length !== 1) return undefined;
  return `${r.apiGroups[0] ?? ''}\u0000${r.resources[0] ?? ''}`;
}

/** validation.CompactRules: merges the verbs of simple rules on the same group and resource. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, { apiGroups: readonly string[]; resources: readonly string[]; verbs: string[] }>();
  for (const r of rules) {
    const key = simpleResource(r);
    if (key === undefined) { out.push(r); continue; }
    const existing = simple.get(key);
    if (existing !== undefined) existing.verbs.push(...(r.verbs ?? []));
    else simple.set(key, { apiGroups: r.apiGroups ?? [], resources: r.resources ?? [], verbs: [...(r.verbs ?? [])] });
  }
  return [...out, ...simple.values()];
}

/** Go's byte-wise string order (sets.String.List()). */
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * validation.ConfirmNoEscalation: undefined when the rules `user` holds in `namespace` cover
 * `rules`, else the error message naming what is missing, one compact rule a line, sorted.
 */
export function confirmNoEscalation(resolver: DefaultRuleResolver, user: UserInfo, namespace: string,
  rules: readonly PolicyRule[]): string | undefined {
  const owner = resolver.rulesFor(user, namespace);
  const { covered, missing } = covers(owner.rules, rules);
  if (covered) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort(byBytes);
  let msg = `user ${goQuote(user.name)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  const agg = aggregateError(owner.errors);
  if (agg !== undefined) msg += `; resolution errors: [${agg.message}]`;
  return msg;
}

/** EscalationAllowed: members of system:masters may write any role or binding. */
export const escalationAllowed = (user: UserInfo | undefined): boolean =>
  user !== undefined && user.groups.includes(SYSTEM_PRIVILEGED_GROUP);

/**
 * RoleEscalationAuthorized: whether the requester holds `escalate` on the role the request
 * writes (its name as the request path has it: none for a create).
 */
export async function roleEscalationAuthorized(user: UserInfo | undefined, info: RequestInfo, authorizer: Authorizer): Promise<boolean> {
  if (user === undefined || !info.isResourceRequest) return false;
  if (info.apiGroup !== RBAC_GROUP || (info.resource !== 'clusterroles' && info.resource !== 'roles')) return false;
  const r = await authorizer.authorize(attributesRecord({
    user, verb: 'escalate', resourceRequest: true, apiGroup: info.apiGroup, apiVersion: '*', resource: info.resource,
    name: info.name, namespace: info.namespace,
  }));
  return r.decision === 'Allow';
}

/**
 * BindingAuthorized: whether the requester holds `bind` on the referenced role, checked in the
 * binding's namespace ('' for a ClusterRoleBinding).
 */
export async function bindingAuthorized(user: UserInfo | undefined, roleRef: RoleRef, bindingNamespace: string,
  authorizer: Authorizer): Promise<boolean> {
  if (user === undefined) return false;
  let resource: string;
  if (roleRef.kind === 'ClusterRole') resource = 'clusterroles';
  else if (roleRef.kind === 'Role') resource = 'roles';
  else return false;
  const r = await authorizer.authorize(attributesRecord({
    user, verb: 'bind', resourceRequest: true, namespace: bindingNamespace, apiGroup: roleRef.apiGroup ?? '',
    resource, name: roleRef.name ?? '',
  }));
  return r.decision === 'Allow';
}
