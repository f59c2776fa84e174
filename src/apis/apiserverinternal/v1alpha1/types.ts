// internal.apiserver.k8s.io/v1alpha1 wire types (the only served version, hence also the hub).
// Counterpart of k8s.io/api/apiserverinternal/v1alpha1.
import type { KubeObject } from '../../../apimachinery/meta/types.ts';

export interface ServerStorageVersion {
  apiServerID?: string;
  encodingVersion?: string;
  decodableVersions?: string[];
  servedVersions?: string[];
}

export interface StorageVersionCondition {
  type?: string; status?: string; observedGeneration?: number; lastTransitionTime?: string | null; reason?: string; message?: string;
}

export interface StorageVersion extends KubeObject {
  spec?: Record<string, never>;
  status?: { storageVersions?: ServerStorageVersion[]; commonEncodingVersion?: string; conditions?: StorageVersionCondition[] };
}
