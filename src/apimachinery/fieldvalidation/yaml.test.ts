// go-yaml v2's texts and line numbers for malformed YAML, as kubectl's own decoding prints them
// (sigs.k8s.io/yaml over go-yaml v2; parser errors count lines from 0, scanner errors from 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../errors/status-error.ts';
import { MAX_OBJECT_DEPTH, valueDepth } from '../json-depth.ts';
import { yamlToJSON, YAMLConversionError } from './yaml.ts';

const cases: { name: string; input: string; want: string }[] = [
  { name: "line 4: did not find expected ',' or ']'", input: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [x\n", want: "yaml: line 4: did not find expected ',' or ']'" },
  { name: "line 2: did not find expected ',' or ']'", input: "metadata:\n  name: [x\n", want: "yaml: line 2: did not find expected ',' or ']'" },
  { name: "line 2: did not find expected ',' or '}'", input: "metadata:\n  name: {x\n", want: "yaml: line 2: did not find expected ',' or '}'" },
  { name: "mapping values are not allowed in this context", input: "a: b: c\n", want: "yaml: mapping values are not allowed in this context" },
  { name: "line 2: mapping values are not allowed in this context", input: "kind: ConfigMap\na: b: c\n", want: "yaml: line 2: mapping values are not allowed in this context" },
  { name: "line 3: did not find expected key", input: "kind: ConfigMap\nmetadata:\n  name: x\n labels: y\n", want: "yaml: line 3: did not find expected key" },
  { name: "line 4: mapping values are not allowed in this context", input: "kind: ConfigMap\nmetadata:\n  name: x\n   labels: y\n", want: "yaml: line 4: mapping values are not allowed in this context" },
  { name: "line 2: found a tab character that violates indentation", input: "kind: ConfigMap\n\tname: x\n", want: "yaml: line 2: found a tab character that violates indentation" },
  { name: "line 4: found unexpected end of stream", input: "kind: ConfigMap\ndata:\n  a: \"unterminated\n", want: "yaml: line 4: found unexpected end of stream" },
  { name: "line 4: found unexpected end of stream", input: "kind: ConfigMap\ndata:\n  a: 'unterminated\n", want: "yaml: line 4: found unexpected end of stream" },
  { name: "line 3: did not find expected '-' indicator", input: "kind: ConfigMap\ndata:\n  - a\n  b: c\n", want: "yaml: line 3: did not find expected '-' indicator" },
  { name: "line 3: did not find expected key", input: "kind: ConfigMap\ndata:\n  a: b\n  - c\n", want: "yaml: line 3: did not find expected key" },
  { name: "unknown anchor 'nope' referenced", input: "kind: ConfigMap\ndata: *nope\n", want: "yaml: unknown anchor 'nope' referenced" },
  { name: "line 3: found character that cannot start any token", input: "kind: ConfigMap\ndata:\n  a: @x\n", want: "yaml: line 3: found character that cannot start any token" },
  { name: "line 3: found character that cannot start any token", input: "kind: ConfigMap\ndata:\n  a: `x\n", want: "yaml: line 3: found character that cannot start any token" },
  { name: "line 5: did not find expected key", input: "kind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    a: b\n   c: d\n", want: "yaml: line 5: did not find expected key" },
  { name: "line 3: could not find expected ':'", input: "kind: ConfigMap\nx\ny: z\n", want: "yaml: line 3: could not find expected ':'" },
  { name: "line 1: did not find expected key", input: "kind: ConfigMap\n- a\n", want: "yaml: line 1: did not find expected key" },
  { name: "line 1: did not find expected ',' or ']'", input: "[a, b\n", want: "yaml: line 1: did not find expected ',' or ']'" },
  { name: "did not find expected key", input: "key: [a, b]]\n", want: "yaml: did not find expected key" },
  { name: "line 2: did not find expected key", input: "a:\n  b: c\n d: e\n", want: "yaml: line 2: did not find expected key" },
  { name: "line 7: mapping values are not allowed in this context", input: "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: a\n    image: b\n     ports: []\n", want: "yaml: line 7: mapping values are not allowed in this context" },
  { name: "line 5: did not find expected key", input: "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: a\n   image: b\n", want: "yaml: line 5: did not find expected key" },
  { name: "did not find expected key", input: "a: \"b\" c\n", want: "yaml: did not find expected key" },
  { name: "did not find expected key", input: "a: 'b' c\n", want: "yaml: did not find expected key" },
  { name: "line 5: found unexpected end of stream", input: "kind: A\nmetadata:\n  name: \"x\n  y: z\n", want: "yaml: line 5: found unexpected end of stream" },
  { name: "line 5: could not find expected ':'", input: "kind: A\ndata:\n  k: |\n  bad\n x: y\n", want: "yaml: line 5: could not find expected ':'" },
  { name: "unknown anchor 'y' referenced", input: "kind: A\ndata:\n  a: &x 1\n  b: *y\n", want: "yaml: unknown anchor 'y' referenced" },
  { name: "line 2: did not find expected ',' or '}'", input: "kind: A\nmetadata: {name: a, labels: {x: y}\nspec: {}\n", want: "yaml: line 2: did not find expected ',' or '}'" },
  { name: "found unknown escape character", input: "a: \"\\q\"\n", want: "yaml: found unknown escape character" },
  { name: "line 3: found unknown escape character", input: "kind: A\ndata:\n  a: \"\\q\"\n", want: "yaml: line 3: found unknown escape character" },
  { name: "line 3: did not find expected key", input: "kind: A\r\nmetadata:\r\n  name: x\r\n labels: y\r\n", want: "yaml: line 3: did not find expected key" },
  { name: "line 5: did not find expected key", input: "kind: A\n# comment\n\nmetadata:\n  name: x\n labels: y\n", want: "yaml: line 5: did not find expected key" },
  { name: "line 4: did not find expected '-' indicator", input: "kind: A\nspec:\n  containers:\n    - name: a\n    image: b\n", want: "yaml: line 4: did not find expected '-' indicator" },
  { name: "line 4: mapping values are not allowed in this context", input: "kind: A\ndata:\n  a: b\n    c: d\n", want: "yaml: line 4: mapping values are not allowed in this context" },
  { name: "line 2: did not find expected ',' or ']'", input: "kind: A\ndata: [a, b\nx: y\n", want: "yaml: line 2: did not find expected ',' or ']'" },
  { name: "line 2: did not find expected ',' or '}'", input: "kind: A\ndata: {a: b, c\n", want: "yaml: line 2: did not find expected ',' or '}'" },
  { name: "line 4: did not find expected key", input: "kind: A\nmetadata:\n  labels:\n    a: b\n  - x\n", want: "yaml: line 4: did not find expected key" },
  { name: "line 3: did not find expected key", input: "kind: A\nx: |\n  a\n b: c\n", want: "yaml: line 3: did not find expected key" },
  { name: "line 1: did not find expected key", input: "kind: A\nx: 'it''s' y\n", want: "yaml: line 1: did not find expected key" },
  { name: "line 1: did not find expected '-' indicator", input: "- a\nb: c\n", want: "yaml: line 1: did not find expected '-' indicator" },
  // The stream ends inside a flow collection (texts from kube-apiserver v1.36.3's apply): the line
  // is the stream end's, which starts a new line unless the text ends with one.
  { name: 'unterminated [ at the end, no newline', input: 'a: [', want: 'yaml: line 1: did not find expected node content' },
  { name: 'unterminated [ at the end, newline', input: 'a: [\n', want: 'yaml: line 1: did not find expected node content' },
  { name: 'a trailing comma wants a node', input: 'a: [1,', want: 'yaml: line 1: did not find expected node content' },
  { name: 'after an item: the closing bracket', input: 'a: [1', want: "yaml: line 1: did not find expected ',' or ']'" },
  { name: 'unterminated {', input: 'a: {', want: 'yaml: line 1: did not find expected node content' },
  { name: 'flow map with a trailing comma', input: 'a: {b: 1,', want: 'yaml: line 1: did not find expected node content' },
  { name: 'several lines, comment after the comma', input: 'x: 1\na: [\n  1,\n  # c\n', want: 'yaml: line 4: did not find expected node content' },
  { name: 'several lines', input: 'x: 1\na: [\n  1,\n', want: 'yaml: line 3: did not find expected node content' },
];

test('malformed YAML fails with go-yaml v2\'s message and line', () => {
  for (const c of cases) {
    assert.throws(() => yamlToJSON(c.input, true), (err: unknown) => err instanceof YAMLConversionError && err.message === c.want, `${c.name}: ${JSON.stringify(c.input)}`);
  }
});

test('duplicate keys are reported at the line of the value, as go-yaml\'s strict decoding does', () => {
  const r = yamlToJSON('kind: A\nmetadata:\n  name: a\n  name:\n    b\n', true);
  assert.equal(r.duplicateError, 'yaml: unmarshal errors:\n  line 5: key "name" already set in map');
  assert.deepEqual(r.value, { kind: 'A', metadata: { name: 'b' } });
});

test('nesting: documents that may nest deeper than kapi stores never reach the yaml package', () => {
  const block = (levels: number): string => Array.from({ length: levels },
    (_, i) => `${'  '.repeat(i)}a:${i === levels - 1 ? ' 1' : ''}`).join('\n');
  // go-yaml's own style: a sequence under a key is not indented; `levels` is odd (1 + 2 per entry).
  const indentless = (levels: number): string => {
    const out: string[] = [];
    for (let i = 0; i < (levels - 1) / 2; i++) out.push(`${'  '.repeat(i)}- a:`);
    return `a:\n${out.join('\n')} 1\n`;
  };
  const cases = [
    { name: 'block map N', text: block(MAX_OBJECT_DEPTH), depth: MAX_OBJECT_DEPTH },
    { name: 'block map N+1', text: block(MAX_OBJECT_DEPTH + 1), depth: undefined },
    { name: 'indentless sequences N-1', text: indentless(MAX_OBJECT_DEPTH - 1), depth: MAX_OBJECT_DEPTH - 1 },
    { name: 'indentless sequences N+1', text: indentless(MAX_OBJECT_DEPTH + 1), depth: undefined },
    { name: 'flow N', text: `${'['.repeat(MAX_OBJECT_DEPTH)}${']'.repeat(MAX_OBJECT_DEPTH)}`, depth: MAX_OBJECT_DEPTH },
    { name: 'flow N+1', text: `${'['.repeat(MAX_OBJECT_DEPTH + 1)}${']'.repeat(MAX_OBJECT_DEPTH + 1)}`, depth: undefined },
    // JSON 5000 deep made the yaml package abort the process (a regexp compiled on a full stack).
    { name: 'JSON 5000', text: `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`, depth: undefined },
    { name: 'flow 1M under a key', text: `spec: ${'['.repeat(1_000_000)}`, depth: undefined },
    { name: 'brackets in scalars do not count', text: `a: "${'['.repeat(1000)}"\nb: x${'{'.repeat(1000)}\nc: |\n  ${'['.repeat(1000)}\n`, depth: 1 },
  ];
  for (const c of cases) {
    if (c.depth !== undefined) {
      assert.equal(valueDepth(yamlToJSON(c.text, true).value), c.depth, c.name);
      continue;
    }
    assert.throws(() => yamlToJSON(c.text, true), (err: unknown) => {
      assert.ok(err instanceof StatusError, c.name);
      assert.equal(err.status.code, 400, c.name);
      assert.match(err.status.message ?? '', /nested more than \d+ levels deep/, c.name);
      return true;
    }, c.name);
  }
});
