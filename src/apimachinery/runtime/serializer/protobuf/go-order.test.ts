import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { messageForKind } from './descriptors.ts';
import { goOrderedDeep } from './go-order.ts';
import { decodeProtobuf, encodeProtobuf } from './index.ts';

const keys = (v: unknown): string[] => Object.keys(v as object);

describe('built-in objects read back in Go\'s JSON key order', () => {
  const cases = [
    {
      name: 'TypeMeta first, then the struct fields in declaration order (Container: terminationMessagePolicy before imagePullPolicy)',
      obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' },
        spec: { containers: [{ imagePullPolicy: 'Always', terminationMessagePolicy: 'File', image: 'i', name: 'c' }] } },
      want: (o: Record<string, unknown>) => {
        assert.deepEqual(keys(o).slice(0, 3), ['kind', 'apiVersion', 'metadata']);
        const c = (o['spec'] as { containers: unknown[] }).containers[0];
        assert.deepEqual(keys(c), ['name', 'image', 'terminationMessagePolicy', 'imagePullPolicy']);
      },
    },
    {
      name: 'a nil list without omitempty is null at its place, not last',
      obj: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r' },
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } },
      want: (o: Record<string, unknown>) => {
        assert.deepEqual(keys(o), ['kind', 'apiVersion', 'metadata', 'rules', 'aggregationRule']);
        assert.equal(o['rules'], null);
      },
    },
    {
      name: 'map keys sorted',
      obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { z: '1', a: '2', m: '3' } }, data: { y: '1', b: '2' } },
      want: (o: Record<string, unknown>) => {
        assert.deepEqual(keys((o['metadata'] as { labels: object }).labels), ['a', 'm', 'z']);
        assert.deepEqual(keys(o['data']), ['b', 'y']);
      },
    },
  ];
  for (const c of cases) {
    it(`protobuf: ${c.name}`, () => c.want(decodeProtobuf(encodeProtobuf(c.obj)).obj));
    it(`JSON: ${c.name}`, () => {
      const msg = messageForKind(c.obj.apiVersion, c.obj.kind);
      assert.ok(msg !== undefined);
      const o = goOrderedDeep(structuredClone(c.obj) as Record<string, unknown>, msg, true);
      // JSON has no nil lists to fill in; the rest holds.
      if (c.obj.kind === 'ClusterRole') assert.deepEqual(keys(o), ['kind', 'apiVersion', 'metadata', 'aggregationRule']);
      else c.want(o);
    });
  }
});
