import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStorageError } from './interfaces.ts';
import { parseResourceVersion, setResourceVersion } from './versioner.ts';

describe('parseResourceVersion', () => {
  it('reads "" and "0" as any, digits as a revision', () => {
    assert.equal(parseResourceVersion('/k', ''), 0);
    assert.equal(parseResourceVersion('/k', '0'), 0);
    assert.equal(parseResourceVersion('/k', '42'), 42);
  });

  for (const c of [
    { name: 'letters', rv: 'abc', want: 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax' },
    { name: 'a sign', rv: '-1', want: 'resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax' },
    { name: 'more than 64 bits', rv: '18446744073709551616',
      want: 'resourceVersion: Invalid value: "18446744073709551616": strconv.ParseUint: parsing "18446744073709551616": value out of range' },
  ]) {
    it(`rejects ${c.name} with APIObjectVersioner's field error`, () => {
      assert.throws(() => parseResourceVersion('/k', c.rv), (err: unknown) => isStorageError(err, 'InvalidError') && err.message === c.want);
    });
  }
});

describe('setResourceVersion', () => {
  const cases = [
    { name: 'typed: after uid, before the fields Go declares later', unstructured: false,
      meta: { name: 'n', uid: 'u', creationTimestamp: 't', labels: {} }, want: ['name', 'uid', 'resourceVersion', 'creationTimestamp', 'labels'] },
    { name: 'typed: last when nothing Go declares later is there', unstructured: false, meta: { name: 'n', uid: 'u' }, want: ['name', 'uid', 'resourceVersion'] },
    { name: 'unstructured: in sorted place', unstructured: true,
      meta: { creationTimestamp: 't', name: 'n', namespace: 's', uid: 'u' }, want: ['creationTimestamp', 'name', 'namespace', 'resourceVersion', 'uid'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const obj = { metadata: { ...c.meta } };
      setResourceVersion(obj, '7', c.unstructured);
      assert.deepEqual(Object.keys(obj.metadata), c.want);
      assert.equal((obj.metadata as { resourceVersion?: string }).resourceVersion, '7');
    });
  }
});
