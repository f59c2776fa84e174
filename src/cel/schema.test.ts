// Types from structural schemas and values under them, as kube derives them for CRD validation
// rules (k8s.io/apiserver/pkg/cel/common/schemas.go, escaping.go, valuesunstructured.go,
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assignTypeNames, celTypeName, compile, escapeName, evaluate, fromCelValue, newEnvironment, schemaDeclType, toCelValue, unescapeName,
  MaxRequestSizeBytes, optionalValue, type CelSchema, type DeclType,
} from './index.ts';

const escapes: readonly (readonly [string, string | undefined])[] = [
  ['self', 'self'], ['if', '__if__'], ['namespace', '__namespace__'], ['true', '__true__'], ['x-kubernetes-foo', 'x__dash__kubernetes__dash__foo'],
  ['a.b', 'a__dot__b'], ['a/b', 'a__slash__b'], ['a__b', 'a__underscores__b'], ['a___b', 'a__underscores___b'], ['_a', '_a'],
  ['1abc', undefined], ['', undefined], ['a b', undefined], ['a:b', undefined], ['ä', undefined],
];
for (const [name, want] of escapes) {
  test(`property name ${JSON.stringify(name)} is ${want ?? 'not visible'} in CEL`, () => {
    assert.equal(escapeName(name), want);
    if (want !== undefined) assert.equal(unescapeName(want), name);
  });
}
test('unescape refuses what escape never produces', () => {
  assert.equal(unescapeName('a__if__'), undefined);
  assert.equal(unescapeName('__bogus__'), undefined);
});

const str: CelSchema = { type: 'string' };
const int: CelSchema = { type: 'integer' };
const typeCases: readonly (readonly [string, CelSchema, string, number])[] = [
  // [name, schema, CEL type, maxElements]
  ['integer is int', int, 'int', 0],
  ['number is double', { type: 'number' }, 'double', 0],
  ['boolean is bool', { type: 'boolean' }, 'bool', 0],
  ['string without maxLength is bounded by the request size', str, 'string', MaxRequestSizeBytes - 2],
  ['string maxLength counts 4 bytes per character', { type: 'string', maxLength: 10 }, 'string', 40],
  ['string enum is bounded by its longest value', { type: 'string', enum: ['a', 'bcd'] }, 'string', 3],
  ['format byte is bytes', { type: 'string', format: 'byte', maxLength: 8 }, 'bytes', 8],
  ['format duration is a duration', { type: 'string', format: 'duration' }, 'google.protobuf.Duration', 32],
  ['format date is a timestamp', { type: 'string', format: 'date' }, 'google.protobuf.Timestamp', 12],
  ['format date-time is a timestamp', { type: 'string', format: 'date-time' }, 'google.protobuf.Timestamp', 32],
  ['int-or-string is dyn', { 'x-kubernetes-int-or-string': true }, 'dyn', MaxRequestSizeBytes - 2],
  ['array is a list, bounded by maxItems', { type: 'array', maxItems: 5, items: int }, 'list(int)', 5],
  ['array without maxItems: the request size over the item size', { type: 'array', items: int }, 'list(int)', Math.trunc((MaxRequestSizeBytes - 2) / 2)],
  ['additionalProperties is a map', { type: 'object', additionalProperties: str }, 'map(string, string)', Math.trunc((MaxRequestSizeBytes - 2) / 8)],
  ['object with properties is an object type', { type: 'object', properties: { a: int } }, 'object', 0],
];
for (const [name, schema, want, max] of typeCases) {
  test(`schema type: ${name}`, () => {
    const t = schemaDeclType(schema)!;
    assert.equal(celTypeName(t), want);
    assert.equal(t.maxElements, max);
  });
}

test('schemas without a CEL type are not exposed: untyped preserve-unknown-fields, arrays of them', () => {
  assert.equal(schemaDeclType({ 'x-kubernetes-preserve-unknown-fields': true }), undefined);
  assert.equal(schemaDeclType({ type: 'array', items: { 'x-kubernetes-preserve-unknown-fields': true } }), undefined);
  const t = schemaDeclType({ type: 'object', properties: { keep: { 'x-kubernetes-preserve-unknown-fields': true }, a: int } });
  assert.deepEqual(t?.kind === 'object' ? [...t.fields.keys()] : [], ['a']);
});

const root: CelSchema = {
  type: 'object',
  properties: {
    apiVersion: str, kind: str, metadata: { type: 'object' },
    spec: {
      type: 'object', required: ['replicas'],
      properties: {
        replicas: int, 'max-replicas': int, if: str, port: { 'x-kubernetes-int-or-string': true },
        labels: { type: 'object', additionalProperties: str },
        tags: { type: 'array', items: str, 'x-kubernetes-list-type': 'set' },
        ports: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: str, port: int } },
        },
        order: { type: 'array', items: str },
        timeout: { type: 'string', format: 'duration' },
        at: { type: 'string', format: 'date-time' },
        data: { type: 'string', format: 'byte' },
        unknown: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { x: int } } } },
      },
    },
  },
};
const rootType = assignTypeNames(schemaDeclType(root, true)!, 'selfType0');
const env = newEnvironment([{ name: 'self', type: rootType }, { name: 'oldSelf', type: rootType }]);
const obj = {
  apiVersion: 'ex.com/v1', kind: 'Thing', metadata: { name: 'n', generateName: 'g-', namespace: 'ns' },
  spec: {
    replicas: 3, 'max-replicas': 5, if: 'cond', port: '80%', labels: { app: 'x' }, tags: ['a', 'b'],
    ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }], order: ['a', 'b'], timeout: '1m30s', at: '2024-01-02T03:04:05Z',
    data: 'aGVsbG8=', unknown: { anything: 1 }, template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 1 } },
  },
};
const reordered = {
  ...obj,
  spec: { ...obj.spec, tags: ['b', 'a'], ports: [{ name: 'https', port: 443 }, { name: 'http', port: 80 }], order: ['b', 'a'], port: 80 },
};
const self = toCelValue(obj, rootType);
const oldSelf = toCelValue(reordered, rootType);

const valueCases: readonly (readonly [string, unknown])[] = [
  ['self.spec.replicas + 1', 4],
  ['self.spec.max__dash__replicas', 5],
  ['self.spec.__if__', 'cond'],
  ['type(self.spec.port) == string && self.spec.port.endsWith("%")', true],
  ['type(oldSelf.spec.port) == int && oldSelf.spec.port < 100', true],
  ['self.spec.labels.app', 'x'],
  ['"app" in self.spec.labels', true],
  ['self.spec.tags == oldSelf.spec.tags', true],
  ['self.spec.ports == oldSelf.spec.ports', true],
  ['self.spec.order == oldSelf.spec.order', false],
  ['self.spec.ports.exists(p, p.name == "https" && p.port == 443)', true],
  ['self.spec.timeout == duration("90s")', true],
  ['self.spec.at.getFullYear()', 2024],
  ['self.spec.data == b"hello"', true],
  ['self.metadata.name + "/" + self.metadata.generateName', 'n/g-'],
  ['self.apiVersion + " " + self.kind', 'ex.com/v1 Thing'],
  ['self.spec.template.kind + " " + self.spec.template.metadata.name', 'Pod p'],
  ['self.spec.template.spec.x', 1],
  ['has(self.spec.unknown)', true],
  ['has(self.spec.ports[0].port)', true],
  ['self.spec.replicas > 1.5', true],
];
for (const [expr, want] of valueCases) {
  test(`schema value: ${expr}`, () => {
    const r = compile(expr, env);
    assert.equal(r.error, undefined, r.error?.detail);
    const v = evaluate(r.program!, { self, oldSelf });
    assert.equal(v.error, undefined, v.error?.detail);
    assert.deepEqual(fromCelValue(v.value), want);
  });
}

const compileCases: readonly (readonly [string, string])[] = [
  ['self.metadata.namespace', "undefined field 'namespace'"],
  ['self.spec.unknown.anything', "undefined field 'anything'"],
  ['has(self.spec.ports[0].nope)', "ERROR: <input>:1:4: undefined field 'nope'"],
  ['has(self.spec.__if__.x)', "ERROR: <input>:1:4: type 'string' does not support field selection"],
  ['self.spec.labels[1] == "x"', "ERROR: <input>:1:17: found no matching overload for '_[_]' applied to '(map(string, string), int)'"],
  ["self.spec.labels['app'] == 'x'", ''],
  ['self.spec.max-replicas', "undefined field 'max'"],
  ['self.spec.port + 1', ''],
  ['self.spec.replicas + 1.0', "found no matching overload for '_+_' applied to '(int, double)'"],
  ['self.spec.labels.app + 1', "found no matching overload for '_+_' applied to '(string, int)'"],
];
for (const [expr, want] of compileCases) {
  test(`schema type check: ${expr}`, () => {
    const r = compile(expr, env);
    if (want === '') assert.equal(r.error, undefined, r.error?.detail);
    else assert.ok(r.error?.detail.includes(want), r.error?.detail ?? 'compiled');
  });
}

test('an absent field is a runtime error, has() is false', () => {
  const t: DeclType = assignTypeNames(schemaDeclType({ type: 'object', properties: { a: int } })!, 'selfType0');
  const e = newEnvironment([{ name: 'self', type: t }]);
  const empty = toCelValue({}, t);
  assert.equal(evaluate(compile('self.a == 1', e).program!, { self: empty }).error?.detail, 'no such key: a');
  assert.equal(evaluate(compile('has(self.a)', e).program!, { self: empty }).value, false);
});

test('object types are named by their path, as kube names them', () => {
  assert.equal(compile('self.spec', env).program?.outputType, 'selfType0.spec');
  assert.equal(compile('self.spec.ports[0]', env).program?.outputType, 'selfType0.spec.ports.@idx');
});

test('equal schemas share an environment, so values of either evaluate in both', () => {
  const t2 = assignTypeNames(schemaDeclType(root, true)!, 'selfType0');
  const env2 = newEnvironment([{ name: 'self', type: t2 }, { name: 'oldSelf', type: t2 }]);
  assert.equal(env2, env);
  const v = evaluate(compile('self.spec.replicas', env).program!, { self: toCelValue(obj, t2), oldSelf });
  assert.equal(v.value, 3n);
});

test('admission variables: request is a kubernetes.AdmissionRequest, the others dyn', async () => {
  const { admissionRequestType, DynType: dyn } = await import('./index.ts');
  const req = admissionRequestType();
  const e = newEnvironment([{ name: 'request', type: req }, { name: 'object', type: dyn }, { name: 'oldObject', type: dyn }]);
  const request = toCelValue({
    kind: { group: 'apps', version: 'v1', kind: 'Deployment' }, resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    requestKind: { group: 'apps', version: 'v1', kind: 'Deployment' }, requestResource: { group: 'apps', version: 'v1', resource: 'deployments' },
    name: 'd', namespace: 'ns', operation: 'CREATE', userInfo: { username: 'alice', groups: ['system:authenticated'] }, dryRun: false,
  }, req);
  const run = (expr: string): unknown => {
    const r = compile(expr, e);
    assert.equal(r.error, undefined, r.error?.detail);
    return fromCelValue(evaluate(r.program!, { request, object: null, oldObject: null }).value);
  };
  assert.equal(run("request.operation == 'CREATE' && request.kind.kind == 'Deployment'"), true);
  assert.equal(run("'system:authenticated' in request.userInfo.groups"), true);
  assert.equal(run('object == null'), true);
  assert.match(compile('request.bogus', e).error?.detail ?? '', /undefined field 'bogus'/);
});

test('optionalOldSelf: oldSelf is an optional of the type, none on create', () => {
  const t = assignTypeNames(schemaDeclType({ type: 'object', properties: { a: int } })!, 'selfType0');
  const e = newEnvironment([{ name: 'self', type: t }, { name: 'oldSelf', type: t, optional: true }]);
  const p = compile('!oldSelf.hasValue() || self.a >= oldSelf.value().a', e).program!;
  assert.equal(evaluate(p, { self: toCelValue({ a: 1 }, t), oldSelf: optionalValue(undefined) }).value, true);
  assert.equal(evaluate(p, { self: toCelValue({ a: 1 }, t), oldSelf: optionalValue(toCelValue({ a: 2 }, t)) }).value, false);
  // cel-go selects through an optional, giving an optional
  assert.equal(compile('oldSelf.a == 1', e).error?.detail,
    "compilation failed: ERROR: <input>:1:11: found no matching overload for '_==_' applied to '(optional_type(int), int)'\n | oldSelf.a == 1\n | ..........^");
  assert.equal(compile('oldSelf.?a.orValue(1) == 1', e).error, undefined);
});

test('equality counts the fields CEL cannot see: self == oldSelf on preserved unknown fields', () => {
  const t = assignTypeNames(schemaDeclType({ type: 'object', properties: {
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    mixed: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: int } },
  } })!, 'selfType0');
  const e = newEnvironment([{ name: 'self', type: t }, { name: 'oldSelf', type: t }]);
  const p = compile('self == oldSelf', e).program!;
  const eq = (x: unknown, y: unknown): unknown => evaluate(p, { self: toCelValue(x, t), oldSelf: toCelValue(y, t) }).value;
  assert.equal(eq({ free: { x: 1 } }, { free: { x: 1 } }), true);
  assert.equal(eq({ free: { x: 1 } }, { free: { x: 2 } }), false);
  assert.equal(eq({ mixed: { a: 1, b: [1] } }, { mixed: { a: 1, b: [2] } }), false);
  assert.equal(eq({ mixed: { a: 1, b: [1] } }, { mixed: { a: 1, b: [1] } }), true);
});
