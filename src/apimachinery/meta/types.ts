// Wire shapes of meta.k8s.io/v1 types shared by every API group (ObjectMeta, ListMeta,
// Status, ...). Types describe the JSON form, not Go field names.
// Counterpart of k8s.io/apimachinery/pkg/apis/meta/v1/types.go.

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

/** Any API object in its JSON form. Resource types are structurally assignable to it. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

/** A JSON object whose shape is not known statically. */
/**
 * A stored object read through a generated wire type (src/generated/types): KubeObject's metadata
 * (always present on a stored object) plus the kind's own fields, e.g. WireObject<corev1.Pod>.
 */
export type WireObject<T extends { readonly metadata?: unknown }> = KubeObject & Omit<T, 'apiVersion' | 'kind' | 'metadata'>;

export type Unstructured = Record<string, unknown>;

export interface ListMeta {
  selfLink?: string;
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata: ListMeta;
  items: T[];
}

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: ListMeta;
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export type DeletionPropagation = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  orphanDependents?: boolean;
  propagationPolicy?: DeletionPropagation;
  dryRun?: string[];
}

export function isKubeObject(v: unknown): v is KubeObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) &&
    typeof (v as { metadata?: unknown }).metadata === 'object';
}
