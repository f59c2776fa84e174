// Whether a webhook's rule covers a request: operation, group, version, resource (with
// subresources and `*`) and scope; and the admission configuration kinds never sent to webhooks.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules.go.
import type { GroupVersionKind, GroupVersionResource } from '../../apimachinery/schema/group-version.ts';
import type { Operation } from '../interfaces.ts';
import type { Rule } from './types.ts';

/** What a rule is checked against: the request, or one of its equivalent resources. */
export interface RuleTarget {
  readonly operation: Operation;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  readonly namespace: string;
}

const exactOrWildcard = (items: readonly string[] | undefined, requested: string): boolean =>
  (items ?? []).some((i) => i === '*' || i === requested);

const isNamespaceResource = (r: GroupVersionResource): boolean => r.group === '' && r.version === 'v1' && r.resource === 'namespaces';

/** The request's namespace is the namespace's own name for requests on a namespace object. */
function scopeMatches(rule: Rule, t: RuleTarget): boolean {
  switch (rule.scope ?? '*') {
    case '*': return true;
    case 'Namespaced': return !isNamespaceResource(t.resource) && t.namespace !== '';
    case 'Cluster': return isNamespaceResource(t.resource) || t.namespace === '';
    default: return false;
  }
}

function resourceMatches(rule: Rule, t: RuleTarget): boolean {
  for (const entry of rule.resources ?? []) {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    if ((res === '*' || res === t.resource.resource) && (sub === '*' || sub === t.subresource)) return true;
  }
  return false;
}

export function ruleMatches(rule: Rule, t: RuleTarget): boolean {
  return scopeMatches(rule, t) &&
    exactOrWildcard(rule.operations, t.operation) &&
    exactOrWildcard(rule.apiGroups, t.resource.group) &&
    exactOrWildcard(rule.apiVersions, t.resource.version) &&
    resourceMatches(rule, t);
}

const EXEMPT_KINDS = new Set([
  'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding',
]);

/** IsExemptAdmissionConfigurationResource: so that no webhook can lock the cluster out of fixing webhooks. */
export function isExemptAdmissionConfigurationResource(kind: GroupVersionKind): boolean {
  return kind.group === 'admissionregistration.k8s.io' && EXEMPT_KINDS.has(kind.kind);
}
