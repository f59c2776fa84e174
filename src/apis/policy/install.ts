// The policy API group: policy/v1 PodDisruptionBudgets. The policy/v1 Eviction kind is served
// as the pods/eviction subresource of the core group, not here.
// Counterpart of pkg/registry/policy/rest.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import type { ResourceDefinition } from '../../registry/rest/strategy.ts';
import { podDisruptionBudgets } from './poddisruptionbudget/poddisruptionbudget.ts';

const erase = <T extends KubeObject>(d: ResourceDefinition<T>): ResourceDefinition<KubeObject> =>
  d as unknown as ResourceDefinition<KubeObject>;

export const policyGroup: APIGroupDefinition = {
  group: 'policy',
  versions: [{ version: 'v1', resources: [erase(podDisruptionBudgets)] }],
};
