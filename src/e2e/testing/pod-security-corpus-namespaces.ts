// The PodSecurity corpus, part 2: namespace label validation and the warnings about existing pods
// when the enforce level tightens, workload resources (warned and audited, never refused), pod
// updates (only image and ephemeral container changes are checked) and subresources.
// No Go counterpart: kube's own tests (pod-security-admission/admission) informed the cases.
import { patch, post, put, putBack, type Step, type ValidationCase } from './validation-differential.ts';
import { goodContainer, goodSpec, namespace, nsURL, pod, podsURL } from './pod-security-corpus.ts';

type Obj = Record<string, unknown>;
const ENFORCE = 'pod-security.kubernetes.io/enforce';
const labelPatch = (labels: Record<string, string | null>): Obj => ({ metadata: { labels } });
const nsOnly = (n: string, labels: Record<string, string>): Step => post(nsURL, { metadata: { name: n, labels } });
const nsPatch = (ns: string, labels: Record<string, string | null>): Step => patch(`${nsURL}/${ns}`, labelPatch(labels));

const privilegedSpec = (name = 'c'): Obj => ({ containers: [{ name, image: 'busybox', securityContext: { privileged: true } }] });
const bareSpec = (): Obj => ({ containers: [{ name: 'c', image: 'busybox' }] });
const hostNetworkSpec = (): Obj => ({ hostNetwork: true, containers: [{ name: 'c', image: 'busybox' }] });

/** A namespace with no labels holding pods, then a label change: the answer to the change counts. */
const labelChange = (name: string, pods: readonly [string, Obj][], labels: Record<string, string | null>, initial: Record<string, string> = {}):
  ValidationCase => ({
  name,
  requests: (n) => [
    ...namespace(n, initial),
    ...pods.map(([p, spec]) => post(podsURL(n), pod(p, spec))),
    nsPatch(n, labels),
  ],
});

const NAMESPACE_CASES: readonly ValidationCase[] = [
  { name: 'namespace create: bad enforce level', requests: (n) => [nsOnly(n, { [ENFORCE]: 'strict' })] },
  { name: 'namespace create: bad versions', requests: (n) => [nsOnly(n, { [`${ENFORCE}-version`]: 'v2.0', 'pod-security.kubernetes.io/warn-version': 'v1.01', 'pod-security.kubernetes.io/audit-version': '1.2' })] },
  { name: 'namespace create: bad warn and audit levels', requests: (n) => [nsOnly(n, { 'pod-security.kubernetes.io/warn': 'Restricted', 'pod-security.kubernetes.io/audit': '' })] },
  { name: 'namespace create: valid labels', requests: (n) => [nsOnly(n, { [ENFORCE]: 'restricted', [`${ENFORCE}-version`]: 'v1.30', 'pod-security.kubernetes.io/warn-version': 'latest' })] },
  { name: 'namespace create: other labels of the prefix are ignored', requests: (n) => [nsOnly(n, { 'pod-security.kubernetes.io/other': 'x' })] },
  { name: 'namespace update: a bad label added', requests: (n) => [...namespace(n, {}), nsPatch(n, { [ENFORCE]: 'nope' })] },
  { name: 'namespace update: a bad version added', requests: (n) => [...namespace(n, {}), nsPatch(n, { [`${ENFORCE}-version`]: 'v1' })] },
  labelChange('label change: baseline with violating pods', [['p1', privilegedSpec()], ['p2', privilegedSpec()], ['p3', hostNetworkSpec()], ['ok', bareSpec()]], { [ENFORCE]: 'baseline' }),
  labelChange('label change: restricted with violating pods', [['b', privilegedSpec()], ['a', bareSpec()], ['c', bareSpec()], ['d', { containers: [goodContainer()] }]], { [ENFORCE]: 'restricted' }),
  labelChange('label change: three pods with the same violation', [['z', privilegedSpec()], ['y', privilegedSpec()], ['x', privilegedSpec()]], { [ENFORCE]: 'baseline' }),
  labelChange('label change: no violations', [['a', goodSpec()]], { [ENFORCE]: 'restricted' }),
  labelChange('label change: relaxed from restricted to baseline', [['a', bareSpec()]], { [ENFORCE]: 'baseline' }, { [ENFORCE]: 'restricted' }),
  labelChange('label change: to privileged', [['a', privilegedSpec()]], { [ENFORCE]: 'privileged' }),
  labelChange('label change: only the version, to an older one', [['a', bareSpec()]], { [`${ENFORCE}-version`]: 'v1.21', [ENFORCE]: 'restricted' }),
  labelChange('label change: warn only', [['a', privilegedSpec()]], { 'pod-security.kubernetes.io/warn': 'restricted' }),
  labelChange('label change: audit only', [['a', privilegedSpec()]], { 'pod-security.kubernetes.io/audit': 'restricted' }),
  {
    name: 'label change: restricted to baseline is not checked',
    requests: (n) => [...namespace(n, {}), post(podsURL(n), pod('a', privilegedSpec())), nsPatch(n, { [ENFORCE]: 'restricted' }), nsPatch(n, { [ENFORCE]: 'baseline' })],
  },
  {
    name: 'label change: same level, new version',
    requests: (n) => [...namespace(n, { [ENFORCE]: 'restricted', [`${ENFORCE}-version`]: 'v1.18' }), post(podsURL(n), pod('a', bareSpec())) /* refused */,
      nsPatch(n, { [`${ENFORCE}-version`]: null }), nsPatch(n, { [`${ENFORCE}-version`]: 'v1.18' })],
  },
  {
    name: 'label change: an unrelated label on a restricted namespace',
    requests: (n) => [...namespace(n, {}), post(podsURL(n), pod('a', privilegedSpec())), nsPatch(n, { [ENFORCE]: 'restricted' }), nsPatch(n, { team: 'x' })],
  },
  labelChange('label change: same level, newer version', [['a', { containers: [{ name: 'c', image: 'busybox', securityContext: { runAsUser: 0, runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } } }] }]],
    { [`${ENFORCE}-version`]: 'latest' }, { [ENFORCE]: 'restricted', [`${ENFORCE}-version`]: 'v1.22' }),
  labelChange('label change: enforce and warn together', [['a', hostNetworkSpec()]], { [ENFORCE]: 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' }),
  {
    name: 'namespace status update is not checked',
    requests: (n) => [nsOnly(n, {}), (r) => put(`${nsURL}/${n}/status`, { ...(r.json() as Obj), metadata: { ...((r.json() as Obj)['metadata'] as Obj), labels: { [ENFORCE]: 'bad' } } })],
  },
];

const template = (spec: Obj): Obj => ({ metadata: { labels: { app: 'x' } }, spec });
const selector = { matchLabels: { app: 'x' } };
const WORKLOADS: readonly { kind: string; path: (ns: string) => string; body: (name: string, spec: Obj) => Obj }[] = [
  { kind: 'Deployment', path: (ns) => `/apis/apps/v1/namespaces/${ns}/deployments`, body: (n, s) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: n }, spec: { selector, template: template(s) } }) },
  { kind: 'ReplicaSet', path: (ns) => `/apis/apps/v1/namespaces/${ns}/replicasets`, body: (n, s) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: n }, spec: { selector, template: template(s) } }) },
  { kind: 'StatefulSet', path: (ns) => `/apis/apps/v1/namespaces/${ns}/statefulsets`, body: (n, s) => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: n }, spec: { selector, serviceName: 's', template: template(s) } }) },
  { kind: 'DaemonSet', path: (ns) => `/apis/apps/v1/namespaces/${ns}/daemonsets`, body: (n, s) => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: n }, spec: { selector, template: template(s) } }) },
  { kind: 'Job', path: (ns) => `/apis/batch/v1/namespaces/${ns}/jobs`, body: (n, s) => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: n }, spec: { template: template({ ...s, restartPolicy: 'Never' }) } }) },
  { kind: 'CronJob', path: (ns) => `/apis/batch/v1/namespaces/${ns}/cronjobs`, body: (n, s) => ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: n }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: template({ ...s, restartPolicy: 'Never' }) } } } }) },
  { kind: 'ReplicationController', path: (ns) => `/api/v1/namespaces/${ns}/replicationcontrollers`, body: (n, s) => ({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: n }, spec: { selector: { app: 'x' }, template: template(s) } }) },
  { kind: 'PodTemplate', path: (ns) => `/api/v1/namespaces/${ns}/podtemplates`, body: (n, s) => ({ apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: n }, template: template(s) }) },
];

const WORKLOAD_CASES: readonly ValidationCase[] = WORKLOADS.flatMap((w) => [
  { name: `${w.kind}: privileged template in an enforce=restricted namespace`, requests: (n: string) => [post(w.path('psa-restricted-latest'), w.body(n, privilegedSpec()))] },
  { name: `${w.kind}: restricted template`, requests: (n: string) => [post(w.path('psa-restricted-latest'), w.body(n, goodSpec()))] },
  { name: `${w.kind}: audit-only namespace`, requests: (n: string) => [post(w.path('psa-audit-restricted'), w.body(n, privilegedSpec()))] },
  // A Job's template is immutable: its update is refused by validation before PodSecurity looks.
  ...(w.kind === 'Job' ? [] : [{
    name: `${w.kind}: update to a privileged template`,
    requests: (n: string) => [post(w.path('psa-warn-restricted'), w.body(n, goodSpec())), putBack(`${w.path('psa-warn-restricted')}/${n}`, (o) => {
      const fresh = w.body(n, privilegedSpec());
      if ('spec' in fresh) o['spec'] = { ...(o['spec'] as Obj), ...pickTemplate(fresh['spec'] as Obj) };
      else o['template'] = fresh['template'];
    })],
  }]),
]);

function pickTemplate(spec: Obj): Obj {
  return 'jobTemplate' in spec ? { jobTemplate: spec['jobTemplate'] } : { template: spec['template'] };
}

/** A pod that violates restricted in a namespace labelled restricted after the pod was created. */
const violatorInRestricted = (n: string): Step[] => [
  ...namespace(n, {}), post(podsURL(n), pod('p', bareSpec())), nsPatch(n, { [ENFORCE]: 'restricted' }),
];

const UPDATE_CASES: readonly ValidationCase[] = [
  { name: 'pod update: labels only on a violating pod', requests: (n) => [...violatorInRestricted(n), patch(`${podsURL(n)}/p`, { metadata: { labels: { a: 'b' } } })] },
  { name: 'pod update: image change on a violating pod', requests: (n) => [...violatorInRestricted(n), patch(`${podsURL(n)}/p`, { spec: { containers: [{ name: 'c', image: 'busybox:2' }] } }, 'application/strategic-merge-patch+json')] },
  {
    name: 'pod update: image change in a warn namespace is warned',
    requests: (n) => [...namespace(n, {}), post(podsURL(n), pod('p', bareSpec())), nsPatch(n, { 'pod-security.kubernetes.io/warn': 'restricted' }),
      patch(`${podsURL(n)}/p`, { spec: { containers: [{ name: 'c', image: 'busybox:2' }] } }, 'application/strategic-merge-patch+json')],
  },
  { name: 'pod update: status of a violating pod', requests: (n) => [...violatorInRestricted(n), patch(`${podsURL(n)}/p/status`, { status: { message: 'x' } })] },
  {
    name: 'pod update: privileged ephemeral container',
    requests: (n) => [...namespace(n, { [ENFORCE]: 'restricted' }), post(podsURL(n), pod('p', goodSpec())), patch(`${podsURL(n)}/p/ephemeralcontainers`,
      { spec: { ephemeralContainers: [{ name: 'debug', image: 'busybox', targetContainerName: 'c', securityContext: { privileged: true } }] } }, 'application/strategic-merge-patch+json')],
  },
  {
    name: 'pod update: restricted ephemeral container',
    requests: (n) => [...namespace(n, { [ENFORCE]: 'restricted' }), post(podsURL(n), pod('p', goodSpec())), patch(`${podsURL(n)}/p/ephemeralcontainers`,
      { spec: { ephemeralContainers: [{ ...goodContainer('debug'), targetContainerName: 'c' }] } }, 'application/strategic-merge-patch+json')],
  },
  {
    name: 'pod update: ephemeral container in a warn namespace',
    requests: (n) => [...namespace(n, { 'pod-security.kubernetes.io/warn': 'baseline' }), post(podsURL(n), pod('p', goodSpec())), patch(`${podsURL(n)}/p/ephemeralcontainers`,
      { spec: { ephemeralContainers: [{ name: 'debug', image: 'busybox', securityContext: { capabilities: { add: ['SYS_PTRACE'] } } }] } }, 'application/strategic-merge-patch+json')],
  },
  { name: 'pod binding of a violating pod', requests: (n) => [...violatorInRestricted(n), post(`${podsURL(n)}/p/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'n1' } })] },
  { name: 'pod delete of a violating pod', requests: (n) => [...violatorInRestricted(n), { method: 'DELETE', path: `${podsURL(n)}/p?gracePeriodSeconds=0` }] },
];

export const POD_SECURITY_NAMESPACE_CASES: readonly ValidationCase[] = [...NAMESPACE_CASES, ...WORKLOAD_CASES, ...UPDATE_CASES];
