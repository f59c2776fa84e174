// The internal core types of a pod spec (k8s.io/kubernetes pkg/apis/core/types.go), field by field
// in declaration order, for go-json.ts to print a v1 object as encoding/json prints the internal
// value. Each field is `GoName:GoType` (`GoName=wire:GoType` when the v1 JSON name does not follow
// from the Go name), `...Type` for an embedded struct. Scalars named by their Go type
// (RestartPolicy, DNSPolicy, ...) are strings unless they are int/bool.
// Counterpart of pkg/apis/core/types.go (the pod half).

export const POD_TYPES: Readonly<Record<string, string>> = {
  PodTemplateSpec: '...ObjectMeta Spec:PodSpec',
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
