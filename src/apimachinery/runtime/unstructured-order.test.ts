import { it } from 'node:test';
import assert from 'node:assert/strict';
import { unstructuredOrder } from './unstructured-order.ts';

it('sorts the keys of every object of an unstructured value, as Go prints maps, keeping "__proto__" a member', () => {
  const cases = [
    { name: 'nested', in: { spec: { size: 's', replicas: 1 }, apiVersion: 'v', kind: 'K', metadata: { uid: 'u', name: 'n' } },
      want: '{"apiVersion":"v","kind":"K","metadata":{"name":"n","uid":"u"},"spec":{"replicas":1,"size":"s"}}' },
    { name: 'in lists', in: { items: [{ b: 1, a: 2 }] }, want: '{"items":[{"a":2,"b":1}]}' },
    { name: 'prototype names', in: JSON.parse('{"z":1,"__proto__":{"y":1,"x":2}}') as unknown, want: '{"__proto__":{"x":2,"y":1},"z":1}' },
  ];
  for (const c of cases) assert.equal(JSON.stringify(unstructuredOrder(c.in)), c.want, c.name);
});
