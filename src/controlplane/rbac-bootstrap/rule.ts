// Building blocks of the default policy: PolicyRules with their lists sorted, as kube's
// PolicyRuleBuilder leaves them, the verb sets the policy reuses, and the metadata every
// bootstrap object carries (rbac.authorization.kubernetes.io/autoupdate, kubernetes.io/bootstrapping).
// Counterpart of pkg/apis/rbac/helpers.go (PolicyRuleBuilder).
import type { PolicyRule, Subject } from '../../apis/rbac/v1/types.ts';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
export const BOOTSTRAPPING_LABEL = 'kubernetes.io/bootstrapping';
const BOOTSTRAPPING_VALUE = 'rbac-defaults';

export const READ = ['get', 'list', 'watch'] as const;
export const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;
export const READ_WRITE = [...READ, ...WRITE] as const;
export const READ_UPDATE = ['get', 'list', 'watch', 'update', 'patch'] as const;

/** API groups by the short names the policy uses. */
export const G = {
  core: '',
  apps: 'apps',
  authentication: 'authentication.k8s.io',
  authorization: 'authorization.k8s.io',
  autoscaling: 'autoscaling',
  batch: 'batch',
  certificates: 'certificates.k8s.io',
  coordination: 'coordination.k8s.io',
  discovery: 'discovery.k8s.io',
  events: 'events.k8s.io',
  extensions: 'extensions',
  networking: 'networking.k8s.io',
  node: 'node.k8s.io',
  policy: 'policy',
  rbac: RBAC_GROUP,
  resource: 'resource.k8s.io',
  storage: 'storage.k8s.io',
  admissionregistration: 'admissionregistration.k8s.io',
  metrics: 'metrics.k8s.io',
  customMetrics: 'custom.metrics.k8s.io',
  externalMetrics: 'external.metrics.k8s.io',
} as const;

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

/**
 * A resource rule: `verbs` on `resources` of `groups` (optionally only the named objects). Every
 * list is sorted, the order in which kube stores its defaults.
 */
export function rule(verbs: readonly string[], groups: readonly string[], resources: readonly string[],
  names: readonly string[] = []): PolicyRule {
  if (verbs.length === 0 || groups.length === 0 || resources.length === 0) throw new Error('rule: verbs, groups and resources required');
  const r: PolicyRule = { verbs: sorted(verbs), apiGroups: sorted(groups), resources: sorted(resources) };
  if (names.length > 0) r.resourceNames = sorted(names);
  return r;
}

/** A non-resource rule: `verbs` on URL paths (a trailing `*` matches a prefix). */
export function urlRule(verbs: readonly string[], urls: readonly string[]): PolicyRule {
  if (verbs.length === 0 || urls.length === 0) throw new Error('urlRule: verbs and urls required');
  return { verbs: sorted(verbs), nonResourceURLs: sorted(urls) };
}

/** Writing events through either events API, which nearly every component needs. */
export const eventsRule = (): PolicyRule => rule(['create', 'update', 'patch'], [G.core, G.events], ['events']);

export const userSubject = (name: string): Subject => ({ kind: 'User', apiGroup: RBAC_GROUP, name });
export const groupSubject = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });
export const serviceAccountSubject = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

/** The label and annotation of every bootstrap object, merged over the object's own labels. */
export function bootstrapMetadata(name: string, labels: Readonly<Record<string, string>> = {}, namespace?: string):
  { name: string; namespace?: string; labels: Record<string, string>; annotations: Record<string, string> } {
  return {
    name,
    ...(namespace !== undefined ? { namespace } : {}),
    labels: { ...labels, [BOOTSTRAPPING_LABEL]: BOOTSTRAPPING_VALUE },
    annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
  };
}
