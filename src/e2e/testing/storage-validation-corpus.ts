// The storage corpus of issue 12: one case per rule of kube's validation of storage.k8s.io/v1
// (pkg/apis/storage/validation: StorageClass, CSIDriver, CSINode, VolumeAttachment,
// CSIStorageCapacity, VolumeAttributesClass), of core/v1 PersistentVolume and
// PersistentVolumeClaim (pkg/apis/core/validation: ValidatePersistentVolume*, ValidatePersistentVolumeClaim*),
// of scheduling.k8s.io PriorityClass and node.k8s.io RuntimeClass: creates, updates (immutability)
// and status updates, plus valid objects that must be accepted. Read from kube's rules; kube's
// answers are recorded in fixtures/storage-validation-kube.json.
import { patch, post, type ValidationCase } from './validation-differential.ts';

type Obj = Record<string, unknown>;
const STORAGE = '/apis/storage.k8s.io/v1';
const SC = `${STORAGE}/storageclasses`;
const CSIDRIVERS = `${STORAGE}/csidrivers`;
const CSINODES = `${STORAGE}/csinodes`;
const VA = `${STORAGE}/volumeattachments`;
const VAC = `${STORAGE}/volumeattributesclasses`;
const PV = '/api/v1/persistentvolumes';
const PC = '/apis/scheduling.k8s.io/v1/priorityclasses';
const RC = '/apis/node.k8s.io/v1/runtimeclasses';
const capacities = (ns: string): string => `${STORAGE}/namespaces/${ns}/csistoragecapacities`;
const claims = (ns: string): string => `/api/v1/namespaces/${ns}/persistentvolumeclaims`;

/** A create case: the body from the case's name (and namespace). */
const create = (name: string, path: (ns: string) => string, body: (n: string, ns: string) => Obj): ValidationCase =>
  ({ name, requests: (n, ns) => [post(path(ns), body(n, ns))] });
/** An update case: create the valid object, then merge-patch it (on a subresource when given). */
const update = (name: string, path: (ns: string) => string, body: (n: string, ns: string) => Obj, change: Obj, sub = ''): ValidationCase =>
  ({ name, requests: (n, ns) => [post(path(ns), body(n, ns)), patch(`${path(ns)}/${n}${sub}`, change)] });
const fixed = (p: string) => (): string => p;

// --- StorageClass ---------------------------------------------------------------------------
const sc = (extra: Obj = {}) => (n: string): Obj => ({ metadata: { name: n }, provisioner: 'example.com/disk', ...extra });
const term = (...exprs: Obj[]): Obj => ({ matchLabelExpressions: exprs });
const zone = (values: unknown[] = ['a']): Obj => ({ key: 'topology.kubernetes.io/zone', values });
const manyParams = (n: number): Record<string, string> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

const STORAGE_CLASS: ValidationCase[] = [
  create('sc: valid minimal', fixed(SC), sc()),
  create('sc: valid full', fixed(SC), sc({ parameters: { type: 'ssd' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer',
    allowVolumeExpansion: true, mountOptions: ['ro', 'soft'], allowedTopologies: [term(zone(['a', 'b']))] })),
  create('sc: valid uppercase provisioner', fixed(SC), sc({ provisioner: 'Example.COM/Disk' })),
  create('sc: name invalid', fixed(SC), (n) => ({ ...sc()(n), metadata: { name: `${n}_Bad` } })),
  create('sc: provisioner missing', fixed(SC), (n) => ({ metadata: { name: n } })),
  create('sc: provisioner invalid', fixed(SC), sc({ provisioner: 'bad provisioner!' })),
  create('sc: provisioner prefix invalid', fixed(SC), sc({ provisioner: 'bad_prefix/disk' })),
  create('sc: provisioner name too long', fixed(SC), sc({ provisioner: `example.com/${'a'.repeat(64)}` })),
  create('sc: parameter key empty', fixed(SC), sc({ parameters: { '': 'v' } })),
  create('sc: 513 parameters', fixed(SC), sc({ parameters: manyParams(513) })),
  create('sc: parameters over 256kB', fixed(SC), sc({ parameters: { big: 'x'.repeat(256 * 1024) } })),
  create('sc: reclaimPolicy Recycle', fixed(SC), sc({ reclaimPolicy: 'Recycle' })),
  create('sc: reclaimPolicy Bogus', fixed(SC), sc({ reclaimPolicy: 'Bogus' })),
  create('sc: volumeBindingMode Bogus', fixed(SC), sc({ volumeBindingMode: 'Bogus' })),
  create('sc: topology values empty', fixed(SC), sc({ allowedTopologies: [term(zone([]))] })),
  create('sc: topology value repeated', fixed(SC), sc({ allowedTopologies: [term(zone(['a', 'b', 'a']))] })),
  create('sc: topology key invalid', fixed(SC), sc({ allowedTopologies: [term({ key: 'bad key', values: ['a'] })] })),
  create('sc: topology key repeated in a term', fixed(SC), sc({ allowedTopologies: [term(zone(), zone(['b']))] })),
  create('sc: topology term repeated', fixed(SC), sc({ allowedTopologies: [term(zone()), term(zone())] })),
  create('sc: topology term without expressions', fixed(SC), sc({ allowedTopologies: [term()] })),
  create('sc: mountOptions empty string', fixed(SC), sc({ mountOptions: [''] })),
  update('sc update: provisioner', fixed(SC), sc(), { provisioner: 'example.com/other' }),
  update('sc update: parameters', fixed(SC), sc({ parameters: { a: 'b' } }), { parameters: { a: 'c' } }),
  update('sc update: parameters added', fixed(SC), sc(), { parameters: { a: 'c' } }),
  update('sc update: reclaimPolicy', fixed(SC), sc(), { reclaimPolicy: 'Retain' }),
  update('sc update: volumeBindingMode', fixed(SC), sc(), { volumeBindingMode: 'WaitForFirstConsumer' }),
  update('sc update: allowVolumeExpansion allowed', fixed(SC), sc(), { allowVolumeExpansion: true }),
  update('sc update: mountOptions allowed', fixed(SC), sc(), { mountOptions: ['ro'] }),
  update('sc update: allowedTopologies', fixed(SC), sc(), { allowedTopologies: [term(zone())] }),
  update('sc update: labels allowed', fixed(SC), sc(), { metadata: { labels: { a: 'b' } } }),
];

// --- CSIDriver ------------------------------------------------------------------------------
const driver = (spec: Obj = {}) => (n: string): Obj => ({ metadata: { name: `${n}.example.com` }, spec });
const driverUpdate = (name: string, spec: Obj, change: Obj): ValidationCase =>
  ({ name, requests: (n) => [post(CSIDRIVERS, driver(spec)(n)), patch(`${CSIDRIVERS}/${n}.example.com`, { spec: change })] });

const CSI_DRIVER: ValidationCase[] = [
  create('csidriver: valid empty spec', fixed(CSIDRIVERS), driver()),
  create('csidriver: valid full', fixed(CSIDRIVERS), driver({ attachRequired: false, podInfoOnMount: true, storageCapacity: true, fsGroupPolicy: 'File',
    volumeLifecycleModes: ['Persistent', 'Ephemeral'], tokenRequests: [{ audience: 'a', expirationSeconds: 3600 }], requiresRepublish: true,
    seLinuxMount: true, nodeAllocatableUpdatePeriodSeconds: 60, serviceAccountTokenInSecrets: true })),
  create('csidriver: name invalid', fixed(CSIDRIVERS), () => ({ metadata: { name: 'Bad_Driver' }, spec: {} })),
  create('csidriver: fsGroupPolicy Bogus', fixed(CSIDRIVERS), driver({ fsGroupPolicy: 'Bogus' })),
  create('csidriver: tokenRequests duplicate audience', fixed(CSIDRIVERS), driver({ tokenRequests: [{ audience: 'a' }, { audience: 'a' }] })),
  create('csidriver: tokenRequests expiration short', fixed(CSIDRIVERS), driver({ tokenRequests: [{ audience: 'a', expirationSeconds: 10 }] })),
  create('csidriver: tokenRequests expiration long', fixed(CSIDRIVERS), driver({ tokenRequests: [{ audience: 'a', expirationSeconds: 2 ** 33 }] })),
  create('csidriver: volumeLifecycleModes Bogus', fixed(CSIDRIVERS), driver({ volumeLifecycleModes: ['Bogus'] })),
  create('csidriver: nodeAllocatableUpdatePeriodSeconds 5', fixed(CSIDRIVERS), driver({ nodeAllocatableUpdatePeriodSeconds: 5 })),
  create('csidriver: serviceAccountTokenInSecrets without tokenRequests', fixed(CSIDRIVERS), driver({ serviceAccountTokenInSecrets: true })),
  create('csidriver: preventPodSchedulingIfMissing', fixed(CSIDRIVERS), driver({ preventPodSchedulingIfMissing: true })),
  driverUpdate('csidriver update: attachRequired', {}, { attachRequired: false }),
  driverUpdate('csidriver update: volumeLifecycleModes', {}, { volumeLifecycleModes: ['Ephemeral'] }),
  driverUpdate('csidriver update: podInfoOnMount allowed', {}, { podInfoOnMount: true }),
  driverUpdate('csidriver update: fsGroupPolicy Bogus', {}, { fsGroupPolicy: 'Bogus' }),
  driverUpdate('csidriver update: tokenRequests allowed', {}, { tokenRequests: [{ audience: 'b' }] }),
];

// --- CSINode --------------------------------------------------------------------------------
const drv = (extra: Obj = {}): Obj => ({ name: 'disk.example.com', nodeID: 'node-1', topologyKeys: ['topology.kubernetes.io/zone'], ...extra });
const csiNode = (...drivers: Obj[]) => (n: string): Obj => ({ metadata: { name: n }, spec: { drivers } });

const CSI_NODE: ValidationCase[] = [
  create('csinode: valid', fixed(CSINODES), csiNode(drv({ allocatable: { count: 10 } }))),
  create('csinode: valid no drivers', fixed(CSINODES), csiNode()),
  create('csinode: name invalid', fixed(CSINODES), () => ({ metadata: { name: 'Bad_Node' }, spec: { drivers: [] } })),
  create('csinode: driver name invalid', fixed(CSINODES), csiNode(drv({ name: 'Bad_Driver' }))),
  create('csinode: driver name empty', fixed(CSINODES), csiNode(drv({ name: '' }))),
  create('csinode: nodeID empty', fixed(CSINODES), csiNode(drv({ nodeID: '' }))),
  create('csinode: nodeID too long', fixed(CSINODES), csiNode(drv({ nodeID: 'n'.repeat(257) }))),
  create('csinode: allocatable count negative', fixed(CSINODES), csiNode(drv({ allocatable: { count: -1 } }))),
  create('csinode: duplicate driver', fixed(CSINODES), csiNode(drv(), drv())),
  create('csinode: topology key empty', fixed(CSINODES), csiNode(drv({ topologyKeys: [''] }))),
  create('csinode: topology key duplicate', fixed(CSINODES), csiNode(drv({ topologyKeys: ['a', 'a'] }))),
  create('csinode: topology key invalid', fixed(CSINODES), csiNode(drv({ topologyKeys: ['bad key'] }))),
  update('csinode update: nodeID', fixed(CSINODES), csiNode(drv()), { spec: { drivers: [drv({ nodeID: 'node-2' })] } }),
  update('csinode update: topologyKeys', fixed(CSINODES), csiNode(drv()), { spec: { drivers: [drv({ topologyKeys: [] })] } }),
  update('csinode update: allocatable allowed', fixed(CSINODES), csiNode(drv({ allocatable: { count: 1 } })), { spec: { drivers: [drv({ allocatable: { count: 2 } })] } }),
  update('csinode update: driver added', fixed(CSINODES), csiNode(drv()), { spec: { drivers: [drv(), drv({ name: 'other.example.com' })] } }),
  update('csinode update: driver removed allowed', fixed(CSINODES), csiNode(drv()), { spec: { drivers: [] } }),
  update('csinode update: driver invalid', fixed(CSINODES), csiNode(), { spec: { drivers: [drv({ nodeID: '' })] } }),
];

// --- VolumeAttachment -----------------------------------------------------------------------
const csiPV = (extra: Obj = {}): Obj => ({ accessModes: ['ReadWriteOnce'], csi: { driver: 'disk.example.com', volumeHandle: 'h' }, ...extra });
const va = (spec: Obj = {}) => (n: string): Obj => ({ metadata: { name: n },
  spec: { attacher: 'disk.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' }, ...spec } });

const VOLUME_ATTACHMENT: ValidationCase[] = [
  create('va: valid', fixed(VA), va()),
  create('va: valid inline', fixed(VA), va({ source: { inlineVolumeSpec: csiPV() } })),
  create('va: name invalid', fixed(VA), (n) => ({ ...va()(n), metadata: { name: 'Bad_VA' } })),
  create('va: attacher missing', fixed(VA), va({ attacher: '' })),
  create('va: attacher invalid', fixed(VA), va({ attacher: 'Bad_Attacher' })),
  create('va: attacher too long', fixed(VA), va({ attacher: `${'a'.repeat(64)}.example.com` })),
  create('va: source empty', fixed(VA), va({ source: {} })),
  create('va: source both', fixed(VA), va({ source: { persistentVolumeName: 'pv-1', inlineVolumeSpec: csiPV() } })),
  create('va: persistentVolumeName empty', fixed(VA), va({ source: { persistentVolumeName: '' } })),
  create('va: persistentVolumeName invalid', fixed(VA), va({ source: { persistentVolumeName: 'Bad_PV' } })),
  create('va: nodeName empty', fixed(VA), va({ nodeName: '' })),
  create('va: nodeName invalid', fixed(VA), va({ nodeName: 'Bad_Node' })),
  create('va: inline without csi', fixed(VA), va({ source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], hostPath: { path: '/x' } } } })),
  create('va: inline with capacity', fixed(VA), va({ source: { inlineVolumeSpec: csiPV({ capacity: { storage: '1Gi' } }) } })),
  create('va: inline with claimRef', fixed(VA), va({ source: { inlineVolumeSpec: csiPV({ claimRef: { name: 'c', namespace: 'd' } }) } })),
  create('va: inline reclaim Delete', fixed(VA), va({ source: { inlineVolumeSpec: csiPV({ persistentVolumeReclaimPolicy: 'Delete' }) } })),
  create('va: inline nodeAffinity', fixed(VA), va({ source: { inlineVolumeSpec: csiPV({ nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'Exists' }] }] } } }) } })),
  create('va: inline storageClassName', fixed(VA), va({ source: { inlineVolumeSpec: csiPV({ storageClassName: 'fast' }) } })),
  create('va: inline volumeMode Block', fixed(VA), va({ source: { inlineVolumeSpec: csiPV({ volumeMode: 'Block' }) } })),
  create('va: inline accessModes missing', fixed(VA), va({ source: { inlineVolumeSpec: { csi: { driver: 'disk.example.com', volumeHandle: 'h' } } } })),
  create('va: inline csi volumeHandle missing', fixed(VA), va({ source: { inlineVolumeSpec: csiPV({ csi: { driver: 'disk.example.com' } }) } })),
  create('va: status on create is dropped', fixed(VA), (n) => ({ ...va()(n), status: { attached: true, attachError: { errorCode: -1 } } })),
  update('va update: nodeName', fixed(VA), va(), { spec: { nodeName: 'node-2' } }),
  update('va update: attacher', fixed(VA), va(), { spec: { attacher: 'other.example.com' } }),
  update('va update: inline spec', fixed(VA), va({ source: { inlineVolumeSpec: csiPV({ mountOptions: ['ro'] }) } }), { spec: { nodeName: 'node-2' } }),
  { name: 'va: inline hostPath source defaulted', requests: (n) => [post(VA, va({ source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], csi: { driver: 'd.example.com', volumeHandle: 'h' },
    persistentVolumeReclaimPolicy: 'Retain' } } })(n)), patch(`${VA}/${n}`, { spec: { source: { inlineVolumeSpec: { csi: { fsType: 'ext4' } } } } })] },
  update('va update: labels allowed', fixed(VA), va(), { metadata: { labels: { a: 'b' } } }),
  update('va status: valid', fixed(VA), va(), { status: { attached: true, attachmentMetadata: { a: 'b' } } }, '/status'),
  update('va status: attachmentMetadata over 256kB', fixed(VA), va(), { status: { attached: true, attachmentMetadata: { a: 'x'.repeat(256 * 1024) } } }, '/status'),
  update('va status: attachError message too long', fixed(VA), va(), { status: { attachError: { message: 'm'.repeat(1025) } } }, '/status'),
  update('va status: attachError errorCode negative', fixed(VA), va(), { status: { attachError: { errorCode: -1 } } }, '/status'),
  update('va status: detachError errorCode negative', fixed(VA), va(), { status: { detachError: { errorCode: -2, message: 'x' } } }, '/status'),
  update('va status: spec change ignored', fixed(VA), va(), { spec: { nodeName: 'node-9' }, status: { attached: true } }, '/status'),
];

// --- CSIStorageCapacity ---------------------------------------------------------------------
const cap = (extra: Obj = {}) => (n: string): Obj => ({ metadata: { name: n }, storageClassName: 'fast', capacity: '1Gi', ...extra });

const CAPACITY: ValidationCase[] = [
  create('capacity: valid', capacities, cap({ nodeTopology: { matchLabels: { zone: 'a' } }, maximumVolumeSize: '1Gi' })),
  create('capacity: name invalid', capacities, (n) => ({ ...cap()(n), metadata: { name: 'Bad_Cap' } })),
  create('capacity: storageClassName empty', capacities, cap({ storageClassName: '' })),
  create('capacity: storageClassName invalid', capacities, cap({ storageClassName: 'Bad_Class' })),
  create('capacity: capacity negative', capacities, cap({ capacity: '-1Gi' })),
  create('capacity: maximumVolumeSize negative', capacities, cap({ maximumVolumeSize: '-1' })),
  create('capacity: nodeTopology operator Bogus', capacities, cap({ nodeTopology: { matchExpressions: [{ key: 'zone', operator: 'Bogus' }] } })),
  create('capacity: nodeTopology label value invalid', capacities, cap({ nodeTopology: { matchLabels: { zone: 'bad value' } } })),
  create('capacity: nodeTopology In without values', capacities, cap({ nodeTopology: { matchExpressions: [{ key: 'zone', operator: 'In' }] } })),
  update('capacity update: storageClassName', capacities, cap(), { storageClassName: 'slow' }),
  update('capacity update: nodeTopology', capacities, cap(), { nodeTopology: { matchLabels: { zone: 'b' } } }),
  update('capacity update: capacity allowed', capacities, cap(), { capacity: '2Gi' }),
];

// --- VolumeAttributesClass ------------------------------------------------------------------
const vac = (extra: Obj = {}) => (n: string): Obj => ({ metadata: { name: n }, driverName: 'disk.example.com', parameters: { iops: '100' }, ...extra });

const ATTRIBUTES_CLASS: ValidationCase[] = [
  create('vac: valid', fixed(VAC), vac()),
  create('vac: name invalid', fixed(VAC), (n) => ({ ...vac()(n), metadata: { name: 'Bad_VAC' } })),
  create('vac: driverName missing', fixed(VAC), vac({ driverName: '' })),
  create('vac: driverName invalid', fixed(VAC), vac({ driverName: 'bad driver!' })),
  create('vac: parameters missing', fixed(VAC), vac({ parameters: undefined })),
  create('vac: parameter key empty', fixed(VAC), vac({ parameters: { '': 'v' } })),
  create('vac: 513 parameters', fixed(VAC), vac({ parameters: manyParams(513) })),
  create('vac: parameters over 256kB', fixed(VAC), vac({ parameters: { big: 'x'.repeat(256 * 1024) } })),
  update('vac update: driverName', fixed(VAC), vac(), { driverName: 'other.example.com' }),
  update('vac update: parameters', fixed(VAC), vac(), { parameters: { iops: '200' } }),
  update('vac update: labels allowed', fixed(VAC), vac(), { metadata: { labels: { a: 'b' } } }),
];

// --- PriorityClass and RuntimeClass ---------------------------------------------------------
const pc = (extra: Obj = {}) => (n: string): Obj => ({ metadata: { name: n }, value: 1000, ...extra });
const rc = (extra: Obj = {}) => (n: string): Obj => ({ metadata: { name: n }, handler: 'runc', ...extra });

const CLASSES: ValidationCase[] = [
  create('pc: valid', fixed(PC), pc({ description: 'd', preemptionPolicy: 'Never' })),
  create('pc: name invalid', fixed(PC), () => ({ metadata: { name: 'Bad_PC' }, value: 1 })),
  create('pc: value above the user maximum', fixed(PC), pc({ value: 1000000001 })),
  create('pc: value negative allowed', fixed(PC), pc({ value: -5 })),
  create('pc: system- prefix', fixed(PC), (n) => ({ metadata: { name: `system-${n}` }, value: 1000 })),
  create('pc: system-node-critical with wrong value', fixed(PC), () => ({ metadata: { name: 'system-node-critical' }, value: 1000 })),
  create('pc: preemptionPolicy Bogus', fixed(PC), pc({ preemptionPolicy: 'Bogus' })),
  create('pc: system-cluster-critical as defined allowed', fixed(PC), () => ({ metadata: { name: 'system-cluster-critical' }, value: 2000000000 })),
  { name: 'pc: second globalDefault', requests: (n) => [post(PC, pc({ globalDefault: true })(`${n}-a`)), post(PC, pc({ globalDefault: true })(`${n}-b`))] },
  update('pc update: value', fixed(PC), pc(), { value: 2000 }),
  update('pc update: preemptionPolicy', fixed(PC), pc(), { preemptionPolicy: 'Never' }),
  update('pc update: description allowed', fixed(PC), pc(), { description: 'new' }),
  update('pc update: globalDefault', fixed(PC), pc(), { globalDefault: false }),
  create('rc: valid', fixed(RC), rc({ overhead: { podFixed: { cpu: '10m', memory: '1Mi' } },
    scheduling: { nodeSelector: { a: 'b' }, tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }] } })),
  create('rc: name invalid', fixed(RC), () => ({ metadata: { name: 'Bad_RC' }, handler: 'runc' })),
  create('rc: handler missing', fixed(RC), rc({ handler: '' })),
  create('rc: handler invalid', fixed(RC), rc({ handler: 'Bad_Handler' })),
  create('rc: handler a subdomain', fixed(RC), rc({ handler: 'a.b' })),
  create('rc: overhead negative', fixed(RC), rc({ overhead: { podFixed: { cpu: '-1' } } })),
  create('rc: overhead resource name invalid', fixed(RC), rc({ overhead: { podFixed: { 'bad name': '1' } } })),
  create('rc: nodeSelector key invalid', fixed(RC), rc({ scheduling: { nodeSelector: { 'bad key': 'v' } } })),
  create('rc: nodeSelector value invalid', fixed(RC), rc({ scheduling: { nodeSelector: { a: 'bad value' } } })),
  create('rc: toleration operator Bogus', fixed(RC), rc({ scheduling: { tolerations: [{ key: 'k', operator: 'Bogus' }] } })),
  create('rc: toleration Exists with value', fixed(RC), rc({ scheduling: { tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] } })),
  create('rc: toleration effect Bogus', fixed(RC), rc({ scheduling: { tolerations: [{ key: 'k', operator: 'Exists', effect: 'Bogus' }] } })),
  create('rc: toleration duplicate', fixed(RC), rc({ scheduling: { tolerations: [{ key: 'k', operator: 'Exists' }, { key: 'k', operator: 'Exists' }] } })),
  create('rc: overhead extended resource', fixed(RC), rc({ overhead: { podFixed: { 'example.com/foo': '1' } } })),
  create('rc: overhead hugepages without cpu', fixed(RC), rc({ overhead: { podFixed: { 'hugepages-2Mi': '2Mi' } } })),
  create('rc: deprecated node label warns', fixed(RC), rc({ scheduling: { nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' } } })),
  update('rc update: handler', fixed(RC), rc(), { handler: 'crun' }),
  update('rc update: overhead', fixed(RC), rc(), { overhead: { podFixed: { cpu: '1' } } }),
];

export { STORAGE_CLASS, CSI_DRIVER, CSI_NODE, VOLUME_ATTACHMENT, CAPACITY, ATTRIBUTES_CLASS, CLASSES, PV, claims, create, update, fixed };
