import { it } from 'node:test';
import assert from 'node:assert/strict';
import { getPath, setPath } from './jsonpath.ts';

it('reads and writes only own members, so prototype names are plain fields', () => {
  const obj = JSON.parse('{"spec":{"__proto__":{"x":1},"items":[{"type":"constructor"}]}}') as Record<string, unknown>;
  const cases = [
    { name: 'an absent "constructor" is absent', path: '.spec.constructor', want: undefined },
    { name: 'an absent "toString" is absent', path: '.spec.toString', want: undefined },
    { name: 'an own "__proto__" is read', path: '.spec.__proto__.x', want: 1 },
    { name: 'a filter key named like a prototype member', path: '.spec.items[?(@.constructor=="x")]', want: undefined },
  ];
  for (const c of cases) assert.deepEqual(getPath(obj, c.path), c.want, c.name);
  const target: Record<string, unknown> = {};
  setPath(target, '.spec.__proto__.replicas', 3);
  assert.equal(JSON.stringify(target), '{"spec":{"__proto__":{"replicas":3}}}');
  assert.equal(Object.getPrototypeOf(target['spec']), Object.prototype);
});
