// Pieces every core resource definition shares: the Name and Age columns, and helpers for
// the status/spec split of strategies.
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
