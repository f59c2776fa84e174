// storagemigration.k8s.io/v1beta1 wire types (the only served version, hence also the hub).
// Counterpart of k8s.io/api/storagemigration/v1beta1.
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import type { MetaCondition } from '../../../apimachinery/validation/conditions.ts';

export interface GroupResource { group?: string; resource?: string }

export interface StorageVersionMigration extends KubeObject {
  spec?: { resource?: GroupResource };
  status?: { conditions?: MetaCondition[]; resourceVersion?: string };
}
