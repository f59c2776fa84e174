// The definitions published for a custom resource, against what kube-apiserver v1.36.3 publishes
// for the same CRD (testdata/widget-openapi.json, observed from the oracle), and the v2/v3 rules
// of apiextensions-apiserver's builder and ToStructuralOpenAPIV2 case by case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadDefinitionDocs } from '../../apimachinery/openapi/docs.ts';
import type { JsonObject } from '../../endpoints/openapi/schema-json.ts';
import { customResourceDefinitions, type CustomResourceOpenAPI } from './builder.ts';

interface Golden {
  crd: { spec: { versions: { schema: { openAPIV3Schema: unknown } }[] } };
  v2: Record<string, JsonObject>;
  v3: Record<string, JsonObject>;
}
const golden = JSON.parse(readFileSync(new URL('./testdata/widget-openapi.json', import.meta.url), 'utf8')) as Golden;
const widget = (schema: unknown, extra: Partial<CustomResourceOpenAPI> = {}): CustomResourceOpenAPI => ({
  schema, gvk: { group: 'stable.example.com', version: 'v1', kind: 'Widget' }, plural: 'widgets', listKind: 'WidgetList', ...extra,
});
const KIND = 'com.example.stable.v1.Widget';

test('a CRD is published as kube-apiserver publishes it, in v2 and v3', async () => {
  const docs = await loadDefinitionDocs();
  const cr = widget(golden.crd.spec.versions[0]?.schema.openAPIV3Schema);
  for (const format of ['v2', 'v3'] as const) assert.deepEqual(customResourceDefinitions(cr, format, docs), golden[format], format);
});

test('v2 and v3 rules of the CRD builder', async () => {
  const docs = await loadDefinitionDocs();
  const obj = (props: Record<string, unknown>, more: Record<string, unknown> = {}) => ({ type: 'object', properties: props, ...more });
  const cases: { name: string; schema: unknown; extra?: Partial<CustomResourceOpenAPI>; path: string[]; v2: unknown; v3: unknown }[] = [
    { name: 'a root keeping unknown fields is a bare object in v2 only',
      schema: obj({ a: { type: 'string' } }, { 'x-kubernetes-preserve-unknown-fields': true }), path: ['properties', 'a'],
      v2: undefined, v3: { type: 'string' } },
    { name: 'nullable: v2 drops type, items and properties', schema: obj({ n: { type: 'array', nullable: true, items: { type: 'string' } } }),
      path: ['properties', 'n'], v2: {}, v3: { type: 'array', items: { type: 'string' }, nullable: true } },
    { name: 'nullable properties leave required in v2', schema: obj({ n: { type: 'string', nullable: true }, m: { type: 'string' } }, { required: ['n', 'm'] }),
      path: ['required'], v2: ['m'], v3: ['n', 'm'] },
    { name: 'int-or-string gains its anyOf in v3 (Unfold); v2 has none',
      schema: obj({ p: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer', maximum: 3 }, { type: 'string' }] } }), path: ['properties', 'p'],
      v2: { 'x-kubernetes-int-or-string': true },
      v3: { allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }], anyOf: [{ type: 'integer', maximum: 3 }, { type: 'string' }], 'x-kubernetes-int-or-string': true } },
    { name: 'defaults only in v3', schema: obj({ d: { type: 'object', default: { a: 1 }, properties: { a: { type: 'integer', default: 1 } } } }),
      path: ['properties', 'd'], v2: { type: 'object', properties: { a: { type: 'integer' } } },
      v3: { type: 'object', default: { a: 1 }, properties: { a: { type: 'integer', default: 1 } } } },
    { name: 'an array without items loses its type in v2', schema: obj({ l: { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } } }),
      path: ['properties', 'l'], v2: { 'x-kubernetes-preserve-unknown-fields': true }, v3: { type: 'array', items: { type: 'string' }, 'x-kubernetes-preserve-unknown-fields': true } },
    { name: 'uniqueItems false, empty required and null default are omitted', schema: obj({ u: { type: 'array', uniqueItems: false, items: { type: 'object', required: [], default: null } } }),
      path: ['properties', 'u'], v2: { type: 'array', items: { type: 'object' } }, v3: { type: 'array', items: { type: 'object' } } },
    { name: 'selectable fields are listed on the kind', schema: obj({}), extra: { selectableFields: ['.spec.color'] },
      path: ['x-kubernetes-selectable-fields'], v2: [{ fieldPath: 'spec.color' }], v3: [{ fieldPath: 'spec.color' }] },
  ];
  for (const c of cases) {
    for (const format of ['v2', 'v3'] as const) {
      const kind = customResourceDefinitions(widget(c.schema, c.extra), format, docs)[KIND];
      const got = c.path.reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], kind);
      assert.deepEqual(got, c[format], `${c.name} (${format})`);
    }
  }
  const bare = customResourceDefinitions(widget(obj({}, { 'x-kubernetes-preserve-unknown-fields': true })), 'v2', docs)[KIND];
  assert.deepEqual(bare, { type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'stable.example.com', kind: 'Widget', version: 'v1' }] });
});

test('validation rules are published as kube marshals them: struct order in v3, sorted in v2, empty fields left out', async () => {
  const docs = await loadDefinitionDocs();
  // As the oracle published this CRD (both documents carry the rules, the root's on the kind).
  const rules = [{ fieldPath: '', reason: 'FieldValueForbidden', messageExpression: "'x'", rule: 'self > 0' }];
  const schema = { type: 'object', 'x-kubernetes-validations': [{ message: 'root', rule: 'true' }],
    properties: { spec: { type: 'object', properties: { a: { type: 'integer', 'x-kubernetes-validations': rules } } } } };
  const want = {
    v3: { a: '[{"rule":"self > 0","messageExpression":"\'x\'","reason":"FieldValueForbidden"}]', root: '[{"rule":"true","message":"root"}]' },
    v2: { a: '[{"messageExpression":"\'x\'","reason":"FieldValueForbidden","rule":"self > 0"}]', root: '[{"message":"root","rule":"true"}]' },
  };
  for (const format of ['v2', 'v3'] as const) {
    const kind = customResourceDefinitions(widget(schema), format, docs)[KIND] as Record<string, unknown>;
    const spec = (kind['properties'] as Record<string, { properties: Record<string, Record<string, unknown>> }>)['spec'];
    assert.equal(JSON.stringify(spec?.properties['a']?.['x-kubernetes-validations']), want[format].a, format);
    assert.equal(JSON.stringify(kind['x-kubernetes-validations']), want[format].root, format);
  }
});
