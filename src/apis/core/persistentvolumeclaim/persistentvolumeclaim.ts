// PersistentVolumeClaims (pkg/registry/core/persistentvolumeclaim): status subresource; the
// spec is immutable after creation except requests (expansion) and the attributes class.
import { fieldPath, forbidden, invalid, notSupported, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition, Strategy } from '../../../registry/rest/strategy.ts';
import { ageColumn, copyOf, nameColumn, setOptional } from '../common.ts';
import { objectDiff } from '../printers/diff.ts';
import { accessModesAsString, storageClassOf } from '../printers/format.ts';
import { ACCESS_MODES } from '../persistentvolume/persistentvolume.ts';
import { parseQuantity, quantityString } from '../v1/quantity.ts';
import type { PersistentVolumeClaim, PersistentVolumeClaimSpec } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;

export function validatePersistentVolumeClaim(pvc: RO<PersistentVolumeClaim>): FieldError[] {
  const errs = validateObjectMeta(pvc.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const spec = pvc.spec ?? {};
  const p = fieldPath('spec');
  const modes = spec.accessModes ?? [];
  if (modes.length === 0) errs.push(required(p.child('accessModes'), 'at least 1 access mode is required'));
  for (const m of modes) if (!ACCESS_MODES.includes(m)) errs.push(notSupported(p.child('accessModes'), m, ACCESS_MODES));
  const storage = spec.resources?.requests?.['storage'];
  const storagePath = p.child('resources').key('storage');
  if (storage === undefined) errs.push(required(storagePath));
  else {
    const v = parseQuantity(storage);
    if (v === undefined) errs.push(invalid(storagePath, storage, 'must be a valid quantity'));
    else if (v <= 0) errs.push(invalid(storagePath, String(storage), 'must be greater than zero'));
  }
  if ((spec.storageClassName ?? '') !== '') errs.push(...isDNS1123Subdomain(spec.storageClassName ?? '').map((m) => invalid(p.child('storageClassName'), spec.storageClassName, m)));
  if (spec.volumeMode !== undefined && !['Block', 'Filesystem'].includes(spec.volumeMode)) errs.push(notSupported(p.child('volumeMode'), spec.volumeMode, ['Block', 'Filesystem']));
  return errs;
}

export function validatePersistentVolumeClaimUpdate(pvc: RO<PersistentVolumeClaim>, old: RO<PersistentVolumeClaim>): FieldError[] {
  const errs = validatePersistentVolumeClaim(pvc).filter((e) => !e.field.startsWith('metadata.'));
  const next = structuredClone(pvc.spec ?? {}) as PersistentVolumeClaimSpec;
  const prev = structuredClone(old.spec ?? {}) as PersistentVolumeClaimSpec;
  // binding sets volumeName once; expansion changes requests; the attributes class may change
  if ((prev.volumeName ?? '') === '') { delete next.volumeName; delete prev.volumeName; }
  if (prev.resources !== undefined || next.resources !== undefined) {
    next.resources = { ...next.resources };
    prev.resources = { ...prev.resources };
    delete next.resources.requests;
    delete prev.resources.requests;
  }
  delete next.volumeAttributesClassName;
  delete prev.volumeAttributesClassName;
  if (!deepEqual(next, prev)) {
    errs.push(forbidden(fieldPath('spec'),
      `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${objectDiff(old.spec, pvc.spec)}`));
  }
  return errs;
}

export function defaultPersistentVolumeClaim(pvc: PersistentVolumeClaim): void {
  pvc.spec ??= {};
  pvc.spec.volumeMode ??= 'Filesystem';
}

export const persistentVolumeClaimStrategy: Strategy<PersistentVolumeClaim> = {
  prepareForCreate(_ctx, pvc) { pvc.status = { phase: 'Pending' }; },
  validate: (_ctx, pvc) => validatePersistentVolumeClaim(pvc),
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForUpdate(_ctx, pvc, old) {
    setOptional(pvc, 'status', old.status === undefined ? undefined : copyOf<PersistentVolumeClaim['status']>(old.status));
  },
  validateUpdate: (_ctx, pvc, old) => validatePersistentVolumeClaimUpdate(pvc, old),
};

export const persistentVolumeClaimStatusStrategy: Strategy<PersistentVolumeClaim> = {
  ...persistentVolumeClaimStrategy,
  prepareForUpdate(_ctx, pvc, old) {
    setOptional(pvc, 'spec', old.spec === undefined ? undefined : copyOf<PersistentVolumeClaim['spec']>(old.spec));
  },
  validateUpdate: () => [],
};

export const persistentVolumeClaims = {
  group: '', kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', singular: 'persistentvolumeclaim', shortNames: ['pvc'],
  namespaced: true,
  strategy: persistentVolumeClaimStrategy,
  statusStrategy: persistentVolumeClaimStatusStrategy,
  defaults: defaultPersistentVolumeClaim,
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
