// The roles of kube-controller-manager's controllers (bootstrappolicy/controller_policy.go): one
// system:controller:<name> ClusterRole each, bound to the kube-system/<name> service account that
// the controller runs as with --use-service-account-credentials.
// Counterpart of plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go.
import type { ClusterRole, ClusterRoleBinding, PolicyRule } from '../../apis/rbac/v1/types.ts';
import type { PolicyFeatures } from './features.ts';
import { clusterBinding } from './cluster-role-bindings.ts';
import { bootstrapMetadata, eventsRule, G, rule, serviceAccountSubject } from './rule.ts';

export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

const SCHEDULING = 'scheduling.k8s.io';
const INTERNAL_APISERVER = 'internal.apiserver.k8s.io';
const STORAGE_MIGRATION = 'storagemigration.k8s.io';
const APIEXTENSIONS = 'apiextensions.k8s.io';

/** Controller name (without the prefix) → its rules, in kube's order. */
function controllerRules(f: PolicyFeatures): [string, PolicyRule[]][] {
  const out: [string, PolicyRule[]][] = [];
  const add = (name: string, rules: PolicyRule[]): void => { out.push([name, rules]); };

  add('attachdetach-controller', [
    rule(['list', 'watch'], [G.core], ['persistentvolumes', 'persistentvolumeclaims']),
    rule(['get', 'list', 'watch'], [G.core], ['nodes']),
    rule(['patch', 'update'], [G.core], ['nodes/status']),
    rule(['list', 'watch'], [G.core], ['pods']),
    eventsRule(),
    rule(['get', 'create', 'delete', 'list', 'watch'], [G.storage], ['volumeattachments']),
    rule(['get', 'watch', 'list'], [G.storage], ['csidrivers']),
    rule(['get', 'watch', 'list'], [G.storage], ['csinodes']),
  ]);
  // Mutates aggregated ClusterRoles in any way, so it may escalate.
  add('clusterrole-aggregation-controller', [
    rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], [G.rbac], ['clusterroles']),
  ]);
  add('cronjob-controller', [
    rule(['get', 'list', 'watch', 'update'], [G.batch], ['cronjobs']),
    rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], [G.batch], ['jobs']),
    rule(['update'], [G.batch], ['cronjobs/status']),
    rule(['update'], [G.batch], ['cronjobs/finalizers']),
    rule(['list', 'watch', 'delete'], [G.core], ['pods']),
    eventsRule(),
  ]);
  add('daemon-set-controller', [
    rule(['get', 'list', 'watch'], [G.extensions, G.apps], ['daemonsets']),
    rule(['update'], [G.extensions, G.apps], ['daemonsets/status']),
    rule(['update'], [G.extensions, G.apps], ['daemonsets/finalizers']),
    rule(['list', 'watch'], [G.core], ['nodes']),
    rule(['list', 'watch', 'create', 'delete', 'patch'], [G.core], ['pods']),
    rule(['create'], [G.core], ['pods/binding']),
    rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], [G.apps], ['controllerrevisions']),
    eventsRule(),
  ]);
  add('deployment-controller', [
    rule(['get', 'list', 'watch', 'update'], [G.extensions, G.apps], ['deployments']),
    rule(['update'], [G.extensions, G.apps], ['deployments/status']),
    rule(['update'], [G.extensions, G.apps], ['deployments/finalizers']),
    rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], [G.apps, G.extensions], ['replicasets']),
    rule(['get', 'list', 'watch', 'update'], [G.core], ['pods']),
    eventsRule(),
  ]);
  add('disruption-controller', [
    rule(['get', 'list', 'watch'], [G.extensions, G.apps], ['deployments']),
    rule(['get', 'list', 'watch'], [G.apps, G.extensions], ['replicasets']),
    rule(['get', 'list', 'watch'], [G.core], ['replicationcontrollers']),
    rule(['get', 'list', 'watch'], [G.policy], ['poddisruptionbudgets']),
    rule(['get', 'list', 'watch'], [G.apps], ['statefulsets']),
    rule(['update'], [G.policy], ['poddisruptionbudgets/status']),
    rule(['patch', 'update'], [G.core], ['pods/status']),
    rule(['get'], ['*'], ['*/scale']),
    eventsRule(),
  ]);
  add('endpoint-controller', [
    rule(['get', 'list', 'watch'], [G.core], ['services', 'pods']),
    rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [G.core], ['endpoints']),
    rule(['create'], [G.core], ['endpoints/restricted']),
    eventsRule(),
  ]);
  add('endpointslice-controller', [
    rule(['get', 'list', 'watch'], [G.core], ['services', 'pods', 'nodes']),
    // Owner references with blockOwnerDeletion need the owner's finalizers.
    rule(['update'], [G.core], ['services/finalizers']),
    rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [G.discovery], ['endpointslices']),
    eventsRule(),
  ]);
  add('endpointslicemirroring-controller', [
    rule(['get', 'list', 'watch'], [G.core], ['services', 'endpoints']),
    rule(['update'], [G.core], ['services/finalizers']),
    rule(['update'], [G.core], ['endpoints/finalizers']),
    rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [G.discovery], ['endpointslices']),
    eventsRule(),
  ]);
  add('expand-controller', [
    rule(['get', 'list', 'watch', 'update', 'patch'], [G.core], ['persistentvolumes']),
    rule(['update', 'patch'], [G.core], ['persistentvolumeclaims/status']),
    rule(['get', 'list', 'watch'], [G.core], ['persistentvolumeclaims']),
    eventsRule(),
  ]);
  add('ephemeral-volume-controller', [
    rule(['get', 'list', 'watch'], [G.core], ['pods']),
    rule(['update'], [G.core], ['pods/finalizers']),
    rule(['get', 'list', 'watch', 'create'], [G.core], ['persistentvolumeclaims']),
    eventsRule(),
  ]);
  if (f.DynamicResourceAllocation) {
    const claims = [
      rule(['get', 'list', 'watch'], [G.core], ['pods']),
      rule(['update'], [G.core], ['pods/finalizers']),
      rule(['get', 'list', 'watch', 'create', 'delete'], [G.resource], ['resourceclaims']),
      rule(['update', 'patch'], [G.resource], ['resourceclaims', 'resourceclaims/status']),
      rule(['update', 'patch'], [G.core], ['pods/status']),
      eventsRule(),
    ];
    if (f.DRAWorkloadResourceClaims) {
      claims.push(rule(['get', 'list', 'watch'], [SCHEDULING], ['podgroups']), rule(['update', 'patch'], [SCHEDULING], ['podgroups/status']));
    }
    if (f.DRAResourceClaimGranularStatusAuthorization) claims.push(rule(['update', 'patch'], [G.resource], ['resourceclaims/binding']));
    add('resource-claim-controller', claims);
    if (f.DRADeviceTaints) {
      const taints = [
        // Evicts by deleting pods and records it in their conditions.
        rule(['get', 'list', 'watch', 'delete'], [G.core], ['pods']),
        rule(['update', 'patch'], [G.core], ['pods/status']),
        rule(['get', 'list', 'watch'], [G.resource], ['resourceclaims']),
        rule(['get', 'list', 'watch'], [G.resource], ['resourceslices']),
        rule(['get', 'list', 'watch'], [G.resource], ['deviceclasses']),
        eventsRule(),
      ];
      if (f.DRADeviceTaintRules) {
        taints.push(rule(['update', 'patch'], [G.resource], ['devicetaintrules/status']),
          rule(['get', 'list', 'watch'], [G.resource], ['devicetaintrules']));
      }
      add('device-taint-eviction-controller', taints);
    }
    if (f.DRAResourcePoolStatus) {
      add('resourcepoolstatusrequest-controller', [
        rule(['get', 'list', 'watch', 'delete'], [G.resource], ['resourcepoolstatusrequests']),
        rule(['update', 'patch'], [G.resource], ['resourcepoolstatusrequests/status']),
        rule(['get', 'list', 'watch'], [G.resource], ['resourceslices']),
        rule(['get', 'list', 'watch'], [G.resource], ['resourceclaims']),
        rule(['get', 'list', 'watch'], [G.resource], ['devicetaintrules']),
        eventsRule(),
      ]);
    }
  }
  add('generic-garbage-collector', [
    rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']),
    eventsRule(),
  ]);
  add('horizontal-pod-autoscaler', [
    rule(['get', 'list', 'watch'], [G.autoscaling], ['horizontalpodautoscalers']),
    rule(['update'], [G.autoscaling], ['horizontalpodautoscalers/status']),
    rule(['get', 'update'], ['*'], ['*/scale']),
    rule(['list', 'watch'], [G.core], ['pods']),
    // Resource, custom and external metrics.
    rule(['list', 'watch'], [G.metrics], ['pods']),
    rule(['get', 'list', 'watch'], [G.customMetrics], ['*']),
    rule(['get', 'list', 'watch'], [G.externalMetrics], ['*']),
    eventsRule(),
  ]);
  const job = [
    rule(['get', 'list', 'watch', 'update', 'patch'], [G.batch], ['jobs']),
    rule(['update'], [G.batch], ['jobs/status']),
    rule(['update'], [G.batch], ['jobs/finalizers']),
    rule(['list', 'watch', 'create', 'delete', 'patch'], [G.core], ['pods']),
    eventsRule(),
  ];
  if (f.WorkloadWithJob) job.push(rule(['get', 'list', 'watch', 'create', 'update', 'patch'], [SCHEDULING], ['workloads', 'podgroups']));
  add('job-controller', job);
  add('namespace-controller', [
    rule(['get', 'list', 'watch', 'delete'], [G.core], ['namespaces']),
    rule(['update'], [G.core], ['namespaces/finalize', 'namespaces/status']),
    rule(['get', 'list', 'watch', 'delete', 'deletecollection'], ['*'], ['*']),
  ]);
  add('node-controller', [
    rule(['get', 'list', 'watch', 'update', 'delete', 'patch'], [G.core], ['nodes']),
    rule(['patch', 'update'], [G.core], ['nodes/status']),
    // Pod deletion.
    rule(['patch', 'update'], [G.core], ['pods/status']),
    rule(['list', 'watch', 'get', 'delete'], [G.core], ['pods']),
    rule(['get', 'list', 'watch'], [G.coordination], ['leases']),
    eventsRule(),
  ]);
  add('persistent-volume-binder', [
    rule(['get', 'list', 'watch', 'update', 'create', 'delete'], [G.core], ['persistentvolumes']),
    rule(['update'], [G.core], ['persistentvolumes/status']),
    rule(['get', 'list', 'watch', 'update'], [G.core], ['persistentvolumeclaims']),
    rule(['update'], [G.core], ['persistentvolumeclaims/status']),
    rule(['list', 'watch', 'get', 'create', 'delete'], [G.core], ['pods']),
    rule(['get', 'list', 'watch'], [G.storage], ['storageclasses']),
    rule(['list', 'watch'], [G.core], ['nodes']),
    eventsRule(),
    // The recycler watches its pod's events.
    rule(['watch'], [G.core], ['events']),
  ]);
  add('pod-garbage-collector', [
    rule(['list', 'watch', 'delete'], [G.core], ['pods']),
    rule(['get', 'list', 'watch'], [G.core], ['nodes']),
    rule(['patch'], [G.core], ['pods/status']),
  ]);
  add('replicaset-controller', [
    rule(['get', 'list', 'watch', 'update'], [G.apps, G.extensions], ['replicasets']),
    rule(['update'], [G.apps, G.extensions], ['replicasets/status']),
    rule(['update'], [G.apps, G.extensions], ['replicasets/finalizers']),
    rule(['list', 'watch', 'patch', 'create', 'delete'], [G.core], ['pods']),
    eventsRule(),
  ]);
  add('replication-controller', [
    rule(['get', 'list', 'watch', 'update'], [G.core], ['replicationcontrollers']),
    rule(['update'], [G.core], ['replicationcontrollers/status']),
    rule(['update'], [G.core], ['replicationcontrollers/finalizers']),
    rule(['list', 'watch', 'patch', 'create', 'delete'], [G.core], ['pods']),
    eventsRule(),
  ]);
  // Quota counts anything, so it reads everything.
  add('resourcequota-controller', [
    rule(['list', 'watch'], ['*'], ['*']),
    rule(['update'], [G.core], ['resourcequotas/status']),
    eventsRule(),
  ]);
  add('route-controller', [
    rule(['list', 'watch'], [G.core], ['nodes']),
    rule(['patch'], [G.core], ['nodes/status']),
    eventsRule(),
  ]);
  add('service-account-controller', [
    rule(['create'], [G.core], ['serviceaccounts']),
    eventsRule(),
  ]);
  add('service-controller', [
    rule(['get', 'list', 'watch'], [G.core], ['services']),
    rule(['patch', 'update'], [G.core], ['services/status']),
    rule(['list', 'watch'], [G.core], ['nodes']),
    eventsRule(),
  ]);
  if (f.MultiCIDRServiceAllocator) {
    add('service-cidrs-controller', [
      rule(['get', 'list', 'watch', 'patch', 'update'], [G.networking], ['servicecidrs']),
      rule(['patch', 'update'], [G.networking], ['servicecidrs/finalizers']),
      rule(['patch', 'update'], [G.networking], ['servicecidrs/status']),
      rule(['get', 'list', 'watch'], [G.networking], ['ipaddresses']),
      eventsRule(),
    ]);
  }
  add('statefulset-controller', [
    rule(['list', 'watch'], [G.core], ['pods']),
    rule(['get', 'list', 'watch'], [G.apps], ['statefulsets']),
    rule(['update'], [G.apps], ['statefulsets/status']),
    rule(['update'], [G.apps], ['statefulsets/finalizers']),
    rule(['get', 'create', 'delete', 'update', 'patch'], [G.core], ['pods']),
    rule(['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'], [G.apps], ['controllerrevisions']),
    rule(['get', 'create', 'list', 'watch'], [G.core], ['persistentvolumeclaims']),
    rule(['update', 'delete'], [G.core], ['persistentvolumeclaims']),
    rule(['update'], [G.core], ['pods/finalizers']),
    eventsRule(),
  ]);
  add('ttl-controller', [
    rule(['update', 'patch', 'list', 'watch'], [G.core], ['nodes']),
    eventsRule(),
  ]);
  add('certificate-controller', [
    rule(['get', 'list', 'watch', 'delete'], [G.certificates], ['certificatesigningrequests']),
    rule(['update'], [G.certificates], ['certificatesigningrequests/status', 'certificatesigningrequests/approval']),
    rule(['approve'], [G.certificates], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
    rule(['sign'], [G.certificates], ['signers'], ['kubernetes.io/legacy-unknown', 'kubernetes.io/kube-apiserver-client',
      'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving']),
    rule(['create'], [G.authorization], ['subjectaccessreviews']),
    eventsRule(),
  ]);
  if (f.PodCertificateRequest) {
    add('podcertificaterequestcleaner', [
      rule(['get', 'list', 'watch', 'delete'], [G.certificates], ['podcertificaterequests']),
    ]);
  }
  add('pvc-protection-controller', [
    rule(['get', 'list', 'watch', 'update'], [G.core], ['persistentvolumeclaims']),
    rule(['update'], [G.core], ['persistentvolumeclaims/status']),
    rule(['list', 'watch', 'get'], [G.core], ['pods']),
    eventsRule(),
  ]);
  add('pv-protection-controller', [
    rule(['get', 'list', 'watch', 'update'], [G.core], ['persistentvolumes']),
    eventsRule(),
  ]);
  if (f.VolumeAttributesClass) {
    add('volumeattributesclass-protection-controller', [
      rule(['list', 'watch', 'get'], [G.core], ['persistentvolumeclaims']),
      rule(['list', 'watch', 'get'], [G.core], ['persistentvolumes']),
      rule(['get', 'list', 'watch', 'update'], [G.storage], ['volumeattributesclasses']),
      eventsRule(),
    ]);
  }
  if (f.GenericWorkload) {
    add('podgroup-protection-controller', [
      rule(['get', 'list', 'watch', 'update'], [SCHEDULING], ['podgroups']),
      rule(['get', 'list', 'watch'], [G.core], ['pods']),
    ]);
  }
  add('ttl-after-finished-controller', [
    rule(['get', 'list', 'watch', 'delete'], [G.batch], ['jobs']),
    eventsRule(),
  ]);
  add('root-ca-cert-publisher', [
    rule(['create', 'update'], [G.core], ['configmaps']),
    eventsRule(),
  ]);
  if (f.ClusterTrustBundle) {
    add('kube-apiserver-serving-clustertrustbundle-publisher', [
      rule(['attest'], [G.certificates], ['signers'], ['kubernetes.io/kube-apiserver-serving']),
      rule(['create', 'update', 'delete', 'list', 'watch'], [G.certificates], ['clustertrustbundles']),
      eventsRule(),
    ]);
  }
  add('validatingadmissionpolicy-status-controller', [
    rule(['get', 'list', 'watch'], [G.admissionregistration], ['validatingadmissionpolicies']),
    rule(['get', 'patch', 'update'], [G.admissionregistration], ['validatingadmissionpolicies/status']),
    eventsRule(),
  ]);
  if (f.StorageVersionAPI && f.APIServerIdentity) {
    add('storage-version-garbage-collector', [
      rule(['get', 'list', 'watch'], [G.coordination], ['leases']),
      rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], [INTERNAL_APISERVER], ['storageversions']),
      rule(['get', 'patch', 'update'], [INTERNAL_APISERVER], ['storageversions/status']),
    ]);
  }
  add('legacy-service-account-token-cleaner', [
    rule(['get'], [G.core], ['configmaps'], ['kube-apiserver-legacy-service-account-token-tracking']),
    rule(['patch', 'delete'], [G.core], ['secrets']),
  ]);
  if (f.StorageVersionMigrator) {
    add('storage-version-migrator-controller', [
      // list for the current resourceVersion of any resource, patch to migrate it.
      rule(['list', 'patch'], ['*'], ['*']),
      rule(['get'], [APIEXTENSIONS], ['customresourcedefinitions']),
      rule(['patch'], [APIEXTENSIONS], ['customresourcedefinitions/status']),
      rule(['update'], [STORAGE_MIGRATION], ['storageversionmigrations/status']),
    ]);
  }
  if (f.SELinuxChangePolicy) {
    add('selinux-warning-controller', [
      eventsRule(),
      rule(['get', 'list', 'watch'], [G.core], ['persistentvolumes']),
      rule(['get', 'list', 'watch'], [G.core], ['persistentvolumeclaims']),
      rule(['get', 'list', 'watch'], [G.core], ['pods']),
      rule(['get', 'list', 'watch'], [G.storage], ['csidrivers']),
    ]);
  }
  return out;
}

/** The system:controller:* ClusterRoles. */
export function controllerRoles(f: PolicyFeatures): ClusterRole[] {
  return controllerRules(f).map(([name, rules]) => ({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
    metadata: bootstrapMetadata(CONTROLLER_ROLE_PREFIX + name), rules,
  }));
}

/** Each controller role bound to the kube-system service account of the same name. */
export function controllerRoleBindings(f: PolicyFeatures): ClusterRoleBinding[] {
  return controllerRules(f).map(([name]) => clusterBinding(CONTROLLER_ROLE_PREFIX + name, [serviceAccountSubject('kube-system', name)]));
}
