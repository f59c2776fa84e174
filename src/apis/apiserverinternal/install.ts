// internal.apiserver.k8s.io: v1alpha1 StorageVersions (alpha: off by default, served with
// --runtime-config internal.apiserver.k8s.io/v1alpha1=true or api/alpha=true).
// Counterpart of pkg/registry/apiserverinternal/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { storageVersions } from './storageversion/storageversion.ts';

export const apiserverinternalGroup: APIGroupDefinition = {
  group: 'internal.apiserver.k8s.io',
  versions: [{ version: 'v1alpha1', resources: [storageVersions] }],
};
