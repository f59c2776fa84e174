// DeviceClasses (pkg/registry/resource/deviceclass): cluster-scoped, generation bumped on spec changes.
import { fieldPath, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { DeviceClass } from '../v1/types.ts';

export function validateDeviceClass(dc: DeepReadonly<DeviceClass>): FieldError[] {
  const errs = validateObjectMeta(dc.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  (dc.spec?.selectors ?? []).forEach((s, i) => {
    if ((s.cel?.expression ?? '') === '') errs.push(required(fieldPath('spec', 'selectors').index(i).child('cel', 'expression'), ''));
  });
  return errs;
}

export const deviceClasses = {
  group: 'resource.k8s.io', kind: 'DeviceClass', resource: 'deviceclasses', singular: 'deviceclass', namespaced: false,
  returnDeletedObject: true, // as kube's storage: a DELETE answers with the object, not a Status
  strategy: specStatusStrategy<DeviceClass>({ validate: validateDeviceClass, generation: true }),
  table: [nameColumn<DeviceClass>(), ageColumn<DeviceClass>()],
} satisfies ResourceDefinition<DeviceClass>;
