// Which FlowSchema a request matches: a rule matches when one of its subjects is the user (by
// name, group, or service account, '*' for any) and, for a resource request, one of its resource
// rules names the verb, group, resource (with subresource) and namespace (clusterScope for a
// cluster-scoped request), or, for any other path, one of its non-resource rules names the verb
// and the path (exactly, '*', or a prefix given as "/x/*" or "/x").
// Counterpart of k8s.io/apiserver/pkg/util/flowcontrol/rule.go.
import type { RequestInfo, UserInfo } from '../../apimachinery/request/context.ts';
import type { FlowSchema, NonResourcePolicyRule, ResourcePolicyRule, Subject } from './types.ts';

const SA_PREFIX = 'system:serviceaccount:';

function matchesSubject(user: UserInfo, s: Subject): boolean {
  switch (s.kind) {
    case 'User': return s.user !== undefined && (s.user.name === '*' || s.user.name === user.name);
    case 'Group': {
      const seek = s.group?.name;
      if (seek === undefined) return false;
      return seek === '*' || user.groups.includes(seek);
    }
    case 'ServiceAccount': {
      const sa = s.serviceAccount;
      if (sa === undefined) return false;
      if (sa.name === '*') return user.name.startsWith(`${SA_PREFIX}${sa.namespace ?? ''}:`);
      return user.name === `${SA_PREFIX}${sa.namespace ?? ''}:${sa.name ?? ''}`;
    }
    default: return false;
  }
}

/** One wildcard alone matches everything; otherwise the value must be listed. */
function contains(x: string, list: readonly string[] | undefined, wildcard: string): boolean {
  if (list === undefined) return false;
  if (list.length === 1 && list[0] === wildcard) return true;
  return list.includes(x);
}

function matchesResourceRule(ri: RequestInfo, r: ResourcePolicyRule): boolean {
  if (!contains(ri.verb, r.verbs, '*')) return false;
  const resource = ri.subresource === '' ? ri.resource : `${ri.resource}/${ri.subresource}`;
  if (!contains(resource, r.resources, '*')) return false;
  if (!contains(ri.apiGroup, r.apiGroups, '*')) return false;
  if (ri.namespace === '') return r.clusterScope === true;
  return contains(ri.namespace, r.namespaces, '*');
}

function matchesNonResourceRule(ri: RequestInfo, r: NonResourcePolicyRule): boolean {
  if (!contains(ri.verb, r.verbs, '*')) return false;
  for (const rulePath of r.nonResourceURLs ?? []) {
    if (rulePath === '*' || rulePath === ri.path) return true;
    let prefix = rulePath.endsWith('*') ? rulePath.slice(0, -1) : rulePath;
    if (!prefix.endsWith('/')) prefix += '/';
    if (ri.path.startsWith(prefix)) return true;
  }
  return false;
}

export function matchesFlowSchema(ri: RequestInfo, user: UserInfo, fs: FlowSchema): boolean {
  for (const rule of fs.spec?.rules ?? []) {
    if (!(rule.subjects ?? []).some((s) => matchesSubject(user, s))) continue;
    if (ri.isResourceRequest ? (rule.resourceRules ?? []).some((r) => matchesResourceRule(ri, r))
      : (rule.nonResourceRules ?? []).some((r) => matchesNonResourceRule(ri, r))) return true;
  }
  return false;
}

/** The flow a request belongs to within its FlowSchema: the user, the namespace, or one flow. */
export function flowDistinguisher(ri: RequestInfo, user: UserInfo, fs: FlowSchema): string {
  switch (fs.spec?.distinguisherMethod?.type) {
    case 'ByUser': return user.name;
    case 'ByNamespace': return ri.namespace;
    default: return '';
  }
}

/** Matching order: lower matchingPrecedence first, then by name. */
export function compareFlowSchemas(a: FlowSchema, b: FlowSchema): number {
  const pa = a.spec?.matchingPrecedence ?? 1000;
  const pb = b.spec?.matchingPrecedence ?? 1000;
  if (pa !== pb) return pa - pb;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}
