import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { int64ToNumber, parseInt64, queryBool, queryInt64, StrconvError } from './query-conversion.ts';

describe('parseInt64 (strconv.ParseInt(s, 10, 64))', () => {
  const ok = [
    { name: 'zero', in: '0', want: 0n },
    { name: 'leading plus', in: '+5', want: 5n },
    { name: 'negative', in: '-5', want: -5n },
    { name: 'leading zeros', in: '0007', want: 7n },
    { name: 'max int64', in: '9223372036854775807', want: 9223372036854775807n },
    { name: 'min int64', in: '-9223372036854775808', want: -9223372036854775808n },
    { name: 'many leading zeros', in: `${'0'.repeat(100)}1`, want: 1n },
  ];
  for (const c of ok) it(c.name, () => assert.equal(parseInt64(c.in), c.want));

  const bad = [
    { name: 'empty', in: '', want: 'strconv.ParseInt: parsing "": invalid syntax' },
    { name: 'exponent', in: '1e30', want: 'strconv.ParseInt: parsing "1e30": invalid syntax' },
    { name: 'float', in: '1.5', want: 'strconv.ParseInt: parsing "1.5": invalid syntax' },
    { name: 'hex', in: '0x10', want: 'strconv.ParseInt: parsing "0x10": invalid syntax' },
    { name: 'underscore', in: '1_000', want: 'strconv.ParseInt: parsing "1_000": invalid syntax' },
    { name: 'space', in: ' 5', want: 'strconv.ParseInt: parsing " 5": invalid syntax' },
    { name: 'sign only', in: '-', want: 'strconv.ParseInt: parsing "-": invalid syntax' },
    { name: 'two signs', in: '+-1', want: 'strconv.ParseInt: parsing "+-1": invalid syntax' },
    { name: 'Infinity', in: 'Infinity', want: 'strconv.ParseInt: parsing "Infinity": invalid syntax' },
    { name: 'unicode digits', in: '١٢', want: 'strconv.ParseInt: parsing "١٢": invalid syntax' },
    { name: 'above int64', in: '9223372036854775808', want: 'strconv.ParseInt: parsing "9223372036854775808": value out of range' },
    { name: 'below int64', in: '-9223372036854775809', want: 'strconv.ParseInt: parsing "-9223372036854775809": value out of range' },
    { name: 'quote in value', in: 'a"b', want: 'strconv.ParseInt: parsing "a\\"b": invalid syntax' },
  ];
  for (const c of bad) {
    it(`refuses ${c.name}`, () => assert.throws(() => parseInt64(c.in), (e: unknown) => e instanceof StrconvError && e.message === c.want));
  }
});

describe('int64ToNumber', () => {
  const cases = [
    { name: 'small', in: 42n, want: 42 },
    { name: 'max int64 clamps to the safe range', in: 9223372036854775807n, want: Number.MAX_SAFE_INTEGER },
    { name: 'min int64 clamps to the safe range', in: -9223372036854775808n, want: -Number.MAX_SAFE_INTEGER },
  ];
  for (const c of cases) it(c.name, () => assert.equal(int64ToNumber(c.in), c.want));
});

describe('query conversions', () => {
  it('takes the first value and leaves absent parameters undefined', () => {
    const q = new URLSearchParams('limit=3&limit=x');
    assert.equal(queryInt64(q, 'limit'), 3);
    assert.equal(queryInt64(q, 'timeoutSeconds'), undefined);
  });
  const bools = [
    { name: 'true', in: 'true', want: true },
    { name: 'false', in: 'false', want: false },
    { name: 'FALSE', in: 'FALSE', want: false },
    { name: '0', in: '0', want: false },
    { name: '1', in: '1', want: true },
    { name: 'empty is true', in: '', want: true },
    { name: 'anything else is true', in: 'no', want: true },
  ];
  for (const c of bools) it(`bool ${c.name}`, () => assert.equal(queryBool(new URLSearchParams({ b: c.in }), 'b'), c.want));
});
