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

/** A valid spec with most kinds of internal structs in it (for the diff of a forbidden change). */
const RICH_SPEC: Record<string, unknown> = {
  volumes: [
    { name: 'e', emptyDir: { sizeLimit: '1.5Gi' } },
    { name: 'cm', configMap: { name: 'cm', items: [{ key: 'k', path: 'p', mode: 0o644 }], optional: true } },
    { name: 's', secret: { secretName: 's', defaultMode: 0o600 } },
    { name: 'h', hostPath: { path: '/tmp/x', type: 'DirectoryOrCreate' } },
    { name: 'pvc', persistentVolumeClaim: { claimName: 'c', readOnly: true } },
    { name: 'd', downwardAPI: { items: [{ path: 'l', fieldRef: { fieldPath: 'metadata.labels' } }, { path: 'cpu', resourceFieldRef: { containerName: 'c', resource: 'limits.cpu', divisor: '1m' } }] } },
  ],
  initContainers: [{ name: 'i', image: 'busybox', command: ['sh', '-c', 'true'], workingDir: '/w' }],
  containers: [{
    name: 'c', image: 'busybox', args: ['a', 'b'],
    ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }, { containerPort: 53, hostPort: 53, protocol: 'UDP' }],
    envFrom: [{ prefix: 'P_', configMapRef: { name: 'cm' } }, { secretRef: { name: 's', optional: true } }],
    env: [{ name: 'A', value: 'a<b>&c' }, { name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'K', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }, { name: 'M', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } }],
    resources: { requests: { cpu: '0.1', memory: '128Mi' }, limits: { cpu: '500m', memory: '1Gi' } },
    volumeMounts: [{ name: 'e', mountPath: '/e' }, { name: 'cm', mountPath: '/cm', readOnly: true, subPath: 'p' }],
    livenessProbe: { httpGet: { path: '/healthz', port: 'http', httpHeaders: [{ name: 'X', value: 'y' }] }, initialDelaySeconds: 3 },
    readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 5 },
    startupProbe: { exec: { command: ['true'] }, failureThreshold: 30 },
    lifecycle: { preStop: { exec: { command: ['sleep', '1'] } } },
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
    stdin: true, tty: true,
  }],
  nodeSelector: { zone: 'a', 'b.example.com/x': 'y' },
  securityContext: { fsGroup: 2000, supplementalGroups: [1, 2], sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65535' }] },
  hostname: 'h', subdomain: 's',
  affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }] } }] } },
  tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoExecute', tolerationSeconds: 30 }],
  hostAliases: [{ ip: '10.1.2.3', hostnames: ['a.example.com'] }],
  dnsConfig: { nameservers: ['1.1.1.1'], searches: ['example.com'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] },
  topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'a' } } }],
  os: { name: 'linux' },
};

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
  // The forbidden-change message ends with a diff of kube's internal PodSpec: every struct printed
  // before the change counts in the hunk's line numbers, so these fill the spec with many types.
  { name: 'rich spec: dnsPolicy changed', base: RICH_SPEC, mutate: (p) => { p.spec['dnsPolicy'] = 'Default'; } },
  { name: 'more volume kinds: dnsPolicy changed', base: { volumes: [{ name: 'n', nfs: { server: 'nfs.example.com', path: '/x', readOnly: true } },
    { name: 'csi', csi: { driver: 'csi.example.com', fsType: 'ext4', volumeAttributes: { b: '2', a: '1' }, nodePublishSecretRef: { name: 's' } } },
    { name: 'p', projected: { sources: [{ secret: { name: 's', items: [{ key: 'k', path: 'k' }], optional: false } }] } }] },
  mutate: (p) => { p.spec['dnsPolicy'] = 'Default'; } },
  { name: 'rich spec: probe changed', base: RICH_SPEC, mutate: (p) => { (p.spec.containers[0]!['livenessProbe'] as Record<string, unknown>)['periodSeconds'] = 7; } },
  { name: 'rich spec: env var changed', base: RICH_SPEC, mutate: (p) => { p.spec.containers[0]!['env'] = [{ name: 'A', value: 'changed' }]; } },
  { name: 'rich spec: resources changed', base: RICH_SPEC,
    mutate: (p) => { p.spec.containers[0]!['resources'] = { requests: { cpu: '0.2', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }; } },
  { name: 'rich spec: volume changed', base: RICH_SPEC, mutate: (p) => { (p.spec['volumes'] as Record<string, unknown>[])[0] = { name: 'e', emptyDir: { medium: 'Memory' } }; } },
  { name: 'rich spec: init container command changed', base: RICH_SPEC, mutate: (p) => { (p.spec['initContainers'] as Record<string, unknown>[])[0]!['command'] = ['true']; } },
  { name: 'rich spec: security context changed', base: RICH_SPEC, mutate: (p) => { p.spec['securityContext'] = { runAsUser: 2000 }; } },
  { name: 'rich spec: affinity changed', base: RICH_SPEC, mutate: (p) => { p.spec['affinity'] = { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [
    { weight: 5, podAffinityTerm: { topologyKey: 'zone', labelSelector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] } } }] } }; } },
  { name: 'rich spec: hostNetwork set', base: RICH_SPEC, mutate: (p) => { p.spec['hostNetwork'] = true; } },
  { name: 'rich spec: readiness gate added', base: RICH_SPEC, mutate: (p) => { p.spec['readinessGates'] = [{ conditionType: 'example.com/ready' }]; } },
  { name: 'rich spec: topology spread changed', base: RICH_SPEC,
    mutate: (p) => { p.spec['topologySpreadConstraints'] = [{ maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'a' } } }]; } },
  { name: 'mirror annotation added', mutate: (p) => { p.metadata['annotations'] = { 'kubernetes.io/config.mirror': 'x' }; } },
];
