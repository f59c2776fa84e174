import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalQuantityText, goParseQuantity, milliValue, QUANTITY_FORMAT_ERROR, QUANTITY_NUMERIC_ERROR, QUANTITY_SUFFIX_ERROR } from './quantity.ts';

describe('canonicalQuantityText: the text a decoded Quantity marshals back to (kube-apiserver v1.36.3)', () => {
  // the client's text kept: ParseQuantity deems it canonical
  const kept = ['100m', '1500m', '+1', '01', '1.', '1e3', '10e3', '1E3', '2e-3', '7Ki', '8Ki', '1Mi', '1Gi', '1E', '2e18', '-1', '1023', '1536'];
  for (const q of kept) it(`${q} is kept`, () => assert.equal(canonicalQuantityText(q), q));
  const rewritten: [string | number, string][] = [
    ['0.5', '500m'], ['1.5', '1500m'], ['1000m', '1'], ['10000m', '10'], ['2000', '2k'], ['1000000', '1M'], ['1024Mi', '1Gi'], ['1.5Gi', '1536Mi'],
    ['1.5Ki', '1536'], ['0.5Ki', '512'], ['0.1Ki', '102400m'], ['12e2', '1200'], ['1000e3', '1e6'], ['5e-1', '500e-3'], ['1e19', '10e18'],
    ['-0', '0'], ['.5', '500m'], [3, '3'], [1.5, '1500m'], ['1.0Gi', '1Gi'],
  ];
  for (const [q, want] of rewritten) it(`${q} is ${want}`, () => assert.equal(canonicalQuantityText(q), want));
  it('a malformed quantity has none', () => assert.equal(canonicalQuantityText('1K'), undefined));
});

describe('goParseQuantity: resource.ParseQuantity at its edges (answers of kube-apiserver v1.36.3)', () => {
  const cases: { name: string; text: string; want: string }[] = [
    { name: 'a lone dot is 0', text: '.', want: '0' },
    { name: 'a suffix without digits is 0', text: 'e3', want: '0' },
    { name: 'a sign alone is 0', text: '-', want: '0' },
    { name: 'Ki alone is 0', text: 'Ki', want: '0' },
    { name: 'BinarySI is capped at MaxInt64', text: '2048Ei', want: '9223372036854775807' },
    { name: '8Ei overflows the cap', text: '8Ei', want: '9223372036854775807' },
    { name: '7Ei fits', text: '7Ei', want: '7Ei' },
    { name: 'the cap keeps the sign', text: '-2048Ei', want: '-9223372036854775807' },
    { name: 'decimal values are not capped', text: '1e400', want: '10e399' },
    { name: 'DecimalSI beyond E has no suffix', text: '1000E', want: '1' },
    { name: 'below nano rounds up to nano', text: '1e-400', want: '1e-9' },
    { name: 'a binary fraction is decimal', text: '0.5Ki', want: '512' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(canonicalQuantityText(c.text), c.want));
  }
  const errors: { name: string; text: string; want: string }[] = [
    { name: 'empty', text: '', want: QUANTITY_FORMAT_ERROR },
    { name: 'two dots', text: '1.2.3', want: QUANTITY_FORMAT_ERROR },
    { name: 'letters after the exponent', text: '1e3m', want: QUANTITY_FORMAT_ERROR },
    { name: 'a lone e', text: 'e', want: QUANTITY_SUFFIX_ERROR },
    { name: 'K is no suffix', text: '1K', want: QUANTITY_SUFFIX_ERROR },
    { name: 'an exponent beyond int64', text: '1e99999999999999999999', want: QUANTITY_SUFFIX_ERROR },
    { name: 'an exponent kube would spend minutes on', text: '1e2000000000', want: QUANTITY_NUMERIC_ERROR },
    { name: 'a negative exponent kube times out on', text: '1e-2000000000', want: QUANTITY_NUMERIC_ERROR },
  ];
  for (const c of errors) {
    it(`${c.name} is refused`, () => assert.deepEqual(goParseQuantity(c.text), { error: c.want }));
  }
});

describe('huge exponents kube v1.36.3 answers (measured against the oracle)', () => {
  const cases = [
    { name: 'a negative exponent beyond 1e5 rounds up to a nano', text: '1e-100001', want: '1e-9' },
    { name: 'a negative exponent of ten million', text: '1e-10000000', want: '1e-9' },
    { name: 'many digits under a negative exponent', text: '123456789e-100005', want: '1e-9' },
    { name: 'a large positive exponent, formatted', text: '1e100000', want: '10e99999' },
    { name: 'a large canonical exponent, kept', text: '1e99999', want: '1e99999' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(canonicalQuantityText(c.text), c.want));
});

describe('milliValue: Quantity.MilliValue with its int64 overflow', () => {
  const cases: { name: string; text: string; want: bigint }[] = [
    { name: 'whole bytes', text: '1Gi', want: 1073741824000n },
    { name: 'a fraction rounds up', text: '1e-400', want: 1n },
    { name: 'an int64 amount overflowing in the loop is 0', text: '1e400', want: 0n },
    { name: 'an inf.Dec keeps the low 64 bits', text: '7Ei', want: BigInt.asIntN(64, 7n * 2n ** 60n * 1000n) },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = goParseQuantity(c.text);
      assert.ok(!('error' in r));
      assert.equal(milliValue(r.amount), c.want);
    });
  }
});
