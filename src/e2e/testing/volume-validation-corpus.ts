// The PersistentVolume and PersistentVolumeClaim part of the storage corpus (issue 12): one case
// per rule of kube's ValidatePersistentVolume (every volume source, access modes, capacity, node
// affinity, classes, volume mode), ValidatePersistentVolumeUpdate / StatusUpdate and
// ValidatePersistentVolumeClaim / Update / StatusUpdate (pkg/apis/core/validation), read from the rules.
import { patch, post, type ValidationCase } from './validation-differential.ts';
import { claims, create, fixed, PV, update } from './storage-validation-corpus.ts';

type Obj = Record<string, unknown>;

const pv = (spec: Obj = {}) => (n: string): Obj =>
  ({ metadata: { name: n }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, ...spec } });
const host = { hostPath: { path: '/tmp/x' } };
const csi = (extra: Obj = {}): Obj => ({ csi: { driver: 'disk.example.com', volumeHandle: 'h', ...extra } });
const affinity = (...exprs: Obj[]): Obj => ({ required: { nodeSelectorTerms: [{ matchExpressions: exprs }] } });
const hostAffinity = affinity({ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] });
const pvCase = (name: string, spec: Obj): ValidationCase => create(`pv: ${name}`, fixed(PV), pv(spec));

const PV_CREATE: ValidationCase[] = [
  pvCase('valid hostPath', host),
  pvCase('valid csi', { ...csi({ fsType: 'ext4', readOnly: true, volumeAttributes: { a: 'b' }, nodePublishSecretRef: { name: 's', namespace: 'n' } }),
    storageClassName: 'fast', volumeMode: 'Block', mountOptions: ['ro'], persistentVolumeReclaimPolicy: 'Delete',
    claimRef: { namespace: 'default', name: 'c' }, volumeAttributesClassName: 'gold' }),
  pvCase('valid local', { local: { path: '/mnt/disk' }, nodeAffinity: hostAffinity }),
  pvCase('valid nfs', { nfs: { server: 'nfs.example.com', path: '/export' } }),
  pvCase('valid iscsi', { iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0 } }),
  create('pv: name invalid', fixed(PV), (n) => ({ ...pv(host)(n), metadata: { name: 'Bad_PV' } })),
  pvCase('accessModes missing', { ...host, accessModes: [] }),
  pvCase('accessMode Bogus', { ...host, accessModes: ['Bogus'] }),
  pvCase('ReadWriteOncePod with others', { ...host, accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'] }),
  pvCase('capacity missing', { ...host, capacity: {} }),
  pvCase('capacity cpu', { ...host, capacity: { storage: '1Gi', cpu: '1' } }),
  pvCase('capacity zero', { ...host, capacity: { storage: '0' } }),
  pvCase('capacity negative', { ...host, capacity: { storage: '-1Gi' } }),
  pvCase('reclaimPolicy Bogus', { ...host, persistentVolumeReclaimPolicy: 'Bogus' }),
  pvCase('Recycle of hostPath /', { hostPath: { path: '/' }, persistentVolumeReclaimPolicy: 'Recycle' }),
  pvCase('no volume source', {}),
  pvCase('two volume sources', { ...host, nfs: { server: 's', path: '/p' } }),
  pvCase('three volume sources', { ...host, ...csi(), local: { path: '/mnt' } }),
  create('pv: mount-options annotation on hostPath', fixed(PV), (n) => ({ ...pv(host)(n), metadata: { name: n, annotations: { 'volume.beta.kubernetes.io/mount-options': 'ro' } } })),
  create('pv: mount-options annotation on nfs', fixed(PV), (n) => ({ ...pv({ nfs: { server: 's', path: '/p' } })(n), metadata: { name: n, annotations: { 'volume.beta.kubernetes.io/mount-options': 'ro' } } })),
  // warnings (GetWarningsForPersistentVolume)
  pvCase('Recycle warns', { ...host, persistentVolumeReclaimPolicy: 'Recycle' }),
  pvCase('cephfs warns', { cephfs: { monitors: ['m'] } }),
  pvCase('beta zone label in node affinity warns', { ...host, nodeAffinity: affinity({ key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a'] }) }),
  create('pv: beta storage-class annotation warns', fixed(PV), (n) => ({ ...pv(host)(n), metadata: { name: n, annotations: { 'volume.beta.kubernetes.io/storage-class': 'fast' } } })),
  pvCase('storageClassName invalid', { ...host, storageClassName: 'Bad_Class' }),
  pvCase('volumeMode Bogus', { ...host, volumeMode: 'Bogus' }),
  pvCase('volumeAttributesClassName empty', { ...csi(), volumeAttributesClassName: '' }),
  pvCase('volumeAttributesClassName invalid', { ...csi(), volumeAttributesClassName: 'Bad_VAC' }),
  pvCase('volumeAttributesClassName without csi', { ...host, volumeAttributesClassName: 'gold' }),
  pvCase('nodeAffinity empty', { ...host, nodeAffinity: {} }),
  pvCase('nodeAffinity no terms', { ...host, nodeAffinity: { required: { nodeSelectorTerms: [] } } }),
  pvCase('nodeAffinity operator Bogus', { ...host, nodeAffinity: affinity({ key: 'a', operator: 'Bogus' }) }),
  pvCase('nodeAffinity key invalid', { ...host, nodeAffinity: affinity({ key: 'bad key', operator: 'Exists' }) }),
  pvCase('nodeAffinity In without values', { ...host, nodeAffinity: affinity({ key: 'a', operator: 'In' }) }),
  pvCase('nodeAffinity Exists with values', { ...host, nodeAffinity: affinity({ key: 'a', operator: 'Exists', values: ['x'] }) }),
  pvCase('nodeAffinity Gt two values', { ...host, nodeAffinity: affinity({ key: 'a', operator: 'Gt', values: ['1', '2'] }) }),
  pvCase('nodeAffinity value invalid', { ...host, nodeAffinity: affinity({ key: 'a', operator: 'In', values: ['bad value'] }) }),
  pvCase('nodeAffinity matchFields', { ...host, nodeAffinity: { required: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a'] }] }] } } }),
  pvCase('nodeAffinity empty term', { ...host, nodeAffinity: { required: { nodeSelectorTerms: [{}] } } }),
  // volume sources
  pvCase('hostPath path empty', { hostPath: { path: '' } }),
  pvCase('hostPath path with ..', { hostPath: { path: '/a/../b' } }),
  pvCase('hostPath type Bogus', { hostPath: { path: '/a', type: 'Bogus' } }),
  pvCase('local path empty', { local: { path: '' }, nodeAffinity: hostAffinity }),
  pvCase('local path with ..', { local: { path: '/a/../b' }, nodeAffinity: hostAffinity }),
  pvCase('local without nodeAffinity', { local: { path: '/mnt' } }),
  pvCase('nfs server empty', { nfs: { server: '', path: '/p' } }),
  pvCase('nfs path relative', { nfs: { server: 's', path: 'p' } }),
  pvCase('iscsi targetPortal empty', { iscsi: { targetPortal: '', iqn: 'iqn.2001-04.com.example:s' } }),
  pvCase('iscsi iqn empty', { iscsi: { targetPortal: 'p', iqn: '' } }),
  pvCase('iscsi iqn bad prefix', { iscsi: { targetPortal: 'p', iqn: 'xyz.2001' } }),
  pvCase('iscsi iqn bad format', { iscsi: { targetPortal: 'p', iqn: 'iqn.bad' } }),
  pvCase('iscsi eui bad format', { iscsi: { targetPortal: 'p', iqn: 'eui.zz' } }),
  pvCase('iscsi lun 300', { iscsi: { targetPortal: 'p', iqn: 'iqn.2001-04.com.example:s', lun: 300 } }),
  pvCase('iscsi chap without secret', { iscsi: { targetPortal: 'p', iqn: 'iqn.2001-04.com.example:s', chapAuthSession: true } }),
  pvCase('iscsi initiatorName bad', { iscsi: { targetPortal: 'p', iqn: 'iqn.2001-04.com.example:s', initiatorName: 'bad' } }),
  pvCase('iscsi portal too long with initiatorName', { iscsi: { targetPortal: `${'p'.repeat(60)}:3260`, iqn: 'iqn.2001-04.com.example:s', initiatorName: 'iqn.2001-04.com.example:i' } }),
  pvCase('iscsi naa bad format', { iscsi: { targetPortal: 'p', iqn: 'naa.123' } }),
  pvCase('iscsi secretRef name empty', { iscsi: { targetPortal: 'p', iqn: 'iqn.2001-04.com.example:s', chapAuthDiscovery: true, secretRef: { name: '' } } }),
  pvCase('fc nothing', { fc: {} }),
  pvCase('fc targetWWNs without lun', { fc: { targetWWNs: ['500a0981891b8dc5'] } }),
  pvCase('fc targetWWNs and wwids', { fc: { targetWWNs: ['500a0981891b8dc5'], lun: 0, wwids: ['x'] } }),
  pvCase('fc lun 300', { fc: { targetWWNs: ['500a0981891b8dc5'], lun: 300 } }),
  pvCase('rbd monitors empty', { rbd: { monitors: [], image: 'i' } }),
  pvCase('rbd image empty', { rbd: { monitors: ['m'], image: '' } }),
  pvCase('cephfs monitors empty', { cephfs: { monitors: [] } }),
  pvCase('cinder volumeID empty', { cinder: { volumeID: '' } }),
  pvCase('cinder secretRef incomplete', { cinder: { volumeID: 'v', secretRef: { name: '' } } }),
  pvCase('glusterfs fields empty', { glusterfs: { endpoints: '', path: '' } }),
  pvCase('glusterfs endpointsNamespace invalid', { glusterfs: { endpoints: 'e', path: 'p', endpointsNamespace: 'Bad_NS' } }),
  pvCase('glusterfs endpointsNamespace empty', { glusterfs: { endpoints: 'e', path: 'p', endpointsNamespace: '' } }),
  pvCase('flexVolume driver empty', { flexVolume: { driver: '' } }),
  pvCase('flexVolume reserved option', { flexVolume: { driver: 'd', options: { 'kubernetes.io/x': 'y' } } }),
  pvCase('azureFile fields empty', { azureFile: { secretName: '', shareName: '' } }),
  pvCase('azureFile secretNamespace invalid', { azureFile: { secretName: 's', shareName: 'x', secretNamespace: 'Bad_NS' } }),
  pvCase('azureDisk fields empty', { azureDisk: { diskName: '', diskURI: '' } }),
  pvCase('azureDisk cachingMode and kind Bogus', { azureDisk: { diskName: 'd', diskURI: 'u', cachingMode: 'Bogus', kind: 'Bogus' } }),
  pvCase('azureDisk managed with bad uri', { azureDisk: { diskName: 'd', diskURI: 'https://x', kind: 'Managed' } }),
  pvCase('vsphereVolume volumePath empty', { vsphereVolume: { volumePath: '' } }),
  pvCase('photonPersistentDisk pdID empty', { photonPersistentDisk: { pdID: '' } }),
  pvCase('portworxVolume volumeID empty', { portworxVolume: { volumeID: '' } }),
  pvCase('scaleIO fields empty', { scaleIO: { gateway: '', system: '', volumeName: '', secretRef: { name: 's' } } }),
  pvCase('storageos volumeName invalid', { storageos: { volumeName: 'Bad_Vol', volumeNamespace: 'Bad_NS' } }),
  pvCase('quobyte fields empty', { quobyte: { registry: '', volume: '' } }),
  pvCase('quobyte registry without port', { quobyte: { registry: 'host', volume: 'v' } }),
  pvCase('gcePersistentDisk pdName empty', { gcePersistentDisk: { pdName: '' } }),
  pvCase('gcePersistentDisk partition out of range', { gcePersistentDisk: { pdName: 'p', partition: 300 } }),
  pvCase('awsElasticBlockStore volumeID empty', { awsElasticBlockStore: { volumeID: '' } }),
  pvCase('awsElasticBlockStore partition out of range', { awsElasticBlockStore: { volumeID: 'v', partition: -1 } }),
  pvCase('flocker both names', { flocker: { datasetName: 'a', datasetUUID: 'b' } }),
  pvCase('flocker neither name', { flocker: {} }),
  pvCase('flocker datasetName with slash', { flocker: { datasetName: 'a/b' } }),
  pvCase('csi driver empty', csi({ driver: '' })),
  pvCase('csi driver invalid', csi({ driver: 'Bad_Driver!' })),
  pvCase('csi driver too long', csi({ driver: `${'a'.repeat(64)}` })),
  pvCase('csi volumeHandle empty', csi({ volumeHandle: '' })),
  pvCase('csi secret refs incomplete', csi({ controllerPublishSecretRef: { name: '' }, nodeStageSecretRef: { name: 's' },
    nodePublishSecretRef: { namespace: 'n' }, controllerExpandSecretRef: { name: 'Bad_Name', namespace: 'n' }, nodeExpandSecretRef: { name: 's', namespace: 'Bad_NS' } })),
];

const pvUpdate = (name: string, spec: Obj, change: Obj, sub = ''): ValidationCase => update(`pv update: ${name}`, fixed(PV), pv(spec), change, sub);

const PV_UPDATE: ValidationCase[] = [
  pvUpdate('hostPath path', host, { spec: { hostPath: { path: '/tmp/y' } } }),
  pvUpdate('source replaced', host, { spec: { hostPath: null, nfs: { server: 's', path: '/p' } } }),
  pvUpdate('csi controllerExpandSecretRef added allowed', csi(), { spec: { csi: { controllerExpandSecretRef: { name: 's', namespace: 'n' } } } }),
  pvUpdate('csi volumeAttributes', csi(), { spec: { csi: { volumeAttributes: { a: 'b' } } } }),
  pvUpdate('volumeMode', host, { spec: { volumeMode: 'Block' } }),
  pvUpdate('capacity allowed', host, { spec: { capacity: { storage: '2Gi' } } }),
  pvUpdate('reclaimPolicy allowed', host, { spec: { persistentVolumeReclaimPolicy: 'Delete' } }),
  pvUpdate('storageClassName allowed', host, { spec: { storageClassName: 'fast' } }),
  pvUpdate('accessModes allowed', host, { spec: { accessModes: ['ReadWriteMany'] } }),
  pvUpdate('accessMode Bogus', host, { spec: { accessModes: ['Bogus'] } }),
  pvUpdate('nodeAffinity changed', { ...host, nodeAffinity: hostAffinity }, { spec: { nodeAffinity: affinity({ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-2'] }) } }),
  pvUpdate('nodeAffinity beta zone label to GA allowed', { ...host, nodeAffinity: affinity({ key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a'] }) },
    { spec: { nodeAffinity: affinity({ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] }) } }),
  pvUpdate('nodeAffinity added', host, { spec: { nodeAffinity: hostAffinity } }),
  pvUpdate('volumeAttributesClassName unset', { ...csi(), volumeAttributesClassName: 'gold' }, { spec: { volumeAttributesClassName: null } }),
  pvUpdate('volumeAttributesClassName changed allowed', { ...csi(), volumeAttributesClassName: 'gold' }, { spec: { volumeAttributesClassName: 'silver' } }),
  pvUpdate('claimRef set allowed', host, { spec: { claimRef: { namespace: 'default', name: 'c' } } }),
  pvUpdate('status phase Bound', host, { status: { phase: 'Bound' } }, '/status'),
  pvUpdate('status phase Bogus', host, { status: { phase: 'Bogus' } }, '/status'),
  pvUpdate('status with spec change ignored', host, { spec: { volumeMode: 'Block' }, status: { phase: 'Available' } }, '/status'),
];

// --- PersistentVolumeClaim ------------------------------------------------------------------
const pvc = (spec: Obj = {}) => (n: string): Obj =>
  ({ metadata: { name: n }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } });
const pvcCase = (name: string, spec: Obj): ValidationCase => create(`pvc: ${name}`, claims, pvc(spec));
const ds = (extra: Obj = {}): Obj => ({ kind: 'PersistentVolumeClaim', name: 'src', ...extra });
const snap = (extra: Obj = {}): Obj => ({ apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'snap', ...extra });

const PVC_CREATE: ValidationCase[] = [
  pvcCase('valid', {}),
  pvcCase('valid full', { storageClassName: 'fast', volumeMode: 'Block', selector: { matchLabels: { a: 'b' } }, dataSource: snap(),
    dataSourceRef: snap(), volumeAttributesClassName: 'gold', resources: { requests: { storage: '1Gi' }, limits: { storage: '2Gi' } } }),
  { name: 'pvc: name invalid', requests: (_n, ns) => [post(claims(ns), { ...pvc()('x'), metadata: { name: 'Bad_Claim' } })] },
  pvcCase('accessModes missing', { accessModes: [] }),
  pvcCase('accessMode Bogus', { accessModes: ['Bogus'] }),
  pvcCase('ReadWriteOncePod with others', { accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'] }),
  pvcCase('storage request missing', { resources: { requests: {} } }),
  pvcCase('storage request zero', { resources: { requests: { storage: '0' } } }),
  pvcCase('storage request negative', { resources: { requests: { storage: '-1Gi' } } }),
  pvcCase('request cpu', { resources: { requests: { storage: '1Gi', cpu: '1' } } }),
  pvcCase('limit negative', { resources: { requests: { storage: '1Gi' }, limits: { storage: '-1' } } }),
  create('pvc: beta storage-class annotation warns', claims, (n) => ({ ...pvc()(n), metadata: { name: n, annotations: { 'volume.beta.kubernetes.io/storage-class': 'fast' } } })),
  pvcCase('fractional storage request warns', { resources: { requests: { storage: '1500m' } } }),
  pvcCase('fractional storage limit warns', { resources: { requests: { storage: '1Gi' }, limits: { storage: '100m' } } }),
  pvcCase('storageClassName invalid', { storageClassName: 'Bad_Class' }),
  pvcCase('storageClassName empty allowed', { storageClassName: '' }),
  pvcCase('volumeMode Bogus', { volumeMode: 'Bogus' }),
  pvcCase('selector operator Bogus', { selector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } }),
  pvcCase('selector In without values', { selector: { matchExpressions: [{ key: 'a', operator: 'In' }] } }),
  pvcCase('selector label value invalid', { selector: { matchLabels: { a: 'bad value' } } }),
  pvcCase('dataSource kind empty', { dataSource: ds({ kind: '' }) }),
  pvcCase('dataSource name empty', { dataSource: ds({ name: '' }) }),
  pvcCase('dataSource core kind not a claim', { dataSource: ds({ kind: 'Pod' }) }),
  pvcCase('dataSource apiGroup invalid', { dataSource: snap({ apiGroup: 'Bad_Group' }) }),
  pvcCase('dataSourceRef kind empty', { dataSourceRef: snap({ kind: '' }) }),
  pvcCase('dataSourceRef core kind not a claim', { dataSourceRef: ds({ kind: 'Secret' }) }),
  pvcCase('dataSource differs from dataSourceRef', { dataSource: ds(), dataSourceRef: snap() }),
  pvcCase('dataSourceRef namespace', { dataSourceRef: snap({ namespace: 'other' }) }),
  pvcCase('dataSourceRef namespace with dataSource', { dataSource: snap(), dataSourceRef: snap({ namespace: 'other' }) }),
  pvcCase('volumeAttributesClassName invalid', { volumeAttributesClassName: 'Bad_VAC' }),
  pvcCase('volumeAttributesClassName empty', { volumeAttributesClassName: '' }),
];

const pvcUpdate = (name: string, spec: Obj, change: Obj, sub = ''): ValidationCase => update(`pvc update: ${name}`, claims, pvc(spec), change, sub);
/**
 * Bind the claim (status phase Bound) before the change, as the volume binder would. The claim's
 * class allows expansion (created by the corpus's setup), so that the PersistentVolumeClaimResize
 * admission lets a resize through.
 */
const boundUpdate = (name: string, change: Obj): ValidationCase => ({ name: `pvc update: ${name}`, requests: (n, ns) => [
  post(claims(ns), pvc({ storageClassName: EXPANDABLE })(n)),
  patch(`${claims(ns)}/${n}/status`, { status: { phase: 'Bound', capacity: { storage: '1Gi' } } }),
  patch(`${claims(ns)}/${n}`, change)] });

const PVC_UPDATE: ValidationCase[] = [
  pvcUpdate('accessModes', {}, { spec: { accessModes: ['ReadWriteMany'] } }),
  pvcUpdate('storage grown unbound', {}, { spec: { resources: { requests: { storage: '2Gi' } } } }),
  boundUpdate('storage grown bound allowed', { spec: { resources: { requests: { storage: '2Gi' } } } }),
  // PersistentVolumeClaimResize admission: a bound claim whose class does not allow expansion
  { name: 'pvc update: storage grown bound without an expandable class', requests: (n, ns) => [
    post(claims(ns), pvc()(n)),
    patch(`${claims(ns)}/${n}/status`, { status: { phase: 'Bound', capacity: { storage: '1Gi' } } }),
    patch(`${claims(ns)}/${n}`, { spec: { resources: { requests: { storage: '2Gi' } } } })] },
  boundUpdate('storage shrunk below capacity', { spec: { resources: { requests: { storage: '500Mi' } } } }),
  boundUpdate('storage request invalid', { spec: { resources: { requests: { storage: '0' } } } }),
  pvcUpdate('volumeName set once allowed', {}, { spec: { volumeName: 'pv-1' } }),
  pvcUpdate('volumeName changed', { volumeName: 'pv-1' }, { spec: { volumeName: 'pv-2' } }),
  pvcUpdate('storageClassName changed', { storageClassName: 'fast' }, { spec: { storageClassName: 'slow' } }),
  pvcUpdate('storageClassName set from nil allowed', {}, { spec: { storageClassName: 'fast' } }),
  pvcUpdate('volumeMode changed', {}, { spec: { volumeMode: 'Block' } }),
  pvcUpdate('selector changed', {}, { spec: { selector: { matchLabels: { a: 'b' } } } }),
  pvcUpdate('volumeAttributesClassName set allowed', {}, { spec: { volumeAttributesClassName: 'gold' } }),
  pvcUpdate('volumeAttributesClassName unset', { volumeAttributesClassName: 'gold' }, { spec: { volumeAttributesClassName: null } }),
  pvcUpdate('volumeAttributesClassName emptied', { volumeAttributesClassName: 'gold' }, { spec: { volumeAttributesClassName: '' } }),
  pvcUpdate('beta class annotation changed', {}, { metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 'x' } } }),
  pvcUpdate('labels allowed', {}, { metadata: { labels: { a: 'b' } } }),
  pvcUpdate('status valid', {}, { status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' },
    allocatedResources: { storage: '1Gi' }, allocatedResourceStatuses: { storage: 'ControllerResizeInProgress' },
    conditions: [{ type: 'Resizing', status: 'True' }], currentVolumeAttributesClassName: 'gold',
    modifyVolumeStatus: { status: 'InProgress', targetVolumeAttributesClassName: 'gold' } } }, '/status'),
  pvcUpdate('status phase Bogus', {}, { status: { phase: 'Bogus' } }, '/status'),
  pvcUpdate('status capacity negative', {}, { status: { capacity: { storage: '-1Gi' } } }, '/status'),
  pvcUpdate('status allocatedResources negative', {}, { status: { allocatedResources: { storage: '-1Gi' } } }, '/status'),
  pvcUpdate('status allocatedResources cpu', {}, { status: { allocatedResources: { cpu: '1' } } }, '/status'),
  pvcUpdate('status allocatedResources key invalid', {}, { status: { allocatedResources: { 'bad key!': '1' } } }, '/status'),
  pvcUpdate('status allocatedResources extended', {}, { status: { allocatedResources: { 'example.com/foo': '1' } } }, '/status'),
  pvcUpdate('status allocatedResourceStatuses Bogus', {}, { status: { allocatedResourceStatuses: { storage: 'Bogus' } } }, '/status'),
  pvcUpdate('status allocatedResourceStatuses cpu', {}, { status: { allocatedResourceStatuses: { cpu: 'NodeResizePending' } } }, '/status'),
  pvcUpdate('status modifyVolumeStatus Bogus', {}, { status: { modifyVolumeStatus: { status: 'Bogus' } } }, '/status'),
  pvcUpdate('status modifyVolumeStatus without status', {}, { status: { modifyVolumeStatus: { targetVolumeAttributesClassName: 'gold' } } }, '/status'),
  pvcUpdate('status allocatedResourceStatuses key invalid', {}, { status: { allocatedResourceStatuses: { 'bad key!': 'NodeResizePending' } } }, '/status'),
  pvcUpdate('status currentVolumeAttributesClassName set', {}, { status: { currentVolumeAttributesClassName: 'Bad_VAC' } }, '/status'),
  pvcUpdate('status condition type empty', {}, { status: { conditions: [{ type: '', status: 'True' }] } }, '/status'),
  pvcUpdate('status with spec change ignored', {}, { spec: { accessModes: ['ReadWriteMany'] }, status: { phase: 'Lost' } }, '/status'),
];

/** The corpus's setup: the StorageClass the bound-claim cases use. */
export const EXPANDABLE = 'vdiff-expandable';
export const volumeSetup = (): ReturnType<typeof post>[] =>
  [post('/apis/storage.k8s.io/v1/storageclasses', { metadata: { name: EXPANDABLE }, provisioner: 'example.com/disk', allowVolumeExpansion: true })];

export const VOLUME_CASES: readonly ValidationCase[] = [...PV_CREATE, ...PV_UPDATE, ...PVC_CREATE, ...PVC_UPDATE];
