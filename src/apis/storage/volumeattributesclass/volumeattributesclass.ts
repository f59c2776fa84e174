// VolumeAttributesClasses (pkg/registry/storage/volumeattributesclass): driverName and parameters
// are fixed once created; parameters may not be empty. Served by v1 and v1beta1 (same shape).
import { fieldPath, forbidden, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { VolumeAttributesClass } from '../v1/types.ts';
import { validateParameters, validateProvisioner } from '../validation.ts';

type RO<T> = DeepReadonly<T>;

const IS_DEFAULT_VOLUME_ATTRIBUTES_CLASS_ANNOTATION = 'volumeattributesclass.kubernetes.io/is-default-class';

function validateVolumeAttributesClass(v: RO<VolumeAttributesClass>): FieldError[] {
  return [
    ...validateObjectMeta(v.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain }),
    ...validateProvisioner(v.driverName ?? '', fieldPath('driverName')),
    ...validateParameters(v.parameters, false, fieldPath('parameters')),
  ];
}

function validateVolumeAttributesClassUpdate(v: RO<VolumeAttributesClass>, old: RO<VolumeAttributesClass>): FieldError[] {
  const errs: FieldError[] = [];
  if ((v.driverName ?? '') !== (old.driverName ?? '')) errs.push(forbidden('driverName', 'updates to driverName are forbidden.'));
  if (!deepEqual(v.parameters ?? null, old.parameters ?? null)) errs.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  return errs;
}

export const volumeAttributesClasses = {
  group: 'storage.k8s.io', kind: 'VolumeAttributesClass', resource: 'volumeattributesclasses', singular: 'volumeattributesclass',
  returnDeletedObject: true, // as kube's storage: a DELETE answers with the object, not a Status
  shortNames: ['vac'], namespaced: false,
  strategy: specStatusStrategy<VolumeAttributesClass>({ validate: validateVolumeAttributesClass, validateUpdate: validateVolumeAttributesClassUpdate }),
  table: [
    { ...nameColumn<VolumeAttributesClass>(), cell: (v) => `${v.metadata.name ?? ''}${v.metadata.annotations?.[IS_DEFAULT_VOLUME_ATTRIBUTES_CLASS_ANNOTATION] === 'true' ? ' (default)' : ''}` },
    column<VolumeAttributesClass>('DriverName', 'string', (v) => v.driverName ?? ''),
    ageColumn<VolumeAttributesClass>(),
  ],
} satisfies ResourceDefinition<VolumeAttributesClass>;
