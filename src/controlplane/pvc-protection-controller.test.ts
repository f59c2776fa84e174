import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { corev1 } from '../generated/types/index.gen.ts';
import { podUsesPVC, type PodObject } from './pvc-protection-controller.ts';

const pvc = (name: string, ownerUID?: string): KubeObject => ({ metadata: { name, namespace: 'ns',
  ...(ownerUID !== undefined ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: ownerUID, controller: true }] } : {}) } });
const pod = (nodeName: string | undefined, volumes: corev1.Volume[], meta: Partial<PodObject['metadata']> = {}): PodObject => ({
  metadata: { name: 'p', namespace: 'ns', uid: 'u1', ...meta },
  spec: { containers: [{ name: 'c', image: 'i' }], volumes, ...(nodeName !== undefined ? { nodeName } : {}) },
});

describe('podUsesPVC', () => {
  it('counts only scheduled pods that name the claim', () => {
    const vols = [{ name: 'data', persistentVolumeClaim: { claimName: 'claim' } }];
    assert.equal(podUsesPVC(pod('node-1', vols), pvc('claim')), true);
    assert.equal(podUsesPVC(pod(undefined, vols), pvc('claim')), false);
    assert.equal(podUsesPVC(pod('node-1', vols), pvc('other')), false);
  });
  it('counts a generic ephemeral volume\'s claim while the owning pod is not shut down', () => {
    const vols = [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }];
    assert.equal(podUsesPVC(pod('n', vols), pvc('p-scratch', 'u1')), true);
    assert.equal(podUsesPVC(pod('n', vols), pvc('p-scratch', 'someone-else')), false);
    assert.equal(podUsesPVC(pod('n', vols, { deletionTimestamp: '2024-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 }), pvc('p-scratch', 'u1')), false);
  });
});
