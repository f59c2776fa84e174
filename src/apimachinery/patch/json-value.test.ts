import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deduplicateScalars, goFormat, goTypeName, sortScalars, type JsonValue } from './json-value.ts';

describe('goFormat (fmt %v of decoded JSON)', () => {
  const cases: Array<{ name: string; value: JsonValue; want: string }> = [
    { name: 'map with sorted keys', value: { b: 1, a: 'x', $patch: 'delete' }, want: 'map[$patch:delete a:x b:1]' },
    { name: 'nested list and nil', value: { l: [1, 'a', null, true] }, want: 'map[l:[1 a <nil> true]]' },
    { name: 'whole number as int64', value: 1000000, want: '1000000' },
    { name: 'fraction', value: 1.5, want: '1.5' },
    { name: 'large fraction in exponent form', value: 1234567.5, want: '1.2345675e+06' },
    { name: 'small fraction in exponent form', value: 0.00001, want: '1e-05' },
    { name: 'empty map', value: {}, want: 'map[]' },
  ];
  for (const tc of cases) it(tc.name, () => assert.equal(goFormat(tc.value), tc.want));
});

describe('Go type names and scalar helpers', () => {
  it('names reflect types', () => {
    assert.deepEqual([{}, [], 'a', true, 1, 1.5, null].map((v) => goTypeName(v)),
      ['map[string]interface {}', '[]interface {}', 'string', 'bool', 'int64', 'float64', '%!s(<nil>)']);
  });
  it('sorts scalars by their text', () => {
    assert.deepEqual(sortScalars([10, 9, 'b', 'a']), [10, 9, 'a', 'b']);
  });
  it('deduplicates with Go\'s swap-with-last order', () => {
    assert.deepEqual(deduplicateScalars(['a', 'b', 'a', 'c']), ['a', 'b', 'c']);
    assert.deepEqual(deduplicateScalars(['a', 'a', 'b', 'c']), ['a', 'c', 'b']);
  });
});
