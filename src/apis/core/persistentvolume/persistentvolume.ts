// PersistentVolumes (pkg/registry/core/persistentvolume): cluster-scoped, status subresource,
// phase Pending on create with its transition time.
import { defaultVolumeSources } from '../volume-defaults.ts';
import { fieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { accessModesAsString, storageClassOf } from '../printers/format.ts';
import { nodeSelectorTermWarnings } from '../node-labels.ts';
import { BETA_STORAGE_CLASS_ANNOTATION, DEPRECATED_STORAGE_CLASS_ANNOTATION_MSG } from '../persistentvolumeclaim/warnings.ts';
import { quantityString } from '../v1/quantity.ts';
import type { PersistentVolume } from '../v1/types.ts';
import { MOUNT_OPTIONS_ANNOTATION, validateMountOptionAnnotation, validatePersistentVolume, validatePersistentVolumeUpdate } from './validation.ts';

export { validatePersistentVolume, validatePersistentVolumeSpec } from './validation.ts';

type RO<T> = DeepReadonly<T>;
const nowRFC3339 = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

/** SetDefaults_PersistentVolume: Retain, Filesystem, phase Pending. */
export function defaultPersistentVolume(pv: PersistentVolume): void {
  pv.spec ??= {};
  pv.spec.persistentVolumeReclaimPolicy ??= 'Retain';
  pv.spec.volumeMode ??= 'Filesystem';
  defaultVolumeSources(pv.spec as Record<string, unknown>);
  pv.status ??= {};
  if ((pv.status.phase ?? '') === '') pv.status.phase = 'Pending';
}

/** Volume plugins kube deprecated or removed, with the Go field name it prints. */
const DEPRECATED_PV_SOURCES: readonly (readonly [source: string, goName: string, message: string])[] = [
  ['cephfs', 'cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['photonPersistentDisk', 'photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['scaleIO', 'scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['storageos', 'storageOS', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['rbd', 'rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

/** GetWarningsForPersistentVolume (pkg/api/persistentvolume). */
export function persistentVolumeWarnings(pv: RO<PersistentVolume>): string[] {
  const warnings: string[] = [];
  if (Object.hasOwn(pv.metadata.annotations ?? {}, BETA_STORAGE_CLASS_ANNOTATION)) {
    warnings.push(`${fieldPath('metadata', 'annotations').key(BETA_STORAGE_CLASS_ANNOTATION).toString()}: ${DEPRECATED_STORAGE_CLASS_ANNOTATION_MSG}`);
  }
  if (Object.hasOwn(pv.metadata.annotations ?? {}, MOUNT_OPTIONS_ANNOTATION)) {
    warnings.push(`${fieldPath('metadata', 'annotations').key(MOUNT_OPTIONS_ANNOTATION).toString()}: deprecated since v1.31; use "mountOptions" attribute instead`);
  }
  const spec = pv.spec ?? {};
  if (spec.persistentVolumeReclaimPolicy === 'Recycle') {
    warnings.push('spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.');
  }
  const required = (spec['nodeAffinity'] as { required?: { nodeSelectorTerms?: unknown[] } } | undefined)?.required;
  if (required !== undefined && required !== null) {
    const termPath = fieldPath('spec', 'nodeAffinity', 'required', 'nodeSelectorTerms');
    (required.nodeSelectorTerms ?? []).forEach((t, i) => warnings.push(...nodeSelectorTermWarnings(t as Record<string, unknown>, termPath.index(i))));
  }
  for (const [source, goName, message] of DEPRECATED_PV_SOURCES) {
    if (spec[source] !== undefined && spec[source] !== null) warnings.push(`spec.${goName}: ${message}`);
  }
  return warnings;
}

export const persistentVolumeStrategy = specStatusStrategy<PersistentVolume>({
  validate: (pv) => [...validatePersistentVolume(pv), ...validateMountOptionAnnotation(pv)],
  hasStatus: true,
  prepareForCreate(_ctx, pv) { pv.status = { phase: 'Pending', lastPhaseTransitionTime: nowRFC3339() }; },
  warningsOnCreate: persistentVolumeWarnings,
  // kube's strategy validates the new PV, then ValidatePersistentVolumeUpdate validates it again:
  // each spec error is reported twice.
  revalidateOnUpdate: false,
  validateUpdate: (pv, old) => {
    const spec = validatePersistentVolume(pv).filter((e) => e.field !== 'metadata' && !e.field.startsWith('metadata.'));
    return [...spec, ...validateMountOptionAnnotation(pv), ...spec, ...validatePersistentVolumeUpdate(pv, old)];
  },
  warningsOnUpdate: (pv) => persistentVolumeWarnings(pv),
});

export const persistentVolumeStatusStrategy = statusStrategy(persistentVolumeStrategy, {
  prepareForUpdate(_ctx, pv, old) {
    if (pv.status?.phase !== old.status?.phase && pv.status !== undefined) pv.status.lastPhaseTransitionTime = nowRFC3339();
  },
  warningsOnUpdate: null,
});

export const persistentVolumes = {
  group: '', kind: 'PersistentVolume', resource: 'persistentvolumes', singular: 'persistentvolume', shortNames: ['pv'],
  namespaced: false,
  strategy: persistentVolumeStrategy,
  statusStrategy: persistentVolumeStatusStrategy,
  defaults: defaultPersistentVolume,
  defaultFieldLabelConversion: true,
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
