// The default ClusterRoles of kube-apiserver (bootstrappolicy/policy.go), rule for rule and in
// kube's order: the user-facing roles, the aggregated admin/edit/view and their system:aggregate-to-*
// sources, and the roles of the system components.
// Counterpart of plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go.
import type { ClusterRole, PolicyRule } from '../../apis/rbac/v1/types.ts';
import type { PolicyFeatures } from './features.ts';
import {
  bootstrapMetadata, eventsRule, G, READ, READ_UPDATE, READ_WRITE, rule, urlRule, WRITE,
} from './rule.ts';

export const AGGREGATE_TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
export const AGGREGATE_TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
export const AGGREGATE_TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';

const SCHEDULING = 'scheduling.k8s.io';

function viewRules(f: PolicyFeatures): PolicyRule[] {
  const rules = [
    rule(READ, [G.core], ['pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts',
      'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps']),
    rule(READ, [G.core], ['limitranges', 'resourcequotas', 'bindings', 'pods/status', 'resourcequotas/status',
      'namespaces/status', 'replicationcontrollers/status', 'pods/log']),
    // Reading namespaces at namespace scope reads that namespace.
    rule(READ, [G.core], ['namespaces']),
    rule(READ, [G.core, G.events], ['events']),
    rule(READ, [G.discovery], ['endpointslices']),
    rule(READ, [G.apps], ['controllerrevisions', 'statefulsets', 'statefulsets/status', 'statefulsets/scale',
      'daemonsets', 'daemonsets/status', 'deployments', 'deployments/status', 'deployments/scale',
      'replicasets', 'replicasets/status', 'replicasets/scale']),
    rule(READ, [G.autoscaling], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
    rule(READ, [G.batch], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
    rule(READ, [G.extensions], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status',
      'ingresses', 'ingresses/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale',
      'networkpolicies']),
    rule(READ, [G.policy], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
    rule(READ, [G.networking], ['networkpolicies', 'ingresses', 'ingresses/status']),
  ];
  if (f.DynamicResourceAllocation) rules.push(rule(READ, [G.resource], ['resourceclaims', 'resourceclaims/status', 'resourceclaimtemplates']));
  if (f.GenericWorkload) rules.push(rule(READ, [SCHEDULING], ['workloads', 'podgroups', 'podgroups/status']));
  return rules;
}

function editRules(f: PolicyFeatures): PolicyRule[] {
  const rules = [
    // Reading what lets one escalate stays with edit, not view.
    rule(READ, [G.core], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
    rule(['impersonate'], [G.core], ['serviceaccounts']),
    rule(WRITE, [G.core], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
    rule(['create'], [G.core], ['pods/eviction']),
    rule(WRITE, [G.core], ['replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts',
      'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets']),
    rule(['create'], [G.core], ['serviceaccounts/token']),
    rule(WRITE, [G.core, G.events], ['events']),
    rule(WRITE, [G.apps], ['statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale',
      'deployments/rollback', 'replicasets', 'replicasets/scale']),
    rule(WRITE, [G.autoscaling], ['horizontalpodautoscalers']),
    rule(WRITE, [G.batch], ['jobs', 'cronjobs']),
    rule(WRITE, [G.extensions], ['daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'ingresses',
      'replicasets', 'replicasets/scale', 'replicationcontrollers/scale', 'networkpolicies']),
    rule(WRITE, [G.policy], ['poddisruptionbudgets']),
    rule(WRITE, [G.networking], ['networkpolicies', 'ingresses']),
    rule(READ_WRITE, [G.coordination], ['leases']),
  ];
  if (f.DynamicResourceAllocation) rules.push(rule(WRITE, [G.resource], ['resourceclaims', 'resourceclaimtemplates']));
  if (f.GenericWorkload) rules.push(rule(WRITE, [SCHEDULING], ['workloads', 'podgroups']));
  return rules;
}

/** system:node: what a kubelet needs (the Node authorizer and NodeRestriction narrow it per node). */
export function nodeRules(f: PolicyFeatures): PolicyRule[] {
  const rules = [
    rule(['create'], [G.authentication], ['tokenreviews']),
    rule(['create'], [G.authorization], ['subjectaccessreviews', 'localsubjectaccessreviews']),
    rule(READ, [G.core], ['services']),
    rule(['create', 'get', 'list', 'watch'], [G.core], ['nodes']),
    rule(['update', 'patch'], [G.core], ['nodes/status']),
    rule(['update', 'patch'], [G.core], ['nodes']),
    rule(['create', 'update', 'patch'], [G.core, G.events], ['events']),
    rule(READ, [G.core], ['pods']),
    rule(['create', 'delete'], [G.core], ['pods']),
    rule(['update', 'patch'], [G.core], ['pods/status']),
    rule(['create'], [G.core], ['pods/eviction']),
    rule(['get', 'list', 'watch'], [G.core], ['secrets', 'configmaps']),
    rule(['get'], [G.core], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['get'], [G.core], ['endpoints']),
    rule(['create', 'get', 'list', 'watch'], [G.certificates], ['certificatesigningrequests']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [G.coordination], ['leases']),
    rule(['get'], [G.storage], ['volumeattachments']),
    rule(['create'], [G.core], ['serviceaccounts/token']),
    rule(['get', 'update', 'patch'], [G.core], ['persistentvolumeclaims/status']),
    rule(['get', 'watch', 'list'], [G.storage], ['csidrivers']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [G.storage], ['csinodes']),
  ];
  if (f.CSIVolumeHealth) rules.push(rule(['get', 'update', 'patch'], [G.storage], ['csinodes/status']));
  rules.push(rule(['get', 'list', 'watch'], [G.node], ['runtimeclasses']));
  if (f.DynamicResourceAllocation) {
    rules.push(rule(['get'], [G.resource], ['resourceclaims']));
    rules.push(rule(['deletecollection'], [G.resource], ['resourceslices']));
  }
  if (f.ClusterTrustBundle) rules.push(rule(['get', 'list', 'watch'], [G.certificates], ['clustertrustbundles']));
  if (f.KubeletServiceAccountTokenForCredentialProviders) rules.push(rule(['get'], [G.core], ['serviceaccounts']));
  if (f.PodCertificateRequest) rules.push(rule(['get', 'list', 'watch', 'create'], [G.certificates], ['podcertificaterequests']));
  return rules;
}

function monitoringRules(f: PolicyFeatures): PolicyRule[] {
  const urls = ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'];
  if (f.ComponentFlagz) urls.push('/flagz');
  if (f.ComponentStatusz) urls.push('/statusz');
  return [urlRule(['get'], urls), rule(['get'], [G.core], ['nodes/metrics'])];
}

function kubeletAPIAdminRules(f: PolicyFeatures): PolicyRule[] {
  const rules = [
    rule(['get', 'list', 'watch'], [G.core], ['nodes']),
    rule(['proxy'], [G.core], ['nodes']),
    rule(['*'], [G.core], ['nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log']),
  ];
  if (f.KubeletFineGrainedAuthz) rules.push(rule(['*'], [G.core], ['nodes/pods', 'nodes/healthz', 'nodes/configz']));
  return rules;
}

function nodeProxierRules(f: PolicyFeatures): PolicyRule[] {
  const rules = [
    rule(['list', 'watch'], [G.core], ['services', 'endpoints']),
    rule(['get', 'list', 'watch'], [G.core], ['nodes']),
    eventsRule(),
  ];
  if (f.MultiCIDRServiceAllocator) rules.push(rule(['list', 'watch'], [G.networking], ['servicecidrs']));
  rules.push(rule(['list', 'watch'], [G.discovery], ['endpointslices']));
  return rules;
}

function kubeSchedulerRules(f: PolicyFeatures): PolicyRule[] {
  const rules = [
    eventsRule(),
    // Leader election.
    rule(['create'], [G.coordination], ['leases']),
    rule(['get', 'update', 'list', 'watch'], [G.coordination], ['leases'], ['kube-scheduler']),
    rule(READ_WRITE, [G.coordination], ['leasecandidates']),
    rule(READ, [G.core], ['nodes']),
    rule(['get', 'list', 'watch', 'delete'], [G.core], ['pods']),
    rule(['create'], [G.core], ['pods/binding', 'bindings']),
    rule(['patch', 'update'], [G.core], ['pods/status']),
    // What selects pods.
    rule(READ, [G.core], ['services', 'replicationcontrollers']),
    rule(READ, [G.apps, G.extensions], ['replicasets']),
    rule(READ, [G.apps], ['statefulsets']),
    // What pods use or what applies to them.
    rule(READ, [G.policy], ['poddisruptionbudgets']),
    rule(READ, [G.core], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['create'], [G.authentication], ['tokenreviews']),
    rule(['create'], [G.authorization], ['subjectaccessreviews']),
    rule(READ, [G.storage], ['csinodes']),
    rule(['get', 'list', 'watch'], [G.storage], ['volumeattachments']),
    rule(READ, [G.core], ['namespaces']),
    rule(READ, [G.storage], ['csidrivers']),
    rule(READ, [G.storage], ['csistoragecapacities']),
  ];
  if (f.DynamicResourceAllocation) {
    rules.push(
      rule(READ, [G.resource], ['deviceclasses']),
      rule(READ_UPDATE, [G.resource], ['resourceclaims']),
      rule(READ_UPDATE, [G.resource], ['resourceclaims/status']),
      rule(['update'], [G.core], ['pods/finalizers']),
      rule(READ, [G.resource], ['resourceslices']),
    );
    if (f.DRAExtendedResource) rules.push(rule(['create', 'delete'], [G.resource], ['resourceclaims']));
    if (f.DRADeviceTaintRules) rules.push(rule(READ, [G.resource], ['devicetaintrules']));
    if (f.DRAResourceClaimGranularStatusAuthorization) rules.push(rule(['update', 'patch'], [G.resource], ['resourceclaims/binding']));
  }
  if (f.GenericWorkload) {
    rules.push(rule(READ, [SCHEDULING], ['podgroups']), rule(['patch', 'update'], [SCHEDULING], ['podgroups/status']));
  }
  return rules;
}

const signerApprover = (signer: string): PolicyRule[] => [rule(['approve'], [G.certificates], ['signers'], [signer])];

interface RoleSpec {
  readonly name: string;
  readonly rules?: PolicyRule[];
  readonly labels?: Readonly<Record<string, string>>;
  /** The label value `true` of the aggregation selector. */
  readonly aggregateFrom?: string;
}

function clusterRole(spec: RoleSpec): ClusterRole {
  const role: ClusterRole = {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
    metadata: bootstrapMetadata(spec.name, spec.labels),
  };
  if (spec.aggregateFrom !== undefined) role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [spec.aggregateFrom]: 'true' } }] };
  if (spec.rules !== undefined) role.rules = spec.rules;
  return role;
}

/** The ClusterRoles kube-apiserver creates at start (without the system:controller:* roles). */
export function clusterRoles(f: PolicyFeatures): ClusterRole[] {
  const specs: RoleSpec[] = [
    { name: 'cluster-admin', rules: [rule(['*'], ['*'], ['*']), urlRule(['*'], ['*'])] },
    { name: 'system:discovery', rules: [urlRule(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/',
      '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'])] },
    { name: 'system:monitoring', rules: monitoringRules(f) },
    { name: 'system:basic-user', rules: [
      rule(['create'], [G.authorization], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], [G.authentication], ['selfsubjectreviews']),
    ] },
    { name: 'system:public-info-viewer', rules: [urlRule(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/'])] },
    { name: 'admin', aggregateFrom: AGGREGATE_TO_ADMIN },
    { name: 'edit', labels: { [AGGREGATE_TO_ADMIN]: 'true' }, aggregateFrom: AGGREGATE_TO_EDIT },
    { name: 'view', labels: { [AGGREGATE_TO_EDIT]: 'true' }, aggregateFrom: AGGREGATE_TO_VIEW },
    { name: 'system:aggregate-to-admin', labels: { [AGGREGATE_TO_ADMIN]: 'true' }, rules: [
      rule(['create'], [G.authorization], ['localsubjectaccessreviews']),
      rule(READ_WRITE, [G.rbac], ['roles', 'rolebindings']),
    ] },
    { name: 'system:aggregate-to-edit', labels: { [AGGREGATE_TO_EDIT]: 'true' }, rules: editRules(f) },
    { name: 'system:aggregate-to-view', labels: { [AGGREGATE_TO_VIEW]: 'true' }, rules: viewRules(f) },
    { name: 'system:heapster', rules: [
      rule(READ, [G.core], ['events', 'pods', 'nodes', 'namespaces']),
      rule(READ, [G.extensions], ['deployments']),
    ] },
    { name: 'system:node', rules: nodeRules(f) },
    { name: 'system:node-problem-detector', rules: [
      rule(['get'], [G.core], ['nodes']),
      rule(['patch'], [G.core], ['nodes/status']),
      eventsRule(),
    ] },
    { name: 'system:node-bootstrapper', rules: [
      rule(['create', 'get', 'list', 'watch'], [G.certificates], ['certificatesigningrequests']),
    ] },
    { name: 'system:auth-delegator', rules: [
      rule(['create'], [G.authentication], ['tokenreviews']),
      rule(['create'], [G.authorization], ['subjectaccessreviews']),
    ] },
    { name: 'system:kube-aggregator', rules: [rule(READ, [G.core], ['services', 'endpoints'])] },
    { name: 'system:kube-controller-manager', rules: [
      eventsRule(),
      rule(['create'], [G.coordination], ['leases']),
      rule(['get', 'update'], [G.coordination], ['leases'], ['kube-controller-manager']),
      rule(['create'], [G.core], ['secrets', 'serviceaccounts']),
      rule(['delete'], [G.core], ['secrets']),
      rule(['get'], [G.core], ['namespaces', 'secrets', 'serviceaccounts', 'configmaps']),
      rule(['update'], [G.core], ['secrets', 'serviceaccounts']),
      rule(['create'], [G.authentication], ['tokenreviews']),
      rule(['create'], [G.authorization], ['subjectaccessreviews']),
      // Every shared informer.
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['create'], [G.core], ['serviceaccounts/token']),
    ] },
    { name: 'system:kube-dns', rules: [rule(['list', 'watch'], [G.core], ['endpoints', 'services'])] },
    { name: 'system:persistent-volume-provisioner', rules: [
      rule(['get', 'list', 'watch', 'create', 'delete'], [G.core], ['persistentvolumes']),
      rule(['get', 'list', 'watch', 'update'], [G.core], ['persistentvolumeclaims']),
      rule(READ, [G.storage], ['storageclasses']),
      rule(['watch'], [G.core], ['events']),
      eventsRule(),
    ] },
    { name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', rules: [
      rule(['create'], [G.certificates], ['certificatesigningrequests/nodeclient']),
    ] },
    { name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', rules: [
      rule(['create'], [G.certificates], ['certificatesigningrequests/selfnodeclient']),
    ] },
    { name: 'system:volume-scheduler', rules: [
      rule(READ_UPDATE, [G.core], ['persistentvolumes']),
      rule(READ, [G.storage], ['storageclasses']),
      rule(READ_UPDATE, [G.core], ['persistentvolumeclaims']),
    ] },
    { name: 'system:certificates.k8s.io:legacy-unknown-approver', rules: signerApprover('kubernetes.io/legacy-unknown') },
    { name: 'system:certificates.k8s.io:kubelet-serving-approver', rules: signerApprover('kubernetes.io/kubelet-serving') },
    { name: 'system:certificates.k8s.io:kube-apiserver-client-approver', rules: signerApprover('kubernetes.io/kube-apiserver-client') },
    { name: 'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver',
      rules: signerApprover('kubernetes.io/kube-apiserver-client-kubelet') },
    // Slash-ended URLs too, for clients generated from older published OpenAPI documents.
    { name: 'system:service-account-issuer-discovery', rules: [urlRule(['get'], ['/.well-known/openid-configuration',
      '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'])] },
    { name: 'system:kubelet-api-admin', rules: kubeletAPIAdminRules(f) },
    { name: 'system:node-proxier', rules: nodeProxierRules(f) },
    { name: 'system:kube-scheduler', rules: kubeSchedulerRules(f) },
  ];
  if (f.ClusterTrustBundle) {
    specs.push({ name: 'system:cluster-trust-bundle-discovery', rules: [rule(READ, [G.certificates], ['clustertrustbundles'])] });
  }
  return specs.map(clusterRole);
}

/**
 * Old admin/edit/view (before aggregation) whose custom rules move to these roles on upgrade
 * (ClusterRolesToAggregate).
 */
export const CLUSTER_ROLES_TO_AGGREGATE: Readonly<Record<string, string>> = {
  admin: 'system:aggregate-to-admin',
  edit: 'system:aggregate-to-edit',
  view: 'system:aggregate-to-view',
};
