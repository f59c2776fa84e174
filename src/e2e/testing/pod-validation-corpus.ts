// The invalid-pod corpus: one Pod per rule of kube's pod validation (pkg/apis/core/validation:
// ValidatePodCreate → ValidatePodSpec and its sub-validators), each a valid pod with one fault.
// Sent to kapi and the reference kube-apiserver by e2e/pod-validation.test.ts.
import { QUANTITY_CASES } from './quantity-corpus.ts';

export interface PodCase {
  readonly name: string;
  /** Merged over the valid base spec. */
  readonly spec?: Record<string, unknown>;
  /** Merged over the base container `c` (a convenience for container-level rules). */
  readonly container?: Record<string, unknown>;
  readonly metadata?: Record<string, unknown>;
  /**
   * Sent as a PodTemplate: for rules a Pod's admission plugins (ServiceAccount, Priority,
   * RuntimeClass) would refuse with 403 before validation runs.
   */
  readonly template?: true;
  /** The template's metadata (with `template`). */
  readonly templateMetadata?: Record<string, unknown>;
  /** For a pod kube accepts: the part of the created pod to compare (what create changed). */
  readonly keep?: (pod: { spec: Record<string, unknown> }) => unknown;
}

const nodeAffinity = (term: Record<string, unknown>): Record<string, unknown> =>
  ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } } } });
const antiAffinity = (term: Record<string, unknown>): Record<string, unknown> =>
  ({ affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } });
const vol = (v: Record<string, unknown>, mounts: readonly Record<string, unknown>[] = []): Record<string, unknown> =>
  ({ volumes: [{ name: 'v', ...v }], containers: [{ name: 'c', image: 'busybox', volumeMounts: mounts }] });
const tsc = (c: Record<string, unknown>): Record<string, unknown> =>
  ({ topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', ...c }] });
const sidecar = (c: Record<string, unknown>): Record<string, unknown> =>
  ({ initContainers: [{ name: 'i', image: 'busybox', ...c }] });

export const POD_CASES: readonly PodCase[] = [
  // the examples
  { name: 'container runAsUser -1', container: { securityContext: { runAsUser: -1 } } },
  { name: 'node affinity operator Bogus', spec: nodeAffinity({ matchExpressions: [{ key: 'k', operator: 'Bogus', values: ['v'] }] }) },
  { name: 'anti-affinity term without topologyKey', spec: antiAffinity({ labelSelector: { matchLabels: { a: 'b' } } }) },
  { name: 'subPath ../etc', spec: vol({ emptyDir: {} }, [{ name: 'v', mountPath: '/m', subPath: '../etc' }]) },
  { name: 'dnsPolicy None without dnsConfig', spec: { dnsPolicy: 'None' } },
  // containers
  { name: 'no containers', spec: { containers: [] } },
  { name: 'container name missing', container: { name: '' } },
  { name: 'container name invalid', container: { name: 'Bad_Name' } },
  { name: 'duplicate container names', spec: { containers: [{ name: 'c', image: 'i' }, { name: 'c', image: 'i' }] } },
  { name: 'init container named like a container', spec: sidecar({ name: 'c' }) },
  { name: 'image missing', container: { image: '' } },
  { name: 'image with whitespace', container: { image: ' busybox' } },
  { name: 'imagePullPolicy Bogus', container: { imagePullPolicy: 'Bogus' } },
  { name: 'terminationMessagePolicy Bogus', container: { terminationMessagePolicy: 'Bogus' } },
  { name: 'containerPort 0', container: { ports: [{ containerPort: 0 }] } },
  { name: 'containerPort 70000', container: { ports: [{ containerPort: 70000 }] } },
  { name: 'hostPort 70000', container: { ports: [{ containerPort: 80, hostPort: 70000 }] } },
  { name: 'port protocol Bogus', container: { ports: [{ containerPort: 80, protocol: 'Bogus' }] } },
  { name: 'port name too long', container: { ports: [{ containerPort: 80, name: 'abcdefghijklmnopq' }] } },
  { name: 'duplicate port names', container: { ports: [{ containerPort: 80, name: 'http' }, { containerPort: 81, name: 'http' }] } },
  { name: 'hostIP invalid', container: { ports: [{ containerPort: 80, hostPort: 80, hostIP: 'bogus' }] } },
  { name: 'hostNetwork with hostPort unlike containerPort', spec: { hostNetwork: true, containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, hostPort: 81 }] }] } },
  // env
  { name: 'env name missing', container: { env: [{ name: '' }] } },
  { name: 'env name with =', container: { env: [{ name: 'A=B' }] } },
  { name: 'env value and valueFrom', container: { env: [{ name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] } },
  { name: 'env valueFrom empty', container: { env: [{ name: 'A', valueFrom: {} }] } },
  { name: 'env valueFrom two sources', container: { env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, configMapKeyRef: { name: 'cm', key: 'k' } } }] } },
  { name: 'env fieldRef unsupported path', container: { env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'spec.bogus' } } }] } },
  { name: 'env configMapKeyRef without key', container: { env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: '' } } }] } },
  { name: 'env secretKeyRef invalid key', container: { env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'a b' } } }] } },
  { name: 'env resourceFieldRef unknown resource', container: { env: [{ name: 'A', valueFrom: { resourceFieldRef: { resource: 'bogus' } } }] } },
  { name: 'envFrom without source', container: { envFrom: [{ prefix: 'P_' }] } },
  { name: 'envFrom two sources', container: { envFrom: [{ configMapRef: { name: 'a' }, secretRef: { name: 'b' } }] } },
  { name: 'envFrom configMapRef without name', container: { envFrom: [{ configMapRef: { name: '' } }] } },
  // volume mounts
  { name: 'volumeMount of an unknown volume', container: { volumeMounts: [{ name: 'nope', mountPath: '/m' }] } },
  { name: 'volumeMount without mountPath', spec: vol({ emptyDir: {} }, [{ name: 'v', mountPath: '' }]) },
  { name: 'duplicate mountPath', spec: vol({ emptyDir: {} }, [{ name: 'v', mountPath: '/m' }, { name: 'v', mountPath: '/m' }]) },
  { name: 'absolute subPath', spec: vol({ emptyDir: {} }, [{ name: 'v', mountPath: '/m', subPath: '/etc' }]) },
  { name: 'subPath and subPathExpr', spec: vol({ emptyDir: {} }, [{ name: 'v', mountPath: '/m', subPath: 'a', subPathExpr: 'b' }]) },
  { name: 'mountPropagation Bogus', spec: vol({ emptyDir: {} }, [{ name: 'v', mountPath: '/m', mountPropagation: 'Bogus' }]) },
  { name: 'Bidirectional mount in an unprivileged container', spec: vol({ emptyDir: {} }, [{ name: 'v', mountPath: '/m', mountPropagation: 'Bidirectional' }]) },
  { name: 'recursiveReadOnly without readOnly', spec: vol({ emptyDir: {} }, [{ name: 'v', mountPath: '/m', recursiveReadOnly: 'Enabled' }]) },
  // block devices
  { name: 'volumeDevice of an emptyDir', spec: { volumes: [{ name: 'v', emptyDir: {} }], containers: [{ name: 'c', image: 'i', volumeDevices: [{ name: 'v', devicePath: '/dev/x' }] }] } },
  { name: 'volumeDevice of an unknown volume', container: { volumeDevices: [{ name: 'nope', devicePath: '/dev/x' }] } },
  { name: 'volumeDevice path with ..', spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'pvc' } }],
    containers: [{ name: 'c', image: 'i', volumeDevices: [{ name: 'v', devicePath: '/dev/../x' }] }] } },
  { name: 'volumeDevice also mounted', spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'pvc' } }],
    containers: [{ name: 'c', image: 'i', volumeDevices: [{ name: 'v', devicePath: '/m' }], volumeMounts: [{ name: 'v', mountPath: '/m' }] }] } },
  // volumes
  { name: 'volume without a source', spec: { volumes: [{ name: 'v' }] } },
  { name: 'volume with two sources', spec: { volumes: [{ name: 'v', emptyDir: {}, hostPath: { path: '/x' } }] } },
  { name: 'duplicate volume names', spec: { volumes: [{ name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }] } },
  { name: 'volume name invalid', spec: { volumes: [{ name: 'Bad_Name', emptyDir: {} }] } },
  { name: 'hostPath type Bogus', spec: vol({ hostPath: { path: '/x', type: 'Bogus' } }) },
  { name: 'hostPath path with ..', spec: vol({ hostPath: { path: '/x/../y' } }) },
  { name: 'emptyDir medium Bogus', spec: vol({ emptyDir: { medium: 'Bogus' } }) },
  { name: 'emptyDir negative sizeLimit', spec: vol({ emptyDir: { sizeLimit: '-1' } }) },
  { name: 'configMap volume without name', spec: vol({ configMap: { name: '' } }) },
  { name: 'configMap item path with ..', spec: vol({ configMap: { name: 'cm', items: [{ key: 'k', path: '../x' }] } }) },
  { name: 'secret item absolute path', spec: vol({ secret: { secretName: 's', items: [{ key: 'k', path: '/x' }] } }) },
  { name: 'secret item without key', spec: vol({ secret: { secretName: 's', items: [{ key: '', path: 'x' }] } }) },
  { name: 'secret defaultMode 01000', spec: vol({ secret: { secretName: 's', defaultMode: 0o1000 } }) },
  { name: 'configMap item mode 01000', spec: vol({ configMap: { name: 'cm', items: [{ key: 'k', path: 'x', mode: 0o1000 }] } }) },
  { name: 'downwardAPI unsupported fieldPath', spec: vol({ downwardAPI: { items: [{ path: 'x', fieldRef: { fieldPath: 'spec.bogus' } }] } }) },
  { name: 'downwardAPI item without a ref', spec: vol({ downwardAPI: { items: [{ path: 'x' }] } }) },
  { name: 'projected source empty', spec: vol({ projected: { sources: [{}] } }) },
  // ClusterTrustBundleProjection and PodCertificateRequest are off in v1.36: create drops these sources
  { name: 'projected clusterTrustBundle dropped (source left empty)', spec: vol({ projected: { sources: [{ clusterTrustBundle: { name: 'b', path: 'p' } }] } }) },
  { name: 'projected podCertificate dropped (source left empty)',
    spec: vol({ projected: { sources: [{ podCertificate: { signerName: 'example.com/s', keyType: 'ED25519', credentialBundlePath: 'c' } }] } }) },
  { name: 'projected clusterTrustBundle dropped beside a configMap', keep: (p) => (p.spec['volumes'] as unknown[])[0],
    spec: vol({ projected: { sources: [{ configMap: { name: 'a' }, clusterTrustBundle: { name: 'b', path: 'p' } }] } }) },
  { name: 'pod template: projected clusterTrustBundle dropped', template: true, spec: vol({ projected: { sources: [{ clusterTrustBundle: { name: 'b', path: 'p' } }] } }) },
  { name: 'persistentVolumeClaim without claimName', spec: vol({ persistentVolumeClaim: { claimName: '' } }) },
  { name: 'nfs without server', spec: vol({ nfs: { server: '', path: '/x' } }) },
  { name: 'nfs relative path', spec: vol({ nfs: { server: 's', path: 'x' } }) },
  { name: 'iscsi without targetPortal', spec: vol({ iscsi: { targetPortal: '', iqn: 'iqn.2015-02.example.com:test', lun: 1 } }) },
  { name: 'csi without driver', spec: vol({ csi: { driver: '' } }) },
  { name: 'image volume without reference', spec: vol({ image: { reference: '' } }) },
  { name: 'ephemeral volume without template', spec: vol({ ephemeral: {} }) },
  { name: 'ephemeral volume claim spec empty', spec: vol({ ephemeral: { volumeClaimTemplate: { spec: {} } } }) },
  { name: 'claim of an ephemeral volume used as a PVC', metadata: { name: 'eph' }, spec: { volumes: [{ name: 'e', ephemeral: { volumeClaimTemplate: { spec: {
    accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } }, { name: 'v', persistentVolumeClaim: { claimName: 'eph-e' } }] } },
  { name: 'gitRepo directory with ..', spec: vol({ gitRepo: { repository: 'r', directory: '../x' } }) },
  // resources
  { name: 'request above limit', container: { resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } } },
  { name: 'unknown resource name', container: { resources: { limits: { bogus: '1' } } } },
  { name: 'negative memory request', container: { resources: { requests: { memory: '-1' } } } },
  { name: 'hugepages not a whole number of pages', container: { resources: { limits: { 'hugepages-2Mi': '3Mi', memory: '1Gi' } } } },
  { name: 'hugepages without cpu or memory', container: { resources: { limits: { 'hugepages-2Mi': '2Mi' } } } },
  // probes and lifecycle
  { name: 'probe without handler', container: { livenessProbe: {} } },
  { name: 'probe with two handlers', container: { readinessProbe: { exec: { command: ['x'] }, tcpSocket: { port: 80 } } } },
  { name: 'liveness successThreshold 2', container: { livenessProbe: { exec: { command: ['x'] }, successThreshold: 2 } } },
  { name: 'probe negative periodSeconds', container: { readinessProbe: { exec: { command: ['x'] }, periodSeconds: -1 } } },
  { name: 'probe httpGet port 0', container: { readinessProbe: { httpGet: { port: 0 } } } },
  { name: 'probe httpGet scheme Bogus', container: { readinessProbe: { httpGet: { port: 80, scheme: 'Bogus' } } } },
  { name: 'probe exec without command', container: { readinessProbe: { exec: {} } } },
  { name: 'probe grpc port 0', container: { readinessProbe: { grpc: { port: 0 } } } },
  { name: 'probe terminationGracePeriodSeconds 0', container: { livenessProbe: { exec: { command: ['x'] }, terminationGracePeriodSeconds: 0 } } },
  { name: 'preStop without handler', container: { lifecycle: { preStop: {} } } },
  { name: 'postStart sleep negative', container: { lifecycle: { postStart: { sleep: { seconds: -1 } } } } },
  { name: 'lifecycle stopSignal without os', container: { lifecycle: { stopSignal: 'SIGTERM' } } },
  // init containers
  { name: 'init container restartPolicy Never', spec: sidecar({ restartPolicy: 'Never' }) },
  { name: 'init container with a readiness probe', spec: sidecar({ readinessProbe: { exec: { command: ['x'] } } }) },
  { name: 'init container with lifecycle', spec: sidecar({ lifecycle: { preStop: { exec: { command: ['x'] } } } }) },
  { name: 'sidecar readiness successThreshold fine, liveness successThreshold 2', spec: sidecar({ restartPolicy: 'Always', livenessProbe: { exec: { command: ['x'] }, successThreshold: 2 } }) },
  { name: 'regular container restartPolicy Bogus', container: { restartPolicy: 'Bogus' } },
  { name: 'ephemeral containers on create', spec: { ephemeralContainers: [{ name: 'e', image: 'i', targetContainerName: 'c' }] } },
  // security context
  { name: 'pod runAsUser -1', spec: { securityContext: { runAsUser: -1 } } },
  { name: 'pod runAsGroup -1', spec: { securityContext: { runAsGroup: -1 } } },
  { name: 'container runAsGroup -1', container: { securityContext: { runAsGroup: -1 } } },
  { name: 'pod fsGroup -1', spec: { securityContext: { fsGroup: -1 } } },
  { name: 'pod supplementalGroups -1', spec: { securityContext: { supplementalGroups: [-1] } } },
  { name: 'fsGroupChangePolicy Bogus', spec: { securityContext: { fsGroupChangePolicy: 'Bogus' } } },
  { name: 'supplementalGroupsPolicy Bogus', spec: { securityContext: { supplementalGroupsPolicy: 'Bogus' } } },
  { name: 'sysctl name invalid', spec: { securityContext: { sysctls: [{ name: 'bogus!', value: '1' }] } } },
  { name: 'duplicate sysctl', spec: { securityContext: { sysctls: [{ name: 'net.ipv4.ip_forward', value: '1' }, { name: 'net.ipv4.ip_forward', value: '1' }] } } },
  { name: 'privileged without allowPrivilegeEscalation', container: { securityContext: { privileged: true, allowPrivilegeEscalation: false } } },
  { name: 'CAP_SYS_ADMIN without allowPrivilegeEscalation', container: { securityContext: { capabilities: { add: ['CAP_SYS_ADMIN'] }, allowPrivilegeEscalation: false } } },
  { name: 'procMount Bogus', container: { securityContext: { procMount: 'Bogus' } } },
  { name: 'seccomp Localhost without profile', spec: { securityContext: { seccompProfile: { type: 'Localhost' } } } },
  { name: 'seccomp type Bogus', container: { securityContext: { seccompProfile: { type: 'Bogus' } } } },
  { name: 'seccomp RuntimeDefault with localhostProfile', container: { securityContext: { seccompProfile: { type: 'RuntimeDefault', localhostProfile: 'p' } } } },
  { name: 'apparmor Localhost without profile', container: { securityContext: { appArmorProfile: { type: 'Localhost' } } } },
  { name: 'apparmor type Bogus', spec: { securityContext: { appArmorProfile: { type: 'Bogus' } } } },
  { name: 'seLinuxChangePolicy Bogus', spec: { securityContext: { seLinuxChangePolicy: 'Bogus' } } },
  { name: 'windowsOptions hostProcess without hostNetwork', container: { securityContext: { windowsOptions: { hostProcess: true } } } },
  { name: 'shareProcessNamespace with hostPID', spec: { shareProcessNamespace: true, hostPID: true } },
  { name: 'hostUsers false with hostNetwork', spec: { hostNetwork: true, hostUsers: false } },
  // pod-level fields
  { name: 'restartPolicy Bogus', spec: { restartPolicy: 'Bogus' } },
  { name: 'dnsPolicy Bogus', spec: { dnsPolicy: 'Bogus' } },
  { name: 'dnsConfig with four nameservers', spec: { dnsConfig: { nameservers: ['1.1.1.1', '1.1.1.2', '1.1.1.3', '1.1.1.4'] } } },
  { name: 'dnsConfig nameserver invalid', spec: { dnsConfig: { nameservers: ['bogus'] } } },
  { name: 'dnsConfig search invalid', spec: { dnsConfig: { searches: ['Bad_Domain'] } } },
  { name: 'dnsConfig option without name', spec: { dnsConfig: { options: [{ value: '1' }] } } },
  { name: 'nodeSelector invalid label value', spec: { nodeSelector: { k: 'bad value' } } },
  { name: 'imagePullSecrets empty name', spec: { imagePullSecrets: [{}] } },
  { name: 'serviceAccountName invalid', template: true, spec: { serviceAccountName: 'Bad_Name' } },
  { name: 'nodeName invalid', spec: { nodeName: 'Bad_Name' } },
  { name: 'activeDeadlineSeconds 0', spec: { activeDeadlineSeconds: 0 } },
  { name: 'hostname invalid', spec: { hostname: 'Bad_Name' } },
  { name: 'subdomain invalid', spec: { subdomain: 'a.b' } },
  { name: 'priorityClassName invalid', template: true, spec: { priorityClassName: 'Bad_Name' } },
  { name: 'runtimeClassName invalid', template: true, spec: { runtimeClassName: 'Bad_Name' } },
  { name: 'preemptionPolicy Bogus', template: true, spec: { preemptionPolicy: 'Bogus' } },
  { name: 'overhead negative', spec: { overhead: { cpu: '-1' } } },
  { name: 'os name Bogus', spec: { os: { name: 'bogus' } } },
  { name: 'readinessGate conditionType invalid', spec: { readinessGates: [{ conditionType: 'bad type!' }] } },
  { name: 'schedulingGate duplicate', spec: { schedulingGates: [{ name: 'example.com/g' }, { name: 'example.com/g' }] } },
  { name: 'schedulingGate name invalid', spec: { schedulingGates: [{ name: 'bad gate!' }] } },
  { name: 'hostAlias ip invalid', spec: { hostAliases: [{ ip: 'bogus', hostnames: ['a'] }] } },
  { name: 'hostAlias hostname invalid', spec: { hostAliases: [{ ip: '1.2.3.4', hostnames: ['Bad_Name'] }] } },
  { name: 'resourceClaim name invalid', spec: { resourceClaims: [{ name: 'Bad_Name', resourceClaimName: 'x' }] } },
  { name: 'resourceClaim without source', spec: { resourceClaims: [{ name: 'r' }] } },
  // tolerations
  { name: 'toleration operator Bogus', spec: { tolerations: [{ key: 'k', operator: 'Bogus' }] } },
  { name: 'toleration Exists with value', spec: { tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] } },
  { name: 'toleration key invalid', spec: { tolerations: [{ key: 'bad key!', operator: 'Exists' }] } },
  { name: 'toleration empty key with Equal', spec: { tolerations: [{ operator: 'Equal', value: 'v' }] } },
  { name: 'toleration effect Bogus', spec: { tolerations: [{ key: 'k', operator: 'Exists', effect: 'Bogus' }] } },
  { name: 'tolerationSeconds without NoExecute', spec: { tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }] } },
  // affinity
  { name: 'node affinity no terms', spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } } } },
  { name: 'node affinity In without values', spec: nodeAffinity({ matchExpressions: [{ key: 'k', operator: 'In' }] }) },
  { name: 'node affinity Exists with values', spec: nodeAffinity({ matchExpressions: [{ key: 'k', operator: 'Exists', values: ['v'] }] }) },
  { name: 'node affinity Gt with two values', spec: nodeAffinity({ matchExpressions: [{ key: 'k', operator: 'Gt', values: ['1', '2'] }] }) },
  { name: 'node affinity Gt non-integer', spec: nodeAffinity({ matchExpressions: [{ key: 'k', operator: 'Lt', values: ['x'] }] }) },
  { name: 'node affinity key invalid', spec: nodeAffinity({ matchExpressions: [{ key: 'bad key!', operator: 'Exists' }] }) },
  { name: 'node affinity matchFields key not metadata.name', spec: nodeAffinity({ matchFields: [{ key: 'spec.x', operator: 'In', values: ['a'] }] }) },
  { name: 'preferred node affinity weight 0', spec: { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: { matchExpressions: [{ key: 'k', operator: 'Exists' }] } }] } } } },
  { name: 'pod affinity selector operator Bogus', spec: { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } }] } } } },
  { name: 'pod affinity topologyKey invalid', spec: antiAffinity({ topologyKey: 'bad key!' }) },
  { name: 'preferred pod affinity weight 101', spec: { affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 101, podAffinityTerm: { topologyKey: 'zone' } }] } } } },
  { name: 'pod affinity namespace invalid', spec: antiAffinity({ topologyKey: 'zone', namespaces: ['Bad_Name'] }) },
  { name: 'pod affinity matchLabelKeys without labelSelector', spec: antiAffinity({ topologyKey: 'zone', matchLabelKeys: ['a'] }) },
  // topology spread
  { name: 'topologySpread maxSkew 0', spec: tsc({ maxSkew: 0 }) },
  { name: 'topologySpread without topologyKey', spec: tsc({ topologyKey: '' }) },
  { name: 'topologySpread whenUnsatisfiable Bogus', spec: tsc({ whenUnsatisfiable: 'Bogus' }) },
  { name: 'topologySpread minDomains 0', spec: tsc({ minDomains: 0 }) },
  { name: 'topologySpread minDomains with ScheduleAnyway', spec: tsc({ minDomains: 2, whenUnsatisfiable: 'ScheduleAnyway' }) },
  { name: 'topologySpread nodeAffinityPolicy Bogus', spec: tsc({ nodeAffinityPolicy: 'Bogus' }) },
  { name: 'topologySpread duplicate', spec: { topologySpreadConstraints: [
    { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }, { maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }] } },
  // more of the rules users meet
  { name: 'hostPort used twice', spec: { containers: [{ name: 'a', image: 'i', ports: [{ containerPort: 80, hostPort: 8080 }] }, { name: 'b', image: 'i', ports: [{ containerPort: 81, hostPort: 8080 }] }] } },
  { name: 'net sysctl with hostNetwork', spec: { hostNetwork: true, securityContext: { sysctls: [{ name: 'net.ipv4.ip_forward', value: '1' }] } } },
  { name: 'projected duplicate paths', spec: vol({ projected: { sources: [{ configMap: { name: 'a', items: [{ key: 'k', path: 'p' }] } }, { secret: { name: 'b', items: [{ key: 'k', path: 'p' }] } }] } }) },
  { name: 'projected source with two kinds', spec: vol({ projected: { sources: [{ configMap: { name: 'a' }, secret: { name: 'b' } }] } }) },
  { name: 'projected serviceAccountToken defaults to an hour', spec: vol({ projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }) },
  { name: 'projected serviceAccountToken short expiry', spec: vol({ projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 60 } }] } }) },
  { name: 'downwardAPI resourceFieldRef without containerName', spec: vol({ downwardAPI: { items: [{ path: 'x', resourceFieldRef: { resource: 'limits.cpu' } }] } }) },
  { name: 'downwardAPI label subscript invalid', spec: vol({ downwardAPI: { items: [{ path: 'x', fieldRef: { fieldPath: "metadata.labels['bad key!']" } }] } }) },
  { name: 'secret volume without secretName', spec: vol({ secret: {} }) },
  { name: 'hostPath without path', spec: vol({ hostPath: { path: '' } }) },
  { name: 'iscsi iqn bad prefix', spec: vol({ iscsi: { targetPortal: '1.2.3.4:3260', iqn: 'bogus', lun: 0 } }) },
  { name: 'csi driver invalid', spec: vol({ csi: { driver: 'Bad_Driver!' } }) },
  { name: 'configMap defaultMode negative', spec: vol({ configMap: { name: 'cm', defaultMode: -1 } }) },
  { name: 'volumeMount without name', container: { volumeMounts: [{ name: '', mountPath: '/m' }] } },
  { name: 'absolute subPathExpr', spec: vol({ emptyDir: {} }, [{ name: 'v', mountPath: '/m', subPathExpr: '/x' }]) },
  { name: 'resource claim not in the pod', container: { resources: { claims: [{ name: 'gpu' }] } } },
  { name: 'extended resource request without limit', container: { resources: { requests: { 'example.com/foo': '1' } } } },
  { name: 'extended resource request unlike limit', container: { resources: { requests: { 'example.com/foo': '1' }, limits: { 'example.com/foo': '2' } } } },
  { name: 'extended resource fraction', container: { resources: { requests: { 'example.com/foo': '500m' }, limits: { 'example.com/foo': '500m' } } } },
  { name: 'resizePolicy unknown resource', container: { resizePolicy: [{ resourceName: 'gpu', restartPolicy: 'NotRequired' }] } },
  { name: 'resizePolicy RestartContainer with restartPolicy Never', spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] }] } },
  { name: 'readinessProbe terminationGracePeriodSeconds', container: { readinessProbe: { exec: { command: ['x'] }, terminationGracePeriodSeconds: 5 } } },
  { name: 'httpGet header name invalid', container: { readinessProbe: { httpGet: { port: 80, httpHeaders: [{ name: 'bad header', value: 'v' }] } } } },
  { name: 'tcpSocket port name invalid', container: { livenessProbe: { tcpSocket: { port: 'Bad_Port' } } } },
  { name: 'startupProbe successThreshold 3', container: { startupProbe: { exec: { command: ['x'] }, successThreshold: 3 } } },
  { name: 'postStart sleep beyond grace period', container: { lifecycle: { postStart: { sleep: { seconds: 100 } } } } },
  { name: 'restartPolicyRules without restartPolicy', container: { restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [1] } }] } },
  { name: 'restartPolicyRules action Bogus', container: { restartPolicy: 'Never', restartPolicyRules: [{ action: 'Bogus', exitCodes: { operator: 'In', values: [1] } }] } },
  { name: 'restartPolicyRules without exitCodes', container: { restartPolicy: 'Never', restartPolicyRules: [{ action: 'Restart' }] } },
  { name: 'env fieldRef subscript on name', container: { env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: "metadata.name['x']" } } }] } },
  { name: 'env fieldRef status.phase not for env', container: { env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'status.phase' } } }] } },
  { name: 'env fileKeyRef volume not emptyDir', container: { env: [{ name: 'A', valueFrom: { fileKeyRef: { volumeName: 'nope', path: 'f', key: 'K' } } }] } },
  { name: 'envFrom prefix with =', container: { envFrom: [{ prefix: 'A=', configMapRef: { name: 'cm' } }] } },
  { name: 'hostUsers false with hostPID', spec: { hostUsers: false, hostPID: true } },
  { name: 'procMount Unmasked with host users', container: { securityContext: { procMount: 'Unmasked' } } },
  { name: 'linux settings on a windows pod', spec: { os: { name: 'windows' }, hostPID: true, shareProcessNamespace: true,
    securityContext: { runAsUser: 1, fsGroup: 2, sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }], seccompProfile: { type: 'RuntimeDefault' } } } },
  { name: 'linux container settings on a windows pod', spec: { os: { name: 'windows' } },
    container: { securityContext: { privileged: false, capabilities: { add: ['NET_ADMIN'] }, readOnlyRootFilesystem: true, runAsUser: 5 } } },
  { name: 'windows options on a linux pod', spec: { os: { name: 'linux' }, securityContext: { windowsOptions: { runAsUserName: 'u' } } } },
  { name: 'seccomp localhostProfile absolute', container: { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: '/etc/p' } } } },
  { name: 'apparmor RuntimeDefault with localhostProfile', container: { securityContext: { appArmorProfile: { type: 'RuntimeDefault', localhostProfile: 'p' } } } },
  { name: 'apparmor localhostProfile padded', container: { securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: ' p' } } } },
  { name: 'nodeName with schedulingGates', spec: { nodeName: 'node-1', schedulingGates: [{ name: 'example.com/g' }] } },
  { name: 'toleration operator Lt', spec: { tolerations: [{ key: 'k', operator: 'Lt', value: '5' }] } },
  { name: 'toleration value invalid', spec: { tolerations: [{ key: 'k', operator: 'Equal', value: 'bad value' }] } },
  { name: 'topologySpread matchLabelKeys without labelSelector', spec: tsc({ matchLabelKeys: ['app'] }) },
  { name: 'topologySpread labelSelector operator Bogus', spec: tsc({ labelSelector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } }) },
  { name: 'hostnameOverride with hostNetwork', spec: { hostNetwork: true, hostnameOverride: 'h' } },
  { name: 'hostnameOverride invalid', spec: { hostnameOverride: 'Bad_Name' } },
  { name: 'dnsConfig None without nameservers', spec: { dnsPolicy: 'None', dnsConfig: { searches: ['a.b'] } } },
  { name: 'activeDeadlineSeconds beyond int32', spec: { activeDeadlineSeconds: 2147483648 } },
  { name: 'node affinity In value invalid', spec: nodeAffinity({ matchExpressions: [{ key: 'k', operator: 'In', values: ['bad value'] }] }) },
  { name: 'node matchFields two values', spec: nodeAffinity({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a', 'b'] }] }) },
  { name: 'pod affinity mismatchLabelKeys also matchLabelKeys', spec: antiAffinity({ topologyKey: 'zone', labelSelector: { matchLabels: { a: 'b' } }, matchLabelKeys: ['x'], mismatchLabelKeys: ['x'] }) },
  { name: 'pod affinity namespaceSelector invalid', spec: antiAffinity({ topologyKey: 'zone', namespaceSelector: { matchLabels: { 'bad key!': 'v' } } }) },
  { name: 'init container duplicate hostPort kept per container', spec: sidecar({ ports: [{ containerPort: 80, hostPort: 9090 }, { containerPort: 81, hostPort: 9090 }] }) },
  { name: 'sidecar with lifecycle without handler', spec: sidecar({ restartPolicy: 'Always', lifecycle: { preStop: {} } }) },
  { name: 'init container image with whitespace', spec: sidecar({ image: 'busybox ' }) },
  { name: 'template: image with whitespace is allowed', template: true, container: { image: ' busybox' } },
  { name: 'template: hostNetwork with hostPort 0', template: true, spec: { hostNetwork: true, containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }] }] } },
  { name: 'template: ephemeral containers', template: true, spec: { ephemeralContainers: [{ name: 'e', image: 'i' }] } },
  { name: 'template: runAsUser -1', template: true, container: { securityContext: { runAsUser: -1 } } },
  // pod-level resources
  { name: 'pod resources unsupported name', spec: { resources: { limits: { 'ephemeral-storage': '1Gi' } } } },
  { name: 'pod resources claims', spec: { resources: { claims: [{ name: 'c' }] } } },
  { name: 'pod resources request above limit', spec: { resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } } },
  { name: 'container limit above the pod limit', spec: { resources: { limits: { memory: '1Gi' }, requests: { memory: '1Gi' } },
    containers: [{ name: 'c', image: 'i', resources: { limits: { memory: '2Gi' }, requests: { memory: '512Mi' } } }] } },
  { name: 'pod resources on a windows pod', spec: { os: { name: 'windows' }, resources: { limits: { cpu: '1' } } } },
  // metadata and pod-specific annotations
  { name: 'template: label invalid', template: true, templateMetadata: { labels: { 'bad key!': 'v' } } },
  { name: 'template: deletion cost invalid', template: true, templateMetadata: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '+1' } } },
  { name: 'deletion cost not an int32', metadata: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '4294967296' } } },
  { name: 'mirror annotation without nodeName', metadata: { annotations: { 'kubernetes.io/config.mirror': 'x' } } },
  { name: 'seccomp pod annotation invalid', metadata: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'bogus' } } },
  { name: 'seccomp annotation unlike the pod field', metadata: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } },
    spec: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } } } },
  { name: 'seccomp container annotation unlike the field', metadata: { annotations: { 'container.seccomp.security.alpha.kubernetes.io/c': 'localhost/a' } },
    container: { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'b' } } } },
  { name: 'AppArmor annotation for an unknown container', metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/nope': 'runtime/default' } } },
  { name: 'AppArmor annotation profile invalid', metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'bogus' } } },
  { name: 'AppArmor annotation runtime/default (copied to the field, warned)', metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'runtime/default' } },
    keep: (p) => (p.spec['containers'] as Record<string, unknown>[]).map((c) => c['securityContext']) },
  { name: 'AppArmor annotation localhost/ without a profile', metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'localhost/' } } },
  { name: 'AppArmor annotation like the pod-level field', metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined' } },
    spec: { securityContext: { appArmorProfile: { type: 'Unconfined' } } } },
  { name: 'AppArmor annotation beside a container field', metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined' } },
    container: { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } } },
  { name: 'AppArmor annotation localhost profile unlike the field', metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'localhost/a' } },
    container: { securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'b' } } } },
  { name: 'pod template: AppArmor annotation beside a container field', template: true,
    templateMetadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined' } },
    container: { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } } },
  { name: 'pod name invalid', metadata: { name: 'Bad_Name' } },
  // PrepareForCreate: the pod's values for matchLabelKeys (In) and mismatchLabelKeys (NotIn) join the selector
  { name: 'pod affinity label keys merged into the selector', metadata: { labels: { app: 'a', tier: 't' } }, keep: (p) => p.spec['affinity'],
    spec: { affinity: {
      podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'zone', labelSelector: { matchLabels: { x: 'y' } }, matchLabelKeys: ['app', 'missing'] } }] },
      podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: { matchExpressions: [{ key: 'k', operator: 'Exists' }] }, matchLabelKeys: ['app'], mismatchLabelKeys: ['tier'] }] },
    } } },
  { name: 'pod affinity label keys without a selector', metadata: { labels: { app: 'a' } }, keep: (p) => p.spec['affinity'],
    spec: { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', matchLabelKeys: ['app'] }] } } } },
  { name: 'topology spread label keys merged into the selector', metadata: { labels: { app: 'a' } }, keep: (p) => p.spec['topologySpreadConstraints'],
    spec: tsc({ labelSelector: { matchLabels: { x: 'y' } }, matchLabelKeys: ['app', 'missing'] }) },
  // PrepareForCreate drops the fields of gates off in v1.36 (GenericWorkload, ContainerStopSignals)
  { name: 'schedulingGroup dropped', spec: { schedulingGroup: { podGroupName: 'g' } }, keep: (p) => p.spec['schedulingGroup'] ?? null },
  { name: 'stopSignal dropped with its lifecycle', container: { lifecycle: { stopSignal: 'SIGTERM' } },
    keep: (p) => (p.spec['containers'] as Record<string, unknown>[]).map((c) => c['lifecycle'] ?? null) },
  ...QUANTITY_CASES,
];

/** The object of a case: a valid Pod (or PodTemplate) with the case's fault merged in. */
export function podOfCase(c: PodCase, name: string): Record<string, unknown> {
  const container = { name: 'c', image: 'busybox', ...c.container };
  const spec = { containers: [container], ...c.spec };
  if (c.template === true) {
    return { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name, ...c.metadata }, template: { ...(c.templateMetadata === undefined ? {} : { metadata: c.templateMetadata }), spec } };
  }
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...c.metadata }, spec };
}

/** Where a case is POSTed (dry run: nothing valid is kept). */
export const caseURL = (c: PodCase, namespace: string): string =>
  `/api/v1/namespaces/${namespace}/${c.template === true ? 'podtemplates' : 'pods'}?dryRun=All`;

/** Sets up what the corpus needs in a namespace: the default service account the admission chain looks up. */
export const CORPUS_SERVICE_ACCOUNT = JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });

/** A workload whose pod template carries one of the corpus's faults: every workload shares pod validation. */
export interface WorkloadCase {
  readonly name: string;
  readonly path: (namespace: string) => string;
  readonly body: (name: string, podSpec: Record<string, unknown>) => Record<string, unknown>;
}

const labels = { app: 'corpus' };
const selector = { matchLabels: labels };
const tmpl = (spec: Record<string, unknown>): Record<string, unknown> => ({ metadata: { labels }, spec });
const apps = (kind: string, spec: Record<string, unknown>) => (name: string): Record<string, unknown> =>
  ({ apiVersion: 'apps/v1', kind, metadata: { name }, spec });

export const WORKLOAD_CASES: readonly WorkloadCase[] = [
  { name: 'Deployment', path: (ns) => `/apis/apps/v1/namespaces/${ns}/deployments?dryRun=All`,
    body: (name, spec) => apps('Deployment', { selector, template: tmpl(spec) })(name) },
  { name: 'ReplicaSet', path: (ns) => `/apis/apps/v1/namespaces/${ns}/replicasets?dryRun=All`,
    body: (name, spec) => apps('ReplicaSet', { selector, template: tmpl(spec) })(name) },
  { name: 'StatefulSet', path: (ns) => `/apis/apps/v1/namespaces/${ns}/statefulsets?dryRun=All`,
    body: (name, spec) => apps('StatefulSet', { selector, serviceName: 's', template: tmpl(spec) })(name) },
  { name: 'DaemonSet', path: (ns) => `/apis/apps/v1/namespaces/${ns}/daemonsets?dryRun=All`,
    body: (name, spec) => apps('DaemonSet', { selector, template: tmpl(spec) })(name) },
  { name: 'Job', path: (ns) => `/apis/batch/v1/namespaces/${ns}/jobs?dryRun=All`,
    body: (name, spec) => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: tmpl({ restartPolicy: 'Never', ...spec }) } }) },
  { name: 'CronJob', path: (ns) => `/apis/batch/v1/namespaces/${ns}/cronjobs?dryRun=All`,
    body: (name, spec) => ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name },
      spec: { schedule: '* * * * *', jobTemplate: { spec: { template: tmpl({ restartPolicy: 'Never', ...spec }) } } } }) },
  { name: 'ReplicationController', path: (ns) => `/api/v1/namespaces/${ns}/replicationcontrollers?dryRun=All`,
    body: (name, spec) => ({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name }, spec: { selector: labels, template: tmpl(spec) } }) },
];

/** The faults each workload's template is sent with (the examples). */
export const WORKLOAD_FAULTS: readonly PodCase[] = POD_CASES.filter((c) =>
  ['container runAsUser -1', 'node affinity operator Bogus', 'anti-affinity term without topologyKey', 'subPath ../etc',
    'dnsPolicy None without dnsConfig'].includes(c.name));

/** The pod spec of a case, for a workload's template. */
export function podSpecOfCase(c: PodCase): Record<string, unknown> {
  return { containers: [{ name: 'c', image: 'busybox', ...c.container }], ...c.spec };
}
