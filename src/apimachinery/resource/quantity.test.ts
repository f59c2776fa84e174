import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalQuantityText } from './quantity.ts';

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
