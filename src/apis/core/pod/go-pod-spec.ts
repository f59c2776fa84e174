// The internal core.PodSpec as json.MarshalIndent(spec, "", " ") writes it: kube's pod update
// message ends with a unified diff of that text (util/diff.Diff of the old and the munged spec).
// The internal types carry no JSON tags, so every field is printed under its Go name, in
// declaration order, with its zero value when unset (null for pointers, slices and maps); embedded
// structs (Volume's VolumeSource, Probe's ProbeHandler) are inlined. The diff's hunk headers count
// lines from the top, so every struct that precedes a change must print exactly; types not listed
// here fall back to their wire JSON with the keys capitalised.
// Counterpart of encoding/json printing pkg/apis/core's PodSpec (k8s.io/kubernetes pkg/apis/core/types.go).
import { goEscapeJSON } from '../../../apimachinery/runtime/serializer/json.ts';
import { unifiedDiff } from '../../../apimachinery/goformat/index.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { canonicalQuantity } from '../v1/resource-names.ts';
import type { PodSpec } from '../v1/types.ts';

/**
 * Each internal type: its fields as `GoName:GoType`, `...Type` for an embedded struct. Scalars
 * named here by their Go type (RestartPolicy, DNSPolicy, ...) are strings unless they are int/bool.
 */
const TYPES: Readonly<Record<string, string>> = {
  PodSpec: 'Volumes:[]Volume InitContainers:[]Container Containers:[]Container EphemeralContainers:[]EphemeralContainer ' +
    'RestartPolicy:string TerminationGracePeriodSeconds:*int64 ActiveDeadlineSeconds:*int64 DNSPolicy:string ' +
    'NodeSelector:map ServiceAccountName:string AutomountServiceAccountToken:*bool NodeName:string ' +
    'SecurityContext:*PodSecurityContext ImagePullSecrets:[]LocalObjectReference Hostname:string Subdomain:string ' +
    'SetHostnameAsFQDN:*bool Affinity:*Affinity SchedulerName:string Tolerations:[]Toleration HostAliases:[]HostAlias ' +
    'PriorityClassName:string Priority:*int32 PreemptionPolicy:*string DNSConfig:*PodDNSConfig ReadinessGates:[]PodReadinessGate ' +
    'RuntimeClassName:*string Overhead:rlist EnableServiceLinks:*bool TopologySpreadConstraints:[]TopologySpreadConstraint ' +
    'OS:*PodOS SchedulingGates:[]PodSchedulingGate ResourceClaims:[]PodResourceClaim Resources:*ResourceRequirements ' +
    'HostnameOverride:*string SchedulingGroup:*PodSchedulingGroup',
  Container: 'Name:string Image:string Command:[]string Args:[]string WorkingDir:string Ports:[]ContainerPort ' +
    'EnvFrom:[]EnvFromSource Env:[]EnvVar Resources:ResourceRequirements ResizePolicy:[]ContainerResizePolicy ' +
    'RestartPolicy:*string RestartPolicyRules:[]ContainerRestartRule VolumeMounts:[]VolumeMount VolumeDevices:[]VolumeDevice ' +
    'LivenessProbe:*Probe ReadinessProbe:*Probe StartupProbe:*Probe Lifecycle:*Lifecycle TerminationMessagePath:string ' +
    'TerminationMessagePolicy:string ImagePullPolicy:string SecurityContext:*SecurityContext Stdin:bool StdinOnce:bool TTY:bool',
  ContainerPort: 'Name:string HostPort:int32 ContainerPort:int32 Protocol:string HostIP:string',
  EnvFromSource: 'Prefix:string ConfigMapRef:*ConfigMapEnvSource SecretRef:*SecretEnvSource',
  ConfigMapEnvSource: '...LocalObjectReference Optional:*bool',
  SecretEnvSource: '...LocalObjectReference Optional:*bool',
  EnvVar: 'Name:string Value:string ValueFrom:*EnvVarSource',
  EnvVarSource: 'FieldRef:*ObjectFieldSelector ResourceFieldRef:*ResourceFieldSelector ConfigMapKeyRef:*ConfigMapKeySelector ' +
    'SecretKeyRef:*SecretKeySelector FileKeyRef:*FileKeySelector',
  ConfigMapKeySelector: '...LocalObjectReference Key:string Optional:*bool',
  SecretKeySelector: '...LocalObjectReference Key:string Optional:*bool',
  ResourceRequirements: 'Limits:rlist Requests:rlist Claims:[]ResourceClaim',
  ResourceClaim: 'Name:string Request:string',
  ContainerResizePolicy: 'ResourceName:string RestartPolicy:string',
  VolumeMount: 'Name:string ReadOnly:bool RecursiveReadOnly:*string MountPath:string SubPath:string MountPropagation:*string SubPathExpr:string',
  VolumeDevice: 'Name:string DevicePath:string',
  Probe: '...ProbeHandler InitialDelaySeconds:int32 TimeoutSeconds:int32 PeriodSeconds:int32 SuccessThreshold:int32 ' +
    'FailureThreshold:int32 TerminationGracePeriodSeconds:*int64',
  ProbeHandler: 'Exec:*ExecAction HTTPGet:*HTTPGetAction TCPSocket:*TCPSocketAction GRPC:*GRPCAction',
  ExecAction: 'Command:[]string',
  HTTPGetAction: 'Path:string Port:intstr Host:string Scheme:string HTTPHeaders:[]HTTPHeader',
  HTTPHeader: 'Name:string Value:string',
  TCPSocketAction: 'Port:intstr Host:string',
  GRPCAction: 'Port:int32 Service:*string',
  Lifecycle: 'PostStart:*LifecycleHandler PreStop:*LifecycleHandler StopSignal:*string',
  LifecycleHandler: 'Exec:*ExecAction HTTPGet:*HTTPGetAction TCPSocket:*TCPSocketAction Sleep:*SleepAction',
  SleepAction: 'Seconds:int64',
  SecurityContext: 'Capabilities:*Capabilities Privileged:*bool SELinuxOptions:*SELinuxOptions WindowsOptions:*WindowsSecurityContextOptions ' +
    'RunAsUser:*int64 RunAsGroup:*int64 RunAsNonRoot:*bool ReadOnlyRootFilesystem:*bool AllowPrivilegeEscalation:*bool ' +
    'ProcMount:*string SeccompProfile:*SeccompProfile AppArmorProfile:*AppArmorProfile',
  Capabilities: 'Add:[]string Drop:[]string',
  SELinuxOptions: 'User:string Role:string Type:string Level:string',
  WindowsSecurityContextOptions: 'GMSACredentialSpecName:*string GMSACredentialSpec:*string RunAsUserName:*string HostProcess:*bool',
  SeccompProfile: 'Type:string LocalhostProfile:*string',
  AppArmorProfile: 'Type:string LocalhostProfile:*string',
  PodSecurityContext: 'HostNetwork:bool HostPID:bool HostIPC:bool ShareProcessNamespace:*bool HostUsers:*bool ' +
    'SELinuxOptions:*SELinuxOptions WindowsOptions:*WindowsSecurityContextOptions RunAsUser:*int64 RunAsGroup:*int64 ' +
    'RunAsNonRoot:*bool SupplementalGroups:[]int64 SupplementalGroupsPolicy:*string FSGroup:*int64 FSGroupChangePolicy:*string ' +
    'Sysctls:[]Sysctl SeccompProfile:*SeccompProfile AppArmorProfile:*AppArmorProfile SELinuxChangePolicy:*string',
  Sysctl: 'Name:string Value:string',
  LocalObjectReference: 'Name:string',
  Toleration: 'Key:string Operator:string Value:string Effect:string TolerationSeconds:*int64',
  Volume: 'Name:string ...VolumeSource',
  VolumeSource: 'HostPath:*HostPathVolumeSource EmptyDir:*EmptyDirVolumeSource GCEPersistentDisk:*GCEPersistentDisk ' +
    'AWSElasticBlockStore:*AWSElasticBlockStore GitRepo:*GitRepoVolumeSource Secret:*SecretVolumeSource NFS:*NFSVolumeSource ISCSI:*ISCSI ' +
    'Glusterfs:*Glusterfs PersistentVolumeClaim:*PersistentVolumeClaimVolumeSource RBD:*RBD Quobyte:*Quobyte ' +
    'FlexVolume:*FlexVolume Cinder:*Cinder CephFS:*CephFS Flocker:*Flocker DownwardAPI:*DownwardAPIVolumeSource FC:*FC ' +
    'AzureFile:*AzureFile ConfigMap:*ConfigMapVolumeSource VsphereVolume:*VsphereVolume AzureDisk:*AzureDisk ' +
    'PhotonPersistentDisk:*PhotonPersistentDisk Projected:*ProjectedVolumeSource PortworxVolume:*PortworxVolume ' +
    'ScaleIO:*ScaleIO StorageOS:*StorageOS CSI:*CSIVolumeSource Ephemeral:*Ephemeral Image:*ImageVolumeSource',
  ProjectedVolumeSource: 'Sources:[]VolumeProjection DefaultMode:*int32',
  VolumeProjection: 'Secret:*SecretProjection DownwardAPI:*DownwardAPIProjection ConfigMap:*ConfigMapProjection ' +
    'ServiceAccountToken:*ServiceAccountTokenProjection ClusterTrustBundle:*ClusterTrustBundleProjection PodCertificate:*PodCertificateProjection',
  ServiceAccountTokenProjection: 'Audience:string ExpirationSeconds:int64 Path:string',
  ConfigMapProjection: '...LocalObjectReference Items:[]KeyToPath Optional:*bool',
  SecretProjection: '...LocalObjectReference Items:[]KeyToPath Optional:*bool',
  DownwardAPIProjection: 'Items:[]DownwardAPIVolumeFile',
  DownwardAPIVolumeSource: 'Items:[]DownwardAPIVolumeFile DefaultMode:*int32',
  DownwardAPIVolumeFile: 'Path:string FieldRef:*ObjectFieldSelector ResourceFieldRef:*ResourceFieldSelector Mode:*int32',
  ObjectFieldSelector: 'APIVersion:string FieldPath:string',
  ResourceFieldSelector: 'ContainerName:string Resource:string Divisor:quantity',
  KeyToPath: 'Key:string Path:string Mode:*int32',
  EmptyDirVolumeSource: 'Medium:string SizeLimit:*quantity',
  ConfigMapVolumeSource: '...LocalObjectReference Items:[]KeyToPath DefaultMode:*int32 Optional:*bool',
  SecretVolumeSource: 'SecretName:string Items:[]KeyToPath DefaultMode:*int32 Optional:*bool',
  HostPathVolumeSource: 'Path:string Type:*string',
  PersistentVolumeClaimVolumeSource: 'ClaimName:string ReadOnly:bool',
  ImageVolumeSource: 'Reference:string PullPolicy:string',
  NFSVolumeSource: 'Server:string Path:string ReadOnly:bool',
  CSIVolumeSource: 'Driver:string ReadOnly:*bool FSType:*string VolumeAttributes:map NodePublishSecretRef:*LocalObjectReference',
  GitRepoVolumeSource: 'Repository:string Revision:string Directory:string',
  ClusterTrustBundleProjection: 'Name:*string SignerName:*string LabelSelector:*selector Optional:*bool Path:string',
  PodCertificateProjection: 'SignerName:string KeyType:string MaxExpirationSeconds:*int32 CredentialBundlePath:string KeyPath:string ' +
    'CertificateChainPath:string UserAnnotations:map',
  PodOS: 'Name:string',
  PodSchedulingGate: 'Name:string',
  PodReadinessGate: 'ConditionType:string',
  HostAlias: 'IP:string Hostnames:[]string',
  PodDNSConfig: 'Nameservers:[]string Searches:[]string Options:[]PodDNSConfigOption',
  PodDNSConfigOption: 'Name:string Value:*string',
  PodResourceClaim: 'Name:string ResourceClaimName:*string ResourceClaimTemplateName:*string',
  Affinity: 'NodeAffinity:*NodeAffinity PodAffinity:*PodAffinity PodAntiAffinity:*PodAffinity',
  NodeAffinity: 'RequiredDuringSchedulingIgnoredDuringExecution:*NodeSelector PreferredDuringSchedulingIgnoredDuringExecution:[]PreferredSchedulingTerm',
  NodeSelector: 'NodeSelectorTerms:[]NodeSelectorTerm',
  NodeSelectorTerm: 'MatchExpressions:[]NodeSelectorRequirement MatchFields:[]NodeSelectorRequirement',
  NodeSelectorRequirement: 'Key:string Operator:string Values:[]string',
  PreferredSchedulingTerm: 'Weight:int32 Preference:NodeSelectorTerm',
  // PodAntiAffinity has the same fields
  PodAffinity: 'RequiredDuringSchedulingIgnoredDuringExecution:[]PodAffinityTerm PreferredDuringSchedulingIgnoredDuringExecution:[]WeightedPodAffinityTerm',
  PodAffinityTerm: 'LabelSelector:*selector Namespaces:[]string TopologyKey:string NamespaceSelector:*selector MatchLabelKeys:[]string ' +
    'MismatchLabelKeys:[]string',
  WeightedPodAffinityTerm: 'Weight:int32 PodAffinityTerm:PodAffinityTerm',
  TopologySpreadConstraint: 'MaxSkew:int32 TopologyKey:string WhenUnsatisfiable:string LabelSelector:*selector MinDomains:*int32 ' +
    'NodeAffinityPolicy:*string NodeTaintsPolicy:*string MatchLabelKeys:[]string',
  ContainerRestartRule: 'Action:string ExitCodes:*ContainerRestartRuleOnExitCodes',
  ContainerRestartRuleOnExitCodes: 'Operator:string Values:[]int32',
  PodSchedulingGroup: 'PodGroupName:*string',
  FileKeySelector: 'VolumeName:string Path:string Key:string Optional:*bool',
  // EphemeralContainerCommon has the fields of a Container
  EphemeralContainer: '...Container TargetContainerName:string',
};

/** The v1 JSON names that do not follow from the Go name. */
const WIRE_NAMES: Readonly<Record<string, string>> = { CephFS: 'cephfs', StorageOS: 'storageos' };

/** A Go field name's JSON tag: the leading capitals lower-cased (but the first letter of the next word). */
function wireName(go: string): string {
  const known = WIRE_NAMES[go];
  if (known !== undefined) return known;
  const caps = /^[A-Z]+/.exec(go)?.[0] ?? '';
  const lower = caps.length > 1 && caps.length < go.length ? caps.length - 1 : caps.length;
  return go.slice(0, lower).toLowerCase() + go.slice(lower);
}

interface Field { readonly go: string; readonly type: string; readonly embedded: boolean }
const FIELDS = new Map<string, readonly Field[]>(Object.entries(TYPES).map(([name, spec]) => [name, spec.split(' ').map((f): Field => {
  if (f.startsWith('...')) return { go: f.slice(3), type: f.slice(3), embedded: true };
  const [go = '', type = ''] = f.split(':');
  return { go, type, embedded: false };
})]));

/** A JSON value with its object keys in order (Go's order, not JavaScript's). */
type Node = null | boolean | number | string | readonly Node[] | { readonly fields: readonly (readonly [string, Node])[] };

type Json = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const capitalised = (k: string): string => k.charAt(0).toUpperCase() + k.slice(1);

/** A type not listed: its wire JSON with capitalised keys (maps would keep theirs; close enough). */
function fallback(v: unknown): Node {
  if (Array.isArray(v)) return v.map(fallback);
  if (isObj(v)) return { fields: Object.entries(v).map(([k, x]) => [capitalised(k), fallback(x)] as const) };
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

function value(v: unknown, type: string): Node {
  if (type.startsWith('[]')) return Array.isArray(v) ? v.map((x) => value(x, type.slice(2))) : null;
  if (type.startsWith('*')) return v === undefined || v === null ? null : value(v, type.slice(1));
  switch (type) {
    case 'string': return typeof v === 'string' ? v : '';
    case 'bool': return v === true;
    case 'int32': case 'int64': return typeof v === 'number' ? v : 0;
    case 'intstr': return typeof v === 'string' || typeof v === 'number' ? v : 0;
    // a Quantity marshals to its canonical text
    case 'quantity': return typeof v === 'string' || typeof v === 'number' ? canonicalQuantity(v) : '0';
    // Go sorts map keys
    case 'map': return isObj(v) ? { fields: Object.keys(v).sort().map((k) => [k, String(v[k])] as const) } : null;
    case 'rlist': return isObj(v) ? { fields: Object.keys(v).sort().map((k) => [k, value(v[k], 'quantity')] as const) } : null;
    // metav1.LabelSelector has JSON tags: its wire form, empty fields left out
    case 'selector': return labelSelector(isObj(v) ? v : {});
    default: break;
  }
  const fields = FIELDS.get(type);
  if (fields === undefined) return fallback(v);
  return { fields: structEntries(isObj(v) ? v : {}, fields) };
}

function labelSelector(o: Json): Node {
  const entries: (readonly [string, Node])[] = [];
  const labels = o['matchLabels'];
  if (isObj(labels) && Object.keys(labels).length > 0) entries.push(['matchLabels', value(labels, 'map')]);
  const exprs = o['matchExpressions'];
  if (Array.isArray(exprs) && exprs.length > 0) {
    entries.push(['matchExpressions', exprs.map((e): Node => {
      const r = isObj(e) ? e : {};
      const values = r['values'];
      return { fields: [['key', value(r['key'], 'string')], ['operator', value(r['operator'], 'string')],
        ...(Array.isArray(values) && values.length > 0 ? [['values', value(values, '[]string')] as const] : [])] };
    })]);
  }
  return { fields: entries };
}

function structEntries(o: Json, fields: readonly Field[]): (readonly [string, Node])[] {
  return fields.flatMap((f) => {
    if (f.embedded) return structEntries(o, FIELDS.get(f.type) ?? []);
    return [[f.go, value(o[wireName(f.go)], f.type)] as const];
  });
}

/** json.MarshalIndent with no prefix and a one-space indent. */
function indented(n: Node, depth: number): string {
  const pad = ' '.repeat(depth + 1);
  const end = ' '.repeat(depth);
  if (Array.isArray(n)) return n.length === 0 ? '[]' : `[\n${n.map((x: Node) => pad + indented(x, depth + 1)).join(',\n')}\n${end}]`;
  if (n !== null && typeof n === 'object' && 'fields' in n) {
    if (n.fields.length === 0) return '{}';
    return `{\n${n.fields.map(([k, x]) => `${pad}${goEscapeJSON(JSON.stringify(k))}: ${indented(x, depth + 1)}`).join(',\n')}\n${end}}`;
  }
  return goEscapeJSON(JSON.stringify(n));
}

/** The internal PodSpec of a v1 spec, as kube's diff prints it. */
export function goPodSpecText(spec: DeepReadonly<PodSpec>): string {
  const s: Json = isObj(spec) ? spec : {};
  // v1 keeps the host namespace switches in the PodSpec; the internal type in its security
  // context, which the conversion therefore always allocates
  const sc: Record<string, unknown> = { ...(isObj(s['securityContext']) ? s['securityContext'] : {}) };
  for (const k of ['hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace', 'hostUsers']) if (s[k] !== undefined) sc[k] = s[k];
  return indented(value({ ...s, securityContext: sc }, 'PodSpec'), 0);
}

/** util/diff.Diff(old, new) of two pod specs. */
export function podSpecDiff(prev: DeepReadonly<PodSpec>, next: DeepReadonly<PodSpec>): string {
  return unifiedDiff(goPodSpecText(prev), goPodSpecText(next));
}

/** util/diff.Diff(old, new) of two ephemeral containers (the internal EphemeralContainer). */
export function ephemeralContainerDiff(prev: unknown, next: unknown): string {
  return unifiedDiff(indented(value(prev, 'EphemeralContainer'), 0), indented(value(next, 'EphemeralContainer'), 0));
}
