// node.k8s.io: v1 RuntimeClasses (v1alpha1 and v1beta1 serve nothing in v1.36).
// Counterpart of pkg/registry/node/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { runtimeClasses } from './runtimeclass/runtimeclass.ts';

export const nodeGroup: APIGroupDefinition = {
  group: 'node.k8s.io',
  versions: [{ version: 'v1', resources: [runtimeClasses] }],
};
