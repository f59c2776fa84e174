// Map keys named like Object.prototype members survive a protobuf round trip as plain members.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobuf, encodeProtobuf } from './index.ts';

it('decodes map keys named like Object.prototype members as members', () => {
  const cases = [
    { name: 'ConfigMap data', obj: JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p","labels":{"constructor":"c"}},'
      + '"data":{"__proto__":"a","constructor":"b","toString":"c","hasOwnProperty":"d"}}') as Record<string, unknown>,
    read: (o: Record<string, unknown>) => o['data'] },
    { name: 'Pod resource limits (map of messages)', obj: JSON.parse('{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},'
      + '"spec":{"containers":[{"name":"c","image":"i","resources":{"limits":{"__proto__":"1","cpu":"2"}}}]}}') as Record<string, unknown>,
    read: (o: Record<string, unknown>) => ((o['spec'] as { containers: { resources: { limits: unknown } }[] }).containers[0]?.resources.limits) },
  ];
  for (const c of cases) {
    const { obj } = decodeProtobuf(encodeProtobuf(c.obj));
    const got = c.read(obj) as Record<string, unknown>;
    // Sorted, as Go writes and reads maps.
    assert.deepEqual(Object.keys(got), Object.keys(c.read(c.obj) as object).sort(), c.name);
    assert.equal(Object.getPrototypeOf(got), Object.prototype, c.name);
    assert.deepEqual(JSON.parse(JSON.stringify(got)), JSON.parse(JSON.stringify(c.read(c.obj))), c.name);
  }
  assert.equal(({} as Record<string, unknown>)['a'], undefined);
});
