import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../errors/status-error.ts';
import { MAX_OBJECT_DEPTH, valueDepth } from '../json-depth.ts';
import { decodeBody, summarizeData } from './decode.ts';
import { parseFieldValidation, validateFieldDirective } from './directive.ts';
import { yamlToJSON } from './yaml.ts';

const CM = { group: '', version: 'v1', kind: 'ConfigMap' };
const DEPLOY = { group: 'apps', version: 'v1', kind: 'Deployment' };

function rejects(fn: () => unknown): { code: number; reason: string; message: string } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return { code: err.status.code, reason: err.status.reason, message: err.status.message };
  }
  assert.fail('expected a StatusError');
}

test('Strict rejects unknown and duplicate fields with kube\'s message', () => {
  const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","name":"b"},"spec":{"foo":1}}';
  assert.deepEqual(rejects(() => decodeBody(body, 'json', CM, 'Strict')), {
    code: 400, reason: 'BadRequest',
    message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name", unknown field "spec"',
  });
  const dep = '{"apiVersion":"apps/v1","kind":"Deployment","spec":{"strategy":{"rollingUpdate":{"maxUnaivailable":1}}}}';
  assert.equal(rejects(() => decodeBody(dep, 'json', DEPLOY, 'Strict')).message,
    'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.strategy.rollingUpdate.maxUnaivailable"');
});

test('Warn returns warnings and the object without unknown fields', () => {
  const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"},"foo":1,"data":{"k":"w"}}';
  const r = decodeBody(body, 'json', CM, 'Warn');
  assert.deepEqual(r.problems, ['unknown field "foo"', 'duplicate field "data"']);
  assert.deepEqual(r.obj, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'w' } });
  assert.deepEqual(r.gvk, CM);
});

test('Ignore reports nothing but still drops unknown fields', () => {
  const r = decodeBody('{"kind":"ConfigMap","metadata":{"name":"a","bogus":true},"foo":1}', 'json', CM, 'Ignore');
  assert.deepEqual(r.problems, []);
  assert.deepEqual(r.obj, { kind: 'ConfigMap', metadata: { name: 'a' } });
});

test('malformed bodies get kube\'s 400 texts in every mode', () => {
  const cases = [
    { name: 'syntax, strict', raw: '{"kind": "ConfigMap",}', directive: 'Strict' as const,
      want: 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: invalid character \'}\' looking for beginning of object key string ({"kind": "ConfigMap",})' },
    { name: 'syntax, ignore', raw: '{"kind": x}', directive: 'Ignore' as const,
      want: 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: invalid character \'x\' looking for beginning of value ({"kind": x})' },
    { name: 'empty body', raw: '', directive: 'Warn' as const,
      want: 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: unexpected end of JSON input (<empty>)' },
    { name: 'long body is summarized', raw: '{"apiVersion":"v1","kind":"ConfigMap","metadata":', directive: 'Strict' as const,
      want: 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"v1","kind":"Con ...)' },
    { name: 'not an object', raw: '[1]', directive: 'Strict' as const,
      want: 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b315d)' },
    { name: 'kind not a string', raw: '{"kind":5}', directive: 'Ignore' as const,
      want: 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5})' },
    { name: 'type mismatch', raw: '{"apiVersion":"v1","kind":"ConfigMap","data":{"a":1}}', directive: 'Ignore' as const,
      want: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string' },
    { name: 'type mismatch wins over strict errors', raw: '{"foo":1,"data":{"a":true}}', directive: 'Strict' as const,
      want: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal bool into Go struct field ConfigMap.data of type string' },
  ];
  for (const c of cases) {
    const got = rejects(() => decodeBody(c.raw, 'json', CM, c.directive));
    assert.equal(got.code, 400, c.name);
    assert.equal(got.message, c.want, c.name);
  }
});

test('body apiVersion and kind are defaulted from the endpoint (gvkWithDefaults)', () => {
  assert.deepEqual(decodeBody('{}', 'json', DEPLOY, 'Strict').gvk, DEPLOY);
  assert.deepEqual(decodeBody('{"apiVersion":"apps/v1beta1"}', 'json', DEPLOY, 'Strict').gvk,
    { group: 'apps', version: 'v1beta1', kind: 'Deployment' });
  assert.deepEqual(decodeBody('{"apiVersion":"apps/v1","kind":"Foo"}', 'json', DEPLOY, 'Ignore').gvk,
    { group: 'apps', version: 'v1', kind: 'Foo' });
});

test('YAML bodies: YAML 1.1 scalars, duplicate keys, unknown fields', () => {
  const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\nfoo: 1\ndata:\n  k: "v"\n';
  assert.equal(rejects(() => decodeBody(yaml, 'yaml', CM, 'Strict')).message,
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: yaml: unmarshal errors:\n  line 5: key "name" already set in map, unknown field "foo"');
  const warn = decodeBody(yaml, 'yaml', CM, 'Warn');
  assert.deepEqual(warn.problems, ['line 5: key "name" already set in map', 'unknown field "foo"']);
  assert.deepEqual(warn.obj, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { k: 'v' } });
  assert.deepEqual(yamlToJSON('a: yes\nb: 2024-01-01\nc: 0777\n', false).value, { a: true, b: '2024-01-01', c: 511 });
  assert.equal(rejects(() => decodeBody('a: b: c\n', 'yaml', CM, 'Strict')).message,
    'the object provided is unrecognized (must be of type ConfigMap): yaml: mapping values are not allowed in this context (613a20623a20630a)');
});

test('unstructured decoding (schema null) keeps every field', () => {
  const r = decodeBody('{"apiVersion":"example.com/v1","kind":"Foo","spec":{"x":1,"x":2}}', 'json',
    { group: 'example.com', version: 'v1', kind: 'Foo' }, 'Warn', { schema: null });
  assert.deepEqual(r.problems, ['duplicate field "spec.x"']);
  assert.deepEqual(r.obj, { apiVersion: 'example.com/v1', kind: 'Foo', spec: { x: 2 } });
});

test('CRD-style schemas: preserve-unknown-fields, embedded resources, int-or-string', () => {
  const schema = {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' },
      spec: {
        type: 'object',
        properties: {
          port: { 'x-kubernetes-int-or-string': true },
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
        },
      },
    },
  } as const;
  const body = JSON.stringify({
    apiVersion: 'example.com/v1', kind: 'Foo', metadata: { name: 'x' },
    spec: { port: 'http', free: { a: { b: 1 } }, template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', bad: 1 }, spec: {}, other: 1 }, nope: 2 },
  });
  const r = decodeBody(body, 'json', { group: 'example.com', version: 'v1', kind: 'Foo' }, 'Warn', { schema });
  assert.deepEqual(r.problems, ['unknown field "spec.template.metadata.bad"', 'unknown field "spec.template.other"', 'unknown field "spec.nope"']);
});

test('fieldValidation parameter', () => {
  const cases = [
    { name: 'absent', value: undefined, want: 'Warn' },
    { name: 'empty', value: '', want: 'Warn' },
    { name: 'Strict', value: 'Strict', want: 'Strict' },
    { name: 'Ignore', value: 'Ignore', want: 'Ignore' },
    { name: 'Warn', value: 'Warn', want: 'Warn' },
  ];
  for (const c of cases) assert.equal(validateFieldDirective(c.value), c.want, c.name);
  assert.deepEqual(rejects(() => validateFieldDirective('strict', 'PatchOptions')), {
    code: 422, reason: 'Invalid',
    message: 'PatchOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
  });
  const e = parseFieldValidation('x');
  assert.ok(e instanceof StatusError);
  assert.deepEqual(e.status.details?.causes, [{ reason: 'FieldValueNotSupported', field: 'fieldValidation',
    message: 'Unsupported value: "x": supported values: "", "Ignore", "Strict", "Warn"' }]);
});

test('summarizeData', () => {
  assert.equal(summarizeData(''), '<empty>');
  assert.equal(summarizeData('{"a":1}'), '{"a":1}');
  assert.equal(summarizeData('abc'), '616263');
});

test('values decoded by their own Go type: Quantity and IntOrString', () => {
  const POD = { group: '', version: 'v1', kind: 'Pod' };
  const body = (limits: unknown, port: unknown): string => JSON.stringify({ apiVersion: 'v1', kind: 'Pod',
    spec: { containers: [{ name: 'c', resources: { limits }, readinessProbe: { httpGet: { port } } }] } });
  const cases = [
    { name: 'bad quantity', raw: body({ cpu: 'abc' }, 80),
      want: 'Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'' },
    { name: 'bad suffix', raw: body({ memory: '1mi' }, 80), want: 'Pod in version "v1" cannot be handled as a Pod: unable to parse quantity\'s suffix' },
    { name: 'port as float', raw: body({ cpu: '1' }, 1.5),
      want: 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 1.5 into Go value of type int32' },
  ];
  for (const directive of ['Strict', 'Ignore'] as const) {
    for (const c of cases) assert.equal(rejects(() => decodeBody(c.raw, 'json', POD, directive)).message, c.want, `${c.name} ${directive}`);
  }
  for (const [limits, port] of [[{ cpu: '100m', memory: '1Gi', x: 2, y: '1e3', z: '0.5' }, 'http'], [{ cpu: 1.5 }, 8080]] as const) {
    assert.deepEqual(decodeBody(body(limits, port), 'json', POD, 'Strict').problems, []);
  }
});

test('a body naming another kind is decoded as that kind (the caller rejects the conversion)', () => {
  const secret = decodeBody('{"apiVersion":"v1","kind":"Secret","stringData":{"a":"b"},"bogus":1}', 'json', CM, 'Warn');
  assert.deepEqual(secret.gvk, { group: '', version: 'v1', kind: 'Secret' });
  assert.deepEqual(secret.problems, ['unknown field "bogus"']);
  assert.deepEqual(secret.obj, { apiVersion: 'v1', kind: 'Secret', stringData: { a: 'b' } });
  const unknownKind = decodeBody('{"apiVersion":"v1","kind":"Nope","x":1}', 'json', CM, 'Strict');
  assert.deepEqual(unknownKind.gvk, { group: '', version: 'v1', kind: 'Nope' });
  assert.deepEqual(unknownKind.problems, []);
});

test('nesting: bodies deeper than encoding/json allows get kube\'s answer, deeper than kapi stores a 400 naming the limit', () => {
  const obj = (levels: number): string => `{"apiVersion":"v1","kind":"ConfigMap","spec":${'{"a":'.repeat(levels - 1)}1${'}'.repeat(levels - 1)}}`;
  const yamlObj = (levels: number): string => `apiVersion: v1\nkind: ConfigMap\nspec:\n${Array.from({ length: levels - 1 },
    (_, i) => `${'  '.repeat(i + 1)}a:${i === levels - 2 ? ' 1' : ''}`).join('\n')}\n`;
  const tooDeep = `the object is nested more than ${MAX_OBJECT_DEPTH} levels deep, the maximum nesting depth of objects and arrays this server accepts`;
  const goDepth = (c: string): string => `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '${c}' exceeded max depth (${summarizeData(obj(10001))})`;
  const cases = [
    ...(['Strict', 'Warn', 'Ignore'] as const).flatMap((directive) => [
      { name: `json N ${directive}`, body: obj(MAX_OBJECT_DEPTH), media: 'json' as const, directive, want: undefined },
      { name: `json N+1 ${directive}`, body: obj(MAX_OBJECT_DEPTH + 1), media: 'json' as const, directive, want: tooDeep },
      { name: `json 10000 ${directive}`, body: obj(10000), media: 'json' as const, directive, want: tooDeep },
      { name: `json 10001 ${directive}`, body: obj(10001), media: 'json' as const, directive, want: goDepth('{') },
      { name: `json 1M ${directive}`, body: obj(1_000_000), media: 'json' as const, directive, want: goDepth('{') },
      { name: `yaml N ${directive}`, body: yamlObj(MAX_OBJECT_DEPTH), media: 'yaml' as const, directive, want: undefined },
      { name: `yaml N+1 ${directive}`, body: yamlObj(MAX_OBJECT_DEPTH + 1), media: 'yaml' as const, directive, want: tooDeep },
      { name: `yaml flow 100k ${directive}`, body: `spec: ${'['.repeat(100_000)}${']'.repeat(100_000)}`, media: 'yaml' as const, directive, want: tooDeep },
    ]),
  ];
  for (const c of cases) {
    if (c.want === undefined) {
      const { obj: got } = decodeBody(c.body, c.media, CM, c.directive, { schema: null });
      assert.equal(valueDepth(got), MAX_OBJECT_DEPTH, c.name);
      continue;
    }
    assert.deepEqual(rejects(() => decodeBody(c.body, c.media, CM, c.directive, { schema: null })), { code: 400, reason: 'BadRequest', message: c.want }, c.name);
  }
});
