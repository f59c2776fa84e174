// kube's JSON bytes: Go's escaping, Encode's trailing newline, MarshalIndent's layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeJSON, encodePrettyJSON, goEscapeJSON, indentJSON } from './json.ts';

test('encodeJSON writes what json.Encoder.Encode writes', () => {
  const cases = [
    { name: 'object, newline-terminated', value: { kind: 'Status', code: 404 }, want: '{"kind":"Status","code":404}\n' },
    { name: 'HTML characters escaped', value: { a: '<b>&</b>' }, want: '{"a":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"}\n' },
    { name: 'line and paragraph separators escaped', value: { a: 'x\u2028y\u2029' }, want: '{"a":"x\\u2028y\\u2029"}\n' },
    { name: 'control characters as Go 1.22+ writes them', value: { a: '\b\f\n\r\t\u0001\u007f' }, want: '{"a":"\\b\\f\\n\\r\\t\\u0001\u007f"}\n' },
    { name: 'escapes in keys too', value: { '<k>': 1 }, want: '{"\\u003ck\\u003e":1}\n' },
  ];
  for (const c of cases) assert.equal(encodeJSON(c.value), c.want, c.name);
});

test('encodePrettyJSON writes what json.MarshalIndent(v, "", "  ") writes', () => {
  const cases = [
    { name: 'empty object', value: {}, want: '{}' },
    { name: 'empty array', value: [], want: '[]' },
    { name: 'scalar', value: 'x', want: '"x"' },
    {
      name: 'nested, with empty members and structural characters inside strings',
      value: { metadata: {}, items: [], spec: { list: [1, { n: null }], s: 'a,b:{[}]"\\' }, ok: true },
      want: '{\n  "metadata": {},\n  "items": [],\n  "spec": {\n    "list": [\n      1,\n      {\n        "n": null\n      }\n    ],\n' +
        '    "s": "a,b:{[}]\\"\\\\"\n  },\n  "ok": true\n}',
    },
    { name: 'escaped like the compact form', value: { a: '<&>' }, want: '{\n  "a": "\\u003c\\u0026\\u003e"\n}' },
  ];
  for (const c of cases) assert.equal(encodePrettyJSON(c.value), c.want, c.name);
});

test('indentJSON handles deep documents without recursion', () => {
  // Deeper than the stack allows recursion for; the output grows with the square of the depth.
  const depth = 5000;
  const out = indentJSON(`${'['.repeat(depth)}${']'.repeat(depth)}`);
  assert.equal(out.split('\n').length, 2 * depth - 1);
  assert.equal(goEscapeJSON('plain'), 'plain');
});
