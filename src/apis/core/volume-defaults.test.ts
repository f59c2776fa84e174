import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultPersistentVolume } from './persistentvolume/persistentvolume.ts';
import type { PersistentVolume } from './v1/types.ts';
import { defaultVolumeSources } from './volume-defaults.ts';

describe('volume source defaults', () => {
  it('fills what kube\'s SetDefaults_*VolumeSource fill, keeping what the client set', () => {
    const v: Record<string, unknown> = {
      hostPath: { path: '/x' }, iscsi: { targetPortal: 'p', iqn: 'q', lun: 0, iscsiInterface: '' },
      rbd: { monitors: ['m'], image: 'i', user: 'me' }, azureDisk: { diskName: 'd', diskURI: 'u', kind: '' },
    };
    defaultVolumeSources(v);
    assert.deepEqual(v, {
      hostPath: { path: '/x', type: '' },
      iscsi: { targetPortal: 'p', iqn: 'q', lun: 0, iscsiInterface: 'default' },
      rbd: { monitors: ['m'], image: 'i', user: 'me', pool: 'rbd', keyring: '/etc/ceph/keyring' },
      // Pointer fields: an explicit "" stays.
      azureDisk: { diskName: 'd', diskURI: 'u', kind: '', cachingMode: 'ReadWrite', fsType: 'ext4', readOnly: false },
    });
  });

  it('applies to PersistentVolumes too', () => {
    const pv = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' }, spec: { hostPath: { path: '/tmp/x' } } } as unknown as PersistentVolume;
    defaultPersistentVolume(pv);
    assert.deepEqual((pv.spec as { hostPath?: unknown }).hostPath, { path: '/tmp/x', type: '' });
  });
});
