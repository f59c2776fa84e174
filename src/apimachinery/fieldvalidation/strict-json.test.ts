import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shapeForGVK } from './decode.ts';
import { ANY } from './shape.ts';
import { decodeStrictJSON, jsonSyntaxError, JSONSyntaxError } from './strict-json.ts';
import { StatusError } from '../errors/status-error.ts';
import { MAX_DECODE_DEPTH, MAX_OBJECT_DEPTH, valueDepth } from '../json-depth.ts';
import { goQuote, quoteChar } from '../goformat/index.ts';

const configMap = shapeForGVK({ group: '', version: 'v1', kind: 'ConfigMap' });
const pod = shapeForGVK({ group: '', version: 'v1', kind: 'Pod' });

test('syntax errors read as encoding/json scanner errors', () => {
  const cases = [
    { name: 'empty', text: '', want: 'unexpected end of JSON input' },
    { name: 'whitespace only', text: '  \n', want: 'unexpected end of JSON input' },
    { name: 'truncated object', text: '{"a":1', want: 'unexpected end of JSON input' },
    { name: 'truncated string', text: '{"a', want: 'unexpected end of JSON input' },
    { name: 'bad value', text: '{"a": x}', want: "invalid character 'x' looking for beginning of value" },
    { name: 'bad key', text: '{a: 1}', want: "invalid character 'a' looking for beginning of object key string" },
    { name: 'trailing comma in object', text: '{"a": 1,}', want: "invalid character '}' looking for beginning of object key string" },
    { name: 'missing colon', text: '{"a" 1}', want: "invalid character '1' after object key" },
    { name: 'missing comma', text: '{"a": 1 "b": 2}', want: `invalid character '"' after object key:value pair` },
    { name: 'array element', text: '[1 2]', want: "invalid character '2' after array element" },
    { name: 'trailing comma in array', text: '[1,]', want: "invalid character ']' looking for beginning of value" },
    { name: 'after top-level value', text: '{} {}', want: "invalid character '{' after top-level value" },
    { name: 'leading zero', text: '[01]', want: "invalid character '1' after array element" },
    { name: 'minus alone', text: '-x', want: "invalid character 'x' in numeric literal" },
    { name: 'decimal point', text: '1.x', want: "invalid character 'x' after decimal point in numeric literal" },
    { name: 'exponent', text: '1ex', want: "invalid character 'x' in exponent of numeric literal" },
    { name: 'literal', text: 'trux', want: "invalid character 'x' in literal true (expecting 'e')" },
    { name: 'null literal', text: 'nul', want: 'unexpected end of JSON input' },
    { name: 'control char in string', text: '"a\nb"', want: "invalid character '\\n' in string literal" },
    { name: 'bad escape', text: '"\\q"', want: "invalid character 'q' in string escape code" },
    { name: 'bad unicode escape', text: '"\\u12x4"', want: "invalid character 'x' in \\u hexadecimal character escape" },
    { name: 'single quote', text: "{'a': 1}", want: "invalid character '\\'' looking for beginning of object key string" },
    { name: 'non-ascii byte', text: '{"a": é}', want: "invalid character 'Ã' looking for beginning of value" },
  ];
  for (const c of cases) assert.equal(jsonSyntaxError(c.text), c.want, c.name);
  assert.equal(jsonSyntaxError('{"a": [1, 2.5e-3, true, false, null, "x\\u00e9"]}'), undefined);
});

test('quoting helpers match Go', () => {
  assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(goQuote('tab\there'), '"tab\\there"');
  assert.equal(goQuote('\x01'), '"\\x01"');
  assert.equal(goQuote('héllo'), '"héllo"');
  assert.equal(quoteChar(0x7d), "'}'");
  assert.equal(quoteChar(0x22), `'"'`);
});

test('unknown and duplicate fields, in document order, with kube paths', () => {
  const cases = [
    { name: 'unknown top-level', shape: configMap, text: '{"kind":"ConfigMap","foo":1}', want: ['unknown field "foo"'] },
    { name: 'unknown nested', shape: configMap, text: '{"metadata":{"name":"a","nmae":"b"}}', want: ['unknown field "metadata.nmae"'] },
    { name: 'duplicate struct field', shape: configMap, text: '{"metadata":{"name":"a","name":"b"}}', want: ['duplicate field "metadata.name"'] },
    { name: 'duplicate map key', shape: configMap, text: '{"data":{"k":"1","k":"2"}}', want: ['duplicate field "data.k"'] },
    { name: 'list index in path', shape: pod,
      text: '{"spec":{"containers":[{"name":"a","image":"x"},{"name":"b","imagee":"y","ports":[{"containerPort":80,"hostport":1}]}]}}',
      want: ['unknown field "spec.containers[1].imagee"', 'unknown field "spec.containers[1].ports[0].hostport"'] },
    { name: 'order follows the document', shape: configMap,
      text: '{"zzz":1,"metadata":{"name":"a","name":"b"},"aaa":2}',
      want: ['unknown field "zzz"', 'duplicate field "metadata.name"', 'unknown field "aaa"'] },
    { name: 'repeated error reported once', shape: configMap, text: '{"x":1,"x":2}', want: ['unknown field "x"'] },
    { name: 'nothing inside unknown fields', shape: configMap, text: '{"x":{"a":1,"a":2}}', want: ['unknown field "x"'] },
    { name: 'opaque RawExtension / FieldsV1 not checked', shape: configMap,
      text: '{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{},"f:a":{}},"bogus":1}]}}',
      want: ['unknown field "metadata.managedFields[0].bogus"'] },
    { name: 'labels map', shape: configMap, text: '{"metadata":{"labels":{"a":"1","a":"2"}}}', want: ['duplicate field "metadata.labels.a"'] },
    { name: 'unstructured: duplicates only', shape: ANY, text: '{"a":{"b":1,"b":2},"c":[{"d":1,"d":1}]}',
      want: ['duplicate field "a.b"', 'duplicate field "c[0].d"'] },
  ];
  for (const c of cases) {
    const r = decodeStrictJSON(c.text, c.shape);
    assert.deepEqual(r.strictErrors, c.want, c.name);
    assert.equal(r.typeError, undefined, c.name);
  }
});

test('decoded value drops unknown fields and merges duplicate structs as Go does', () => {
  const r = decodeStrictJSON('{"metadata":{"name":"a"},"foo":1,"metadata":{"namespace":"n"},"data":{"x":"1"},"data":{"y":"2"}}', configMap);
  assert.deepEqual(r.value, { metadata: { name: 'a', namespace: 'n' }, data: { x: '1', y: '2' } });
  const s = decodeStrictJSON('{"a":{"x":1},"a":{"y":2}}', ANY);
  assert.deepEqual(s.value, { a: { y: 2 } });
  const proto = decodeStrictJSON('{"__proto__":{"x":1}}', ANY).value as Record<string, unknown>;
  assert.deepEqual(Object.keys(proto), ['__proto__']);
});

test('type mismatches read as encoding/json UnmarshalTypeError', () => {
  const cases = [
    { name: 'map value', shape: configMap, text: '{"data":{"a":1}}',
      want: 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string' },
    { name: 'struct', shape: pod, text: '{"spec":"x"}', want: 'json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec' },
    { name: 'slice', shape: pod, text: '{"spec":{"containers":{}}}',
      want: 'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container' },
    { name: 'int32 from string', shape: pod, text: '{"spec":{"containers":[{"ports":[{"containerPort":"80"}]}]}}',
      want: 'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32' },
    { name: 'int from float', shape: pod, text: '{"spec":{"activeDeadlineSeconds":1.5}}',
      want: 'json: cannot unmarshal number 1.5 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64' },
    { name: 'bool', shape: configMap, text: '{"immutable":"yes"}',
      want: 'json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool' },
  ];
  for (const c of cases) assert.equal(decodeStrictJSON(c.text, c.shape).typeError, c.want, c.name);
  assert.equal(decodeStrictJSON('{"data":null,"metadata":{"labels":null}}', configMap).typeError, undefined);
});

const nestObjects = (n: number, leaf = '1'): string => '{"a":'.repeat(n) + leaf + '}'.repeat(n);
const nestArrays = (n: number, leaf = ''): string => '['.repeat(n) + leaf + ']'.repeat(n);

test('nesting: encoding/json accepts 10000 levels and refuses the 10001st with "exceeded max depth"', () => {
  const cases = [
    { name: 'objects 10000', text: nestObjects(10000), want: undefined },
    { name: 'arrays 10000', text: nestArrays(10000), want: undefined },
    { name: 'objects 10001', text: nestObjects(10001), want: "invalid character '{' exceeded max depth" },
    { name: 'arrays 10001', text: nestArrays(10001), want: "invalid character '[' exceeded max depth" },
    { name: 'mixed 10001', text: `[${nestObjects(10000)}]`, want: "invalid character '{' exceeded max depth" },
    { name: 'objects 100k', text: nestObjects(100_000), want: "invalid character '{' exceeded max depth" },
    { name: 'arrays 1M', text: nestArrays(1_000_000), want: "invalid character '[' exceeded max depth" },
    { name: 'unclosed 1M', text: '['.repeat(1_000_000), want: "invalid character '[' exceeded max depth" },
    { name: 'syntax error first, deep', text: `${'['.repeat(9000)}x${'['.repeat(5000)}`, want: "invalid character 'x' looking for beginning of value" },
    { name: 'syntax error after the limit', text: `${nestArrays(10001)}x`, want: "invalid character '[' exceeded max depth" },
    { name: 'truncated deep document', text: '{"a":'.repeat(9000), want: 'unexpected end of JSON input' },
    { name: 'deep trailing garbage', text: `${nestObjects(9000)} x`, want: "invalid character 'x' after top-level value" },
  ];
  for (const c of cases) assert.equal(jsonSyntaxError(c.text), c.want, c.name);
});

test('nesting: the strict decoder stops a little beyond kapi\'s object depth without overflowing the stack', () => {
  const ok = decodeStrictJSON(nestObjects(MAX_DECODE_DEPTH), ANY);
  assert.equal(valueDepth(ok.value), MAX_DECODE_DEPTH);
  const cases = [
    { name: 'decode limit + 1, objects', text: nestObjects(MAX_DECODE_DEPTH + 1), want: 'status' },
    { name: 'decode limit + 1, arrays', text: nestArrays(MAX_DECODE_DEPTH + 1), want: 'status' },
    { name: '10000 objects', text: nestObjects(10000), want: 'status' },
    { name: '10001 objects', text: nestObjects(10001), want: "invalid character '{' exceeded max depth" },
    { name: '1M arrays', text: nestArrays(1_000_000), want: "invalid character '[' exceeded max depth" },
    { name: 'deep, malformed further on', text: `${nestObjects(MAX_DECODE_DEPTH + 5)},`, want: "invalid character ',' after top-level value" },
  ];
  for (const c of cases) {
    assert.throws(() => decodeStrictJSON(c.text, configMap), (err: unknown) => {
      if (c.want === 'status') {
        assert.ok(err instanceof StatusError, c.name);
        assert.equal(err.status.code, 400, c.name);
        assert.equal(err.status.message, `the object is nested more than ${MAX_OBJECT_DEPTH} levels deep, the maximum nesting depth of objects and arrays this server accepts`, c.name);
      } else {
        assert.ok(err instanceof JSONSyntaxError, c.name);
        assert.equal(err.message, c.want, c.name);
      }
      return true;
    }, c.name);
  }
});

test('a quantity sent as a JSON number is parsed from its text, as Quantity.UnmarshalJSON reads the raw bytes', () => {
  const pod = shapeForGVK({ group: '', version: 'v1', kind: 'Pod' });
  assert.ok(pod !== undefined);
  const cases = [
    { name: 'exponent kept as written', num: '1e21', want: '1e21' },
    { name: 'capital E kept', num: '1E3', want: '1E3' },
    { name: 'fraction to milli', num: '0.1', want: '100m' },
    { name: 'trailing zero fraction', num: '1.0', want: '1' },
    { name: 'negative zero', num: '-0', want: '0' },
    { name: 'beyond float precision', num: '12345678901234567890', want: '12345678901234567890' },
    { name: 'a canonical negative exponent', num: '1e-9', want: '1e-9' },
    { name: 'beyond float range', num: '1e400', want: '10e399' },
  ];
  for (const c of cases) {
    const text = `{"spec":{"containers":[{"name":"c","resources":{"limits":{"memory":${c.num}}}}]}}`;
    const r = decodeStrictJSON(text, pod);
    assert.equal(r.typeError, undefined, c.name);
    const spec = (r.value as { spec: { containers: { resources: { limits: Record<string, unknown> } }[] } }).spec;
    assert.equal(spec.containers[0]?.resources.limits['memory'], c.want, c.name);
  }
  // other numbers keep their JSON value
  const cm = decodeStrictJSON('{"spec":{"terminationGracePeriodSeconds":1e1}}', pod);
  assert.equal((cm.value as { spec: Record<string, unknown> }).spec['terminationGracePeriodSeconds'], 10);
});
