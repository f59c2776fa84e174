// storagemigration.k8s.io: v1beta1 StorageVersionMigrations (a beta introduced after v1.24: off
// by default, served with --runtime-config storagemigration.k8s.io/v1beta1=true).
// Counterpart of pkg/registry/storagemigration/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { storageVersionMigrations } from './storageversionmigration/storageversionmigration.ts';

export const storagemigrationGroup: APIGroupDefinition = {
  group: 'storagemigration.k8s.io',
  versions: [{ version: 'v1beta1', resources: [storageVersionMigrations] }],
};
