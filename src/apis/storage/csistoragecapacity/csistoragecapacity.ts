// CSIStorageCapacities (pkg/registry/storage/csistoragecapacity): namespaced; nodeTopology and
// storageClassName are the inputs of GetCapacity and so immutable.
import { fieldPath, invalid, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import { validateLabelSelector } from '../../../apimachinery/validation/label-selector.ts';
import type { CSIStorageCapacity } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;

function validateCSIStorageCapacity(c: RO<CSIStorageCapacity>): FieldError[] {
  const errs = validateObjectMeta(c.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  if (c.nodeTopology !== undefined && c.nodeTopology !== null) {
    errs.push(...validateLabelSelector(c.nodeTopology as RO<LabelSelector>, {}, fieldPath('nodeTopology')));
  }
  const sc = c.storageClassName ?? '';
  for (const m of nameIsDNSSubdomain(sc, false)) errs.push(invalid(fieldPath('storageClassName'), sc, m));
  if (c.capacity !== undefined && String(c.capacity).trim().startsWith('-')) errs.push(invalid('capacity', c.capacity, 'must be greater than or equal to 0'));
  return errs;
}

function validateCSIStorageCapacityUpdate(c: RO<CSIStorageCapacity>, old: RO<CSIStorageCapacity>): FieldError[] {
  const errs: FieldError[] = [];
  if (!deepEqual(c.nodeTopology ?? null, old.nodeTopology ?? null)) errs.push(invalid('nodeTopology', c.nodeTopology, 'field is immutable'));
  if ((c.storageClassName ?? '') !== (old.storageClassName ?? '')) errs.push(invalid('storageClassName', c.storageClassName, 'field is immutable'));
  return errs;
}

export const csiStorageCapacities = {
  group: 'storage.k8s.io', kind: 'CSIStorageCapacity', resource: 'csistoragecapacities', singular: 'csistoragecapacity', namespaced: true,
  strategy: specStatusStrategy<CSIStorageCapacity>({ allowUnconditionalUpdate: false, validate: validateCSIStorageCapacity, validateUpdate: validateCSIStorageCapacityUpdate }),
  // No table: kube registers no printer for CSIStorageCapacity, so its default convertor (Name, Created At) answers.
} satisfies ResourceDefinition<CSIStorageCapacity>;
