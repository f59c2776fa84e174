// metav1.ObjectMeta as encoding/json writes it: its fields in declaration order, every one
// omitempty (creationTimestamp omitzero), labels and annotations with sorted keys. Messages that
// print a whole ObjectMeta (a review's metadata, a Job's pod template) show this text.
// Counterpart of the JSON tags of k8s.io/apimachinery pkg/apis/meta/v1 ObjectMeta.
import type { ObjectMeta } from './types.ts';

const FIELDS = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'] as const;

const isObj = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEmpty = (v: unknown): boolean => v === undefined || v === null || v === '' || v === 0 ||
  (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
const sorted = (m: Readonly<Record<string, unknown>>): Record<string, string> =>
  Object.fromEntries(Object.keys(m).sort().map((k) => [k, String(m[k])]));

/** The ObjectMeta's fields as Go marshals them, in Go's order, empty ones left out. */
export function objectMetaJSON(meta: Readonly<ObjectMeta> | Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const m = (meta ?? {}) as Readonly<Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  for (const k of FIELDS) {
    const v = m[k];
    if (isEmpty(v)) continue;
    out[k] = (k === 'labels' || k === 'annotations') && isObj(v) ? sorted(v) : v;
  }
  return out;
}

// The collection fields of ObjectMeta: kube decodes every body into the typed struct, and
// encoding/json's omitempty drops an empty (or null) map or list before the object is stored or
// answered. A merge patch that deletes the last label therefore leaves no `labels` field at all.
const COLLECTIONS = ['labels', 'annotations', 'ownerReferences', 'finalizers'] as const;

/** Removes, in place, the ObjectMeta maps and lists Go would leave out as empty. */
export function dropEmptyMetaCollections(meta: Record<string, unknown> | object): void {
  const m = meta as Record<string, unknown>;
  for (const k of COLLECTIONS) if (k in m && (m[k] === null || isEmpty(m[k]))) delete m[k];
}
