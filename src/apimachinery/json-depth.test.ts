import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from './errors/status-error.ts';
import { checkBodyDepth, checkPatchedDepth, MAX_DECODE_DEPTH, MAX_OBJECT_DEPTH, stringifyJSON, valueDepth } from './json-depth.ts';

/** {"a":{"a":...leaf}} with `levels` objects. */
function nest(levels: number, leaf: unknown = 1): unknown {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

test('valueDepth counts objects and arrays without recursion', () => {
  const cases = [
    { name: 'scalar', value: 'x', want: 0 },
    { name: 'null', value: null, want: 0 },
    { name: 'empty object', value: {}, want: 1 },
    { name: 'empty array', value: [], want: 1 },
    { name: 'mixed', value: { a: [1, { b: [] }], c: 2 }, want: 4 },
    { name: 'deepest branch wins', value: [{}, [[[]]], {}], want: 4 },
    { name: '100k levels', value: nest(100_000), want: 100_000 },
  ];
  for (const c of cases) assert.equal(valueDepth(c.value), c.want, c.name);
  assert.ok(valueDepth(nest(100_000), 10) > 10, 'stops above the bound');
});

/** An object whose spec nests `spec` levels and whose whole managedFields reach level `fields` (the object is level 1). */
function withManagedFields(spec: number, fields: number): unknown {
  return { metadata: { name: 'x', managedFields: [{ manager: 'm', fieldsV1: nest(fields - 5, {}) }] }, spec: nest(spec) };
}

test('the object depth cap: N is accepted, N+1 refused with 400 (body) or 422 (patched object)', () => {
  const cases = [
    { name: 'body at N', check: () => checkBodyDepth(nest(MAX_OBJECT_DEPTH)), code: undefined },
    { name: 'body at N+1', check: () => checkBodyDepth(nest(MAX_OBJECT_DEPTH + 1)), code: 400 },
    { name: 'array body at N+1', check: () => checkBodyDepth(JSON.parse('['.repeat(MAX_OBJECT_DEPTH + 1) + ']'.repeat(MAX_OBJECT_DEPTH + 1))), code: 400 },
    { name: 'patched at N', check: () => checkPatchedDepth(nest(MAX_OBJECT_DEPTH)), code: undefined },
    // managedFields mirror the object's fields a few levels further down.
    { name: 'managedFields of an object at N', check: () => checkBodyDepth(withManagedFields(MAX_OBJECT_DEPTH - 1, MAX_OBJECT_DEPTH + 4)), code: undefined },
    { name: 'managedFields at the decode limit', check: () => checkBodyDepth(withManagedFields(1, MAX_DECODE_DEPTH)), code: undefined },
    { name: 'managedFields beyond the decode limit', check: () => checkBodyDepth(withManagedFields(1, MAX_DECODE_DEPTH + 1)), code: 400 },
    { name: 'data at N+1 beside managedFields', check: () => checkBodyDepth(withManagedFields(MAX_OBJECT_DEPTH, 3)), code: 400 },
    { name: 'patched at N+1', check: () => checkPatchedDepth(nest(MAX_OBJECT_DEPTH + 1)), code: 422 },
  ];
  for (const c of cases) {
    if (c.code === undefined) { assert.doesNotThrow(c.check, c.name); continue; }
    assert.throws(c.check, (err: unknown) => {
      assert.ok(err instanceof StatusError, c.name);
      assert.equal(err.status.code, c.code, c.name);
      assert.equal(err.status.reason, c.code === 400 ? 'BadRequest' : 'Invalid', c.name);
      assert.match(err.status.message ?? '', new RegExp(`more than ${MAX_OBJECT_DEPTH} levels deep`), c.name);
      return true;
    }, c.name);
  }
});

test('stringifyJSON writes values of any depth as JSON.stringify would', () => {
  const deep = 200_000;
  const cases = [
    { name: 'object chain', value: nest(deep), want: '{"a":'.repeat(deep) + '1' + '}'.repeat(deep) },
    { name: 'array chain', value: JSON.parse('['.repeat(deep) + ']'.repeat(deep)) as unknown, want: '['.repeat(deep) + ']'.repeat(deep) },
  ];
  for (const c of cases) assert.equal(stringifyJSON(c.value), c.want, c.name);
  // The iterative writer's details, on a deep value that holds every kind of member.
  const members = { s: 'q"\n', n: -1.5, t: true, z: null, u: undefined, f: () => 1, d: new Date(0), arr: [undefined, 1, {}], e: [] };
  const value = nest(deep, members);
  const want = '{"a":'.repeat(deep) + JSON.stringify(members) + '}'.repeat(deep);
  assert.equal(stringifyJSON(value), want);
  assert.equal(stringifyJSON({ x: 1 }), '{"x":1}', 'shallow values take the native path');
});
