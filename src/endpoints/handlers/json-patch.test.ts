import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyJSONPatchOps, JSONPatchError } from './json-patch.ts';

const doc = { metadata: { name: 'a', finalizers: ['x', 'y'] }, data: { m: 'v' } };

test('operations that succeed, with evanphx/json-patch v4\'s leniency', () => {
  const cases = [
    { name: 'add a key', ops: [{ op: 'add', path: '/data/n', value: 'w' }], want: { ...doc, data: { m: 'v', n: 'w' } } },
    { name: 'add at the end with -', ops: [{ op: 'add', path: '/metadata/finalizers/-', value: 'z' }], want: { ...doc, metadata: { name: 'a', finalizers: ['x', 'y', 'z'] } } },
    { name: 'add at a negative index', ops: [{ op: 'add', path: '/metadata/finalizers/-1', value: 'z' }], want: { ...doc, metadata: { name: 'a', finalizers: ['x', 'y', 'z'] } } },
    { name: 'replace of a missing key adds it', ops: [{ op: 'replace', path: '/data/n', value: 'w' }], want: { ...doc, data: { m: 'v', n: 'w' } } },
    { name: 'copy of a missing key copies null', ops: [{ op: 'copy', from: '/data/zz', path: '/data/n' }], want: { ...doc, data: { m: 'v', n: null } } },
    { name: 'test of a missing key against null', ops: [{ op: 'test', path: '/data/zz', value: null }], want: doc },
    { name: 'move', ops: [{ op: 'move', from: '/data/m', path: '/data/n' }], want: { ...doc, data: { n: 'v' } } },
    { name: 'escaped keys', ops: [{ op: 'add', path: '/data/a~1b~0c', value: '1' }], want: { ...doc, data: { m: 'v', 'a/b~c': '1' } } },
    { name: 'replace of the whole document with a scalar does nothing', ops: [{ op: 'replace', path: '', value: 1 }], want: doc },
  ];
  for (const c of cases) assert.deepEqual(applyJSONPatchOps(doc, c.ops), c.want, c.name);
});

test('failures carry evanphx/json-patch v4\'s messages', () => {
  const cases = [
    { name: 'test fails', op: { op: 'test', path: '/data/m', value: 'x' }, message: 'testing value /data/m failed: test failed' },
    { name: 'remove of a missing key', op: { op: 'remove', path: '/data/zz' }, message: "error in remove for path: '/data/zz': Unable to remove nonexistent key: zz: missing value" },
    { name: 'add under a missing parent', op: { op: 'add', path: '/spec/x', value: 1 }, message: 'add operation does not apply: doc is missing path: "/spec/x": missing value' },
    { name: 'replace past the end', op: { op: 'replace', path: '/metadata/finalizers/5', value: 1 }, message: 'replace operation does not apply: doc is missing key: /metadata/finalizers/5: missing value' },
    { name: 'move from a missing key', op: { op: 'move', from: '/data/zz', path: '/data/n' }, message: "error in move for path: 'zz': Unable to remove nonexistent key: zz: missing value" },
    { name: 'copy from a missing parent', op: { op: 'copy', from: '/spec/x', path: '/data/n' }, message: 'copy operation does not apply: doc is missing from path: /spec/x: missing value' },
    { name: 'add past the end', op: { op: 'add', path: '/metadata/finalizers/3', value: 'z' }, message: "error in add for path: '/metadata/finalizers/3': Unable to access invalid index: 3: invalid index referenced" },
    { name: 'add at a bad index', op: { op: 'add', path: '/metadata/finalizers/x', value: 'z' }, message: "error in add for path: '/metadata/finalizers/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax" },
    { name: 'remove at a negative index too far', op: { op: 'remove', path: '/metadata/finalizers/-3' }, message: "error in remove for path: '/metadata/finalizers/-3': Unable to access invalid index: -3: invalid index referenced" },
    { name: 'no path', op: { op: 'add', value: 1 }, message: 'add operation failed to decode path: missing value' },
    { name: 'an unknown op', op: { op: 'frob', path: '/data' }, message: 'Unexpected kind: frob' },
  ];
  for (const c of cases) {
    assert.throws(() => applyJSONPatchOps(doc, [c.op]), (e: unknown) => e instanceof JSONPatchError && e.message === c.message, c.name);
  }
  // The document given is not changed.
  assert.deepEqual(doc.data, { m: 'v' });
});

test('copy operations may add at most JSONPatchMaxCopyBytes in total (evanphx v4 AccumulatedCopySizeLimit)', () => {
  const big = { metadata: { name: 'a' }, data: { k: 'x'.repeat(1024 * 1024) } };
  const bomb = Array.from({ length: 16 }, (_, i) => ({ op: 'copy', from: '/data', path: `/data/c${i}` }));
  const cases = [
    // {"m":"v"} is 9 bytes, then {"m":"v","c0":{"m":"v"}} 24: 33 in total.
    { name: 'the sizes of the copied values add up', doc, ops: [{ op: 'copy', from: '/data', path: '/data/c0' }, { op: 'copy', from: '/data', path: '/data/c1' }], limit: 20,
      message: 'Unable to complete the copy, the accumulated size increase of copy is 33, exceeding the limit 20' },
    // Go's encoder writes "<&>" as "\u003c\u0026\u003e": 20 bytes.
    { name: 'sizes are those of Go\'s JSON encoding', doc: { data: { m: '<&>' } }, ops: [{ op: 'copy', from: '/data/m', path: '/data/n' }], limit: 19,
      message: 'Unable to complete the copy, the accumulated size increase of copy is 20, exceeding the limit 19' },
    // 1048584 bytes, then 2097174: the second copy passes the limit.
    { name: 'a copy bomb stops at kube\'s 3 MiB default', doc: big, ops: bomb, limit: undefined,
      message: 'Unable to complete the copy, the accumulated size increase of copy is 3145758, exceeding the limit 3145728' },
  ];
  for (const c of cases) {
    assert.throws(() => applyJSONPatchOps(c.doc, c.ops, c.limit), (e: unknown) => e instanceof JSONPatchError && e.message === c.message, c.name);
  }
  // At the limit is still allowed, and a missing source copies null without counting.
  assert.deepEqual(applyJSONPatchOps({ data: { m: '<&>' } }, [{ op: 'copy', from: '/data/m', path: '/data/n' }, { op: 'copy', from: '/data/zz', path: '/data/o' }], 20),
    { data: { m: '<&>', n: '<&>', o: null } });
});

test('keys named like Object.prototype members are data', () => {
  const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
  for (const name of names) {
    const ops = [
      { op: 'add', path: `/data/${name}`, value: 'a' },
      { op: 'copy', from: `/data/${name}`, path: '/data/copied' },
      { op: 'replace', path: '/data/m', value: { [name]: 'b' } },
      { op: 'test', path: `/data/${name}`, value: 'a' },
    ];
    const out = applyJSONPatchOps(doc, ops) as { data: Record<string, unknown> };
    assert.deepEqual(Object.keys(out.data), ['m', name, 'copied'], name);
    assert.equal(Object.getPrototypeOf(out.data), Object.prototype, name);
    assert.equal(Object.getOwnPropertyDescriptor(out.data, name)?.value, 'a', name);
    assert.equal(Object.getOwnPropertyDescriptor(out.data['m'], name)?.value, 'b', name);
    assert.throws(() => applyJSONPatchOps(doc, [{ op: 'remove', path: `/data/${name}` }]), JSONPatchError, name);
  }
  assert.equal(Object.keys(Object.prototype).length, 0);
});
