// Field sets of deep and wide objects (issue 9): FieldsV1 nested hundreds of levels and maps of
// 100k keys decode, compare and encode intact, and keys named like Object.prototype members are
// plain fields. The walks build every node once, so these complete in linear time.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { updateManagedFields } from './field-manager.ts';
import { applyConfiguration, fieldsOf } from './fields.ts';
import { fieldElement as f, pathToString } from './path-element.ts';
import { FieldSet } from './set.ts';
import { compare } from './typed.ts';
import { rootType } from './type-ref.ts';
import type { KubeObject } from '../meta/types.ts';
import type { JsonObject } from '../patch/json-value.ts';

function nested(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) v = { '.': {}, 'f:a': v };
  return v;
}

function deepValue(depth: number): JsonObject {
  let v: JsonObject = { leaf: 'x' };
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

describe('deep and wide field sets', () => {
  it('round-trips FieldsV1 nested 2000 deep', () => {
    const fields = { 'f:data': nested(2000) };
    const set = FieldSet.fromFieldsV1(fields);
    assert.equal(set.size(), 2001); // .data and its 2000 levels
    assert.equal(JSON.stringify(set.toFieldsV1()), JSON.stringify(fields));
    assert.ok(set.equals(FieldSet.fromFieldsV1(fields)));
    assert.ok(!set.equals(FieldSet.fromFieldsV1({ 'f:data': nested(1999) })));
  });

  it('takes FieldsV1 keys in any order, last spelling of an element winning', () => {
    const set = FieldSet.fromFieldsV1({ 'f:b': {}, 'f:a': { 'f:y': {}, 'f:x': {} }, 'k:{"b":1,"a":2}': { 'f:z': {} }, 'k:{"a":2,"b":1}': { 'f:w': {} } });
    assert.deepEqual(set.paths().map(pathToString), ['.b', '.a.x', '.a.y', '[a=2,b=1].w']);
  });

  it('builds, compares and encodes the fields of an object 1000 deep and one of 100k keys', () => {
    const deep = { spec: deepValue(1000) };
    const deeper = { spec: deepValue(1001) };
    assert.equal(fieldsOf(deep, undefined).size(), 1002); // without a schema every map entry is owned
    const cmp = compare(deep, deeper, rootType(undefined));
    assert.equal(cmp.added.size() + cmp.removed.size() + cmp.modified.size(), 3);
    const data: Record<string, string> = {};
    for (let i = 0; i < 100_000; i++) data[`k${i}`] = 'v';
    const wide = fieldsOf({ data }, undefined);
    assert.equal(wide.size(), 100_001);
    assert.ok(FieldSet.fromFieldsV1(wide.toFieldsV1()).equals(wide));
  });

  it('tracks an update of a ConfigMap of 100k keys', () => {
    const data: Record<string, string> = {};
    for (let i = 0; i < 100_000; i++) data[`k${i}`] = 'v';
    const cm = (d: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', uid: 'u' }, data: d }) as KubeObject;
    const created = updateManagedFields({ apiVersion: 'v1', kind: 'ConfigMap', schema: undefined, live: undefined, updated: cm(data), manager: 'a', time: '2024-01-01T00:00:00Z' });
    const updated = updateManagedFields({ apiVersion: 'v1', kind: 'ConfigMap', schema: undefined, live: created, updated: cm({ ...data, x: 'y' }), manager: 'b', time: '2024-01-01T00:00:00Z' });
    const entries = updated.metadata.managedFields ?? [];
    assert.deepEqual(entries.map((e) => e.manager), ['a', 'b']);
    assert.deepEqual(entries[1]?.fieldsV1, { 'f:data': { 'f:x': {} } });
  });
});

describe('keys named like Object.prototype members', () => {
  const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
  // Built from text: a "__proto__" member in an object literal would set the prototype.
  const data = JSON.parse(`{${names.map((n) => `"${n}":"v"`).join(',')}}`) as Record<string, string>;

  it('are fields of FieldsV1, field sets and merges', () => {
    const set = fieldsOf({ data }, undefined);
    assert.deepEqual(set.paths().map(pathToString).sort(), ['.data', ...names.map((n) => `.data.${n}`)].sort());
    const v1 = set.toFieldsV1();
    assert.ok(FieldSet.fromFieldsV1(v1).equals(set));
    const merged = applyConfiguration({ data: { other: 'x' } }, { data }, undefined) as { data: Record<string, unknown> };
    assert.deepEqual(Object.keys(merged.data).sort(), ['other', ...names].sort());
    assert.equal(Object.getPrototypeOf(merged.data), Object.prototype);
    const pruned = applyConfiguration({ data }, { data: {} }, undefined, { previouslyApplied: FieldSet.of([f('data'), f('__proto__')]) }) as { data: Record<string, unknown> };
    assert.deepEqual(Object.keys(pruned.data).sort(), names.filter((n) => n !== '__proto__').sort());
  });
});
