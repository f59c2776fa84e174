// Wire shapes (JSON) of coordination.k8s.io. MicroTime fields are RFC 3339 strings with
// microseconds ("2024-01-01T00:00:00.000000Z"); the server stores them as sent.
// Counterpart of k8s.io/api/coordination/v1.
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
  strategy?: string;
  preferredHolder?: string;
}
export interface Lease { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec?: LeaseSpec }

/** v1beta1 and v1alpha2 LeaseCandidate have the same shape. */
export interface LeaseCandidateSpec {
  leaseName?: string;
  pingTime?: string;
  renewTime?: string;
  binaryVersion?: string;
  emulationVersion?: string;
  strategy?: string;
}
export interface LeaseCandidate { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec?: LeaseCandidateSpec }
