// A PersistentVolume's spec and volume source as kube prints them: the unified diff of the internal
// PersistentVolumeSource when an update changes it, and the internal PersistentVolumeSpec inside a
// VolumeAttachment's message (both printed by go-types/go-json.ts).
// Counterpart of encoding/json printing the internal PersistentVolumeSource of pkg/apis/core.
import { goDiff, goIndentedJSON, goPlainValue } from '../go-types/go-json.ts';
import { obj, type Obj } from '../pod/spec-access.ts';

const present = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * The diff kube prints when the source changed (apiequality.Semantic.DeepEqual is false), or
 * undefined when it did not. A controllerExpandSecretRef may be set once, where there was none.
 */
export function persistentVolumeSourceDiff(oldSpec: Obj, spec: Obj): string | undefined {
  let next = spec;
  const oldCSI = obj(oldSpec['csi']);
  const newCSI = obj(spec['csi']);
  if (oldCSI !== undefined && !present(oldCSI['controllerExpandSecretRef']) && newCSI !== undefined && present(newCSI['controllerExpandSecretRef'])) {
    next = { ...spec, csi: { ...newCSI, controllerExpandSecretRef: null } };
  }
  const type = 'PersistentVolumeSource';
  return goIndentedJSON(oldSpec, type) === goIndentedJSON(next, type) ? undefined : goDiff(oldSpec, next, type);
}

/**
 * The internal core.PersistentVolumeSpec as encoding/json writes it (the source's fields inline, as
 * the embedded struct is): how kube prints a VolumeAttachment's inline spec.
 */
export function persistentVolumeSpecValue(spec: Obj): unknown {
  return goPlainValue(spec, 'PersistentVolumeSpec');
}
