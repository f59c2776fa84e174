// PersistentVolumeClaim validation (ValidatePersistentVolumeClaim, ValidatePersistentVolumeClaimSpec,
// ValidatePersistentVolumeClaimUpdate of pkg/apis/core/validation). The volume expansion
// recovery (RecoverVolumeExpansionFailure) and VolumeAttributesClass features are GA in v1.36.
import { fieldPath, forbidden, GoSyntax, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import { validateLabelSelector } from '../../../apimachinery/validation/label-selector.ts';
import { nameIsDNSSubdomain, validateNamespaceName, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { parseQuantity } from '../v1/quantity.ts';
import type { PersistentVolumeClaim, PersistentVolumeClaimSpec } from '../v1/types.ts';
import { pvcSpecDiff, pvcSpecValue, semanticEqual } from './spec-value.ts';

type RO<T> = DeepReadonly<T>;

export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';
export const PVC_SPEC_IMMUTABLE = 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';

/** The access mode checks PersistentVolume and PersistentVolumeClaim specs share (after "required"). */
export function validateAccessModes(modes: readonly string[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let rwop = false;
  let other = false;
  for (const m of modes) {
    if (!ACCESS_MODES.includes(m)) errs.push(notSupported(p, m, ACCESS_MODES));
    if (m === 'ReadWriteOncePod') rwop = true;
    else if (ACCESS_MODES.includes(m)) other = true;
  }
  if (rwop && other) errs.push(forbidden(p, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

/** kube passes a *field.Path as the value, which encoding/json writes as {} (no exported fields). */
const PATH_VALUE = new GoSyntax('{}');

const classNameErrors = (p: FieldPath, name: string): FieldError[] => isDNS1123Subdomain(name).map((m) => invalid(p, name, m));

function validateDataSource(ds: RO<NonNullable<PersistentVolumeClaimSpec['dataSourceRef']>>, p: FieldPath, ref: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if ((ds.name ?? '') === '') errs.push(required(p.child('name')));
  if ((ds.kind ?? '') === '') errs.push(required(p.child('kind')));
  const group = ds.apiGroup ?? '';
  if (group === '' && ds.kind !== 'PersistentVolumeClaim') errs.push(invalid(p, ds.kind ?? '', "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  if (group !== '') errs.push(...isDNS1123Subdomain(group).map((m) => invalid(p.child('apiGroup'), group, m)));
  if (ref && (ds.namespace ?? '') !== '') {
    errs.push(...validateNamespaceName(ds.namespace ?? '', false).map((m) => invalid(p.child('namespace'), ds.namespace, m)));
  }
  return errs;
}

export function validatePersistentVolumeClaimSpec(spec: RO<PersistentVolumeClaimSpec>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const modes = spec.accessModes ?? [];
  if (modes.length === 0) errs.push(required(p.child('accessModes'), 'at least 1 access mode is required'));
  if (spec.selector !== undefined && spec.selector !== null) {
    errs.push(...validateLabelSelector(spec.selector as RO<LabelSelector>, {}, p.child('selector')));
  }
  errs.push(...validateAccessModes(modes, p.child('accessModes')));
  const storage = spec.resources?.requests?.['storage'];
  const storagePath = p.child('resources').key('storage');
  if (storage === undefined) errs.push(required(storagePath));
  else {
    const v = parseQuantity(storage);
    if (v === undefined) errs.push(invalid(storagePath, storage, 'must be a valid quantity'));
    else if (v <= 0) errs.push(invalid(storagePath, String(storage), 'must be greater than zero'));
  }
  if ((spec.storageClassName ?? '') !== '') errs.push(...classNameErrors(p.child('storageClassName'), spec.storageClassName ?? ''));
  if (spec.volumeMode !== undefined && !VOLUME_MODES.includes(spec.volumeMode)) errs.push(notSupported(p.child('volumeMode'), spec.volumeMode, VOLUME_MODES));
  const ds = spec.dataSource;
  const dsr = spec.dataSourceRef;
  if (ds !== undefined && ds !== null) errs.push(...validateDataSource(ds, p.child('dataSource'), false));
  if (dsr !== undefined && dsr !== null) errs.push(...validateDataSource(dsr, p.child('dataSourceRef'), true));
  if (dsr !== undefined && dsr !== null && (dsr.namespace ?? '') !== '') {
    if (ds !== undefined && ds !== null) errs.push(invalid(p, PATH_VALUE, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (ds !== undefined && ds !== null && dsr !== undefined && dsr !== null) {
    if ((ds.apiGroup ?? null) !== (dsr.apiGroup ?? null) || ds.kind !== dsr.kind || ds.name !== dsr.name) {
      errs.push(invalid(p, PATH_VALUE, 'must match dataSourceRef'));
    }
  }
  if ((spec.volumeAttributesClassName ?? '') !== '') errs.push(...classNameErrors(p.child('volumeAttributesClassName'), spec.volumeAttributesClassName ?? ''));
  return errs;
}

export function validatePersistentVolumeClaim(pvc: RO<PersistentVolumeClaim>): FieldError[] {
  return [
    ...validateObjectMeta(pvc.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }),
    ...validatePersistentVolumeClaimSpec(pvc.spec ?? {}, fieldPath('spec')),
  ];
}

/** validateStorageClassUpgradeFromAnnotation: the class moves from the beta annotation to the field. */
function upgradeFromAnnotation(oldAnn: RO<Record<string, string>>, newAnn: RO<Record<string, string>>, oldSC: string | undefined, newSC: string | undefined): boolean {
  const oldValue = oldAnn[BETA_STORAGE_CLASS_ANNOTATION];
  const newValue = newAnn[BETA_STORAGE_CLASS_ANNOTATION];
  return oldValue !== undefined && oldSC === undefined && newSC !== undefined && newSC === oldValue && (newValue === undefined || newValue === oldValue);
}

/**
 * The update checks beyond metadata (the Store checks metadata): only requests.storage (of a
 * bound claim), volumeAttributesClassName and a first volumeName may change, with cmp's diff of
 * the specs as kube compares them.
 */
export function validatePersistentVolumeClaimUpdate(pvc: RO<PersistentVolumeClaim>, old: RO<PersistentVolumeClaim>): FieldError[] {
  const errs = validatePersistentVolumeClaim(pvc).filter((e) => e.field !== 'metadata' && !e.field.startsWith('metadata.'));
  const spec = pvc.spec ?? {};
  const oldSpec = old.spec ?? {};
  const next = structuredClone(spec) as PersistentVolumeClaimSpec;
  const prev = structuredClone(oldSpec) as PersistentVolumeClaimSpec;
  // The volume binder sets volumeName once.
  if ((oldSpec.volumeName ?? '') === '') setOrDelete(prev, 'volumeName', next.volumeName);
  const oldAnn = old.metadata.annotations ?? {};
  const newAnn = pvc.metadata.annotations ?? {};
  if (upgradeFromAnnotation(oldAnn, newAnn, prev.storageClassName ?? undefined, next.storageClassName ?? undefined)) {
    delete next.storageClassName;
  } else {
    const a = newAnn[BETA_STORAGE_CLASS_ANNOTATION] ?? '';
    if (a !== (oldAnn[BETA_STORAGE_CLASS_ANNOTATION] ?? '')) {
      errs.push(invalid(fieldPath('metadata').child('annotations', BETA_STORAGE_CLASS_ANNOTATION), a, 'field is immutable'));
    }
    // validateStorageClassUpgradeFromNil: a class may be set on a claim that had none.
    const fromNil = next.storageClassName !== undefined && next.storageClassName !== null && (oldSpec.storageClassName ?? undefined) === undefined &&
      (oldAnn[BETA_STORAGE_CLASS_ANNOTATION] === undefined || next.storageClassName === oldAnn[BETA_STORAGE_CLASS_ANNOTATION]);
    if (fromNil) setOrDelete(next, 'storageClassName', prev.storageClassName);
  }
  // A bound claim may be resized and given another attributes class.
  const bound = pvc.status?.phase === 'Bound';
  if (bound && next.resources?.requests !== undefined && next.resources.requests !== null) {
    const was = oldSpec.resources?.requests?.['storage'];
    next.resources.requests = { ...next.resources.requests, storage: was ?? '0' };
  }
  if (bound) setOrDelete(next, 'volumeAttributesClassName', prev.volumeAttributesClassName);
  if (!semanticEqual(pvcSpecValue(next), pvcSpecValue(prev))) {
    errs.push(forbidden('spec', `${PVC_SPEC_IMMUTABLE}\n${pvcSpecDiff(prev, next)}`));
  }

  const newSize = parseQuantity(spec.resources?.requests?.['storage'] ?? 0) ?? 0;
  const oldSize = parseQuantity(oldSpec.resources?.requests?.['storage'] ?? 0) ?? 0;
  const statusSize = parseQuantity(old.status?.capacity?.['storage'] ?? 0) ?? 0;
  if (newSize < oldSize && newSize <= statusSize) {
    errs.push(forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  }
  if ((spec.volumeMode ?? null) !== (oldSpec.volumeMode ?? null)) errs.push(invalid('volumeMode', spec.volumeMode ?? null, 'field is immutable'));
  // Once a class is applied (status.currentVolumeAttributesClassName), it may not be removed.
  const vac = spec.volumeAttributesClassName ?? null;
  if (vac !== (oldSpec.volumeAttributesClassName ?? null) && (old.status?.currentVolumeAttributesClassName ?? null) !== null) {
    if (vac === null) errs.push(forbidden('spec.volumeAttributesClassName', 'update to nil is forbidden when status.currentVolumeAttributesClassName is not nil'));
    else if (vac === '') errs.push(forbidden('spec.volumeAttributesClassName', 'update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil'));
  }
  return errs;
}

function setOrDelete<K extends keyof PersistentVolumeClaimSpec>(spec: PersistentVolumeClaimSpec, key: K, value: PersistentVolumeClaimSpec[K] | undefined): void {
  if (value === undefined || value === null) delete spec[key];
  else spec[key] = value;
}
