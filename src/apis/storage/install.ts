// storage.k8s.io: v1 serves every resource; v1beta1 serves VolumeAttributesClass with the v1
// shape (identity conversion, stored as v1).
// Counterpart of pkg/registry/storage/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { csiDrivers } from './csidriver/csidriver.ts';
import { csiNodes } from './csinode/csinode.ts';
import { csiStorageCapacities } from './csistoragecapacity/csistoragecapacity.ts';
import { storageClasses } from './storageclass/storageclass.ts';
import { volumeAttachments } from './volumeattachment/volumeattachment.ts';
import { volumeAttributesClasses } from './volumeattributesclass/volumeattributesclass.ts';

export const storageGroup: APIGroupDefinition = {
  group: 'storage.k8s.io',
  versions: [
    {
      version: 'v1',
      resources: [
        csiDrivers, csiNodes, csiStorageCapacities, storageClasses,
        volumeAttachments, volumeAttributesClasses,
      ],
    },
    { version: 'v1beta1', resources: [volumeAttributesClasses] },
  ],
};
