// Pieces every core resource definition shares: the Name and Age columns, and helpers for
// the status/spec split of strategies.
// Counterpart of what the strategies of pkg/registry/core share.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { deepEqual } from '../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';

export { ageColumn, nameColumn } from '../../registry/rest/printers.ts';

/** A writable deep copy of a read-only view (prepare* may then store it in the new object). */
export function copyOf<T>(v: DeepReadonly<T>): T {
  return structuredClone(v) as T;
}

/** Sets or removes an optional property, keeping exactOptionalPropertyTypes happy. */
export function setOptional<O extends object, K extends keyof O>(obj: O, key: K, value: O[K] | undefined): void {
  if (value === undefined) delete obj[key];
  else obj[key] = value;
}

/** The spec changed (JSON comparison): bump metadata.generation as kube's strategies do. */
export function bumpGenerationIfChanged(meta: KubeObject['metadata'], next: unknown, prev: unknown): void {
  // Semantic equality: the same spec converted from another version may list its keys in another order.
  if (!deepEqual(next, prev)) meta.generation = (meta.generation ?? 0) + 1;
}

/**
 * metav1.ResetObjectMetaForStatus: a status update keeps the stored deletionTimestamp,
 * generation, selfLink, labels, annotations, finalizers and ownerReferences.
 */
export function resetObjectMetaForStatus(meta: KubeObject['metadata'], old: DeepReadonly<KubeObject['metadata']>): void {
  for (const key of ['deletionTimestamp', 'generation', 'selfLink', 'labels', 'annotations', 'finalizers', 'ownerReferences'] as const) {
    const v = old[key];
    if (v === undefined) delete meta[key];
    else (meta as Record<string, unknown>)[key] = structuredClone(v);
  }
}

/**
 * Go's JSON of a struct: fields without omitempty (`always`) are written even at their zero value
 * (absent or null becomes that value); omitempty fields (`omitEmpty`) are left out at their zero
 * value (0, "", false, null, an empty list).
 */
export function goFields(target: object, always: object, omitEmpty: readonly string[] = []): void {
  const obj = target as Record<string, unknown>;
  for (const [k, zero] of Object.entries(always)) if (obj[k] === undefined || obj[k] === null) obj[k] = structuredClone(zero);
  for (const k of omitEmpty) {
    const v = obj[k];
    if (v === 0 || v === '' || v === false || v === null || (Array.isArray(v) && v.length === 0)) delete obj[k];
  }
}
