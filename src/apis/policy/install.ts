// The policy API group: policy/v1 PodDisruptionBudgets. The policy/v1 Eviction kind is served
// as the pods/eviction subresource of the core group, not here.
// Counterpart of pkg/registry/policy/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { podDisruptionBudgets } from './poddisruptionbudget/poddisruptionbudget.ts';

export const policyGroup: APIGroupDefinition = {
  group: 'policy',
  versions: [{ version: 'v1', resources: [podDisruptionBudgets] }],
};
