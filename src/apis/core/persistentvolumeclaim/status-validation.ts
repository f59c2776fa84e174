// PersistentVolumeClaim status updates (ValidatePersistentVolumeClaimStatusUpdate of
// pkg/apis/core/validation, RecoverVolumeExpansionFailure GA in v1.36): capacities may not be
// negative, and the resize bookkeeping (allocatedResources, allocatedResourceStatuses) names only
// storage or extended resources with a known resize status. Phase and conditions are not checked.
// resourceVersion is never empty here: the store fills it for an unconditional update.
import { fieldPath, invalid, notSupported, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { parseQuantity } from '../v1/quantity.ts';
import type { PersistentVolumeClaim } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
type Quantities = RO<Record<string, string | number>> | null | undefined;

/** Sorted, as kube lists its set of resize statuses. */
export const RESIZE_STATUSES = ['ControllerResizeInProgress', 'ControllerResizeInfeasible', 'NodeResizeInProgress', 'NodeResizeInfeasible', 'NodeResizePending'];

/** IsNativeResource: unprefixed names and names under kubernetes.io/ belong to kube. */
const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');

/** validatePersistentVolumeClaimResourceKey: a qualified name; of kube's own resources only storage. */
export function validateClaimResourceKey(key: string, p: FieldPath): FieldError[] {
  const errs = isQualifiedName(key).map((m) => invalid(p, key, m));
  if (errs.length > 0) return errs;
  return isNativeResource(key) && key !== 'storage' ? [notSupported(p, key, ['storage'])] : [];
}

/** validateBasicResource: Quantity.Value() (rounded away from zero) may not be negative. */
function validateBasicResource(q: string | number, p: FieldPath): FieldError[] {
  const v = parseQuantity(q);
  if (v === undefined || v >= 0) return [];
  return [invalid(p, -Math.ceil(-v), 'must be a valid resource quantity')];
}

const entries = (m: Quantities): [string, string | number][] => Object.entries(m ?? {});

export function validatePersistentVolumeClaimStatusUpdate(pvc: RO<PersistentVolumeClaim>): FieldError[] {
  const errs: FieldError[] = [];
  const status = pvc.status ?? {};
  const capPath = fieldPath('status', 'capacity');
  for (const [r, q] of entries(status.capacity)) errs.push(...validateBasicResource(q, capPath.key(r)));
  const resizePath = fieldPath('status', 'allocatedResourceStatuses');
  for (const [k, v] of Object.entries(status.allocatedResourceStatuses ?? {})) {
    errs.push(...validateClaimResourceKey(k, resizePath));
    // kube names the key, not the bad status, as the unsupported value.
    if (!RESIZE_STATUSES.includes(v)) errs.push(notSupported(resizePath, k, RESIZE_STATUSES));
  }
  const allocPath = fieldPath('status', 'allocatedResources');
  for (const [r, q] of entries(status.allocatedResources)) {
    const keyErrs = validateClaimResourceKey(r, allocPath);
    if (keyErrs.length > 0) errs.push(...keyErrs);
    // ValidateResourceQuantityValue adds nothing once Value() is non-negative: storage is no integer resource.
    else errs.push(...validateBasicResource(q, allocPath.key(r)));
  }
  return errs;
}
