// core/v1 Binding: the request that assigns a pod to a node.
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';
import type { ObjectReference } from '../v1/types.ts';

export interface Binding {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  target: ObjectReference;
}
