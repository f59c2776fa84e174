// Pieces every core resource definition shares: the Name and Age columns, and helpers for
// the status/spec split of strategies.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { DeepReadonly, TableColumn } from '../../registry/rest/strategy.ts';
import { translateTimestampSince } from './printers/age.ts';

/** The printers' NAME column (format "name", so `kubectl get -o name` works from Tables). */
export function nameColumn<T extends KubeObject>(): TableColumn<T> {
  return {
    name: 'Name', type: 'string', format: 'name',
    description: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
    cell: (o) => o.metadata.name ?? '',
  };
}

export function ageColumn<T extends KubeObject>(): TableColumn<T> {
  return {
    name: 'Age', type: 'string',
    description: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
    cell: (o, now) => translateTimestampSince(o.metadata.creationTimestamp, now),
  };
}

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
  if (JSON.stringify(next) !== JSON.stringify(prev)) meta.generation = (meta.generation ?? 0) + 1;
}
