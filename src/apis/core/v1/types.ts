// Wire shapes (JSON) of the core/v1 kinds kapi serves, limited to the fields the server
// reads or writes. Unknown fields still round-trip: objects are stored as decoded JSON.
// Counterpart of k8s.io/api/core/v1.
import type { ObjectMeta, KubeList } from '../../../apimachinery/meta/types.ts';

export type Quantity = string | number;
export type ResourceList = Record<string, Quantity>;
export type IntOrString = number | string;

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}
export interface LocalObjectReference { name?: string }

// ---- Namespace ----
export interface NamespaceCondition { type: string; status: string; lastTransitionTime?: string; reason?: string; message?: string }
export interface Namespace {
  apiVersion?: string; kind?: string; metadata: ObjectMeta;
  spec?: { finalizers?: string[] };
  status?: { phase?: 'Active' | 'Terminating'; conditions?: NamespaceCondition[] };
}

// ---- ConfigMap / Secret / ServiceAccount ----
export interface ConfigMap {
  apiVersion?: string; kind?: string; metadata: ObjectMeta;
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
  immutable?: boolean;
}
export interface Secret {
  apiVersion?: string; kind?: string; metadata: ObjectMeta;
  /** Values are base64 strings on the wire and in storage. */
  data?: Record<string, string>;
  /** Write-only convenience: merged into data (base64-encoded) by defaulting. */
  stringData?: Record<string, string>;
  type?: string;
  immutable?: boolean;
}
export interface ServiceAccount {
  apiVersion?: string; kind?: string; metadata: ObjectMeta;
  secrets?: ObjectReference[];
  imagePullSecrets?: LocalObjectReference[];
  automountServiceAccountToken?: boolean;
}

// ---- Event ----
export interface EventSource { component?: string; host?: string }
export interface Event {
  apiVersion?: string; kind?: string; metadata: ObjectMeta;
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  source?: EventSource;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  type?: string;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string };
  action?: string;
  related?: ObjectReference;
  reportingComponent?: string;
  reportingInstance?: string;
}

// ---- Pod ----
export interface ContainerPort { name?: string; hostPort?: number; containerPort: number; protocol?: string; hostIP?: string }
export interface EnvVar { name: string; value?: string; valueFrom?: Record<string, unknown> }
export interface VolumeMount { name: string; mountPath: string; readOnly?: boolean; subPath?: string; subPathExpr?: string; mountPropagation?: string }
export interface ResourceRequirements { limits?: ResourceList; requests?: ResourceList; claims?: { name: string }[] }
export interface HTTPGetAction { path?: string; port: IntOrString; host?: string; scheme?: string; httpHeaders?: { name: string; value: string }[] }
export interface ProbeHandler {
  exec?: { command?: string[] };
  httpGet?: HTTPGetAction;
  tcpSocket?: { port: IntOrString; host?: string };
  grpc?: { port: number; service?: string };
}
export interface Probe extends ProbeHandler {
  initialDelaySeconds?: number; timeoutSeconds?: number; periodSeconds?: number;
  successThreshold?: number; failureThreshold?: number; terminationGracePeriodSeconds?: number;
}
export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  ports?: ContainerPort[];
  env?: EnvVar[];
  envFrom?: Record<string, unknown>[];
  resources?: ResourceRequirements;
  restartPolicy?: string;
  volumeMounts?: VolumeMount[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: Record<string, unknown>;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  imagePullPolicy?: string;
  securityContext?: Record<string, unknown>;
  stdin?: boolean; stdinOnce?: boolean; tty?: boolean;
}
export interface KeyToPath { key: string; path: string; mode?: number }
export interface Volume {
  name: string;
  emptyDir?: { medium?: string; sizeLimit?: Quantity };
  hostPath?: { path: string; type?: string };
  configMap?: { name?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  secret?: { secretName?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  projected?: { sources?: Record<string, unknown>[]; defaultMode?: number };
  downwardAPI?: { items?: Record<string, unknown>[]; defaultMode?: number };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  [source: string]: unknown;
}
export interface Toleration { key?: string; operator?: string; value?: string; effect?: string; tolerationSeconds?: number }
export interface PodSpec {
  volumes?: Volume[];
  initContainers?: Container[];
  containers: Container[];
  ephemeralContainers?: Container[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: string;
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  nodeName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  shareProcessNamespace?: boolean;
  securityContext?: Record<string, unknown>;
  imagePullSecrets?: LocalObjectReference[];
  hostname?: string;
  subdomain?: string;
  affinity?: Record<string, unknown>;
  schedulerName?: string;
  tolerations?: Toleration[];
  hostAliases?: { ip: string; hostnames?: string[] }[];
  priorityClassName?: string;
  priority?: number;
  readinessGates?: { conditionType: string }[];
  runtimeClassName?: string;
  enableServiceLinks?: boolean;
  preemptionPolicy?: string;
  overhead?: ResourceList;
  topologySpreadConstraints?: Record<string, unknown>[];
  schedulingGates?: { name: string }[];
  resources?: ResourceRequirements;
  os?: { name: string };
}
export interface PodCondition { type: string; status: string; lastProbeTime?: string | null; lastTransitionTime?: string | null; reason?: string; message?: string }
export interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: { exitCode: number; signal?: number; reason?: string; message?: string; startedAt?: string; finishedAt?: string };
}
export interface ContainerStatus {
  name: string; state?: ContainerState; lastState?: ContainerState; ready: boolean; restartCount: number;
  image: string; imageID: string; containerID?: string; started?: boolean;
}
export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  ephemeralContainerStatuses?: ContainerStatus[];
  qosClass?: 'Guaranteed' | 'Burstable' | 'BestEffort';
}
export interface Pod { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec: PodSpec; status?: PodStatus }
export interface PodTemplateSpec { metadata?: ObjectMeta; spec: PodSpec }
export interface PodTemplate { apiVersion?: string; kind?: string; metadata: ObjectMeta; template: PodTemplateSpec }

// ---- Service / Endpoints ----
export interface ServicePort {
  name?: string; protocol?: string; appProtocol?: string; port: number; targetPort?: IntOrString; nodePort?: number;
}
export interface ServiceSpec {
  ports?: ServicePort[];
  selector?: Record<string, string>;
  clusterIP?: string;
  clusterIPs?: string[];
  type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName' | string;
  externalIPs?: string[];
  sessionAffinity?: string;
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  externalName?: string;
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  publishNotReadyAddresses?: boolean;
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
  internalTrafficPolicy?: string;
  trafficDistribution?: string;
}
export interface LoadBalancerIngress { ip?: string; hostname?: string; ipMode?: string; ports?: Record<string, unknown>[] }
export interface ServiceStatus { loadBalancer?: { ingress?: LoadBalancerIngress[] }; conditions?: Record<string, unknown>[] }
export interface Service { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec: ServiceSpec; status?: ServiceStatus }

export interface EndpointAddress { ip: string; hostname?: string; nodeName?: string; targetRef?: ObjectReference }
export interface EndpointPort { name?: string; port: number; protocol?: string; appProtocol?: string }
export interface EndpointSubset { addresses?: EndpointAddress[]; notReadyAddresses?: EndpointAddress[]; ports?: EndpointPort[] }
export interface Endpoints { apiVersion?: string; kind?: string; metadata: ObjectMeta; subsets?: EndpointSubset[] }

// ---- Node ----
export interface NodeCondition { type: string; status: string; lastHeartbeatTime?: string; lastTransitionTime?: string; reason?: string; message?: string }
export interface Taint { key: string; value?: string; effect: string; timeAdded?: string }
export interface NodeSpec {
  podCIDR?: string; podCIDRs?: string[]; providerID?: string; unschedulable?: boolean; taints?: Taint[];
  externalID?: string; configSource?: Record<string, unknown>;
}
export interface NodeStatus {
  capacity?: ResourceList; allocatable?: ResourceList; phase?: string; conditions?: NodeCondition[];
  addresses?: { type: string; address: string }[];
  daemonEndpoints?: { kubeletEndpoint?: { Port: number } };
  nodeInfo?: {
    machineID?: string; systemUUID?: string; bootID?: string; kernelVersion?: string; osImage?: string;
    containerRuntimeVersion?: string; kubeletVersion?: string; kubeProxyVersion?: string; operatingSystem?: string; architecture?: string;
    swap?: { capacity?: number };
  };
  config?: Record<string, unknown>; declaredFeatures?: string[];
  images?: { names?: string[]; sizeBytes?: number }[];
}
export interface Node { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec?: NodeSpec; status?: NodeStatus }

// ---- LimitRange / ResourceQuota ----
export interface LimitRangeItem {
  type: string; max?: ResourceList; min?: ResourceList; default?: ResourceList; defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}
export interface LimitRange { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec?: { limits: LimitRangeItem[] } }
export interface ResourceQuota {
  apiVersion?: string; kind?: string; metadata: ObjectMeta;
  spec?: { hard?: ResourceList; scopes?: string[]; scopeSelector?: { matchExpressions?: { scopeName: string; operator: string; values?: string[] }[] } };
  status?: { hard?: ResourceList; used?: ResourceList };
}

// ---- PersistentVolume / PersistentVolumeClaim ----
export interface PersistentVolumeSpec {
  capacity?: ResourceList;
  accessModes?: string[];
  claimRef?: ObjectReference;
  persistentVolumeReclaimPolicy?: string;
  storageClassName?: string;
  mountOptions?: string[];
  volumeMode?: string;
  nodeAffinity?: Record<string, unknown>;
  volumeAttributesClassName?: string;
  hostPath?: { path: string; type?: string };
  local?: { path: string; fsType?: string };
  nfs?: { server: string; path: string; readOnly?: boolean };
  csi?: { driver: string; volumeHandle: string; readOnly?: boolean; fsType?: string };
  [source: string]: unknown;
}
export interface PersistentVolumeStatus { phase?: string; message?: string; reason?: string; lastPhaseTransitionTime?: string }
export interface PersistentVolume { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec?: PersistentVolumeSpec; status?: PersistentVolumeStatus }

export interface PersistentVolumeClaimSpec {
  accessModes?: string[];
  selector?: Record<string, unknown>;
  resources?: { limits?: ResourceList; requests?: ResourceList };
  volumeName?: string;
  storageClassName?: string;
  volumeMode?: string;
  dataSource?: { apiGroup?: string; kind: string; name: string };
  dataSourceRef?: { apiGroup?: string; kind: string; name: string; namespace?: string };
  volumeAttributesClassName?: string;
}
export interface PersistentVolumeClaimStatus {
  phase?: string; accessModes?: string[]; capacity?: ResourceList; conditions?: Record<string, unknown>[];
  currentVolumeAttributesClassName?: string;
  allocatedResources?: ResourceList; allocatedResourceStatuses?: Record<string, string>;
}
export interface PersistentVolumeClaim {
  apiVersion?: string; kind?: string; metadata: ObjectMeta; spec?: PersistentVolumeClaimSpec; status?: PersistentVolumeClaimStatus;
}

export type PodList = KubeList<Pod>;
export type ServiceList = KubeList<Service>;
