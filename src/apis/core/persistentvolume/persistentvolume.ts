// PersistentVolumes (pkg/registry/core/persistentvolume): cluster-scoped, status subresource,
// phase Pending on create with its transition time.
import { fieldPath, invalid, notSupported, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition, Strategy } from '../../../registry/rest/strategy.ts';
import { ageColumn, copyOf, nameColumn, setOptional } from '../common.ts';
import { accessModesAsString, storageClassOf } from '../printers/format.ts';
import { quantityString } from '../v1/quantity.ts';
import type { PersistentVolume } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const PV_SOURCES = ['gcePersistentDisk', 'awsElasticBlockStore', 'hostPath', 'glusterfs', 'nfs', 'rbd', 'iscsi', 'cinder', 'cephfs',
  'fc', 'flocker', 'flexVolume', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume',
  'scaleIO', 'local', 'storageos', 'csi'];

const nowRFC3339 = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

export function validatePersistentVolume(pv: RO<PersistentVolume>): FieldError[] {
  const errs = validateObjectMeta(pv.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const spec = pv.spec ?? {};
  const p = fieldPath('spec');
  const modes = spec.accessModes ?? [];
  if (modes.length === 0) errs.push(required(p.child('accessModes')));
  for (const m of modes) if (!ACCESS_MODES.includes(m)) errs.push(notSupported(p.child('accessModes'), m, ACCESS_MODES));
  const capacity = spec.capacity ?? {};
  if (Object.keys(capacity).length === 0) errs.push(required(p.child('capacity')));
  if (!('storage' in capacity) || Object.keys(capacity).length > 1) errs.push(notSupported(p.child('capacity'), capacity, ['storage']));
  const policy = spec.persistentVolumeReclaimPolicy;
  if (policy !== undefined && !RECLAIM_POLICIES.includes(policy)) errs.push(notSupported(p.child('persistentVolumeReclaimPolicy'), policy, RECLAIM_POLICIES));
  if ((spec.storageClassName ?? '') !== '') errs.push(...isDNS1123Subdomain(spec.storageClassName ?? '').map((m) => invalid(p.child('storageClassName'), spec.storageClassName, m)));
  if (spec.volumeMode !== undefined && !VOLUME_MODES.includes(spec.volumeMode)) errs.push(notSupported(p.child('volumeMode'), spec.volumeMode, VOLUME_MODES));
  const sources = PV_SOURCES.filter((s) => spec[s] !== undefined && spec[s] !== null);
  if (sources.length === 0) errs.push(required(p, 'must specify a volume type'));
  if (sources.length > 1) errs.push(invalid(p.child(sources[1] ?? ''), sources[1], 'may not specify more than 1 volume type'));
  if (spec.hostPath !== undefined && (spec.hostPath.path ?? '') === '') errs.push(required(p.child('hostPath', 'path')));
  return errs;
}

/** SetDefaults_PersistentVolume: Retain, Filesystem, phase Pending. */
export function defaultPersistentVolume(pv: PersistentVolume): void {
  pv.spec ??= {};
  pv.spec.persistentVolumeReclaimPolicy ??= 'Retain';
  pv.spec.volumeMode ??= 'Filesystem';
  pv.status ??= {};
  if ((pv.status.phase ?? '') === '') pv.status.phase = 'Pending';
}

export const persistentVolumeStrategy: Strategy<PersistentVolume> = {
  prepareForCreate(_ctx, pv) { pv.status = { phase: 'Pending', lastPhaseTransitionTime: nowRFC3339() }; },
  validate: (_ctx, pv) => validatePersistentVolume(pv),
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForUpdate(_ctx, pv, old) {
    setOptional(pv, 'status', old.status === undefined ? undefined : copyOf<PersistentVolume['status']>(old.status));
  },
  validateUpdate: (_ctx, pv) => validatePersistentVolume(pv).filter((e) => !e.field.startsWith('metadata.')),
};

export const persistentVolumeStatusStrategy: Strategy<PersistentVolume> = {
  ...persistentVolumeStrategy,
  prepareForUpdate(_ctx, pv, old) {
    setOptional(pv, 'spec', old.spec === undefined ? undefined : copyOf<PersistentVolume['spec']>(old.spec));
    if (pv.status?.phase !== old.status?.phase && pv.status !== undefined) pv.status.lastPhaseTransitionTime = nowRFC3339();
  },
  validateUpdate: () => [],
};

export const persistentVolumes = {
  group: '', kind: 'PersistentVolume', resource: 'persistentvolumes', singular: 'persistentvolume', shortNames: ['pv'],
  namespaced: false,
  strategy: persistentVolumeStrategy,
  statusStrategy: persistentVolumeStatusStrategy,
  defaults: defaultPersistentVolume,
  selectableFields: (pv) => ({ 'metadata.name': pv.metadata.name ?? '', name: pv.metadata.name ?? '' }),
  table: [
    nameColumn<PersistentVolume>(),
    { name: 'Capacity', type: 'string', cell: (pv) => quantityString(pv.spec?.capacity?.['storage']) },
    { name: 'Access Modes', type: 'string', cell: (pv) => accessModesAsString(pv.spec?.accessModes) },
    { name: 'Reclaim Policy', type: 'string', cell: (pv) => pv.spec?.persistentVolumeReclaimPolicy ?? '' },
    { name: 'Status', type: 'string', cell: (pv) => (pv.metadata.deletionTimestamp !== undefined ? 'Terminating' : pv.status?.phase ?? '') },
    { name: 'Claim', type: 'string', cell: (pv) => (pv.spec?.claimRef !== undefined ? `${pv.spec.claimRef.namespace ?? ''}/${pv.spec.claimRef.name ?? ''}` : '') },
    { name: 'StorageClass', type: 'string', cell: (pv) => storageClassOf(pv.metadata.annotations, pv.spec?.storageClassName) },
    { name: 'VolumeAttributesClass', type: 'string', cell: (pv) => pv.spec?.volumeAttributesClassName ?? '<unset>' },
    { name: 'Reason', type: 'string', cell: (pv) => pv.status?.reason ?? '' },
    ageColumn<PersistentVolume>(),
    { name: 'VolumeMode', type: 'string', priority: 1, cell: (pv) => pv.spec?.volumeMode ?? '<unset>' },
  ],
} satisfies ResourceDefinition<PersistentVolume>;
