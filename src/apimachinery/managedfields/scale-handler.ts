// managedfields.ScaleHandler: the managedFields of the scale subresource are those of its parent,
// narrowed to the replicas field and renamed to autoscaling/v1 Scale's spec.replicas, and the
// entries the Scale ends up with go back to the parent as ownership of its replicas path.
import type { ManagedFieldsEntry } from '../meta/types.ts';
import { decodeManagedFields, emptyManaged, encodeManagedFields } from './managed.ts';
import { fieldElement } from './path-element.ts';
import type { Path } from './path-element.ts';
import { FieldSet } from './set.ts';

const SCALE_API_VERSION = 'autoscaling/v1';
const REPLICAS_IN_SCALE: Path = [fieldElement('spec'), fieldElement('replicas')];

/** The parent's replicas path: ".spec.replicas" for built-ins, a CRD's specReplicasPath. */
export function replicasPath(jsonPath = '.spec.replicas'): Path {
  return jsonPath.split('.').filter((s) => s !== '').map(fieldElement);
}

/**
 * ToSubresource: the parent's entries that own the replicas path, each owning only the Scale's
 * spec.replicas at autoscaling/v1. Throws an Error when the parent's entries cannot be decoded.
 */
export function scaleToSubresource(parent: readonly ManagedFieldsEntry[] | undefined, path: Path): ManagedFieldsEntry[] | undefined {
  const managed = decodeManagedFields(parent);
  const out = emptyManaged();
  for (const [manager, vs] of managed.fields) {
    if (!vs.set.has(path)) continue;
    out.fields.set(manager, { set: FieldSet.of(REPLICAS_IN_SCALE), apiVersion: SCALE_API_VERSION, applied: vs.applied });
    const t = managed.times.get(manager);
    if (t !== undefined) out.times.set(manager, t);
  }
  return encodeManagedFields(out);
}

/**
 * ToParent: merges the Scale's entries into the parent's. A parent entry that owns the replicas
 * path loses it unless the same manager still holds it through the Scale; a Scale manager
 * owning spec.replicas owns the parent's path at `groupVersion` (the request's). Times are
 * looked up among the parent's entries, so a new scale Update entry has none (as in kube).
 * Throws an Error when either list cannot be decoded.
 */
export function scaleToParent(parent: readonly ManagedFieldsEntry[] | undefined, scale: readonly ManagedFieldsEntry[] | undefined,
  groupVersion: string, path: Path): ManagedFieldsEntry[] | undefined {
  const p = decodeManagedFields(parent);
  const scaleFields = new Map(decodeManagedFields(scale).fields);
  const out = emptyManaged();
  const keep = (manager: string, vs: { set: FieldSet; apiVersion: string; applied: boolean }): void => {
    out.fields.set(manager, vs);
    const t = p.times.get(manager);
    if (t !== undefined) out.times.set(manager, t);
  };
  for (const [manager, vs] of p.fields) {
    if (!vs.set.has(path)) { keep(manager, vs); continue; }
    if (scaleFields.has(manager)) {
      keep(manager, vs);
      scaleFields.delete(manager);
      continue;
    }
    // "Steal" the replicas path from the parent's entry.
    const set = vs.set.difference(FieldSet.of(path));
    if (!set.empty()) keep(manager, { ...vs, set });
  }
  for (const [manager, vs] of scaleFields) {
    if (!vs.set.has(REPLICAS_IN_SCALE)) continue;
    keep(manager, { set: FieldSet.of(path), apiVersion: groupVersion, applied: vs.applied });
  }
  return encodeManagedFields(out);
}
