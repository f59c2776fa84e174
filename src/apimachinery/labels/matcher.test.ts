import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileMatcher } from './matcher.ts';
import { parseToRequirements } from './parser.ts';
import { Requirement, type Labels } from './requirement.ts';

// The folded matcher must agree with evaluating every requirement on its own.
const SELECTORS = [
  'a=1', 'a!=1', 'a', '!a', 'a in (1,2)', 'a notin (1,2)', 'a>1', 'a<5', 'a>1,a<5', 'a>1,a>3', 'a<5,a<2',
  'a in (1,2),a in (2,3)', 'a in (1),a in (2)', 'a in (1,2),a!=2', 'a,!a', 'a=1,b=2', 'a=1,!b', '!a,!b,!c',
  'a notin (1),a notin (2)', 'a>1,a', 'a in (1,2),a notin (1),b', 'a==1,a=1', 'a=',
];
// Requirements the parser refuses but other callers may build.
const BUILT: { name: string; reqs: Requirement[] }[] = [
  { name: 'gt with a bound that is no integer', reqs: [new Requirement('a', 'gt', ['x'])] },
  { name: 'gt with two values', reqs: [new Requirement('a', 'gt', ['1', '2'])] },
  { name: 'negative bounds', reqs: [new Requirement('a', 'gt', ['-3']), new Requirement('a', 'lt', ['3'])] },
];
const LABEL_SETS: Labels[] = [
  {}, { a: '1' }, { a: '2' }, { a: '3' }, { a: '4' }, { a: '6' }, { a: 'x' }, { a: '' }, { a: '-2' },
  { b: '2' }, { a: '1', b: '2' }, { a: '2', b: '1' }, { c: '1' }, { a: '1', c: '' },
];

describe('compileMatcher agrees with Requirement.matches', () => {
  for (const text of SELECTORS) {
    it(text, () => {
      const reqs = parseToRequirements(text);
      const matcher = compileMatcher(reqs);
      for (const labels of LABEL_SETS) {
        assert.equal(matcher(labels), reqs.every((r) => r.matches(labels)), `${text} on ${JSON.stringify(labels)}`);
      }
    });
  }
  for (const b of BUILT) {
    it(b.name, () => {
      const matcher = compileMatcher(b.reqs);
      for (const labels of LABEL_SETS) {
        assert.equal(matcher(labels), b.reqs.every((r) => r.matches(labels)), `${b.name} on ${JSON.stringify(labels)}`);
      }
    });
  }
  it('a selector of 100k terms matches as its terms do', () => {
    const negatives = parseToRequirements(Array.from({ length: 100_000 }, (_, i) => `!k${i}`).join(','));
    const m = compileMatcher(negatives);
    assert.equal(m({ app: 'web' }), true);
    assert.equal(m({ app: 'web', k99999: '' }), false);
  });
});
