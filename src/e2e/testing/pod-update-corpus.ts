// The pod-update corpus: one update per rule of kube's ValidatePodUpdate (and of
// ValidatePodEphemeralContainersUpdate for pods/ephemeralcontainers), applied to a stored valid pod.
// Sent to kapi and the reference kube-apiserver by e2e/pod-validation.test.ts.
// No Go counterpart: the e2e test harness.

/** An update of a stored pod (ValidatePodUpdate): `base` is merged over the valid spec at creation. */
export interface PodUpdateCase {
  readonly name: string;
  readonly base?: Record<string, unknown>;
  /** PUT to this subresource of the pod instead. */
  readonly subresource?: 'ephemeralcontainers';
  readonly mutate: (pod: { metadata: Record<string, unknown>; spec: Record<string, unknown> & { containers: Record<string, unknown>[] } }) => void;
}

export const POD_UPDATE_CASES: readonly PodUpdateCase[] = [
  { name: 'image change is allowed', mutate: (p) => { p.spec.containers[0]!['image'] = 'busybox:2'; } },
  { name: 'image emptied', mutate: (p) => { p.spec.containers[0]!['image'] = ''; } },
  { name: 'container added', mutate: (p) => { p.spec.containers.push({ name: 'd', image: 'i' }); } },
  { name: 'args changed', mutate: (p) => { p.spec.containers[0]!['args'] = ['x']; } },
  { name: 'activeDeadlineSeconds raised', base: { activeDeadlineSeconds: 10 }, mutate: (p) => { p.spec['activeDeadlineSeconds'] = 20; } },
  { name: 'activeDeadlineSeconds removed', base: { activeDeadlineSeconds: 10 }, mutate: (p) => { delete p.spec['activeDeadlineSeconds']; } },
  { name: 'activeDeadlineSeconds lowered', base: { activeDeadlineSeconds: 10 }, mutate: (p) => { p.spec['activeDeadlineSeconds'] = 5; } },
  { name: 'toleration added', mutate: (p) => { p.spec['tolerations'] = [{ key: 'k', operator: 'Exists' }]; } },
  { name: 'toleration changed', base: { tolerations: [{ key: 'k', operator: 'Exists' }] }, mutate: (p) => { p.spec['tolerations'] = [{ key: 'j', operator: 'Exists' }]; } },
  { name: 'invalid toleration added', mutate: (p) => { p.spec['tolerations'] = [{ key: 'k', operator: 'Bogus' }]; } },
  { name: 'scheduling gate removed', base: { schedulingGates: [{ name: 'example.com/a' }] }, mutate: (p) => { p.spec['schedulingGates'] = []; } },
  { name: 'scheduling gate added', base: { schedulingGates: [{ name: 'example.com/a' }] }, mutate: (p) => { p.spec['schedulingGates'] = [{ name: 'example.com/a' }, { name: 'example.com/b' }]; } },
  { name: 'gated pod gains a node selector', base: { schedulingGates: [{ name: 'example.com/a' }] }, mutate: (p) => { p.spec['nodeSelector'] = { zone: 'a' }; } },
  { name: 'gated pod changes a node selector', base: { schedulingGates: [{ name: 'example.com/a' }], nodeSelector: { zone: 'a' } }, mutate: (p) => { p.spec['nodeSelector'] = { zone: 'b' }; } },
  { name: 'gated pod gains node affinity', base: { schedulingGates: [{ name: 'example.com/a' }] },
    mutate: (p) => { p.spec['affinity'] = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['a'] }] }] } } }; } },
  { name: 'gated pod narrows a node affinity term', base: { schedulingGates: [{ name: 'example.com/a' }], affinity: { nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['a'] }] }] } } } },
  mutate: (p) => { p.spec['affinity'] = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [
    { matchExpressions: [{ key: 'k', operator: 'In', values: ['a'] }, { key: 'j', operator: 'Exists' }] }] } } }; } },
  { name: 'gated pod changes a node affinity term', base: { schedulingGates: [{ name: 'example.com/a' }], affinity: { nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['a'] }] }] } } } },
  mutate: (p) => { p.spec['affinity'] = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [
    { matchExpressions: [{ key: 'k', operator: 'In', values: ['b'] }] }] } } }; } },
  { name: 'gated pod adds a node affinity term', base: { schedulingGates: [{ name: 'example.com/a' }], affinity: { nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['a'] }] }] } } } },
  mutate: (p) => { p.spec['affinity'] = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [
    { matchExpressions: [{ key: 'k', operator: 'In', values: ['a'] }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n'] }] }] } } }; } },
  { name: 'ephemeral container with ports', subresource: 'ephemeralcontainers',
    mutate: (p) => { p.spec['ephemeralContainers'] = [{ name: 'e', image: 'busybox', ports: [{ containerPort: 80 }] }]; } },
  { name: 'ephemeral container targets an unknown container', subresource: 'ephemeralcontainers',
    mutate: (p) => { p.spec['ephemeralContainers'] = [{ name: 'e', image: 'busybox', targetContainerName: 'nope' }]; } },
  { name: 'ephemeral container named like a container', subresource: 'ephemeralcontainers',
    mutate: (p) => { p.spec['ephemeralContainers'] = [{ name: 'c', image: 'busybox', volumeMounts: [{ name: 'v', mountPath: '/m', subPath: 'x' }] }]; } },
  { name: 'mirror annotation added', mutate: (p) => { p.metadata['annotations'] = { 'kubernetes.io/config.mirror': 'x' }; } },
];
