import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatLabelSelector, labelSelectorAsSelector, type LabelSelector } from './label-selector.ts';
import { newRequirement } from './requirement.ts';
import { selectorFromSet } from './selector.ts';

describe('labelSelectorAsSelector', () => {
  const cases: { name: string; selector: LabelSelector | null; want: string; matches: Record<string, string>; wantMatch: boolean }[] = [
    { name: 'matchLabels', selector: { matchLabels: { b: '2', a: '1' } }, want: 'a=1,b=2', matches: { a: '1', b: '2' }, wantMatch: true },
    { name: 'In', selector: { matchExpressions: [{ key: 'k', operator: 'In', values: ['y', 'x'] }] },
      want: 'k in (x,y)', matches: { k: 'x' }, wantMatch: true },
    { name: 'NotIn', selector: { matchExpressions: [{ key: 'k', operator: 'NotIn', values: ['x'] }] },
      want: 'k notin (x)', matches: { k: 'x' }, wantMatch: false },
    { name: 'Exists', selector: { matchExpressions: [{ key: 'k', operator: 'Exists' }] }, want: 'k', matches: {}, wantMatch: false },
    { name: 'DoesNotExist', selector: { matchExpressions: [{ key: 'k', operator: 'DoesNotExist' }] },
      want: '!k', matches: {}, wantMatch: true },
    { name: 'mixed, sorted by key', selector: { matchLabels: { z: '1' }, matchExpressions: [{ key: 'a', operator: 'Exists' }] },
      want: 'a,z=1', matches: { a: '', z: '1' }, wantMatch: true },
    { name: 'empty selects everything', selector: {}, want: '', matches: {}, wantMatch: true },
    { name: 'null selects nothing', selector: null, want: '', matches: {}, wantMatch: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = labelSelectorAsSelector(c.selector);
      assert.equal(s.toString(), c.want);
      assert.equal(s.matches(c.matches), c.wantMatch);
    });
  }

  const errors: { name: string; selector: LabelSelector; want: string }[] = [
    { name: 'unknown operator', selector: { matchExpressions: [{ key: 'k', operator: 'Foo' }] },
      want: '"Foo" is not a valid label selector operator' },
    { name: 'In without values', selector: { matchExpressions: [{ key: 'k', operator: 'In', values: [] }] },
      want: "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty" },
    { name: 'Exists with values', selector: { matchExpressions: [{ key: 'k', operator: 'Exists', values: ['a', 'b'] }] },
      want: 'values: Invalid value: []string{"a", "b"}: values set must be empty for exists and does not exist' },
    { name: 'invalid key and value', selector: { matchLabels: { 'a b': 'c d' } },
      want: '[key: Invalid value: "a b": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start ' +
        "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is " +
        "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), values[0][a b]: Invalid value: \"c d\": a valid label must be an empty " +
        "string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
        "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]" },
  ];
  for (const c of errors) {
    it(`rejects: ${c.name}`, () => assert.throws(() => labelSelectorAsSelector(c.selector), { name: 'LabelSelectorError', message: c.want }));
  }
});

describe('formatLabelSelector', () => {
  const cases: { name: string; selector: LabelSelector | null; want: string }[] = [
    { name: 'null', selector: null, want: '<none>' },
    { name: 'empty', selector: {}, want: '<none>' },
    { name: 'labels', selector: { matchLabels: { app: 'web' } }, want: 'app=web' },
    { name: 'invalid', selector: { matchExpressions: [{ key: 'k', operator: 'Bad' }] }, want: '<error>' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(formatLabelSelector(c.selector), c.want));
});

describe('newRequirement and selectorFromSet', () => {
  it('gt requires one integer value', () => {
    assert.throws(() => newRequirement('k', 'gt', ['1', '2']), {
      message: "values: Invalid value: []string{\"1\", \"2\"}: for 'Gt', 'Lt' operators, exactly one value is required",
    });
  });
  it('selectorFromSet builds equality terms without validation', () => {
    const s = selectorFromSet({ b: 'x y', a: '1' });
    assert.equal(s.toString(), 'a=1,b=x y');
    assert.equal(s.matches({ a: '1', b: 'x y' }), true);
    assert.equal(selectorFromSet({}).empty, true);
  });
});
