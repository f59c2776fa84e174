import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jsonPathSyntaxError } from './jsonpath-syntax.ts';

// Messages of client-go's jsonpath parser (k8s.io/client-go v0.36.3 util/jsonpath/parser.go).
describe('jsonPathSyntaxError', () => {
  const cases: { name: string; template: string; want: string | undefined }[] = [
    { name: 'fields', template: '{.spec.a}', want: undefined },
    { name: 'text around actions', template: 'x{.a}y{.b}', want: undefined },
    { name: 'slices, unions, dict keys, filters, wildcards', template: "{.a[1:2:3]}{.a[1,2]}{.a['b']}{.a[?(@.x==\"a\")]}{.a[*]}", want: undefined },
    { name: 'an open action', template: '{.a', want: 'unclosed action' },
    { name: 'an open array', template: '{.a[}', want: 'unterminated array' },
    { name: 'an open filter', template: '{.a[?(@.b}', want: 'unterminated filter' },
    { name: 'a filter without ]', template: '{.a[?(@.b==1)}', want: 'unclosed array expect ]' },
    { name: 'a stray character', template: '{#}', want: "unrecognized character in action: U+0023 '#'" },
    { name: 'an index that is no slice', template: '{.a[x]}', want: 'invalid array index x' },
    { name: 'a sign alone as index', template: '{.a[:-]}', want: 'array index - is not a number' },
    { name: 'an index beyond int', template: '{.a[99999999999999999999]}', want: 'array index 99999999999999999999 is not a number' },
    { name: 'an open quote', template: "{'abc}", want: 'unterminated quoted string' },
    { name: 'a bad escape', template: "{'a\\q'}", want: "unquote string 'a\\q' error invalid syntax" },
    { name: 'a number with two dots', template: '{1.2.3}', want: 'cannot parse number 1.2.3' },
    { name: 'recursive descent twice', template: '{....}', want: 'invalid multiple recursive descent' },
    { name: 'an error inside a union', template: '{.a[1,#]}', want: 'invalid array index #' },
    { name: 'an error inside a filter', template: '{.a[?(#)]}', want: "unrecognized character in action: U+0023 '#'" },
  ];
  for (const c of cases) it(c.name, () => assert.equal(jsonPathSyntaxError(c.template), c.want));
});
