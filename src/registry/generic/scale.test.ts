import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { ScaleDefinition } from '../rest/strategy.ts';
import { toScale } from './scale.ts';

interface Replicated extends KubeObject { spec: { replicas: number }; status: { replicas: number } }

const def: ScaleDefinition<Replicated> = {
  specReplicas: (o) => o.spec.replicas,
  setSpecReplicas: (o, n) => { o.spec.replicas = n; },
  statusReplicas: (o) => o.status.replicas,
  selector: () => 'app=web',
};

const obj = (spec: number, status: number): Replicated => ({
  apiVersion: 'v1', kind: 'ReplicationController',
  metadata: { name: 'rc', namespace: 'ns', uid: 'u', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { replicas: spec }, status: { replicas: status },
});

describe('toScale', () => {
  // autoscaling/v1 ScaleSpec.replicas is omitempty, ScaleStatus.replicas is not: the Python client
  // reads spec.replicas None from kube-apiserver for a scale to zero.
  const cases = [
    { name: 'replicas 3', spec: 3, status: 2, want: { spec: { replicas: 3 }, status: { replicas: 2, selector: 'app=web' } } },
    { name: 'scaled to zero: empty spec', spec: 0, status: 0, want: { spec: {}, status: { replicas: 0, selector: 'app=web' } } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const scale = toScale(def, obj(c.spec, c.status));
      assert.equal(scale.kind, 'Scale');
      assert.equal(scale.apiVersion, 'autoscaling/v1');
      assert.deepEqual({ spec: scale.spec, status: scale.status }, c.want);
      assert.deepEqual(scale.metadata, { name: 'rc', namespace: 'ns', uid: 'u', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' });
    });
  }
});
