import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONSchemaProps } from '../v1/types.ts';
import { prune } from './pruning.ts';

describe('structural pruning', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          a: { type: 'string' },
          list: { type: 'array', items: { type: 'object', properties: { x: { type: 'integer' } } } },
          map: { type: 'object', additionalProperties: { type: 'object', properties: { y: { type: 'string' } } } },
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { k: { type: 'object', properties: {} } } },
          embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: {} },
        },
      },
    },
  };
  const cases: { name: string; in: Record<string, unknown>; want: Record<string, unknown> }[] = [
    { name: 'keeps apiVersion, kind and metadata at the root', in: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n' }, extra: 1 },
      want: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n' } } },
    { name: 'drops undeclared fields', in: { spec: { a: 'x', b: 'y' } }, want: { spec: { a: 'x' } } },
    { name: 'recurses into items and additionalProperties', in: { spec: { list: [{ x: 1, z: 2 }], map: { m: { y: 'v', w: 0 } } } },
      want: { spec: { list: [{ x: 1 }], map: { m: { y: 'v' } } } } },
    { name: 'keeps unknown fields where preserved, but prunes declared children',
      in: { spec: { free: { any: { deep: true }, k: { gone: 1 } } } }, want: { spec: { free: { any: { deep: true }, k: {} } } } },
    { name: 'an embedded resource keeps its type meta', in: { spec: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: {} } } },
      want: { spec: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: {} } } } },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const v = structuredClone(tc.in);
      prune(v, schema, true);
      assert.deepEqual(v, tc.want);
    });
  }
});
