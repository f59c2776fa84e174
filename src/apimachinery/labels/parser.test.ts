import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseLabelSelectorParam, parseSelector } from './parser.ts';
import { isStatusError } from '../errors/status-error.ts';

const VALUE_RULE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start " +
  "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is " +
  "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME_RULE = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an " +
  "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is " +
  "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('parseSelector: valid input and canonical text', () => {
  const cases: { name: string; input: string; want: string }[] = [
    { name: 'empty', input: '', want: '' },
    { name: 'whitespace only', input: '  \t\n', want: '' },
    { name: 'equals, sorted by key', input: 'z=c,x=a,y=b', want: 'x=a,y=b,z=c' },
    { name: 'double equals kept', input: 'x==a', want: 'x==a' },
    { name: 'not equals', input: 'x!=a', want: 'x!=a' },
    { name: 'empty value', input: 'x=', want: 'x=' },
    { name: 'empty value before comma', input: 'x=,y=b', want: 'x=,y=b' },
    { name: 'exists', input: 'x', want: 'x' },
    { name: 'does not exist', input: '!x', want: '!x' },
    { name: 'does not exist with spaces', input: '! x', want: '!x' },
    { name: 'in with sorted, deduplicated values', input: 'x in (b,a,b)', want: 'x in (a,b)' },
    { name: 'empty entries in a set', input: 'x in (foo,,baz),y,z notin ()', want: 'x in (,baz,foo),y,z notin ()' },
    { name: 'leading comma in set', input: 'x in (,a)', want: 'x in (,a)' },
    { name: 'trailing comma in set', input: 'x in (a,)', want: 'x in (,a)' },
    { name: 'keywords as values', input: 'x in (in,notin)', want: 'x in (in,notin)' },
    { name: 'keyword as key', input: 'in in (in)', want: 'in in (in)' },
    { name: 'greater than', input: 'x>1', want: 'x>1' },
    { name: 'less than with spaces', input: 'x < 10', want: 'x<10' },
    { name: 'prefixed key', input: 'example.com/app=web', want: 'example.com/app=web' },
    { name: 'whitespace around tokens', input: '   x  =  a  ,  y  ', want: 'x=a,y' },
    { name: 'equal keys keep their order', input: 'x=b,x!=a', want: 'x=b,x!=a' },
    { name: 'NUL at the start of a token ends the input', input: 'x=a \0,garbage', want: 'x=a' },
    { name: 'NUL inside a token only ends the token', input: 'x=a\0,y', want: 'x=a,y' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(parseSelector(c.input).toString(), c.want));
  }
});

describe('parseSelector: errors carry kube messages', () => {
  const cases: { name: string; input: string; want: string }[] = [
    { name: 'space inside a requirement', input: 'a b',
      want: 'unable to parse requirement: found \'b\', expected: in, notin, =, ==, !=, gt, lt' },
    { name: 'trailing comma', input: 'x=a,', want: "found '', expected: identifier after ','" },
    { name: 'leading comma', input: ',x=a', want: "found ',', expected: !, identifier, or 'end of string'" },
    { name: 'two values', input: 'x=a b', want: "found 'b', expected: ',' or 'end of string'" },
    { name: 'chained equals', input: 'x=a=b', want: "found '=', expected: ',' or 'end of string'" },
    { name: 'not with operator', input: '!x=a', want: "found '=', expected: ',' or 'end of string'" },
    { name: 'bare bang', input: '!', want: "unable to parse requirement: found '', expected: identifier" },
    { name: 'in without parenthesis', input: 'x in a', want: "unable to parse requirement: found 'a' expected: '('" },
    { name: 'unclosed set', input: 'x in (a', want: "unable to parse requirement: found '', expected: ',' or ')'" },
    { name: 'space in set', input: 'x in (a b)', want: "unable to parse requirement: found 'b', expected: ',' or ')'" },
    { name: 'operator in set', input: 'x in (=)', want: "unable to parse requirement: found '=', expected: ',', ')' or identifier" },
    { name: 'set after equals', input: 'x=(a)', want: "unable to parse requirement: found '(', expected: identifier" },
    { name: 'less-or-equal is not an operator', input: 'x<=1', want: "unable to parse requirement: found '=', expected: identifier" },
    { name: 'word operator gt', input: 'x gt 1',
      want: 'unable to parse requirement: found \'gt\', expected: in, notin, =, ==, !=, gt, lt' },
    { name: 'non-integer bound', input: 'x>a',
      want: "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer" },
    { name: 'negative bound is not a valid label value', input: 'x<-1',
      want: `unable to parse requirement: values[0][x]: Invalid value: "-1": ${VALUE_RULE}` },
    { name: 'invalid value', input: 'x=a||b',
      want: `unable to parse requirement: values[0][x]: Invalid value: "a||b": ${VALUE_RULE}` },
    { name: 'value too long', input: `k=${'a'.repeat(64)}`,
      want: `unable to parse requirement: values[0][k]: Invalid value: "${'a'.repeat(64)}": must be no more than 63 bytes` },
    { name: 'invalid key (nil path)', input: 'a_=b',
      want: `unable to parse requirement: <nil>: Invalid value: "a_": ${NAME_RULE}` },
    { name: 'empty prefix', input: '/a', want: 'unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty' },
    { name: 'two slashes', input: 'a/b/c',
      want: "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, " +
        "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', " +
        "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' " +
        "(e.g. 'example.com/MyName')" },
    { name: 'key too long', input: 'k'.repeat(64),
      want: `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 bytes` },
    { name: 'uppercase prefix', input: 'Example.com/a',
      want: "unable to parse requirement: <nil>: Invalid value: \"Example.com/a\": prefix part a lowercase RFC 1123 subdomain must " +
        "consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character " +
        "(e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')" },
  ];
  for (const c of cases) {
    it(c.name, () => assert.throws(() => parseSelector(c.input), { name: 'LabelSelectorError', message: c.want }));
  }
});

describe('selector matching', () => {
  const labels = { app: 'web', tier: 'front', replicas: '3', empty: '' };
  const cases: { name: string; selector: string; want: boolean }[] = [
    { name: 'empty selector matches', selector: '', want: true },
    { name: 'equal', selector: 'app=web', want: true },
    { name: 'equal, other value', selector: 'app=db', want: false },
    { name: 'equal on missing key', selector: 'zone=a', want: false },
    { name: 'equal empty value on empty label', selector: 'empty=', want: true },
    { name: 'equal empty value on missing key', selector: 'missing=', want: false },
    { name: 'not equal, other value', selector: 'app!=db', want: true },
    { name: 'not equal, same value', selector: 'app!=web', want: false },
    { name: 'not equal on missing key', selector: 'zone!=a', want: true },
    { name: 'in', selector: 'tier in (back,front)', want: true },
    { name: 'in, absent value', selector: 'tier in (back)', want: false },
    { name: 'in on missing key', selector: 'zone in (a)', want: false },
    { name: 'notin', selector: 'tier notin (back)', want: true },
    { name: 'notin, present value', selector: 'tier notin (front)', want: false },
    { name: 'notin on missing key', selector: 'zone notin (a)', want: true },
    { name: 'exists', selector: 'app', want: true },
    { name: 'exists on missing key', selector: 'zone', want: false },
    { name: 'does not exist', selector: '!zone', want: true },
    { name: 'does not exist on present key', selector: '!app', want: false },
    { name: 'greater than', selector: 'replicas>2', want: true },
    { name: 'greater than, equal', selector: 'replicas>3', want: false },
    { name: 'less than', selector: 'replicas<4', want: true },
    { name: 'greater than on non-integer label', selector: 'app>1', want: false },
    { name: 'greater than on missing key', selector: 'zone>1', want: false },
    { name: 'all requirements must hold', selector: 'app=web,tier=back', want: false },
    { name: 'several requirements hold', selector: 'app=web,tier in (front),!zone,replicas<10', want: true },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(parseSelector(c.selector).matches(labels), c.want));
  }
  it('undefined labels are no labels', () => {
    assert.equal(parseSelector('!a').matches(undefined), true);
    assert.equal(parseSelector('a').matches(undefined), false);
  });
  it('integer comparison beyond 2^53 is exact', () => {
    assert.equal(parseSelector('n>9007199254740992').matches({ n: '9007199254740993' }), true);
  });
});

describe('selector accessors', () => {
  it('empty', () => {
    assert.equal(parseSelector('').empty, true);
    assert.equal(parseSelector('a').empty, false);
  });
  it('requiresExactMatch', () => {
    const s = parseSelector('a=1,b in (2),c in (3,4),d!=5');
    assert.equal(s.requiresExactMatch('a'), '1');
    assert.equal(s.requiresExactMatch('b'), '2');
    assert.equal(s.requiresExactMatch('c'), undefined);
    assert.equal(s.requiresExactMatch('d'), undefined);
    assert.equal(s.requiresExactMatch('e'), undefined);
  });
  it('parseLabelSelectorParam answers 400 BadRequest', () => {
    assert.throws(() => parseLabelSelectorParam('x=a,'), (err: unknown) => {
      assert.ok(isStatusError(err));
      assert.equal(err.status.code, 400);
      assert.equal(err.status.reason, 'BadRequest');
      assert.equal(err.status.message, "found '', expected: identifier after ','");
      return true;
    });
  });
});
