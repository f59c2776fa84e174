// coordination.k8s.io: v1 serves leases; leasecandidates are served in v1beta1 (stored there)
// and v1alpha2 with the same shape, so no conversion is needed. Only v1 is on by default.
// Counterpart of pkg/registry/coordination/rest.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import type { ResourceDefinition } from '../../registry/rest/strategy.ts';
import { newLeaseDefinition, type LeaseOptions } from './lease/lease.ts';
import { leaseCandidates } from './leasecandidate/leasecandidate.ts';

const erase = <T extends KubeObject>(d: ResourceDefinition<T>): ResourceDefinition<KubeObject> =>
  d as unknown as ResourceDefinition<KubeObject>;

export function newCoordinationGroup(opts: LeaseOptions = {}): APIGroupDefinition {
  return {
    group: 'coordination.k8s.io',
    versions: [
      { version: 'v1', resources: [erase(newLeaseDefinition(opts))] },
      { version: 'v1beta1', resources: [erase(leaseCandidates)] },
      { version: 'v1alpha2', resources: [erase(leaseCandidates)] },
    ],
  };
}

export const coordinationGroup: APIGroupDefinition = newCoordinationGroup();
