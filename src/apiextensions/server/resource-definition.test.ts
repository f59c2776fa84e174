import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { CustomResourceDefinition } from '../v1/types.ts';
import { customResourceDefinition } from './resource-definition.ts';

type CR = KubeObject & Record<string, unknown>;

function crd(withStatus: boolean): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, ...(withStatus ? { subresources: { status: {} } } : {}),
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

const cr = (rest: Record<string, unknown>, labels: Record<string, string> = {}): CR =>
  ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default', generation: 3, labels }, ...rest });

describe('custom resource strategy', () => {
  const cases: { name: string; withStatus: boolean; next: CR; old: CR; generation: number }[] = [
    // kube compares the content as Go maps: the order of keys is no change.
    { name: 'keys in another order: no new generation', withStatus: true,
      next: cr({ spec: { b: 1, a: 2 } }), old: cr({ spec: { a: 2, b: 1 } }), generation: 3 },
    { name: 'a spec change: a new generation', withStatus: true,
      next: cr({ spec: { a: 3 } }), old: cr({ spec: { a: 2 } }), generation: 4 },
    { name: 'status with a status subresource: kept as stored, no new generation', withStatus: true,
      next: cr({ spec: { a: 2 }, status: { ok: true } }), old: cr({ spec: { a: 2 } }), generation: 3 },
    { name: 'status without a status subresource: content like any other', withStatus: false,
      next: cr({ spec: { a: 2 }, status: { ok: true } }), old: cr({ spec: { a: 2 } }), generation: 4 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const obj = structuredClone(c.next);
      customResourceDefinition(crd(c.withStatus), 'v1').strategy.prepareForUpdate(systemContext('default'), obj, c.old);
      assert.equal(obj.metadata.generation, c.generation);
    });
  }

  it('the status subresource takes status only; everything else and the metadata stay as stored', () => {
    const status = customResourceDefinition(crd(true), 'v1').statusStrategy;
    assert.ok(status !== undefined);
    const obj = cr({ spec: { a: 9 }, extra: 1, status: { ok: true } }, { x: 'new' });
    status.prepareForUpdate(systemContext('default'), obj, cr({ spec: { a: 2 }, status: { ok: false } }, { x: 'old' }));
    assert.deepEqual([obj['spec'], obj['extra'], obj['status'], obj.metadata.labels], [{ a: 2 }, undefined, { ok: true }, { x: 'old' }]);
    assert.deepEqual(status.resetFields, [['metadata'], ['spec']]);
  });
});
