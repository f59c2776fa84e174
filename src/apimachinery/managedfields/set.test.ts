import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fieldElement as f, keyElement, pathToString, valueElement } from './path-element.ts';
import { FieldSet } from './set.ts';
import { managerOrUserAgent, validateFieldManager, validatePatchFieldManager } from './manager-name.ts';

const k = (o: Record<string, string | number>) => keyElement(Object.entries(o).map(([name, value]) => ({ name, value })));

describe('FieldsV1 encoding', () => {
  const cases = [
    {
      name: 'kubectl create configmap',
      set: FieldSet.of([f('data')], [f('data'), f('key')], [f('metadata'), f('labels')], [f('metadata'), f('labels'), f('app')]),
      want: { 'f:data': { '.': {}, 'f:key': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
    },
    {
      name: 'map-list keys are JSON with sorted key names',
      set: FieldSet.of([f('spec'), f('ports'), k({ protocol: 'TCP', port: 80 })], [f('spec'), f('ports'), k({ protocol: 'TCP', port: 80 }), f('port')]),
      want: { 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {} } } } },
    },
    {
      name: 'set items as v:<json>',
      set: FieldSet.of([f('metadata'), f('finalizers'), valueElement('a/b')]),
      want: { 'f:metadata': { 'f:finalizers': { 'v:"a/b"': {} } } },
    },
    { name: 'empty set', set: new FieldSet(), want: {} },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(c.set.toFieldsV1(), c.want);
      assert.equal(JSON.stringify(c.set.toFieldsV1()), JSON.stringify(c.want));
      assert.ok(FieldSet.fromFieldsV1(c.want).equals(c.set));
    });
  }
  it('skips unknown prefixes and rejects malformed keys', () => {
    assert.ok(FieldSet.fromFieldsV1({ 'x:y': {}, 'f:a': {} }).equals(FieldSet.of([f('a')])));
    assert.throws(() => FieldSet.fromFieldsV1({ 'fa': {} }), /missing colon/);
    assert.throws(() => FieldSet.fromFieldsV1({ 'k:{bad': {} }));
  });
  it('prints paths as kube does', () => {
    assert.equal(pathToString([f('spec'), f('containers'), k({ name: 'c' }), f('image')]), '.spec.containers[name="c"].image');
    assert.equal(pathToString([f('metadata'), f('finalizers'), valueElement('x')]), '.metadata.finalizers[="x"]');
  });
});

describe('FieldSet operations', () => {
  const a = FieldSet.of([f('spec')], [f('spec'), f('replicas')], [f('data'), f('a')]);
  const b = FieldSet.of([f('spec'), f('replicas')], [f('data'), f('b')]);
  const cases = [
    { name: 'union', got: a.union(b), want: ['.data.a', '.data.b', '.spec', '.spec.replicas'] },
    { name: 'intersection', got: a.intersection(b), want: ['.spec.replicas'] },
    { name: 'difference removes exact paths only', got: a.difference(FieldSet.of([f('spec')])), want: ['.data.a', '.spec.replicas'] },
    { name: 'recursive difference removes subtrees', got: a.recursiveDifference(FieldSet.of([f('spec')])), want: ['.data.a'] },
    { name: 'leaves', got: a.leaves(), want: ['.data.a', '.spec.replicas'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(c.got.paths().map(pathToString).sort(), c.want));
});

describe('field manager names', () => {
  const cases = [
    { name: 'explicit', manager: 'm', ua: 'kubectl/v1.36.0', want: 'm' },
    { name: 'user agent prefix', manager: undefined, ua: 'kubectl/v1.36.0 (linux/amd64) kubernetes/abc', want: 'kubectl' },
    { name: 'no slash', manager: '', ua: 'curl', want: 'curl' },
    { name: 'unprintable dropped and cut at 128', manager: '', ua: `a\u0007${'b'.repeat(200)}`, want: `a${'b'.repeat(127)}` },
  ];
  for (const c of cases) it(c.name, () => assert.equal(managerOrUserAgent(c.manager, c.ua), c.want));
  it('validates length and characters', () => {
    assert.deepEqual(validateFieldManager('ok'), []);
    assert.equal(validateFieldManager('x'.repeat(129))[0]?.detail, 'may not be more than 128 bytes');
    assert.equal(validateFieldManager('a\u0007')[0]?.detail, 'invalid character U+0007 (at position 1)');
    assert.equal(validatePatchFieldManager('', true)[0]?.detail, 'is required for apply patch');
    assert.deepEqual(validatePatchFieldManager('', false), []);
  });
});
