// Fuzzing the label and field selector parsers (issue 9): any query text parses or is refused
// with the parser's own error (a 400 at the handler), never a crash, and long selectors (10k
// terms, as a tenant can send within kube's 1 MB of headers) parse in one pass.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { clientSafe, fuzz, hostileKey, PROTO_KEYS } from '../testing/fuzz.ts';
import { FieldSelectorError, parseFieldSelector, parseFieldSelectorParam } from '../fields/index.ts';
import { LabelSelectorError, parseLabelSelectorParam, parseSelector } from './index.ts';

/** Selector text from the grammar's own tokens, shuffled: operators, parentheses, escapes, unicode. */
const selectorText: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.oneof(hostileKey, fc.constantFrom('=', '==', '!=', ',', 'in', 'notin', '(', ')', '!', ' ', 'a', 'x.io/k', 'v', '\\', '\\,', '\\=', '>', '<', '1', '-1', '9223372036854775808', 'e')), { maxLength: 12 })
    .map((tokens) => tokens.join('')),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...PROTO_KEYS).map((k) => `${k}=v,${k} in (a,b),!${k}`),
);

const terms = (n: number, term: (i: number) => string): string => Array.from({ length: n }, (_, i) => term(i)).join(',');

describe('selector fuzzing', () => {
  it('label selectors parse or throw LabelSelectorError (400 at the handler)', () => {
    fuzz(selectorText, (text) => {
      clientSafe(() => parseSelector(text), [LabelSelectorError]);
      clientSafe(() => parseLabelSelectorParam(text));
    }, { seed: 9301, numRuns: 500 });
  });

  it('field selectors parse or throw FieldSelectorError (400 at the handler)', () => {
    fuzz(selectorText, (text) => {
      clientSafe(() => parseFieldSelector(text), [FieldSelectorError]);
      clientSafe(() => parseFieldSelectorParam(text));
    }, { seed: 9302, numRuns: 500 });
  });

  it('10k-term selectors parse', () => {
    assert.equal(parseSelector(terms(10_000, (i) => `k${i}=v`)).requirements?.length, 10_000);
    assert.equal(parseSelector(terms(10_000, (i) => `k${i} in (a,b,c)`)).requirements?.length, 10_000);
    assert.ok(parseFieldSelector(terms(10_000, (i) => `metadata.name!=n${i}`)));
  });
});
