// The status-update corpus: for each resource with a status subresource, a valid object is
// created, then one fault is written through PUT .../status (ValidateXStatusUpdate of kube's
// pkg/apis/*/validation and kube-aggregator's APIService validation); plus the RBAC rule cases
// (ValidatePolicyRule, ValidateClusterRole) as creates. Sent to kapi and the reference
// kube-apiserver by e2e/status-validation.test.ts.

type Obj = Record<string, unknown>;

export interface StatusBase {
  /** The collection the object is created in (namespace `default` for namespaced ones). */
  readonly collection: string;
  readonly body: (name: string) => Obj;
}

export interface StatusCase {
  readonly name: string;
  readonly base: StatusBase;
  /** Changes the created object before it is PUT to its status subresource. */
  readonly mutate: (obj: Obj) => void;
  /**
   * Send the status `mutate` sets as a merge patch instead (no resourceVersion): for a kind whose
   * status a controller kapi runs in-process writes right after the create, so that the created
   * object's resourceVersion is stale there (the oracle runs no kube-controller-manager).
   */
  readonly viaPatch?: boolean;
}

export interface CreateCase {
  readonly name: string;
  readonly collection: string;
  readonly body: Obj;
}

const NS = '/api/v1/namespaces/default';
const meta = (name: string): Obj => ({ name });

const pvc: StatusBase = {
  collection: `${NS}/persistentvolumeclaims`,
  body: (name) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: meta(name), spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
};
const pv: StatusBase = {
  collection: '/api/v1/persistentvolumes',
  body: (name) => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: meta(name), spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/tmp/x' } } }),
};
const cronJob: StatusBase = {
  collection: '/apis/batch/v1/namespaces/default/cronjobs',
  body: (name) => ({
    apiVersion: 'batch/v1', kind: 'CronJob', metadata: meta(name),
    spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } } },
  }),
};
const apiService: StatusBase = {
  collection: '/apis/apiregistration.k8s.io/v1/apiservices',
  body: (name) => ({
    apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: `v1.${name}.corpus.example.com` },
    spec: { group: `${name}.corpus.example.com`, version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 },
  }),
};
const serviceCIDR: StatusBase = {
  collection: '/apis/networking.k8s.io/v1/servicecidrs',
  body: (name) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: meta(name), spec: { cidrs: ['10.250.0.0/24'] } }),
};
const labels = { app: 'corpus' };
const podTemplate = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
const deployment: StatusBase = {
  collection: '/apis/apps/v1/namespaces/default/deployments',
  body: (name) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta(name), spec: { selector: { matchLabels: labels }, template: podTemplate } }),
};
const job: StatusBase = {
  collection: '/apis/batch/v1/namespaces/default/jobs',
  body: (name) => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: meta(name), spec: { suspend: true, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } }),
};
const indexedJob = (extra: Obj): StatusBase => ({
  collection: job.collection,
  body: (name) => {
    const b = job.body(name);
    Object.assign(b['spec'] as Obj, { completionMode: 'Indexed', completions: 3, parallelism: 3, ...extra });
    return b;
  },
});
const T0 = '2024-01-01T00:00:00Z';
const T1 = '2024-01-01T01:00:00Z';
const cond = (type: string, st = 'True'): Obj => ({ type, status: st, lastProbeTime: T1, lastTransitionTime: T1, reason: 'R', message: 'm' });
const complete = [cond('SuccessCriteriaMet'), cond('Complete')];
const ingress: StatusBase = {
  collection: '/apis/networking.k8s.io/v1/namespaces/default/ingresses',
  body: (name) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: meta(name), spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } } }),
};
const pdb: StatusBase = {
  collection: '/apis/policy/v1/namespaces/default/poddisruptionbudgets',
  body: (name) => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta(name), spec: { minAvailable: 1, selector: { matchLabels: labels } } }),
};
const resourceQuota: StatusBase = {
  collection: `${NS}/resourcequotas`,
  body: (name) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: meta(name), spec: { hard: { pods: '10' } } }),
};

const flowSchema: StatusBase = {
  collection: '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas',
  body: (name) => ({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: meta(name), spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 5000 } }),
};
const priorityLevel: StatusBase = {
  collection: '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations',
  body: (name) => ({
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: meta(name),
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } },
  }),
};
const admissionPolicy: StatusBase = {
  collection: '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies',
  body: (name) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: meta(name), spec: {
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] }, validations: [{ expression: 'true' }],
  } }),
};
const hpa: StatusBase = {
  collection: '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers',
  body: (name) => ({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: meta(name), spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' }, maxReplicas: 3 } }),
};
const namespace: StatusBase = { collection: '/api/v1/namespaces', body: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: meta(name) }) };
const statefulSet: StatusBase = {
  collection: '/apis/apps/v1/namespaces/default/statefulsets',
  body: (name) => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: meta(name), spec: { selector: { matchLabels: labels }, template: podTemplate } }),
};
const daemonSet: StatusBase = {
  collection: '/apis/apps/v1/namespaces/default/daemonsets',
  body: (name) => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: meta(name), spec: { selector: { matchLabels: labels }, template: podTemplate } }),
};
const node: StatusBase = { collection: '/api/v1/nodes', body: (name) => ({ apiVersion: 'v1', kind: 'Node', metadata: meta(name) }) };const resourceClaim: StatusBase = {
  collection: '/apis/resource.k8s.io/v1/namespaces/default/resourceclaims',
  body: (name) => ({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: meta(name), spec: { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'gpu' } }] } } }),
};
const allocation = { devices: { results: [{ request: 'r', driver: 'd.example.com', pool: 'p', device: 'x' }] } };

const status = (o: Obj): Obj => {
  o['status'] ??= {};
  return o['status'] as Obj;
};
const setStatus = (fields: Obj) => (o: Obj): void => { Object.assign(status(o), fields); };
const dropResourceVersion = (o: Obj): void => { delete (o['metadata'] as Obj)['resourceVersion']; };

export const STATUS_CASES: readonly StatusCase[] = [
  // ValidatePersistentVolumeClaimStatusUpdate: phase and conditions are not checked; an update
  // without a resourceVersion is unconditional, so kube's "resourceVersion: Required" never shows.
  { name: 'pvc: phase Bogus', base: pvc, mutate: setStatus({ phase: 'Bogus' }) },
  { name: 'pvc: condition status Bogus', base: pvc, mutate: setStatus({ conditions: [{ type: 'Resizing', status: 'Bogus' }] }) },
  { name: 'pvc: valid resize status', base: pvc, mutate: setStatus({ phase: 'Bound', capacity: { storage: '1Gi' }, allocatedResources: { storage: '2Gi' }, allocatedResourceStatuses: { storage: 'ControllerResizeInProgress' } }) },
  { name: 'pvc: negative capacity', base: pvc, mutate: setStatus({ capacity: { storage: '-1Gi' } }) },
  { name: 'pvc: negative allocated resource', base: pvc, mutate: setStatus({ allocatedResources: { storage: '-1Gi' } }) },
  { name: 'pvc: allocated cpu', base: pvc, mutate: setStatus({ allocatedResources: { cpu: '1' } }) },
  { name: 'pvc: allocated resource key invalid', base: pvc, mutate: setStatus({ allocatedResources: { 'bad key!': '1' } }) },
  { name: 'pvc: allocated custom prefixed resource', base: pvc, mutate: setStatus({ allocatedResources: { 'example.com/foo': '1' } }) },
  { name: 'pvc: allocated kubernetes.io resource', base: pvc, mutate: setStatus({ allocatedResources: { 'kubernetes.io/foo': '1' } }) },
  { name: 'pvc: resize status Bogus', base: pvc, mutate: setStatus({ allocatedResourceStatuses: { storage: 'Bogus' } }) },
  { name: 'pvc: resize status key cpu', base: pvc, mutate: setStatus({ allocatedResourceStatuses: { cpu: 'NodeResizePending' } }) },
  { name: 'pvc: resize status key invalid', base: pvc, mutate: setStatus({ allocatedResourceStatuses: { 'bad key!': 'Bogus' } }) },
  { name: 'pvc: no resourceVersion', base: pvc, mutate: (o) => { dropResourceVersion(o); setStatus({ phase: 'Bound' })(o); } },
  // ValidatePersistentVolumeStatusUpdate: metadata and resourceVersion only.
  { name: 'pv: phase Bogus', base: pv, mutate: setStatus({ phase: 'Bogus' }) },
  { name: 'pv: no resourceVersion', base: pv, mutate: (o) => { dropResourceVersion(o); setStatus({ phase: 'Available' })(o); } },
  // CronJob and ServiceCIDR status updates validate nothing beyond metadata.
  { name: 'cronjob: active reference without a name', base: cronJob, mutate: setStatus({ active: [{ kind: 'Job' }] }) },
  { name: 'servicecidr: condition status Bogus', base: serviceCIDR, mutate: setStatus({ conditions: [{ type: 'Ready', status: 'Bogus', reason: 'x', message: '', lastTransitionTime: '2024-01-01T00:00:00Z' }] }) },
  // kube-aggregator's ValidateAPIServiceStatus: condition statuses True, False or Unknown.
  // As patches: the availability controller of either server writes a new local APIService's status
  // right after its create (kapi's in process, before the next request), so its resourceVersion is stale.
  { name: 'apiservice: condition status Bogus', base: apiService, mutate: setStatus({ conditions: [{ type: 'Available', status: 'True' }, { type: 'Other', status: 'Bogus' }] }),
    viaPatch: true },
  { name: 'apiservice: condition status empty', base: apiService, mutate: setStatus({ conditions: [{ type: 'Available', status: '' }] }), viaPatch: true },
  // The other status subresources, checked for the same gap.
  { name: 'deployment: negative replicas', base: deployment, mutate: setStatus({ replicas: -1 }) },
  { name: 'job: negative succeeded', base: job, mutate: setStatus({ succeeded: -1 }) },
  // ValidateJobUpdateStatus with the strategy's options (JobManagedBy GA).
  { name: 'job: valid completion', base: job, mutate: setStatus({ startTime: T0, completionTime: T1, succeeded: 1, conditions: complete }) },
  { name: 'job: Complete without times', base: job, mutate: setStatus({ conditions: complete }) },
  { name: 'job: Complete without SuccessCriteriaMet', base: job, mutate: setStatus({ startTime: T0, completionTime: T1, conditions: [cond('Complete')] }) },
  { name: 'job: completionTime without Complete', base: job, mutate: setStatus({ startTime: T0, completionTime: T1 }) },
  { name: 'job: completion before start', base: job, mutate: setStatus({ startTime: T1, completionTime: T0, conditions: complete }) },
  { name: 'job: Failed without FailureTarget', base: job, mutate: setStatus({ startTime: T0, conditions: [cond('Failed')] }) },
  { name: 'job: Complete and Failed', base: job, mutate: setStatus({ startTime: T0, completionTime: T1, conditions: [...complete, cond('FailureTarget'), cond('Failed')] }) },
  { name: 'job: finished with active, terminating and uncounted pods', base: job,
    mutate: setStatus({ startTime: T0, completionTime: T1, active: 1, terminating: 1, uncountedTerminatedPods: { succeeded: ['a'] }, conditions: complete }) },
  { name: 'job: more ready than active', base: job, mutate: setStatus({ active: 1, ready: 2 }) },
  { name: 'job: uncounted pods empty and duplicate', base: job, mutate: setStatus({ uncountedTerminatedPods: { succeeded: ['a', ''], failed: ['a'] } }) },
  { name: 'job: completedIndexes of a non-indexed job', base: job, mutate: setStatus({ completedIndexes: '0' }) },
  { name: 'job: failedIndexes without backoffLimitPerIndex', base: job, mutate: setStatus({ failedIndexes: '' }) },
  { name: 'job: completedIndexes too large', base: indexedJob({}), mutate: setStatus({ completedIndexes: '0,5' }) },
  { name: 'job: completedIndexes not increasing', base: indexedJob({}), mutate: setStatus({ completedIndexes: '1-2,0' }) },
  { name: 'job: completedIndexes interval reversed', base: indexedJob({}), mutate: setStatus({ completedIndexes: '2-1' }) },
  { name: 'job: completedIndexes not a number', base: indexedJob({}), mutate: setStatus({ completedIndexes: 'a,1-2-3' }) },
  { name: 'job: completedIndexes with a sign', base: indexedJob({}), mutate: setStatus({ completedIndexes: '+0,-1' }) },
  { name: 'job: indexes valid', base: indexedJob({ backoffLimitPerIndex: 1 }), mutate: setStatus({ completedIndexes: '0', failedIndexes: '1-2' }) },
  { name: 'job: failed and completed indexes overlap', base: indexedJob({ backoffLimitPerIndex: 1 }), mutate: setStatus({ completedIndexes: '0-1', failedIndexes: '1,x' }) },
  { name: 'job: SuccessCriteriaMet with FailureTarget', base: job, mutate: setStatus({ conditions: [cond('SuccessCriteriaMet'), cond('FailureTarget')] }) },
  { name: 'ingress: load balancer ip invalid', base: ingress, mutate: setStatus({ loadBalancer: { ingress: [{ ip: 'bogus' }] } }) },
  { name: 'pdb: negative currentHealthy', base: pdb, mutate: setStatus({ currentHealthy: -1 }) },
  // Unconditional: kapi's quota controller may have written the status since the create.
  { name: 'resourcequota: negative used', base: resourceQuota, mutate: (o) => { dropResourceVersion(o); setStatus({ hard: { pods: '10' }, used: { pods: '-1' } })(o); } },
  // Unconditional where the server's own controllers may write the status first (APF, policy type checking).
  { name: 'flowschema: condition without a type, twice', base: flowSchema, mutate: (o) => { dropResourceVersion(o); setStatus({ conditions: [{ status: 'True' }, { status: 'False' }] })(o); } },
  { name: 'flowschema: duplicate condition type', base: flowSchema, mutate: (o) => { dropResourceVersion(o); setStatus({ conditions: [{ type: 'Dangling', status: 'True' }, { type: 'Dangling', status: 'False' }] })(o); } },
  { name: 'prioritylevel: condition without a type', base: priorityLevel, mutate: (o) => { dropResourceVersion(o); setStatus({ conditions: [{ status: 'True' }] })(o); } },
  { name: 'admissionpolicy: empty expression warning', base: admissionPolicy, mutate: setStatus({ typeChecking: { expressionWarnings: [{ fieldRef: ' ', warning: '' }] } }), viaPatch: true },
  { name: 'admissionpolicy: condition invalid', base: admissionPolicy, mutate: setStatus({ conditions: [{ type: 'Ok', status: 'Bogus', reason: 'bad reason', message: '' }] }), viaPatch: true },
  { name: 'admissionpolicy: condition without reason, duplicate type', base: admissionPolicy, mutate: setStatus({ conditions: [{ type: 'Ok', status: 'True', lastTransitionTime: T0 }, { type: 'Ok', status: 'True', reason: 'R', lastTransitionTime: T0 }] }), viaPatch: true },
  { name: 'hpa: negative replicas', base: hpa, mutate: setStatus({ currentReplicas: -1, desiredReplicas: -1 }) },
  { name: 'namespace: phase Bogus', base: namespace, mutate: setStatus({ phase: 'Bogus' }) },
  { name: 'statefulset: negative replicas', base: statefulSet, mutate: setStatus({ replicas: -1 }) },
  { name: 'node: negative capacity', base: node, mutate: setStatus({ capacity: { cpu: '-1' } }) },
  { name: 'node: fractional pods, negative extended resource', base: node, mutate: setStatus({ capacity: { pods: '1500m', 'example.com/dongle': '-1' }, allocatable: { 'example.com/dongle': '0.5' } }) },
  { name: 'node: duplicate address', base: node, mutate: setStatus({ addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'n' }, { type: 'InternalIP', address: '10.0.0.1' }] }) },
  { name: 'node: address type not checked', base: node, mutate: setStatus({ addresses: [{ type: 'Bogus', address: '1.2.3.4' }] }) },
  { name: 'resourceclaim: reservedFor without allocation', base: resourceClaim, mutate: setStatus({ reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }] }) },
  { name: 'resourceclaim: duplicate reservedFor', base: resourceClaim, mutate: setStatus({ allocation, reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }, { resource: 'pods', name: 'p', uid: 'u1' }] }) },
  { name: 'resourceclaim: reservedFor fields required', base: resourceClaim, mutate: setStatus({ allocation, reservedFor: [{ apiGroup: '' }] }) },
  { name: 'resourceclaim: allocated and reserved', base: resourceClaim, mutate: setStatus({ allocation, reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }] }) },
  { name: 'daemonset: negative numberReady', base: daemonSet, mutate: setStatus({ numberReady: -1 }) },
];

const rbac = '/apis/rbac.authorization.k8s.io/v1';
const role = (name: string, rules: unknown[]): Obj => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: meta(name), rules });
const clusterRole = (name: string, extra: Obj): Obj => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: meta(name), ...extra });
const roles = `${rbac}/namespaces/default/roles`;
const clusterRoles = `${rbac}/clusterroles`;

export const RBAC_CASES: readonly CreateCase[] = [
  // kube v1.36 neither refuses nor warns about resourceNames across several resources.
  { name: 'role: resourceNames across resources', collection: roles, body: role('rn', [{ apiGroups: [''], resources: ['pods', 'services'], resourceNames: ['a'], verbs: ['get'] }]) },
  { name: 'role: no verbs', collection: roles, body: role('noverbs', [{ apiGroups: [''], resources: ['pods'], verbs: [] }]) },
  { name: 'role: non-resource URL', collection: roles, body: role('nru', [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }]) },
  { name: 'role: resources without apiGroups', collection: roles, body: role('nogroups', [{ resources: ['pods'], verbs: ['get'] }]) },
  { name: 'role: apiGroups without resources', collection: roles, body: role('nores', [{ apiGroups: [''], verbs: ['get'] }]) },
  { name: 'role: empty rule', collection: roles, body: role('empty', [{}]) },
  { name: 'clusterrole: non-resource URLs with resources', collection: clusterRoles, body: clusterRole('corpus-mixed', { rules: [{ nonResourceURLs: ['/x'], resources: ['pods'], verbs: ['get'] }] }) },
  { name: 'clusterrole: non-resource URLs alone', collection: clusterRoles, body: clusterRole('corpus-nru', { rules: [{ nonResourceURLs: ['/x'], verbs: ['get'] }] }) },
  { name: 'clusterrole: empty aggregation selectors', collection: clusterRoles, body: clusterRole('corpus-agg', { aggregationRule: { clusterRoleSelectors: [] } }) },
  { name: 'clusterrole: aggregation selector invalid', collection: clusterRoles, body: clusterRole('corpus-agg2', { aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Bogus' }] }] } }) },
];
