// The internal core types of volumes and claims (k8s.io/kubernetes pkg/apis/core/types.go): the pod's
// volume sources, PersistentVolumeSource (whose flavours name their secrets' namespace), the
// PersistentVolume and PersistentVolumeClaim specs. Same syntax as pod-types.ts.
// Counterpart of pkg/apis/core/types.go (the storage half).

export const STORAGE_TYPES: Readonly<Record<string, string>> = {
  // sources a pod and a PersistentVolume share
  GCEPersistentDisk: 'PDName:string FSType:string Partition:int32 ReadOnly:bool',
  AWSElasticBlockStore: 'VolumeID:string FSType:string Partition:int32 ReadOnly:bool',
  Quobyte: 'Registry:string Volume:string ReadOnly:bool User:string Group:string Tenant:string',
  FC: 'TargetWWNs:[]string Lun:*int32 FSType:string ReadOnly:bool WWIDs=wwids:[]string',
  Flocker: 'DatasetName:string DatasetUUID:string',
  VsphereVolume: 'VolumePath:string FSType:string StoragePolicyName:string StoragePolicyID:string',
  AzureDisk: 'DiskName:string DataDiskURI=diskURI:string CachingMode:*string FSType:*string ReadOnly:*bool Kind:*string',
  PhotonPersistentDisk: 'PdID:string FSType:string',
  PortworxVolume: 'VolumeID:string FSType:string ReadOnly:bool',
  // the pod's flavours
  Glusterfs: 'EndpointsName=endpoints:string Path:string ReadOnly:bool',
  RBD: 'CephMonitors=monitors:[]string RBDImage=image:string FSType:string RBDPool=pool:string RadosUser=user:string Keyring:string ' +
    'SecretRef:*LocalObjectReference ReadOnly:bool',
  ISCSI: 'TargetPortal:string IQN:string Lun:int32 ISCSIInterface:string FSType:string ReadOnly:bool Portals:[]string ' +
    'DiscoveryCHAPAuth=chapAuthDiscovery:bool SessionCHAPAuth=chapAuthSession:bool SecretRef:*LocalObjectReference InitiatorName:*string',
  FlexVolume: 'Driver:string FSType:string SecretRef:*LocalObjectReference ReadOnly:bool Options:map',
  Cinder: 'VolumeID:string FSType:string ReadOnly:bool SecretRef:*LocalObjectReference',
  CephFS: 'Monitors:[]string Path:string User:string SecretFile:string SecretRef:*LocalObjectReference ReadOnly:bool',
  AzureFile: 'SecretName:string ShareName:string ReadOnly:bool',
  ScaleIO: 'Gateway:string System:string SecretRef:*LocalObjectReference SSLEnabled:bool ProtectionDomain:string StoragePool:string ' +
    'StorageMode:string VolumeName:string FSType:string ReadOnly:bool',
  StorageOS: 'VolumeName:string VolumeNamespace:string FSType:string ReadOnly:bool SecretRef:*LocalObjectReference',
  Ephemeral: 'VolumeClaimTemplate:*PersistentVolumeClaimTemplate',
  PersistentVolumeClaimTemplate: '...ObjectMeta Spec:PersistentVolumeClaimSpec',
  // the PersistentVolume's flavours
  PersistentVolumeSource: 'GCEPersistentDisk:*GCEPersistentDisk AWSElasticBlockStore:*AWSElasticBlockStore HostPath:*HostPathVolumeSource ' +
    'Glusterfs:*GlusterfsPV NFS:*NFSVolumeSource RBD:*RBDPV Quobyte:*Quobyte ISCSI:*ISCSIPV FlexVolume:*FlexVolumePV Cinder:*CinderPV ' +
    'CephFS:*CephFSPV FC:*FC Flocker:*Flocker AzureFile:*AzureFilePV VsphereVolume:*VsphereVolume AzureDisk:*AzureDisk ' +
    'PhotonPersistentDisk:*PhotonPersistentDisk PortworxVolume:*PortworxVolume ScaleIO:*ScaleIOPV Local:*Local StorageOS:*StorageOSPV ' +
    'CSI:*CSIPV',
  SecretReference: 'Name:string Namespace:string',
  ObjectReference: 'Kind:string Namespace:string Name:string UID:string APIVersion:string ResourceVersion:string FieldPath:string',
  GlusterfsPV: 'EndpointsName=endpoints:string Path:string ReadOnly:bool EndpointsNamespace:*string',
  RBDPV: 'CephMonitors=monitors:[]string RBDImage=image:string FSType:string RBDPool=pool:string RadosUser=user:string Keyring:string ' +
    'SecretRef:*SecretReference ReadOnly:bool',
  ISCSIPV: 'TargetPortal:string IQN:string Lun:int32 ISCSIInterface:string FSType:string ReadOnly:bool Portals:[]string ' +
    'DiscoveryCHAPAuth=chapAuthDiscovery:bool SessionCHAPAuth=chapAuthSession:bool SecretRef:*SecretReference InitiatorName:*string',
  FlexVolumePV: 'Driver:string FSType:string SecretRef:*SecretReference ReadOnly:bool Options:map',
  CinderPV: 'VolumeID:string FSType:string ReadOnly:bool SecretRef:*SecretReference',
  CephFSPV: 'Monitors:[]string Path:string User:string SecretFile:string SecretRef:*SecretReference ReadOnly:bool',
  AzureFilePV: 'SecretName:string ShareName:string ReadOnly:bool SecretNamespace:*string',
  ScaleIOPV: 'Gateway:string System:string SecretRef:*SecretReference SSLEnabled:bool ProtectionDomain:string StoragePool:string ' +
    'StorageMode:string VolumeName:string FSType:string ReadOnly:bool',
  Local: 'Path:string FSType:*string',
  StorageOSPV: 'VolumeName:string VolumeNamespace:string FSType:string ReadOnly:bool SecretRef:*ObjectReference',
  CSIPV: 'Driver:string VolumeHandle:string ReadOnly:bool FSType:string VolumeAttributes:map ControllerPublishSecretRef:*SecretReference ' +
    'NodeStageSecretRef:*SecretReference NodePublishSecretRef:*SecretReference ControllerExpandSecretRef:*SecretReference ' +
    'NodeExpandSecretRef:*SecretReference',
  PersistentVolumeSpec: 'Capacity:rlist ...PersistentVolumeSource AccessModes:[]string ClaimRef:*ObjectReference ' +
    'PersistentVolumeReclaimPolicy:string StorageClassName:string MountOptions:[]string VolumeMode:*string NodeAffinity:*VolumeNodeAffinity ' +
    'VolumeAttributesClassName:*string',
  VolumeNodeAffinity: 'Required:*NodeSelector',
  PersistentVolumeClaimSpec: 'AccessModes:[]string Selector:*selector Resources:VolumeResourceRequirements VolumeName:string ' +
    'StorageClassName:*string VolumeMode:*string DataSource:*TypedLocalObjectReference DataSourceRef:*TypedObjectReference ' +
    'VolumeAttributesClassName:*string',
  VolumeResourceRequirements: 'Limits:rlist Requests:rlist',
  // the claim itself (NodeRestriction's status diff); its TypeMeta prints nothing (empty, omitempty)
  PersistentVolumeClaim: '...ObjectMeta Spec:PersistentVolumeClaimSpec Status:PersistentVolumeClaimStatus',
  PersistentVolumeClaimStatus: 'Phase:string AccessModes:[]string Capacity:rlist Conditions:[]PersistentVolumeClaimCondition ' +
    'AllocatedResources:rlist AllocatedResourceStatuses:map CurrentVolumeAttributesClassName:*string ModifyVolumeStatus:*ModifyVolumeStatus',
  ModifyVolumeStatus: 'TargetVolumeAttributesClassName:string Status:string',
  TypedLocalObjectReference: 'APIGroup:*string Kind:string Name:string',
  TypedObjectReference: 'APIGroup:*string Kind:string Name:string Namespace:*string',
};
