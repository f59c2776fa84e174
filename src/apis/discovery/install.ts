// discovery.k8s.io: v1 endpointslices (v1beta1 was removed in 1.25).
// Counterpart of pkg/registry/discovery/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { endpointSlices } from './endpointslice/endpointslice.ts';

export const discoveryGroup: APIGroupDefinition = {
  group: 'discovery.k8s.io',
  versions: [{ version: 'v1', resources: [endpointSlices] }],
};
