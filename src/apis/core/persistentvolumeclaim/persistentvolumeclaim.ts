// PersistentVolumeClaims (pkg/registry/core/persistentvolumeclaim): status subresource; the
// spec is immutable after creation except requests (expansion) and the attributes class.
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { accessModesAsString, storageClassOf } from '../printers/format.ts';
import { quantityString } from '../v1/quantity.ts';
import type { PersistentVolumeClaim, PersistentVolumeClaimSpec } from '../v1/types.ts';
import { validatePersistentVolumeClaim, validatePersistentVolumeClaimUpdate } from './validation.ts';
import { validatePersistentVolumeClaimStatusUpdate } from './status-validation.ts';
import { pvcWarnings } from './warnings.ts';

export { validatePersistentVolumeClaim, validatePersistentVolumeClaimUpdate } from './validation.ts';

export function defaultPersistentVolumeClaim(pvc: PersistentVolumeClaim): void {
  pvc.spec ??= {};
  pvc.spec.volumeMode ??= 'Filesystem';
}

const present = <T>(v: T | undefined | null): v is T => v !== undefined && v !== null;

/**
 * The data source rules of the strategy (pvcutil): a cross-namespace dataSourceRef is dropped
 * (CrossNamespaceVolumeDataSource is alpha, off), a legacy dataSource other than a claim or a
 * VolumeSnapshot is silently dropped, and each of dataSource / dataSourceRef is filled from the other.
 */
export function prepareDataSources(spec: PersistentVolumeClaimSpec, old?: DeepReadonly<PersistentVolumeClaimSpec>): void {
  if ((spec.dataSourceRef?.namespace ?? '') !== '' && !present(old?.dataSourceRef)) delete spec.dataSourceRef;
  const inUse = present(old?.dataSource) || present(old?.dataSourceRef);
  const ds = spec.dataSource;
  if (!inUse && !present(spec.dataSourceRef) && present(ds)) {
    const group = ds.apiGroup ?? '';
    const known = (ds.kind === 'PersistentVolumeClaim' && group === '') || (ds.kind === 'VolumeSnapshot' && group === 'snapshot.storage.k8s.io');
    if (!known) delete spec.dataSource;
  }
  if (present(spec.dataSource) && !present(spec.dataSourceRef)) {
    const { apiGroup, kind, name } = spec.dataSource;
    spec.dataSourceRef = { ...(present(apiGroup) ? { apiGroup } : {}), kind, name };
  } else if (present(spec.dataSourceRef) && !present(spec.dataSource) && (spec.dataSourceRef.namespace ?? '') === '') {
    const { apiGroup, kind, name } = spec.dataSourceRef;
    spec.dataSource = { ...(present(apiGroup) ? { apiGroup } : {}), kind, name };
  }
}

export const persistentVolumeClaimStrategy = specStatusStrategy<PersistentVolumeClaim>({
  validate: validatePersistentVolumeClaim,
  hasStatus: true,
  prepareForCreate(_ctx, pvc) {
    pvc.status = { phase: 'Pending' };
    if (pvc.spec !== undefined) prepareDataSources(pvc.spec);
  },
  warningsOnCreate: pvcWarnings,
  prepareForUpdate(_ctx, pvc, old) { if (pvc.spec !== undefined) prepareDataSources(pvc.spec, old.spec); },
  revalidateOnUpdate: false,
  validateUpdate: (pvc, old) => validatePersistentVolumeClaimUpdate(pvc, old),
  warningsOnUpdate: (pvc) => pvcWarnings(pvc),
});

export const persistentVolumeClaimStatusStrategy = statusStrategy(persistentVolumeClaimStrategy, {
  validate: (pvc) => validatePersistentVolumeClaimStatusUpdate(pvc),
  warningsOnUpdate: null,
});

export const persistentVolumeClaims = {
  group: '', kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', singular: 'persistentvolumeclaim', shortNames: ['pvc'],
  namespaced: true,
  strategy: persistentVolumeClaimStrategy,
  statusStrategy: persistentVolumeClaimStatusStrategy,
  defaults: defaultPersistentVolumeClaim,
  defaultFieldLabelConversion: true,
  selectableFields: (pvc) => ({ 'metadata.name': pvc.metadata.name ?? '', 'metadata.namespace': pvc.metadata.namespace ?? '', name: pvc.metadata.name ?? '' }),
  table: [
    nameColumn<PersistentVolumeClaim>(),
    { name: 'Status', type: 'string', cell: (c) => (c.metadata.deletionTimestamp !== undefined ? 'Terminating' : c.status?.phase ?? '') },
    { name: 'Volume', type: 'string', cell: (c) => c.spec?.volumeName ?? '' },
    { name: 'Capacity', type: 'string', cell: (c) => ((c.spec?.volumeName ?? '') !== '' ? quantityString(c.status?.capacity?.['storage']) : '') },
    { name: 'Access Modes', type: 'string', cell: (c) => ((c.spec?.volumeName ?? '') !== '' ? accessModesAsString(c.status?.accessModes) : '') },
    { name: 'StorageClass', type: 'string', cell: (c) => storageClassOf(c.metadata.annotations, c.spec?.storageClassName) },
    { name: 'VolumeAttributesClass', type: 'string', cell: (c) => c.spec?.volumeAttributesClassName ?? '<unset>' },
    ageColumn<PersistentVolumeClaim>(),
    { name: 'VolumeMode', type: 'string', priority: 1, cell: (c) => c.spec?.volumeMode ?? '<unset>' },
  ],
} satisfies ResourceDefinition<PersistentVolumeClaim>;
