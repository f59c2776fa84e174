// coordination.k8s.io: v1 serves leases; leasecandidates are served in v1beta1 (stored there)
// and v1alpha2 with the same shape, so no conversion is needed. Only v1 is on by default.
// Counterpart of pkg/registry/coordination/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { newLeaseDefinition, type LeaseOptions } from './lease/lease.ts';
import { leaseCandidates } from './leasecandidate/leasecandidate.ts';

function newCoordinationGroup(opts: LeaseOptions = {}): APIGroupDefinition {
  return {
    group: 'coordination.k8s.io',
    versions: [
      { version: 'v1', resources: [newLeaseDefinition(opts)] },
      { version: 'v1beta1', resources: [leaseCandidates] },
      { version: 'v1alpha2', resources: [leaseCandidates] },
    ],
  };
}

export const coordinationGroup: APIGroupDefinition = newCoordinationGroup();
