// Invalid objects of each main type POSTed over raw HTTPS: kube-apiserver answers 422 Invalid with a
// Status whose details name the object and list one cause per field error, in validation order, with
// kube's messages (pkg/apis/<group>/validation).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { asStatus } from './testing/https-client.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const NS = 'default';

interface Cause { readonly field: string; readonly reason: string; readonly message?: string }
interface Case {
  readonly name: string;
  readonly path: string;
  /** `Kind.group` as the Status message names it (`Kind` for core). */
  readonly qualifiedKind: string;
  readonly body: Record<string, unknown>;
  /** A cause without a message: kube prints that value with Go's %#v, which kapi cannot reproduce. */
  readonly causes: readonly Cause[];
}

const meta = { name: 'x' };
const template = (labels: Record<string, string>, spec: Record<string, unknown> = {}): Record<string, unknown> =>
  ({ metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } });
const apps = (kind: string, spec: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: 'apps/v1', kind, metadata: meta, spec });
const invalid = (field: string, message: string): Cause => ({ field, reason: 'FieldValueInvalid', message: `Invalid value: ${message}` });
const required = (field: string, detail = ''): Cause =>
  ({ field, reason: 'FieldValueRequired', message: detail === '' ? 'Required value' : `Required value: ${detail}` });
const unsupported = (field: string, value: string, supported: readonly string[]): Cause =>
  ({ field, reason: 'FieldValueNotSupported', message: `Unsupported value: ${value}: supported values: ${supported.map((v) => `"${v}"`).join(', ')}` });
const forbidden = (field: string, detail: string): Cause => ({ field, reason: 'FieldValueForbidden', message: `Forbidden: ${detail}` });
const MISMATCH = '{"app":"b"}: `selector` does not match template `labels`';
const RFC1123 = '"Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', ' +
  'and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is ' +
  '\'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')';

const CASES: readonly Case[] = [
  { name: 'Deployment: negative replicas', path: `/apis/apps/v1/namespaces/${NS}/deployments`, qualifiedKind: 'Deployment.apps',
    body: apps('Deployment', { replicas: -1, selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a' }) }),
    causes: [invalid('spec.replicas', '-1: must be greater than or equal to 0')] },
  { name: 'Deployment: selector does not match the template', path: `/apis/apps/v1/namespaces/${NS}/deployments`, qualifiedKind: 'Deployment.apps',
    body: apps('Deployment', { selector: { matchLabels: { app: 'a' } }, template: template({ app: 'b' }) }),
    causes: [invalid('spec.template.metadata.labels', MISMATCH)] },
  { name: 'ReplicaSet: selector does not match the template', path: `/apis/apps/v1/namespaces/${NS}/replicasets`, qualifiedKind: 'ReplicaSet.apps',
    body: apps('ReplicaSet', { selector: { matchLabels: { app: 'a' } }, template: template({ app: 'b' }) }),
    causes: [invalid('spec.template.metadata.labels', MISMATCH)] },
  { name: 'StatefulSet: unknown podManagementPolicy', path: `/apis/apps/v1/namespaces/${NS}/statefulsets`, qualifiedKind: 'StatefulSet.apps',
    body: apps('StatefulSet', { podManagementPolicy: 'Bogus', selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a' }) }),
    causes: [invalid('spec.podManagementPolicy', '"Bogus": must be \'OrderedReady\' or \'Parallel\'')] },
  { name: 'DaemonSet: restartPolicy Never', path: `/apis/apps/v1/namespaces/${NS}/daemonsets`, qualifiedKind: 'DaemonSet.apps',
    body: apps('DaemonSet', { selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a' }, { restartPolicy: 'Never' }) }),
    causes: [unsupported('spec.template.spec.restartPolicy', '"Never"', ['Always'])] },
  { name: 'Job: negative parallelism', path: `/apis/batch/v1/namespaces/${NS}/jobs`, qualifiedKind: 'Job.batch',
    body: { apiVersion: 'batch/v1', kind: 'Job', metadata: meta, spec: { parallelism: -1, template: template({}, { restartPolicy: 'Never' }) } },
    causes: [invalid('spec.parallelism', '-1: must be greater than or equal to 0')] },
  { name: 'Job: restartPolicy Always', path: `/apis/batch/v1/namespaces/${NS}/jobs`, qualifiedKind: 'Job.batch',
    body: { apiVersion: 'batch/v1', kind: 'Job', metadata: meta, spec: { template: template({}, { restartPolicy: 'Always' }) } },
    causes: [required('spec.template.spec.restartPolicy', 'valid values: "OnFailure", "Never"')] },
  { name: 'CronJob: unparseable schedule', path: `/apis/batch/v1/namespaces/${NS}/cronjobs`, qualifiedKind: 'CronJob.batch',
    body: { apiVersion: 'batch/v1', kind: 'CronJob', metadata: meta,
      spec: { schedule: 'bogus', jobTemplate: { spec: { template: template({}, { restartPolicy: 'Never' }) } } } },
    causes: [invalid('spec.schedule', '"bogus": expected exactly 5 fields, found 1: [bogus]')] },
  { name: 'Service: port 0 (targetPort defaults to it)', path: `/api/v1/namespaces/${NS}/services`, qualifiedKind: 'Service',
    body: { apiVersion: 'v1', kind: 'Service', metadata: meta, spec: { ports: [{ port: 0 }] } },
    causes: [invalid('spec.ports[0].port', '0: must be between 1 and 65535, inclusive'),
      invalid('spec.ports[0].targetPort', '0: must be between 1 and 65535, inclusive')] },
  { name: 'Service: ClusterIP without ports', path: `/api/v1/namespaces/${NS}/services`, qualifiedKind: 'Service',
    body: { apiVersion: 'v1', kind: 'Service', metadata: meta, spec: {} },
    causes: [required('spec.ports')] },
  { name: 'Ingress: relative Prefix path', path: `/apis/networking.k8s.io/v1/namespaces/${NS}/ingresses`, qualifiedKind: 'Ingress.networking.k8s.io',
    body: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: meta, spec: { rules: [{ http: { paths: [
      { path: 'bar', pathType: 'Prefix', backend: { service: { name: 's', port: { number: 80 } } } }] } }] } },
    causes: [invalid('spec.rules[0].http.paths[0].path', '"bar": must be an absolute path')] },
  { name: 'NetworkPolicy: unknown policyType', path: `/apis/networking.k8s.io/v1/namespaces/${NS}/networkpolicies`,
    qualifiedKind: 'NetworkPolicy.networking.k8s.io',
    body: { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: meta, spec: { podSelector: {}, policyTypes: ['Bogus'] } },
    causes: [unsupported('spec.policyTypes[0]', '"Bogus"', ['Ingress', 'Egress'])] },
  { name: 'HPA v2: maxReplicas below minReplicas', path: `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`,
    qualifiedKind: 'HorizontalPodAutoscaler.autoscaling',
    body: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: meta,
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 3, maxReplicas: 2 } },
    causes: [invalid('spec.maxReplicas', '2: must be greater than or equal to `minReplicas`')] },
  { name: 'HPA v2: maxReplicas 0 (minReplicas defaults to 1), no target name', path: `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`,
    qualifiedKind: 'HorizontalPodAutoscaler.autoscaling',
    body: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: meta,
      spec: { scaleTargetRef: { kind: 'Deployment', name: '' }, maxReplicas: 0 } },
    causes: [required('spec.maxReplicas', 'must be set and greater than 0'),
      invalid('spec.maxReplicas', '0: must be greater than or equal to `minReplicas`'), required('spec.scaleTargetRef.name'),
      invalid('spec.scaleTargetRef.apiVersion', '"": apiVersion must specify API group')] },
  { name: 'PodDisruptionBudget: both minAvailable and maxUnavailable', path: `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`,
    qualifiedKind: 'PodDisruptionBudget.policy',
    body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta, spec: { minAvailable: 1, maxUnavailable: 1 } },
    causes: [{ field: 'spec', reason: 'FieldValueInvalid' }] },
  { name: 'PodDisruptionBudget: negative minAvailable', path: `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`,
    qualifiedKind: 'PodDisruptionBudget.policy',
    body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta, spec: { minAvailable: -1 } },
    causes: [invalid('spec.minAvailable', '-1: must be greater than or equal to 0')] },
  { name: 'Role: rule without verbs', path: `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles`, qualifiedKind: 'Role.rbac.authorization.k8s.io',
    body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: meta, rules: [{ apiGroups: [''], resources: ['pods'], verbs: [] }] },
    causes: [required('rules[0].verbs', 'verbs must contain at least one value')] },
  { name: 'RoleBinding: unknown roleRef and subject kinds', path: `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`,
    qualifiedKind: 'RoleBinding.rbac.authorization.k8s.io',
    body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: meta,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Bogus', name: 'r' }, subjects: [{ kind: 'Alien', name: 'x' }] },
    causes: [unsupported('roleRef.kind', '"Bogus"', ['Role', 'ClusterRole']),
      unsupported('subjects[0].kind', '"Alien"', ['ServiceAccount', 'User', 'Group'])] },
  { name: 'ClusterRole: resource rule without groups or resources', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
    qualifiedKind: 'ClusterRole.rbac.authorization.k8s.io',
    body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: meta, rules: [{ verbs: ['get'] }] },
    causes: [required('rules[0].apiGroups', 'resource rules must supply at least one api group'),
      required('rules[0].resources', 'resource rules must supply at least one resource')] },
  { name: 'Lease: non-positive duration, negative transitions', path: `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`,
    qualifiedKind: 'Lease.coordination.k8s.io',
    body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: meta, spec: { leaseDurationSeconds: 0, leaseTransitions: -1 } },
    causes: [invalid('spec.leaseDurationSeconds', '0: must be greater than 0'),
      invalid('spec.leaseTransitions', '-1: must be greater than or equal to 0')] },
  { name: 'EndpointSlice: unknown addressType', path: `/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices`,
    qualifiedKind: 'EndpointSlice.discovery.k8s.io',
    body: { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: meta, addressType: 'Bogus', endpoints: [] },
    causes: [unsupported('addressType', '"Bogus"', ['FQDN', 'IPv4', 'IPv6'])] },
  { name: 'EndpointSlice: endpoint without addresses', path: `/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices`,
    qualifiedKind: 'EndpointSlice.discovery.k8s.io',
    body: { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: meta, addressType: 'IPv4', endpoints: [{ addresses: [] }] },
    causes: [required('endpoints[0].addresses', 'must contain at least 1 address')] },
  { name: 'StorageClass: no provisioner, unknown reclaimPolicy', path: '/apis/storage.k8s.io/v1/storageclasses',
    qualifiedKind: 'StorageClass.storage.k8s.io',
    body: { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: meta, reclaimPolicy: 'Bogus' },
    causes: [required('provisioner'), unsupported('reclaimPolicy', '"Bogus"', ['Delete', 'Retain'])] },
  { name: 'PersistentVolume: empty spec', path: '/api/v1/persistentvolumes', qualifiedKind: 'PersistentVolume',
    body: { apiVersion: 'v1', kind: 'PersistentVolume', metadata: meta, spec: {} },
    causes: [required('spec.accessModes'), required('spec.capacity'), { field: 'spec.capacity', reason: 'FieldValueNotSupported' },
      required('spec', 'must specify a volume type')] },
  { name: 'PersistentVolumeClaim: empty spec', path: `/api/v1/namespaces/${NS}/persistentvolumeclaims`, qualifiedKind: 'PersistentVolumeClaim',
    body: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: meta, spec: {} },
    causes: [required('spec.accessModes', 'at least 1 access mode is required'), required('spec.resources[storage]')] },
  { name: 'PersistentVolumeClaim: ReadWriteOncePod with another mode', path: `/api/v1/namespaces/${NS}/persistentvolumeclaims`, qualifiedKind: 'PersistentVolumeClaim',
    body: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: meta,
      spec: { accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
    causes: [forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes')] },
  { name: 'PersistentVolume: ReadWriteOncePod with another mode', path: '/api/v1/persistentvolumes', qualifiedKind: 'PersistentVolume',
    body: { apiVersion: 'v1', kind: 'PersistentVolume', metadata: meta,
      spec: { accessModes: ['ReadWriteMany', 'ReadWriteOncePod'], capacity: { storage: '1Gi' }, hostPath: { path: '/d' } } },
    causes: [forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes')] },
  { name: 'Event (core/v1): a new-style event names its reporting controller reportingComponent', path: `/api/v1/namespaces/${NS}/events`, qualifiedKind: 'Event',
    body: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'x', namespace: NS }, involvedObject: { namespace: NS },
      eventTime: '2024-01-01T00:00:00.000000Z', reportingInstance: 'i', action: 'Act', reason: 'Why' },
    causes: [required('reportingComponent'), invalid('reportingComponent', '"": name part must be non-empty'),
      invalid('reportingComponent', '"": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an ' +
        'alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')')] },
  { name: 'PriorityClass: value above the user maximum', path: '/apis/scheduling.k8s.io/v1/priorityclasses',
    qualifiedKind: 'PriorityClass.scheduling.k8s.io',
    body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: meta, value: 2000000000 },
    causes: [forbidden('value', 'maximum allowed value of a user defined priority is 1000000000')] },
  { name: 'PriorityClass: reserved system- prefix', path: '/apis/scheduling.k8s.io/v1/priorityclasses',
    qualifiedKind: 'PriorityClass.scheduling.k8s.io',
    body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-foo' }, value: 1 },
    causes: [forbidden('metadata.name', 'priority class names with \'system-\' prefix are reserved for system use only. ' +
      'error: system-foo is not a known system priority class')] },
  { name: 'CertificateSigningRequest: request not PEM, no signerName', path: '/apis/certificates.k8s.io/v1/certificatesigningrequests',
    qualifiedKind: 'CertificateSigningRequest.certificates.k8s.io',
    body: { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: meta,
      spec: { request: Buffer.from('nope').toString('base64'), usages: ['digital signature'] } },
    causes: [invalid('spec.request', '"bm9wZQ==": PEM block type must be CERTIFICATE REQUEST'), required('spec.signerName')] },
  { name: 'ServiceAccount: name not a DNS subdomain', path: `/api/v1/namespaces/${NS}/serviceaccounts`, qualifiedKind: 'ServiceAccount',
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'Bad_Name' } },
    causes: [invalid('metadata.name', RFC1123)] },
  { name: 'Pod: no containers', path: `/api/v1/namespaces/${NS}/pods`, qualifiedKind: 'Pod',
    body: { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: { containers: [] } },
    causes: [required('spec.containers')] },
  { name: 'Pod: container without image, unknown restartPolicy', path: `/api/v1/namespaces/${NS}/pods`, qualifiedKind: 'Pod',
    body: { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: { containers: [{ name: 'c' }], restartPolicy: 'Sometimes' } },
    causes: [required('spec.containers[0].image'), unsupported('spec.restartPolicy', '"Sometimes"', ['Always', 'OnFailure', 'Never'])] },
];

function isCauseList(v: unknown): v is { field?: unknown; reason?: unknown; message?: unknown }[] {
  return Array.isArray(v) && v.every((c) => typeof c === 'object' && c !== null);
}

describe('invalid objects are rejected with 422 Invalid', () => {
  let s: Suite;
  before(async () => { s = await startSuite(); });
  after(async () => { await s?.close(); });

  for (const c of CASES) {
    it(c.name, async () => {
      const res = await s.request({ method: 'POST', path: c.path, body: JSON.stringify(c.body) });
      assert.equal(res.status, 422, res.text);
      const st = asStatus(res.json());
      assert.equal(st.kind, 'Status');
      assert.equal(st.apiVersion, 'v1');
      assert.equal(st.status, 'Failure');
      assert.equal(st.reason, 'Invalid');
      assert.equal(st.code, 422);
      const name = (c.body['metadata'] as { name: string }).name;
      const [kind = '', ...group] = c.qualifiedKind.split('.');
      const details = st.details as { name?: unknown; group?: unknown; kind?: unknown; causes?: unknown };
      assert.equal(details.name, name);
      assert.equal(details.group, group.length === 0 ? undefined : group.join('.'));
      assert.equal(details.kind, kind);
      const causes = details.causes;
      assert.ok(isCauseList(causes), res.text);
      assert.deepEqual(causes.map((x) => [x.field, x.reason]), c.causes.map((x) => [x.field, x.reason]), res.text);
      c.causes.forEach((want, i) => {
        if (want.message !== undefined) assert.equal(causes[i]?.message, want.message, want.field);
      });
      const prefix = `${c.qualifiedKind} "${name}" is invalid: `;
      if (c.causes.every((x) => x.message !== undefined)) {
        const parts = c.causes.map((x) => `${x.field}: ${x.message ?? ''}`);
        assert.equal(st.message, prefix + (parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`));
      } else {
        assert.ok(typeof st.message === 'string' && st.message.startsWith(prefix), String(st.message));
      }
    });
  }
});

/** The Warning headers of a response: the texts of `299 - "..."` values. */
function warningsOf(headers: Readonly<Record<string, string | string[] | undefined>>): string[] {
  const raw = headers['warning'];
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return values.flatMap((v) => [...v.matchAll(/299 - ("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1] ?? '""') as string));
}

describe('updates kube refuses, warnings kube sends, zero values kube writes', () => {
  let s: Suite;
  before(async () => { s = await startSuite(); });
  after(async () => { await s?.close(); });

  const post = async (path: string, body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown>; warnings: string[] }> => {
    const res = await s.request({ method: 'POST', path, body: JSON.stringify(body) });
    return { status: res.status, json: res.json() as Record<string, unknown>, warnings: warningsOf(res.headers) };
  };

  it('PersistentVolumeClaim: resizing an unbound claim is refused with the spec diff', async () => {
    const path = `/api/v1/namespaces/${NS}/persistentvolumeclaims`;
    const created = await post(path, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'grow' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    const res = await s.request({ method: 'PATCH', path: `${path}/grow`, contentType: 'application/merge-patch+json',
      body: JSON.stringify({ spec: { resources: { requests: { storage: '2Gi' } } } }) });
    assert.equal(res.status, 422, res.text);
    const st = asStatus(res.json());
    assert.equal(st.reason, 'Invalid');
    assert.equal(st.message, [
      'PersistentVolumeClaim "grow" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      // kube v1.36's util/diff.Diff: a unified diff of the internal spec written as JSON
      '@@ -6,7 +6,7 @@',
      '  "Resources": {',
      '   "Limits": null,',
      '   "Requests": {',
      '-   "storage": "1Gi"',
      '+   "storage": "2Gi"',
      '   }',
      '  },',
      '  "VolumeName": "",',
      '',
    ].join('\n'));
    const causes = (st.details as { causes?: { field?: string; reason?: string }[] }).causes ?? [];
    assert.deepEqual(causes.map((c) => [c.field, c.reason]), [['spec', 'FieldValueForbidden']]);
  });

  it('Warning headers: pods, workloads and ingresses that use deprecated or ignored settings', async () => {
    const pod = await post(`/api/v1/namespaces/${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'warned' },
      spec: { containers: [{ name: 'c', image: 'i' }], nodeSelector: { 'beta.kubernetes.io/os': 'linux' }, terminationGracePeriodSeconds: -1 } });
    assert.equal(pod.status, 201, JSON.stringify(pod.json));
    assert.deepEqual(pod.warnings, [
      'spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
      'spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
    ]);
    const deploy = await post(`/apis/apps/v1/namespaces/${NS}/deployments`, apps('Deployment', { selector: { matchLabels: { app: 'w' } },
      template: template({ app: 'w' }, { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [
        { matchExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a'] }] }] } } } }) }));
    assert.equal(deploy.status, 201, JSON.stringify(deploy.json));
    assert.deepEqual(deploy.warnings, ['spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]' +
      '.matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead']);
    const ing = await post(`/apis/networking.k8s.io/v1/namespaces/${NS}/ingresses`, { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress',
      metadata: { name: 'classic', annotations: { 'kubernetes.io/ingress.class': 'nginx' } },
      spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } } });
    assert.equal(ing.status, 201, JSON.stringify(ing.json));
    assert.deepEqual(ing.warnings, ['annotation "kubernetes.io/ingress.class" is deprecated, please use \'spec.ingressClassName\' instead']);
    assert.deepEqual(ing.json['status'], { loadBalancer: {} });
  });

  it('zero values: workload statuses, a node\'s spec and status', async () => {
    const sts = await post(`/apis/apps/v1/namespaces/${NS}/statefulsets`, apps('StatefulSet', { selector: { matchLabels: { app: 's' } }, template: template({ app: 's' }) }));
    assert.deepEqual(sts.json['status'], { replicas: 0, availableReplicas: 0 });
    const rs = await post(`/apis/apps/v1/namespaces/${NS}/replicasets`, apps('ReplicaSet', { selector: { matchLabels: { app: 'r' } }, template: template({ app: 'r' }) }));
    assert.deepEqual(rs.json['status'], { replicas: 0 });
    const ds = await post(`/apis/apps/v1/namespaces/${NS}/daemonsets`, apps('DaemonSet', { selector: { matchLabels: { app: 'd' } }, template: template({ app: 'd' }) }));
    assert.deepEqual(ds.json['status'], { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    const rc = await post(`/api/v1/namespaces/${NS}/replicationcontrollers`, { apiVersion: 'v1', kind: 'ReplicationController', metadata: meta,
      spec: { template: template({ app: 'rc' }) } });
    assert.deepEqual(rc.json['status'], { replicas: 0 });
    const node = await post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'bare-node' } });
    assert.equal(node.status, 201, JSON.stringify(node.json));
    // TaintNodesByCondition (on by default) taints a new node not-ready until its kubelet reports.
    assert.deepEqual(node.json['spec'], { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] });
    assert.deepEqual((node.json['status'] as Record<string, unknown>)['daemonEndpoints'], { kubeletEndpoint: { Port: 0 } });
  });

  it('an event created through events.k8s.io reads back as Go writes each version', async () => {
    const created = await post(`/apis/events.k8s.io/v1/namespaces/${NS}/events`, { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'ev' },
      eventTime: '2024-01-01T00:00:00.000000Z', regarding: { kind: 'Pod', name: 'p', namespace: NS },
      reportingController: 'example.com/ctl', reportingInstance: 'ctl-1', action: 'Act', reason: 'Why', type: 'Normal' });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    assert.equal(created.json['deprecatedFirstTimestamp'], null);
    assert.deepEqual(created.json['deprecatedSource'], {});
    const core = (await s.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/events/ev` })).json() as Record<string, unknown>;
    assert.deepEqual([core['source'], core['firstTimestamp'], core['lastTimestamp'], core['reportingComponent'], core['reportingInstance']],
      [{}, null, null, 'example.com/ctl', 'ctl-1']);
    const legacy = await post(`/api/v1/namespaces/${NS}/events`, { apiVersion: 'v1', kind: 'Event', metadata: { name: 'old' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: NS }, reason: 'Why', message: 'm', count: 1 });
    assert.equal(legacy.status, 201, JSON.stringify(legacy.json));
    const v1 = (await s.request({ method: 'GET', path: `/apis/events.k8s.io/v1/namespaces/${NS}/events/old` })).json() as Record<string, unknown>;
    assert.equal('reportingController' in v1, false, JSON.stringify(v1));
    assert.equal('reportingInstance' in v1, false, JSON.stringify(v1));
    assert.equal(v1['eventTime'], null);
  });
});

describe('storagemigration.k8s.io/v1beta1 with --runtime-config', () => {
  let s: Suite;
  before(async () => { s = await startSuite({ flags: ['--runtime-config', 'storagemigration.k8s.io/v1beta1=true'] }); });
  after(async () => { await s?.close(); });

  it('is served, and validates the resource to migrate', async () => {
    const path = '/apis/storagemigration.k8s.io/v1beta1/storageversionmigrations';
    const ok = await s.request({ method: 'POST', path, body: JSON.stringify({ apiVersion: 'storagemigration.k8s.io/v1beta1', kind: 'StorageVersionMigration',
      metadata: { name: 'secrets' }, spec: { resource: { resource: 'secrets' } } }) });
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual((ok.json() as { spec?: unknown; status?: unknown }).spec, { resource: { group: '', resource: 'secrets' } });
    const bad = await s.request({ method: 'POST', path, body: JSON.stringify({ apiVersion: 'storagemigration.k8s.io/v1beta1', kind: 'StorageVersionMigration',
      metadata: { name: 'bad' }, spec: { resource: { group: 'apps' } } }) });
    assert.equal(bad.status, 422, bad.text);
    assert.equal(asStatus(bad.json()).message,
      'StorageVersionMigration.storagemigration.k8s.io "bad" is invalid: spec.resource.resource: Required value: resource is required to be set');
    const internal = await s.request({ method: 'GET', path: '/apis/internal.apiserver.k8s.io/v1alpha1' });
    assert.equal(internal.status, 404, 'alpha stays off');
  });
});
