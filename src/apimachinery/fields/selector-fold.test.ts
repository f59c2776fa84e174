// Selectors of more than 8 terms are matched per field; they must agree with term-by-term matching.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newFieldSelector, type FieldRequirement, type Fields } from './selector.ts';

const pad: FieldRequirement[] = Array.from({ length: 9 }, (_, i) => ({ field: 'x', operator: '!=', value: `pad${i}` }));
const CASES: { name: string; reqs: FieldRequirement[] }[] = [
  { name: 'one equal', reqs: [{ field: 'a', operator: '=', value: '1' }] },
  { name: 'two different equals', reqs: [{ field: 'a', operator: '=', value: '1' }, { field: 'a', operator: '=', value: '2' }] },
  { name: 'same equal twice', reqs: [{ field: 'a', operator: '=', value: '1' }, { field: 'a', operator: '=', value: '1' }] },
  { name: 'equal and not equal', reqs: [{ field: 'a', operator: '=', value: '1' }, { field: 'a', operator: '!=', value: '1' }] },
  { name: 'not equal empty (missing field is "")', reqs: [{ field: 'b', operator: '!=', value: '' }] },
  { name: 'equal empty', reqs: [{ field: 'b', operator: '=', value: '' }] },
  { name: 'three equals', reqs: ['1', '2', '1'].map((value) => ({ field: 'a', operator: '=' as const, value })) },
];
const FIELD_SETS: Fields[] = [{}, { a: '1' }, { a: '2' }, { a: '1', b: '' }, { b: 'x' }, { a: '1', x: 'pad3' }, { x: 'y' }];

describe('a field selector of many terms matches as its terms do', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const reqs = [...pad, ...c.reqs];
      const sel = newFieldSelector(reqs);
      for (const f of FIELD_SETS) {
        const want = reqs.every((r) => (r.operator === '=' ? (f[r.field] ?? '') === r.value : (f[r.field] ?? '') !== r.value));
        assert.equal(sel.matches(f), want, `${c.name} on ${JSON.stringify(f)}`);
      }
    });
  }
});
