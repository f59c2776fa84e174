// core/v1 Binding: the request that assigns a pod to a node.
// Counterpart of k8s.io/api/core/v1 (Binding).
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';
import type { ObjectReference } from '../v1/types.ts';

export interface Binding {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  target: ObjectReference;
}
