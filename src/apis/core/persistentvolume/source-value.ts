// A PersistentVolumeSource as the Go value kube marshals (internal core types, Go field names, every
// field present: nil pointers, slices and maps as null, maps with sorted keys) for the unified diff
// kube prints when an update changes a PV's volume source.
// Counterpart of encoding/json printing the internal PersistentVolumeSource of pkg/apis/core.
import { objectDiff } from '../../../apimachinery/goformat/index.ts';
import { obj, type Obj } from '../pod/spec-access.ts';

type Kind = 'str' | 'bool' | 'int' | 'ptr' | 'slice' | 'map' | Shape;
type Shape = readonly (readonly [go: string, json: string, kind: Kind])[];

const secretRef: Shape = [['Name', 'name', 'str'], ['Namespace', 'namespace', 'str']];
const objectRef: Shape = [['Kind', 'kind', 'str'], ['Namespace', 'namespace', 'str'], ['Name', 'name', 'str'], ['UID', 'uid', 'str'],
  ['APIVersion', 'apiVersion', 'str'], ['ResourceVersion', 'resourceVersion', 'str'], ['FieldPath', 'fieldPath', 'str']];

/** The PersistentVolumeSource fields in Go's order, each with its v1 key and struct. */
const SOURCE: Shape = [
  ['GCEPersistentDisk', 'gcePersistentDisk', [['PDName', 'pdName', 'str'], ['FSType', 'fsType', 'str'], ['Partition', 'partition', 'int'], ['ReadOnly', 'readOnly', 'bool']]],
  ['AWSElasticBlockStore', 'awsElasticBlockStore', [['VolumeID', 'volumeID', 'str'], ['FSType', 'fsType', 'str'], ['Partition', 'partition', 'int'], ['ReadOnly', 'readOnly', 'bool']]],
  ['HostPath', 'hostPath', [['Path', 'path', 'str'], ['Type', 'type', 'ptr']]],
  ['Glusterfs', 'glusterfs', [['EndpointsName', 'endpoints', 'str'], ['Path', 'path', 'str'], ['ReadOnly', 'readOnly', 'bool'], ['EndpointsNamespace', 'endpointsNamespace', 'ptr']]],
  ['NFS', 'nfs', [['Server', 'server', 'str'], ['Path', 'path', 'str'], ['ReadOnly', 'readOnly', 'bool']]],
  ['RBD', 'rbd', [['CephMonitors', 'monitors', 'slice'], ['RBDImage', 'image', 'str'], ['FSType', 'fsType', 'str'], ['RBDPool', 'pool', 'str'],
    ['RadosUser', 'user', 'str'], ['Keyring', 'keyring', 'str'], ['SecretRef', 'secretRef', secretRef], ['ReadOnly', 'readOnly', 'bool']]],
  ['Quobyte', 'quobyte', [['Registry', 'registry', 'str'], ['Volume', 'volume', 'str'], ['ReadOnly', 'readOnly', 'bool'], ['User', 'user', 'str'],
    ['Group', 'group', 'str'], ['Tenant', 'tenant', 'str']]],
  ['ISCSI', 'iscsi', [['TargetPortal', 'targetPortal', 'str'], ['IQN', 'iqn', 'str'], ['Lun', 'lun', 'int'], ['ISCSIInterface', 'iscsiInterface', 'str'],
    ['FSType', 'fsType', 'str'], ['ReadOnly', 'readOnly', 'bool'], ['Portals', 'portals', 'slice'], ['DiscoveryCHAPAuth', 'chapAuthDiscovery', 'bool'],
    ['SessionCHAPAuth', 'chapAuthSession', 'bool'], ['SecretRef', 'secretRef', secretRef], ['InitiatorName', 'initiatorName', 'ptr']]],
  ['FlexVolume', 'flexVolume', [['Driver', 'driver', 'str'], ['FSType', 'fsType', 'str'], ['SecretRef', 'secretRef', secretRef], ['ReadOnly', 'readOnly', 'bool'],
    ['Options', 'options', 'map']]],
  ['Cinder', 'cinder', [['VolumeID', 'volumeID', 'str'], ['FSType', 'fsType', 'str'], ['ReadOnly', 'readOnly', 'bool'], ['SecretRef', 'secretRef', secretRef]]],
  ['CephFS', 'cephfs', [['Monitors', 'monitors', 'slice'], ['Path', 'path', 'str'], ['User', 'user', 'str'], ['SecretFile', 'secretFile', 'str'],
    ['SecretRef', 'secretRef', secretRef], ['ReadOnly', 'readOnly', 'bool']]],
  ['FC', 'fc', [['TargetWWNs', 'targetWWNs', 'slice'], ['Lun', 'lun', 'ptr'], ['FSType', 'fsType', 'str'], ['ReadOnly', 'readOnly', 'bool'], ['WWIDs', 'wwids', 'slice']]],
  ['Flocker', 'flocker', [['DatasetName', 'datasetName', 'str'], ['DatasetUUID', 'datasetUUID', 'str']]],
  ['AzureFile', 'azureFile', [['SecretName', 'secretName', 'str'], ['ShareName', 'shareName', 'str'], ['ReadOnly', 'readOnly', 'bool'], ['SecretNamespace', 'secretNamespace', 'ptr']]],
  ['VsphereVolume', 'vsphereVolume', [['VolumePath', 'volumePath', 'str'], ['FSType', 'fsType', 'str'], ['StoragePolicyName', 'storagePolicyName', 'str'],
    ['StoragePolicyID', 'storagePolicyID', 'str']]],
  ['AzureDisk', 'azureDisk', [['DiskName', 'diskName', 'str'], ['DataDiskURI', 'diskURI', 'str'], ['CachingMode', 'cachingMode', 'ptr'], ['FSType', 'fsType', 'ptr'],
    ['ReadOnly', 'readOnly', 'ptr'], ['Kind', 'kind', 'ptr']]],
  ['PhotonPersistentDisk', 'photonPersistentDisk', [['PdID', 'pdID', 'str'], ['FSType', 'fsType', 'str']]],
  ['PortworxVolume', 'portworxVolume', [['VolumeID', 'volumeID', 'str'], ['FSType', 'fsType', 'str'], ['ReadOnly', 'readOnly', 'bool']]],
  ['ScaleIO', 'scaleIO', [['Gateway', 'gateway', 'str'], ['System', 'system', 'str'], ['SecretRef', 'secretRef', secretRef], ['SSLEnabled', 'sslEnabled', 'bool'],
    ['ProtectionDomain', 'protectionDomain', 'str'], ['StoragePool', 'storagePool', 'str'], ['StorageMode', 'storageMode', 'str'], ['VolumeName', 'volumeName', 'str'],
    ['FSType', 'fsType', 'str'], ['ReadOnly', 'readOnly', 'bool']]],
  ['Local', 'local', [['Path', 'path', 'str'], ['FSType', 'fsType', 'ptr']]],
  ['StorageOS', 'storageos', [['VolumeName', 'volumeName', 'str'], ['VolumeNamespace', 'volumeNamespace', 'str'], ['FSType', 'fsType', 'str'],
    ['ReadOnly', 'readOnly', 'bool'], ['SecretRef', 'secretRef', objectRef]]],
  ['CSI', 'csi', [['Driver', 'driver', 'str'], ['VolumeHandle', 'volumeHandle', 'str'], ['ReadOnly', 'readOnly', 'bool'], ['FSType', 'fsType', 'str'],
    ['VolumeAttributes', 'volumeAttributes', 'map'], ['ControllerPublishSecretRef', 'controllerPublishSecretRef', secretRef],
    ['NodeStageSecretRef', 'nodeStageSecretRef', secretRef], ['NodePublishSecretRef', 'nodePublishSecretRef', secretRef],
    ['ControllerExpandSecretRef', 'controllerExpandSecretRef', secretRef], ['NodeExpandSecretRef', 'nodeExpandSecretRef', secretRef]]],
];

const present = (v: unknown): boolean => v !== undefined && v !== null;

function value(v: unknown, kind: Kind): unknown {
  switch (kind) {
    case 'str': return typeof v === 'string' ? v : '';
    case 'bool': return v === true;
    case 'int': return typeof v === 'number' ? v : 0;
    case 'ptr': case 'slice': return present(v) ? v : null;
    case 'map': {
      const m = obj(v);
      return m === undefined ? null : Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]]));
    }
    default: {
      const o = obj(v);
      return o === undefined ? null : build(o, kind);
    }
  }
}

function build(o: Obj, shape: Shape): Record<string, unknown> {
  return Object.fromEntries(shape.map(([go, json, kind]) => [go, value(o[json], kind)]));
}

/**
 * The diff kube prints when the source changed (apiequality.Semantic.DeepEqual is false), or
 * undefined when it did not. A controllerExpandSecretRef may be set once, where there was none.
 */
export function persistentVolumeSourceDiff(oldSpec: Obj, spec: Obj): string | undefined {
  let next = spec;
  const oldCSI = obj(oldSpec['csi']);
  const newCSI = obj(spec['csi']);
  if (oldCSI !== undefined && !present(oldCSI['controllerExpandSecretRef']) && newCSI !== undefined && present(newCSI['controllerExpandSecretRef'])) {
    next = { ...spec, csi: { ...newCSI, controllerExpandSecretRef: null } };
  }
  const before = build(oldSpec, SOURCE);
  const after = build(next, SOURCE);
  const a = JSON.stringify(before);
  const b = JSON.stringify(after);
  return a === b ? undefined : objectDiff(before, after);
}

const strOrEmpty = (v: unknown): string => (typeof v === 'string' ? v : '');

/** core.NodeSelector, as a VolumeNodeAffinity's Required holds it. */
function nodeSelectorValue(v: unknown): unknown {
  const sel = obj(v);
  if (sel === undefined) return null;
  const req = (e: unknown): unknown => {
    const r = obj(e) ?? {};
    return { Key: strOrEmpty(r['key']), Operator: strOrEmpty(r['operator']), Values: present(r['values']) ? r['values'] : null };
  };
  const list = (v2: unknown): unknown => (Array.isArray(v2) ? v2.map(req) : null);
  const terms = sel['nodeSelectorTerms'];
  return { NodeSelectorTerms: Array.isArray(terms) ? terms.map((t) => ({ MatchExpressions: list(obj(t)?.['matchExpressions']), MatchFields: list(obj(t)?.['matchFields']) })) : null };
}

/**
 * The internal core.PersistentVolumeSpec as encoding/json writes it (the source's fields inline, as
 * the embedded struct is): how kube prints a VolumeAttachment's inline spec.
 */
export function persistentVolumeSpecValue(spec: Obj): Record<string, unknown> {
  const na = obj(spec['nodeAffinity']);
  return {
    Capacity: value(spec['capacity'], 'map'),
    ...build(spec, SOURCE),
    AccessModes: value(spec['accessModes'], 'slice'),
    ClaimRef: value(spec['claimRef'], objectRef),
    PersistentVolumeReclaimPolicy: value(spec['persistentVolumeReclaimPolicy'], 'str'),
    StorageClassName: value(spec['storageClassName'], 'str'),
    MountOptions: value(spec['mountOptions'], 'slice'),
    VolumeMode: value(spec['volumeMode'], 'ptr'),
    NodeAffinity: na === undefined ? null : { Required: nodeSelectorValue(na['required']) },
    VolumeAttributesClassName: value(spec['volumeAttributesClassName'], 'ptr'),
  };
}
