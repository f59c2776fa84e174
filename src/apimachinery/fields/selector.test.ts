import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { escapeValue, parseFieldSelector, transformFieldSelector, unescapeValue } from './selector.ts';

describe('parseFieldSelector', () => {
  const cases: { name: string; input: string; want: string; reqs?: { field: string; operator: string; value: string }[] }[] = [
    { name: 'empty', input: '', want: '', reqs: [] },
    { name: 'empty terms are skipped', input: ',,a=b,', want: 'a=b' },
    { name: 'equals', input: 'metadata.name=foo', want: 'metadata.name=foo',
      reqs: [{ field: 'metadata.name', operator: '=', value: 'foo' }] },
    { name: 'double equals is equals', input: 'a==b', want: 'a=b', reqs: [{ field: 'a', operator: '=', value: 'b' }] },
    { name: 'not equals', input: 'a!=b', want: 'a!=b', reqs: [{ field: 'a', operator: '!=', value: 'b' }] },
    { name: 'terms sorted as text', input: 'x=1,a!=2,m==3', want: 'a!=2,m=3,x=1' },
    { name: 'empty value', input: 'a=', want: 'a=', reqs: [{ field: 'a', operator: '=', value: '' }] },
    { name: 'empty field', input: '=b', want: '=b', reqs: [{ field: '', operator: '=', value: 'b' }] },
    { name: 'escaped comma stays in the value', input: 'a=x\\,y,b=z', want: 'a=x\\,y,b=z',
      reqs: [{ field: 'a', operator: '=', value: 'x,y' }, { field: 'b', operator: '=', value: 'z' }] },
    { name: 'escaped equals and backslash', input: 'a=\\=\\\\', want: 'a=\\=\\\\', reqs: [{ field: 'a', operator: '=', value: '=\\' }] },
    { name: 'first operator splits', input: 'a!=\\=b', want: 'a!=\\=b', reqs: [{ field: 'a', operator: '!=', value: '=b' }] },
    { name: 'spaces are data', input: 'a = b', want: 'a = b', reqs: [{ field: 'a ', operator: '=', value: ' b' }] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = parseFieldSelector(c.input);
      assert.equal(s.toString(), c.want);
      if (c.reqs !== undefined) assert.deepEqual(s.requirements, c.reqs);
    });
  }

  const errors: { name: string; input: string; want: string }[] = [
    { name: 'no operator', input: 'a', want: "invalid selector: 'a'; can't understand 'a'" },
    { name: 'no operator in one term', input: 'x=y,abc', want: "invalid selector: 'x=y,abc'; can't understand 'abc'" },
    { name: 'unescaped equals', input: 'a=b=c', want: 'invalid field selector: unescaped character in value: 61' },
    { name: 'triple equals', input: 'a===b', want: 'invalid field selector: unescaped character in value: 61' },
    { name: 'unknown escape', input: 'a=\\n', want: 'invalid field selector: invalid escape sequence: \\n' },
    { name: 'trailing backslash', input: 'a=b\\', want: 'invalid field selector: invalid escape sequence: \\' },
  ];
  for (const c of errors) {
    it(`rejects: ${c.name}`, () => assert.throws(() => parseFieldSelector(c.input), { name: 'FieldSelectorError', message: c.want }));
  }
});

describe('field selector matching', () => {
  const fields = { 'metadata.name': 'foo', 'metadata.namespace': 'default', 'status.phase': 'Running' };
  const cases: { name: string; selector: string; want: boolean }[] = [
    { name: 'empty', selector: '', want: true },
    { name: 'equal', selector: 'metadata.name=foo', want: true },
    { name: 'equal, other value', selector: 'metadata.name=bar', want: false },
    { name: 'not equal', selector: 'metadata.namespace!=kube-system', want: true },
    { name: 'not equal, same value', selector: 'metadata.namespace!=default', want: false },
    { name: 'missing field is empty', selector: 'spec.nodeName=', want: true },
    { name: 'missing field not equal', selector: 'spec.nodeName!=n1', want: true },
    { name: 'and', selector: 'metadata.name=foo,status.phase!=Running', want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(parseFieldSelector(c.selector).matches(fields), c.want));
});

describe('field selector helpers', () => {
  it('requiresExactMatch finds an equality term only', () => {
    const s = parseFieldSelector('metadata.name=foo,metadata.namespace!=x');
    assert.equal(s.requiresExactMatch('metadata.name'), 'foo');
    assert.equal(s.requiresExactMatch('metadata.namespace'), undefined);
    assert.equal(parseFieldSelector('metadata.name==a\\,b').requiresExactMatch('metadata.name'), 'a,b');
  });
  it('escape and unescape round trip', () => {
    for (const v of ['', 'plain', 'a,b', 'a=b', 'a\\b', '\\,=']) assert.equal(unescapeValue(escapeValue(v)), v);
    assert.equal(escapeValue('a\\,='), 'a\\\\\\,\\=');
  });
  it('transform drops terms mapped to nothing and passes errors', () => {
    const s = parseFieldSelector('a=1,b=2');
    const t = transformFieldSelector(s, (field, value) => (field === 'a' ? { field: '', value: '' } : { field: `x.${field}`, value }));
    assert.equal(t.toString(), 'x.b=2');
    assert.throws(() => transformFieldSelector(s, () => { throw new Error('no'); }), { message: 'no' });
    assert.equal(transformFieldSelector(parseFieldSelector('a=1'), () => ({ field: '', value: '' })).empty, true);
  });
});
