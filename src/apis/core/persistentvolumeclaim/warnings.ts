// Warnings for claims and claim templates (pkg/api/persistentvolumeclaim: GetWarningsForPersistentVolumeClaim,
// GetWarningsForPersistentVolumeClaimSpec).
import { fieldPath, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { fractionalBytes } from '../v1/quantity.ts';
import type { PersistentVolumeClaim, PersistentVolumeClaimSpec } from '../v1/types.ts';

export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';
export const DEPRECATED_STORAGE_CLASS_ANNOTATION_MSG = 'deprecated since v1.8; use "storageClassName" attribute instead';

/** Fractional byte values in a claim spec's storage request and limit. */
export function pvcSpecWarnings(path: FieldPath, spec: DeepReadonly<PersistentVolumeClaimSpec>): string[] {
  const warnings: string[] = [];
  for (const kind of ['requests', 'limits'] as const) {
    const text = fractionalBytes(spec.resources?.[kind]?.['storage']);
    if (text !== undefined) warnings.push(`${path.child('resources').child(kind).key('storage').toString()}: fractional byte value ${JSON.stringify(text)} is invalid, must be an integer`);
  }
  return warnings;
}

export function pvcWarnings(pvc: DeepReadonly<PersistentVolumeClaim>): string[] {
  const warnings: string[] = [];
  if (Object.hasOwn(pvc.metadata.annotations ?? {}, BETA_STORAGE_CLASS_ANNOTATION)) {
    warnings.push(`${fieldPath('metadata', 'annotations').key(BETA_STORAGE_CLASS_ANNOTATION).toString()}: ${DEPRECATED_STORAGE_CLASS_ANNOTATION_MSG}`);
  }
  warnings.push(...pvcSpecWarnings(fieldPath('spec'), pvc.spec ?? {}));
  return warnings;
}
