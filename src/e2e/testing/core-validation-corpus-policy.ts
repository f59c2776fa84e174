// The second half of the core/v1 corpus: LimitRange (ValidateLimitRange: types, resource names and
// the min ≤ defaultRequest ≤ default ≤ max ordering), ResourceQuota (hard quantities, scopes,
// scopeSelector, status, the update rules), ReplicationController (spec, status, scale),
// PodTemplate and the pods/binding subresource (ValidatePodBinding).
// Rules it covers: pkg/apis/core/validation.
import { coll, create, set, update, type Obj } from './core-validation-corpus.ts';
import { patch, post, put, type ValidationCase } from './validation-differential.ts';

// LimitRange
const lrPath = (space: string): string => coll(space, 'limitranges');
const lr = (name: string, ...limits: Obj[]): ValidationCase => create(name, (n) => ({ metadata: { name: n }, spec: { limits } }), lrPath);
const LIMIT_RANGE_CASES: ValidationCase[] = [
  lr('limitrange: valid', { type: 'Container', min: { cpu: '100m' }, defaultRequest: { cpu: '200m' }, default: { cpu: '500m' }, max: { cpu: '1' }, maxLimitRequestRatio: { cpu: '5' } },
    { type: 'Pod', max: { memory: '1Gi' } }, { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } }),
  lr('limitrange: no limits'),
  lr('limitrange: type empty', { max: { cpu: '1' } }),
  lr('limitrange: type Bogus', { type: 'Bogus', max: { cpu: '1' } }),
  lr('limitrange: type qualified', { type: 'example.com/thing', max: { 'example.com/x': '1' } }),
  lr('limitrange: type duplicate', { type: 'Container', max: { cpu: '1' } }, { type: 'Container', max: { memory: '1Gi' } }),
  lr('limitrange: container resource not standard', { type: 'Container', max: { storage: '1Gi' } }),
  lr('limitrange: container resource bogus', { type: 'Container', max: { bogus: '1' } }),
  lr('limitrange: container resource name invalid', { type: 'Container', min: { 'bad name!': '1' } }),
  lr('limitrange: container extended resource', { type: 'Container', max: { 'example.com/gpu': '2' } }),
  lr('limitrange: container requests. resource', { type: 'Container', max: { 'example.com/requests.x': '2' } }),
  lr('limitrange: pod default', { type: 'Pod', default: { cpu: '1' }, max: { cpu: '2' } }),
  lr('limitrange: pod defaultRequest', { type: 'Pod', defaultRequest: { cpu: '1' }, max: { cpu: '2' } }),
  lr('limitrange: pvc without storage bounds', { type: 'PersistentVolumeClaim', max: { cpu: '1' } }),
  lr('limitrange: negative max', { type: 'Container', max: { cpu: '-1' } }),
  lr('limitrange: min above max', { type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }),
  lr('limitrange: min above max in millis', { type: 'Container', min: { cpu: '1500m' }, max: { cpu: '1' } }),
  lr('limitrange: min above defaultRequest', { type: 'Container', min: { memory: '1Gi' }, defaultRequest: { memory: '512Mi' } }),
  lr('limitrange: defaultRequest above max', { type: 'Container', defaultRequest: { cpu: '2' }, max: { cpu: '1000m' } }),
  lr('limitrange: defaultRequest above default', { type: 'Container', defaultRequest: { cpu: '2' }, default: { cpu: '1' } }),
  lr('limitrange: min above default', { type: 'Container', min: { cpu: '0.5' }, default: { cpu: '200m' } }),
  lr('limitrange: default above max', { type: 'Container', default: { memory: '2Gi' }, max: { memory: '1Gi' } }),
  lr('limitrange: ratio below 1', { type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }),
  lr('limitrange: ratio above max over min', { type: 'Container', min: { cpu: '100m' }, max: { cpu: '200m' }, maxLimitRequestRatio: { cpu: '3' } }),
  lr('limitrange: hugepages default unlike request', { type: 'Container', default: { 'hugepages-2Mi': '4Mi' }, defaultRequest: { 'hugepages-2Mi': '2Mi' } }),
  lr('limitrange: extended default unlike request', { type: 'Container', default: { 'example.com/gpu': '2' }, defaultRequest: { 'example.com/gpu': '1' } }),
  lr('limitrange: pvc min above max', { type: 'PersistentVolumeClaim', min: { storage: '2Gi' }, max: { storage: '1Gi' } }),
  lr('limitrange: two items of different types', { type: 'Container', max: { cpu: '1' } }, { type: 'Pod', max: { cpu: '2' } }),
  lr('limitrange: pod ratio', { type: 'Pod', min: { cpu: '1' }, max: { cpu: '4' }, maxLimitRequestRatio: { cpu: '5' } }),
  lr('limitrange: type empty string and duplicate', { type: '', max: { cpu: '1' } }, { type: '', max: { cpu: '1' } }),
  lr('limitrange: extended resource in pod type', { type: 'Pod', max: { 'example.com/gpu': '1' } }),
  lr('limitrange: container max only (defaulted)', { type: 'Container', max: { cpu: '1' }, min: { cpu: '2' } }),
  update('limitrange: update min above max', (n) => ({ metadata: { name: n }, spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] } }), lrPath,
    (o) => set(o, ['spec', 'limits'], [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }])),
];

// ResourceQuota
const rqPath = (space: string): string => coll(space, 'resourcequotas');
const rqBody = (spec: Obj, status?: Obj) => (n: string): Obj => ({ metadata: { name: n }, spec, ...(status === undefined ? {} : { status }) });
const rq = (name: string, spec: Obj, status?: Obj): ValidationCase => create(name, rqBody(spec, status), rqPath);
const rqUpdate = (name: string, body: (n: string) => Obj, fn: (o: Obj) => void, sub = ''): ValidationCase =>
  update(name, body, rqPath, (o) => { fn(o); delete (o['metadata'] as Obj)['resourceVersion']; }, sub);
const scoped = (req: Obj, hard: Obj = { pods: '1' }): Obj => ({ hard, scopeSelector: { matchExpressions: [req] } });
const RESOURCE_QUOTA_CASES: ValidationCase[] = [
  rq('resourcequota: valid', { hard: { pods: '10', 'requests.cpu': '1', 'count/deployments.apps': '2', 'requests.example.com/gpu': '1', 'example.com/x': '1' } }),
  rq('resourcequota: hard name not standard', { hard: { bogus: '1' } }),
  rq('resourcequota: hard name invalid', { hard: { 'bad name!': '1' } }),
  rq('resourcequota: hard negative', { hard: { cpu: '-1' } }),
  rq('resourcequota: hard pods fractional', { hard: { pods: '1.5' } }),
  rq('resourcequota: hard count fractional', { hard: { 'count/secrets': '500m' } }),
  rq('resourcequota: scope Bogus', { hard: { pods: '1' }, scopes: ['Bogus'] }),
  rq('resourcequota: scope not for resource', { hard: { 'requests.storage': '1Gi' }, scopes: ['BestEffort'] }),
  rq('resourcequota: scopes BestEffort and NotBestEffort', { hard: { pods: '1' }, scopes: ['BestEffort', 'NotBestEffort'] }),
  rq('resourcequota: scopes Terminating and NotTerminating', { hard: { pods: '1' }, scopes: ['Terminating', 'NotTerminating'] }),
  rq('resourcequota: scopes valid', { hard: { pods: '1', cpu: '1' }, scopes: ['NotBestEffort', 'Terminating'] }),
  rq('resourcequota: selector scope Bogus', scoped({ scopeName: 'Bogus', operator: 'Exists' })),
  rq('resourcequota: selector BestEffort with In', scoped({ scopeName: 'BestEffort', operator: 'In', values: ['x'] })),
  rq('resourcequota: selector PriorityClass In without values', scoped({ scopeName: 'PriorityClass', operator: 'In' })),
  rq('resourcequota: selector Exists with values', scoped({ scopeName: 'PriorityClass', operator: 'Exists', values: ['x'] })),
  rq('resourcequota: selector operator Bogus', scoped({ scopeName: 'PriorityClass', operator: 'Bogus' })),
  rq('resourcequota: selector scope not for resource', scoped({ scopeName: 'Terminating', operator: 'Exists' }, { 'requests.storage': '1Gi' })),
  rq('resourcequota: selector conflicting scopes', { hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'Terminating', operator: 'Exists' }, { scopeName: 'NotTerminating', operator: 'Exists' }] } }),
  rq('resourcequota: selector valid', scoped({ scopeName: 'PriorityClass', operator: 'In', values: ['high'] })),
  rq('resourcequota: VolumeAttributesClass scope', scoped({ scopeName: 'VolumeAttributesClass', operator: 'In', values: ['v'] }, { 'requests.storage': '1Gi' })),
  rq('resourcequota: hugepages quota', { hard: { 'requests.hugepages-2Mi': '2Mi', 'hugepages-1Gi': '1Gi' } }),
  rq('resourcequota: requests. extended resource fractional', { hard: { 'requests.example.com/gpu': '0.5' } }),
  rq('resourcequota: scope CrossNamespacePodAffinity on cpu', { hard: { cpu: '1' }, scopes: ['CrossNamespacePodAffinity'] }),
  rq('resourcequota: VolumeAttributesClass scope on pods', { hard: { pods: '1' }, scopes: ['VolumeAttributesClass'] }),
  rq('resourcequota: selector NotIn without values', scoped({ scopeName: 'PriorityClass', operator: 'NotIn' })),
  rq('resourcequota: selector DoesNotExist', scoped({ scopeName: 'PriorityClass', operator: 'DoesNotExist' })),
  rq('resourcequota: selector and scopes both', { hard: { pods: '1' }, scopes: ['BestEffort'], scopeSelector: { matchExpressions: [{ scopeName: 'NotBestEffort', operator: 'Exists' }] } }),
  rq('resourcequota: status on create', { hard: { pods: '1' } }, { used: { pods: '-1' } }),
  // kapi's in-process quota controller writes status.hard right after the create: these updates
  // go without a resourceVersion (unconditional) so that the race does not decide the answer.
  rqUpdate('resourcequota: update scopes', rqBody({ hard: { pods: '1' }, scopes: ['Terminating'] }), (o) => set(o, ['spec', 'scopes'], ['NotTerminating'])),
  rqUpdate('resourcequota: update hard negative', rqBody({ hard: { pods: '1' } }), (o) => set(o, ['spec', 'hard'], { pods: '-1' })),
  rqUpdate('resourcequota: status used negative', rqBody({ hard: { pods: '1' } }), (o) => set(o, ['status'], { hard: { pods: '1' }, used: { pods: '-1' } }), '/status'),
  rqUpdate('resourcequota: status hard name invalid', rqBody({ hard: { pods: '1' } }), (o) => set(o, ['status'], { hard: { bogus: '1' } }), '/status'),
  rqUpdate('resourcequota: status used fractional', rqBody({ hard: { pods: '1' } }), (o) => set(o, ['status'], { used: { services: '0.5' } }), '/status'),
  { name: 'resourcequota: status without resourceVersion', requests: (n, space) => [post(rqPath(space), rqBody({ hard: { pods: '1' } })(n)),
    put(`${rqPath(space)}/${n}/status`, { metadata: { name: n }, spec: { hard: { pods: '1' } }, status: { used: { pods: '1' } } })] },
];

// ReplicationController
const rcPath = (space: string): string => coll(space, 'replicationcontrollers');
const template = (extra: Obj = {}, labels: Obj = { app: 'a' }): Obj =>
  ({ metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...extra } });
const rcBody = (spec: Obj) => (n: string): Obj => ({ metadata: { name: n }, spec: { replicas: 1, selector: { app: 'a' }, template: template(), ...spec } });
const rc = (name: string, spec: Obj): ValidationCase => create(name, rcBody(spec), rcPath);
const rcStatus = (name: string, status: Obj): ValidationCase => update(name, rcBody({}), rcPath, (o) => set(o, ['status'], status), '/status');
const REPLICATION_CONTROLLER_CASES: ValidationCase[] = [
  rc('rc: valid', {}),
  rc('rc: negative replicas', { replicas: -1 }),
  rc('rc: negative minReadySeconds', { minReadySeconds: -1 }),
  rc('rc: selector empty (defaulted from labels)', { selector: {} }),
  rc('rc: selector and labels empty', { selector: {}, template: template({}, {}) }),
  rc('rc: selector key invalid', { selector: { 'bad key': 'a' } }),
  rc('rc: selector does not match', { selector: { app: 'b' } }),
  rc('rc: no template', { template: null }),
  rc('rc: restartPolicy Never', { template: template({ restartPolicy: 'Never' }) }),
  rc('rc: activeDeadlineSeconds', { template: template({ activeDeadlineSeconds: 10 }) }),
  rc('rc: template without containers', { template: { metadata: { labels: { app: 'a' } }, spec: { containers: [] } } }),
  rc('rc: template ephemeral containers', { template: template({ ephemeralContainers: [{ name: 'e', image: 'busybox' }] }) }),
  rc('rc: template label invalid', { template: template({}, { app: 'a', 'bad key': 'x' }) }),
  create('rc: name too long', (n, space) => ({ ...rcBody({})(n), metadata: { name: `${'a'.repeat(250)}-${n}`, namespace: space } }), rcPath),
  rc('rc: template name invalid', { template: { metadata: { labels: { app: 'a' }, name: 'Bad_Name' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } }),
  rc('rc: no replicas (defaulted)', { replicas: undefined }),
  update('rc: update template removed', rcBody({}), rcPath, (o) => set(o, ['spec', 'template'], null)),
  update('rc: update selector and labels', rcBody({}), rcPath, (o) => { set(o, ['spec', 'selector'], { app: 'b' }); set(o, ['spec', 'template', 'metadata', 'labels'], { app: 'b' }); }),
  update('rc: update replicas negative', rcBody({}), rcPath, (o) => set(o, ['spec', 'replicas'], -1)),
  update('rc: update selector mismatched', rcBody({}), rcPath, (o) => set(o, ['spec', 'selector'], { app: 'z' })),
  rcStatus('rc: status negative replicas', { replicas: -1 }),
  rcStatus('rc: status negative observedGeneration', { replicas: 1, observedGeneration: -1 }),
  rcStatus('rc: status fullyLabeled above replicas', { replicas: 1, fullyLabeledReplicas: 2 }),
  rcStatus('rc: status ready above replicas', { replicas: 1, readyReplicas: 2, availableReplicas: 1 }),
  rcStatus('rc: status available above ready', { replicas: 2, readyReplicas: 1, availableReplicas: 2 }),
  rcStatus('rc: status valid', { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 1, observedGeneration: 1 }),
  { name: 'rc: scale negative', requests: (n, space) => [post(rcPath(space), rcBody({})(n)),
    put(`${rcPath(space)}/${n}/scale`, { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: n, namespace: space }, spec: { replicas: -1 } })] },
  { name: 'rc: scale patch negative', requests: (n, space) => [post(rcPath(space), rcBody({})(n)), patch(`${rcPath(space)}/${n}/scale`, { spec: { replicas: -2 } })] },
  { name: 'rc: scale valid', requests: (n, space) => [post(rcPath(space), rcBody({})(n)), patch(`${rcPath(space)}/${n}/scale`, { spec: { replicas: 3 } })] },
];

// PodTemplate
const ptPath = (space: string): string => coll(space, 'podtemplates');
const ptBody = (tmpl: Obj) => (n: string): Obj => ({ metadata: { name: n }, template: tmpl });
const pt = (name: string, tmpl: Obj): ValidationCase => create(name, ptBody(tmpl), ptPath);
const POD_TEMPLATE_CASES: ValidationCase[] = [
  pt('podtemplate: valid', template()),
  pt('podtemplate: no containers', { spec: { containers: [] } }),
  pt('podtemplate: ephemeral containers', template({ ephemeralContainers: [{ name: 'e', image: 'busybox' }] })),
  pt('podtemplate: label invalid', template({}, { 'bad key': 'x' })),
  pt('podtemplate: annotation key invalid', { metadata: { annotations: { 'bad key': 'x' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }),
  pt('podtemplate: restartPolicy Never is fine', template({ restartPolicy: 'Never' })),
  create('podtemplate: name invalid', () => ({ metadata: { name: 'Bad_Name' }, template: template() }), ptPath),
  update('podtemplate: update container removed', ptBody(template()), ptPath, (o) => set(o, ['template', 'spec', 'containers'], [])),
  update('podtemplate: update image changed', ptBody(template()), ptPath, (o) => set(o, ['template', 'spec', 'containers'], [{ name: 'c', image: 'nginx' }])),
];

// Binding (pods/binding and the namespaced bindings collection)
const podBody = (n: string): Obj => ({ metadata: { name: n }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
const binding = (name: string, target: Obj, viaCollection = false): ValidationCase => ({
  name,
  requests: (n, space) => [post(coll(space, 'pods'), podBody(n)),
    post(viaCollection ? coll(space, 'bindings') : `${coll(space, 'pods')}/${n}/binding`, { metadata: { name: n }, target })],
});
const BINDING_CASES: ValidationCase[] = [
  binding('binding: valid', { kind: 'Node', name: 'node-1' }),
  binding('binding: target kind Bogus', { kind: 'Bogus', name: 'node-1' }),
  binding('binding: target name empty', { kind: 'Node' }),
  binding('binding: target empty', {}),
  binding('binding: target with namespace and uid', { kind: 'Node', name: 'node-1', namespace: 'x', uid: 'u' }),
  { name: 'binding: gated pod', requests: (n, space) => [post(coll(space, 'pods'), { ...podBody(n), spec: { schedulingGates: [{ name: 'example.com/g' }], containers: [{ name: 'c', image: 'busybox' }] } }),
    post(`${coll(space, 'pods')}/${n}/binding`, { metadata: { name: n }, target: { name: 'node-1' } })] },
  binding('binding: via bindings collection', { name: 'node-1' }, true),
  { name: 'binding: already bound', requests: (n, space) => [post(coll(space, 'pods'), podBody(n)),
    post(`${coll(space, 'pods')}/${n}/binding`, { metadata: { name: n }, target: { name: 'a' } }),
    post(`${coll(space, 'pods')}/${n}/binding`, { metadata: { name: n }, target: { name: 'b' } })] },
  { name: 'binding: name unlike the pod', requests: (n, space) => [post(coll(space, 'pods'), podBody(n)),
    post(`${coll(space, 'pods')}/${n}/binding`, { metadata: { name: 'other' }, target: { name: 'a' } })] },
  { name: 'binding: pod missing', requests: (n, space) => [post(`${coll(space, 'pods')}/${n}/binding`, { metadata: { name: n }, target: { name: 'a' } })] },
];

const badLabel = (o: Obj): void => set(o, ['metadata', 'labels'], { 'bad key': 'v' });
const LABEL_UPDATE_CASES: ValidationCase[] = [
  update('limitrange: update label invalid', (n) => ({ metadata: { name: n }, spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] } }), lrPath, badLabel),
  update('rc: update label invalid', rcBody({}), rcPath, badLabel),
  update('podtemplate: update label invalid', ptBody(template()), ptPath, badLabel),
  rqUpdate('resourcequota: update label invalid', rqBody({ hard: { pods: '1' } }), badLabel),
  rqUpdate('resourcequota: status label invalid', rqBody({ hard: { pods: '1' } }), badLabel, '/status'),
  update('rc: status label invalid', rcBody({}), rcPath, badLabel, '/status'),
  update('namespace: status label invalid', (n) => ({ metadata: { name: n } }), () => '/api/v1/namespaces', badLabel, '/status'),
];

export const POLICY_CASES: readonly ValidationCase[] = [...LIMIT_RANGE_CASES, ...RESOURCE_QUOTA_CASES, ...REPLICATION_CONTROLLER_CASES,
  ...POD_TEMPLATE_CASES, ...BINDING_CASES, ...LABEL_UPDATE_CASES];
