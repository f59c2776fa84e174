// The Pod's own non-spec paths: status updates (ValidatePodStatusUpdate: conditions, IPs, state
// transitions, nominatedNodeName, qosClass, observedGeneration, container status users and
// allocated resources), the ephemeralcontainers subresource (ValidatePodEphemeralContainersUpdate),
// the resize subresource (ValidatePodResize, v1.36's in-place resize with pod-level resources),
// pod updates beyond pod-update-corpus.ts, and pod-level resources on create.
// Sent to kapi and the reference kube-apiserver by e2e/pod-status-validation.test.ts.
// Rules it covers: pkg/apis/core/validation and pkg/registry/core/pod/strategy.go.
import { coll, set, type Obj } from './core-validation-corpus.ts';
import { post, putBack, type ValidationCase } from './validation-differential.ts';

const podsPath = (space: string): string => coll(space, 'pods');
const container = (extra: Obj = {}): Obj => ({ name: 'c', image: 'busybox', ...extra });
const podBody = (spec: Obj = {}, metadata: Obj = {}) => (n: string): Obj =>
  ({ metadata: { name: n, ...metadata }, spec: { containers: [container()], ...spec } });
const guaranteed = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '100m', memory: '64Mi' } };
const burstable = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } };

/** Create the pod, then change the created object and PUT it to `sub` (or the pod itself). */
const change = (name: string, sub: string, fn: (o: Obj) => void, body = podBody()): ValidationCase =>
  ({ name, requests: (n, space) => [post(podsPath(space), body(n)), putBack(`${podsPath(space)}/${n}${sub}`, fn)] });
const status = (name: string, st: Obj, body = podBody()): ValidationCase =>
  change(name, '/status', (o) => { o['status'] = { ...(o['status'] as Obj), ...st }; }, body);
/** The first container of the created pod, for changes in place. */
const c0 = (o: Obj): Obj => ((o['spec'] as Obj)['containers'] as Obj[])[0]!;
const running = (extra: Obj = {}): Obj => ({ name: 'c', image: 'busybox', imageID: '', ready: true, restartCount: 0, state: { running: {} }, ...extra });
const terminated = (extra: Obj = {}): Obj => ({ name: 'c', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 0 } }, ...extra });
const twoStatuses = (before: Obj, after: Obj, spec: Obj = {}): ValidationCase => ({
  name: '', requests: (n, space) => [post(podsPath(space), podBody(spec)(n)),
    putBack(`${podsPath(space)}/${n}/status`, (o) => set(o, ['status', 'containerStatuses'], [before])),
    putBack(`${podsPath(space)}/${n}/status`, (o) => set(o, ['status', 'containerStatuses'], [after]))],
});
const named = (name: string, c: ValidationCase): ValidationCase => ({ ...c, name });

const STATUS_CASES: ValidationCase[] = [
  status('status: valid running', { phase: 'Running', podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }], hostIP: '10.1.0.1', hostIPs: [{ ip: '10.1.0.1' }],
    conditions: [{ type: 'Ready', status: 'True' }, { type: 'example.com/custom', status: 'True' }], containerStatuses: [running()] }),
  status('status: phase Bogus', { phase: 'Bogus' }),
  status('status: condition type invalid', { conditions: [{ type: 'bad type!', status: 'True' }] }),
  status('status: condition status Bogus', { conditions: [{ type: 'Ready', status: 'Bogus' }] }),
  status('status: condition negative observedGeneration', { conditions: [{ type: 'Ready', status: 'True', observedGeneration: -1 }] }),
  status('status: negative observedGeneration', { observedGeneration: -1 }),
  status('status: podIP invalid', { podIP: 'bogus', podIPs: [{ ip: 'bogus' }] }),
  status('status: podIP with leading zeros', { podIP: '10.0.0.01', podIPs: [{ ip: '10.0.0.01' }] }),
  status('status: podIPs unlike podIP', { podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.2' }] }),
  status('status: two IPv4 podIPs', { podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] }),
  status('status: three podIPs', { podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }, { ip: '10.0.0.2' }] }),
  status('status: hostIPs unlike hostIP', { hostIP: '10.1.0.1', hostIPs: [{ ip: '10.1.0.2' }] }),
  status('status: hostIPs without hostIP', { hostIPs: [{ ip: '10.1.0.2' }] }),
  status('status: hostIP invalid', { hostIP: 'bogus', hostIPs: [{ ip: 'bogus' }] }),
  status('status: two IPv6 hostIPs', { hostIP: 'fd00::1', hostIPs: [{ ip: 'fd00::1' }, { ip: 'fd00::2' }] }),
  status('status: nominatedNodeName invalid', { nominatedNodeName: 'Bad_Node' }),
  status('status: nominatedNodeName valid', { nominatedNodeName: 'node-1' }),
  status('status: qosClass changed', { qosClass: 'Guaranteed' }),
  status('status: container status user uid negative', { containerStatuses: [running({ user: { linux: { uid: -1, gid: 0 } } })] }),
  status('status: container status user supplementalGroups negative', { containerStatuses: [running({ user: { linux: { uid: 0, gid: 0, supplementalGroups: [-1] } } })] }),
  status('status: windows pod with linux user', { containerStatuses: [running({ user: { linux: { uid: 0, gid: 0 } } })] }, podBody({ os: { name: 'windows' } })),
  status('status: allocatedResourcesStatus unknown resource', { containerStatuses: [running({ allocatedResourcesStatus: [{ name: 'cpu', resources: [{ resourceID: 'r', health: 'Healthy' }] }] })] }),
  status('status: allocatedResourcesStatus claim unknown', { containerStatuses: [running({ allocatedResourcesStatus: [{ name: 'claim:x', resources: [] }] })] }),
  status('status: allocatedResourcesStatus duplicate id', { containerStatuses: [running({ allocatedResourcesStatus: [{ name: 'cpu', resources: [{ resourceID: 'r', health: 'Healthy' }, { resourceID: 'r', health: 'Bogus' }] }] })] },
    podBody({ containers: [container({ resources: { requests: { cpu: '1' } } })] })),
  status('status: ephemeral status allocatedResourcesStatus', { ephemeralContainerStatuses: [{ ...running({ name: 'e' }), allocatedResourcesStatus: [{ name: 'cpu' }] }] }),
  status('status: resource claim status unknown', { resourceClaimStatuses: [{ name: 'x', resourceClaimName: 'bad name' }] }),
  status('status: resize status', { resize: 'Proposed' }),
  status('status: container status with resources', { containerStatuses: [running({ resources: { requests: { cpu: '-1' } }, allocatedResources: { cpu: 'bogus!' } })] }),
  named('status: terminated container restarted under Never', twoStatuses(terminated(), running(), { restartPolicy: 'Never' })),
  named('status: terminated container restarted under Always', twoStatuses(terminated(), running())),
  named('status: failed container restarted under OnFailure', twoStatuses(terminated({ state: { terminated: { exitCode: 1 } } }), running(), { restartPolicy: 'OnFailure' })),
  named('status: succeeded container restarted under OnFailure', twoStatuses(terminated(), running(), { restartPolicy: 'OnFailure' })),
  named('status: terminated init container restarted', { name: '', requests: (n, space) => [post(podsPath(space), podBody({ initContainers: [container({ name: 'i' })] })(n)),
    putBack(`${podsPath(space)}/${n}/status`, (o) => set(o, ['status', 'initContainerStatuses'], [terminated({ name: 'i', state: { terminated: { exitCode: 1 } } })])),
    putBack(`${podsPath(space)}/${n}/status`, (o) => set(o, ['status', 'initContainerStatuses'], [running({ name: 'i' })]))] }),
  named('status: succeeded init container restarted', { name: '', requests: (n, space) => [post(podsPath(space), podBody({ initContainers: [container({ name: 'i' })] })(n)),
    putBack(`${podsPath(space)}/${n}/status`, (o) => set(o, ['status', 'initContainerStatuses'], [terminated({ name: 'i' })])),
    putBack(`${podsPath(space)}/${n}/status`, (o) => set(o, ['status', 'initContainerStatuses'], [running({ name: 'i' })]))] }),
  named('status: ephemeral container restarted', { name: '', requests: (n, space) => [post(podsPath(space), podBody()(n)),
    putBack(`${podsPath(space)}/${n}/status`, (o) => set(o, ['status', 'ephemeralContainerStatuses'], [terminated({ name: 'e' })])),
    putBack(`${podsPath(space)}/${n}/status`, (o) => set(o, ['status', 'ephemeralContainerStatuses'], [running({ name: 'e' })]))] }),
  named('status: container restartPolicy Always under Never', twoStatuses(terminated(), running(), { restartPolicy: 'Never', containers: [container({ restartPolicy: 'Always' })] })),
  status('status: duplicate resource claim status', { resourceClaimStatuses: [{ name: 'x' }, { name: 'x' }] }),
  status('status: allocatedResourcesStatus empty message', { containerStatuses: [running({ allocatedResourcesStatus: [{ name: 'cpu', resources: [{ resourceID: 'r', health: 'Healthy', message: '' }] }] })] },
    podBody({ containers: [container({ resources: { requests: { cpu: '1' } } })] })),
  status('status: container status gid too big', { containerStatuses: [running({ user: { linux: { uid: 0, gid: 2147483648 } } })] }),
  status('status: podIP only', { podIP: '10.0.0.9' }),
  status('status: podIPs only', { podIPs: [{ ip: '10.0.0.9' }] }),
  status('status: hostIP only', { hostIP: '10.1.0.9' }),
  status('status: phase and message', { phase: 'Failed', message: 'x', reason: 'Evicted' }),
  { name: 'status: nodeName through status', requests: (n, space) => [post(podsPath(space), podBody()(n)),
    putBack(`${podsPath(space)}/${n}/status`, (o) => set(o, ['spec', 'nodeName'], 'node-1'))] },
  { name: 'status: nominatedNodeName on a bound pod', requests: (n, space) => [post(podsPath(space), podBody({ nodeName: 'node-1' })(n)),
    putBack(`${podsPath(space)}/${n}/status`, (o) => set(o, ['status', 'nominatedNodeName'], 'node-2'))] },
];

const EPHEMERAL_CASES: ValidationCase[] = [
  change('ephemeral: valid', '/ephemeralcontainers', (o) => set(o, ['spec', 'ephemeralContainers'], [{ name: 'e', image: 'busybox', targetContainerName: 'c' }])),
  change('ephemeral: name duplicate', '/ephemeralcontainers', (o) => set(o, ['spec', 'ephemeralContainers'], [{ name: 'e', image: 'busybox' }, { name: 'e', image: 'busybox' }])),
  change('ephemeral: no image', '/ephemeralcontainers', (o) => set(o, ['spec', 'ephemeralContainers'], [{ name: 'e' }])),
  change('ephemeral: resources', '/ephemeralcontainers', (o) => set(o, ['spec', 'ephemeralContainers'], [{ name: 'e', image: 'busybox', resources: { limits: { cpu: '1' } } }])),
  change('ephemeral: probes and lifecycle', '/ephemeralcontainers', (o) => set(o, ['spec', 'ephemeralContainers'],
    [{ name: 'e', image: 'busybox', readinessProbe: { exec: { command: ['x'] } }, lifecycle: { preStop: { exec: { command: ['x'] } } } }])),
  change('ephemeral: restartPolicy', '/ephemeralcontainers', (o) => set(o, ['spec', 'ephemeralContainers'], [{ name: 'e', image: 'busybox', restartPolicy: 'Always' }])),
  change('ephemeral: resizePolicy', '/ephemeralcontainers', (o) => set(o, ['spec', 'ephemeralContainers'], [{ name: 'e', image: 'busybox', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] }])),
  change('ephemeral: name invalid', '/ephemeralcontainers', (o) => set(o, ['spec', 'ephemeralContainers'], [{ name: 'Bad_Name', image: 'busybox' }])),
  { name: 'ephemeral: removed', requests: (n, space) => [post(podsPath(space), podBody()(n)),
    putBack(`${podsPath(space)}/${n}/ephemeralcontainers`, (o) => set(o, ['spec', 'ephemeralContainers'], [{ name: 'e', image: 'busybox' }])),
    putBack(`${podsPath(space)}/${n}/ephemeralcontainers`, (o) => set(o, ['spec', 'ephemeralContainers'], []))] },
  { name: 'ephemeral: changed', requests: (n, space) => [post(podsPath(space), podBody()(n)),
    putBack(`${podsPath(space)}/${n}/ephemeralcontainers`, (o) => set(o, ['spec', 'ephemeralContainers'], [{ name: 'e', image: 'busybox' }])),
    putBack(`${podsPath(space)}/${n}/ephemeralcontainers`, (o) => set(o, ['spec', 'ephemeralContainers'], [{ name: 'e', image: 'nginx' }]))] },
  change('ephemeral: static pod', '/ephemeralcontainers', (o) => set(o, ['spec', 'ephemeralContainers'], [{ name: 'e', image: 'busybox' }]),
    podBody({ nodeName: 'node-1' }, { annotations: { 'kubernetes.io/config.mirror': 'x' } })),
  change('ephemeral: through a pod update', '', (o) => set(o, ['spec', 'ephemeralContainers'], [{ name: 'e', image: 'busybox' }])),
];

const resize = (name: string, fn: (o: Obj) => void, spec: Obj = { containers: [container({ resources: burstable })] }, metadata: Obj = {}): ValidationCase =>
  change(name, '/resize', fn, podBody(spec, metadata));
const RESIZE_CASES: ValidationCase[] = [
  resize('resize: cpu changed', (o) => set(c0(o), ['resources', 'limits', 'cpu'], '300m')),
  resize('resize: memory changed', (o) => set(c0(o), ['resources', 'requests', 'memory'], '96Mi')),
  resize('resize: limit removed', (o) => set(c0(o), ['resources', 'limits'], { cpu: '200m' })),
  resize('resize: request removed', (o) => set(c0(o), ['resources', 'requests'], { cpu: '100m' })),
  resize('resize: requests above limits', (o) => set(c0(o), ['resources', 'requests', 'cpu'], '1')),
  resize('resize: qos change', (o) => set(c0(o), ['resources', 'limits'], { cpu: '100m', memory: '64Mi' })),
  resize('resize: guaranteed stays', (o) => set(c0(o), ['resources'], { requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '200m', memory: '64Mi' } }),
    { containers: [container({ resources: guaranteed })] }),
  resize('resize: besteffort gains requests', (o) => set(c0(o), ['resources'], { requests: { cpu: '100m' } }), {}),
  resize('resize: ephemeral-storage changed', (o) => set(c0(o), ['resources', 'limits', 'ephemeral-storage'], '1Gi')),
  resize('resize: image changed', (o) => set(c0(o), ['image'], 'nginx')),
  resize('resize: container added', (o) => { ((o['spec'] as Obj)['containers'] as Obj[]).push(container({ name: 'd' })); }),
  resize('resize: container renamed', (o) => set(c0(o), ['name'], 'd')),
  resize('resize: labels changed', (o) => set(o, ['metadata', 'labels'], { a: 'b' })),
  resize('resize: windows pod', (o) => set(c0(o), ['resources', 'limits', 'cpu'], '300m'), { os: { name: 'windows' }, containers: [container({ resources: burstable })] }),
  resize('resize: static pod', (o) => set(c0(o), ['resources', 'limits', 'cpu'], '300m'), { nodeName: 'node-1', containers: [container({ resources: burstable })] }, { annotations: { 'kubernetes.io/config.mirror': 'x' } }),
  resize('resize: restart policy NotRequired memory with RestartContainer', (o) => set(c0(o), ['resources', 'limits', 'memory'], '256Mi'),
    { containers: [container({ resources: burstable, resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] })] }),
  resize('resize: init container resources', (o) => set(((o['spec'] as Obj)['initContainers'] as Obj[])[0]!, ['resources', 'limits', 'cpu'], '300m'),
    { initContainers: [container({ name: 'i', resources: burstable })], containers: [container({ resources: burstable })] }),
  resize('resize: sidecar resources', (o) => set(((o['spec'] as Obj)['initContainers'] as Obj[])[0]!, ['resources', 'limits', 'cpu'], '300m'),
    { initContainers: [container({ name: 'i', restartPolicy: 'Always', resources: burstable })], containers: [container({ resources: burstable })] }),
  resize('resize: resizePolicy changed', (o) => set(c0(o), ['resizePolicy'], [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }])),
  resize('resize: resizePolicy invalid', (o) => set(c0(o), ['resizePolicy'], [{ resourceName: 'bogus', restartPolicy: 'Bogus' }])),
  resize('resize: memory decreased', (o) => set(c0(o), ['resources', 'limits', 'memory'], '100Mi')),
  resize('resize: init container ephemeral-storage', (o) => set(((o['spec'] as Obj)['initContainers'] as Obj[])[0]!, ['resources', 'limits', 'ephemeral-storage'], '1Gi'),
    { initContainers: [container({ name: 'i', resources: burstable })], containers: [container({ resources: burstable })] }),
  resize('resize: init container added', (o) => set(o, ['spec', 'initContainers'], [container({ name: 'i' })])),
  resize('resize: pod-level cpu changed', (o) => set(o, ['spec', 'resources', 'limits', 'cpu'], '400m'), { resources: burstable, containers: [container()] }),
  resize('resize: pod-level resources removed', (o) => { delete (o['spec'] as Obj)['resources']; }, { resources: burstable, containers: [container()] }),
  resize('resize: pod-level limit removed', (o) => set(o, ['spec', 'resources', 'limits'], { cpu: '200m' }), { resources: burstable, containers: [container()] }),
  resize('resize: pod-level resources added', (o) => set(o, ['spec', 'resources'], { requests: { cpu: '100m' } }), {}),
  resize('resize: pod-level hugepages changed', (o) => set(o, ['spec', 'resources', 'limits', 'hugepages-2Mi'], '4Mi'),
    { resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi', 'hugepages-2Mi': '2Mi' } }, containers: [container()] }),
];

const update = (name: string, fn: (o: Obj) => void, spec: Obj = {}, metadata: Obj = {}): ValidationCase => change(name, '', fn, podBody(spec, metadata));
const UPDATE_CASES: ValidationCase[] = [
  update('update: labels changed', (o) => set(o, ['metadata', 'labels'], { a: 'b' })),
  update('update: nodeName set', (o) => set(o, ['spec', 'nodeName'], 'node-1')),
  update('update: container resources changed', (o) => set(c0(o), ['resources'], { limits: { cpu: '1' } })),
  update('update: pod-level resources changed', (o) => set(o, ['spec', 'resources'], { limits: { cpu: '1' } })),
  update('update: image with whitespace', (o) => set(c0(o), ['image'], ' busybox')),
  update('update: init container image emptied', (o) => set(((o['spec'] as Obj)['initContainers'] as Obj[])[0]!, ['image'], ''),
    { initContainers: [container({ name: 'i' })] }),
  update('update: init container added', (o) => set(o, ['spec', 'initContainers'], [container({ name: 'i' })])),
  update('update: terminationGracePeriodSeconds from negative to 1', (o) => set(o, ['spec', 'terminationGracePeriodSeconds'], 1), { terminationGracePeriodSeconds: -1 }),
  update('update: terminationGracePeriodSeconds changed', (o) => set(o, ['spec', 'terminationGracePeriodSeconds'], 5)),
  update('update: activeDeadlineSeconds set', (o) => set(o, ['spec', 'activeDeadlineSeconds'], 30)),
  update('update: activeDeadlineSeconds 0', (o) => set(o, ['spec', 'activeDeadlineSeconds'], 0), { activeDeadlineSeconds: 10 }),
  update('update: toleration seconds changed', (o) => set(o, ['spec', 'tolerations'], [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }]),
    { tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }] }),
  update('update: status ignored on update', (o) => set(o, ['status', 'phase'], 'Bogus')),
  update('update: generateName changed', (o) => set(o, ['metadata', 'generateName'], 'x-')),
  update('update: seccomp annotation added', (o) => set(o, ['metadata', 'annotations'], { 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default' })),
  update('update: readinessGates added', (o) => set(o, ['spec', 'readinessGates'], [{ conditionType: 'example.com/g' }])),
  update('update: activeDeadlineSeconds negative', (o) => set(o, ['spec', 'activeDeadlineSeconds'], -1)),
  update('update: schedulingGates all removed', (o) => set(o, ['spec', 'schedulingGates'], []), { schedulingGates: [{ name: 'example.com/a' }, { name: 'example.com/b' }] }),
  update('update: generation changed', (o) => set(o, ['metadata', 'generation'], 5)),
  update('update: resizePolicy changed', (o) => set(c0(o), ['resizePolicy'], [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }])),
];

const create = (name: string, spec: Obj): ValidationCase => ({ name, requests: (n, space) => [post(podsPath(space), podBody(spec)(n))] });
const POD_RESOURCES_CASES: ValidationCase[] = [
  create('pod resources: valid', { resources: burstable, containers: [container({ resources: { requests: { cpu: '50m' } } })] }),
  create('pod resources: limits only (requests defaulted)', { resources: { limits: { cpu: '1', memory: '1Gi' } } }),
  create('pod resources: hugepages', { resources: { limits: { cpu: '1', memory: '1Gi', 'hugepages-2Mi': '2Mi' } } }),
  create('pod resources: bogus name', { resources: { limits: { bogus: '1' } } }),
  create('pod resources: extended resource', { resources: { limits: { 'example.com/gpu': '1' } } }),
  create('pod resources: negative', { resources: { requests: { cpu: '-1' } } }),
  create('pod resources: container requests above pod requests', { resources: { requests: { cpu: '100m' }, limits: { cpu: '1' } },
    containers: [container({ resources: { requests: { cpu: '500m' } } })] }),
  create('pod resources: containers sum above pod requests', { resources: { requests: { memory: '100Mi' } },
    containers: [container({ resources: { requests: { memory: '60Mi' } } }), container({ name: 'd', resources: { requests: { memory: '60Mi' } } })] }),
  create('pod resources: container limit above pod limit', { resources: { limits: { cpu: '1' } }, containers: [container({ resources: { limits: { cpu: '1500m' } } })] }),
  create('pod resources: request above limit in millis', { resources: { requests: { cpu: '1.5' }, limits: { cpu: '1' } } }),
  create('pod resources: memory request above limit', { resources: { requests: { memory: '2Gi' }, limits: { memory: '1024Mi' } } }),
  create('pod resources: hugepages limits defaulted from containers', { resources: { limits: { cpu: '1', memory: '1Gi' } },
    containers: [container({ resources: { limits: { 'hugepages-2Mi': '4Mi', memory: '100Mi' }, requests: { memory: '100Mi' } } })] }),
  create('pod resources: hugepages above the pod limit', { resources: { limits: { memory: '1Gi', 'hugepages-2Mi': '2Mi' } },
    containers: [container({ resources: { limits: { 'hugepages-2Mi': '4Mi', memory: '100Mi' } } })] }),
  create('pod resources: sidecar requests add up', { resources: { requests: { cpu: '300m' }, limits: { cpu: '1' } },
    initContainers: [container({ name: 'i', restartPolicy: 'Always', resources: { requests: { cpu: '200m' } } })], containers: [container({ resources: { requests: { cpu: '200m' } } })] }),
  create('pod resources: init container peak', { resources: { requests: { cpu: '300m' }, limits: { cpu: '1' } },
    initContainers: [container({ name: 'i', resources: { requests: { cpu: '500m' } } })], containers: [container({ resources: { requests: { cpu: '200m' } } })] }),
  create('pod resources: empty', { resources: {} }),
  create('pod resources: memory only qos', { resources: { limits: { memory: '1Gi' } } }),
  create('pod resources: container request above limit', { containers: [container({ resources: { requests: { cpu: '0.5' }, limits: { cpu: '100m' } } })] }),
];

/** The same bad label through each path: kube's update validators repeat the metadata checks unevenly. */
const badLabel = (o: Obj): void => set(o, ['metadata', 'labels'], { 'bad key': 'v' });
const LABEL_CASES: ValidationCase[] = [
  change('labels: update', '', badLabel),
  change('labels: status', '/status', badLabel),
  change('labels: ephemeralcontainers', '/ephemeralcontainers', badLabel),
  change('labels: resize', '/resize', badLabel),
];

export const POD_STATUS_CASES: readonly ValidationCase[] = [...STATUS_CASES, ...EPHEMERAL_CASES, ...RESIZE_CASES, ...UPDATE_CASES, ...POD_RESOURCES_CASES, ...LABEL_CASES];
