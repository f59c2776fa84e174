import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { decodeBody } from '../../apimachinery/fieldvalidation/index.ts';
import type { JSONSchemaProps } from '../v1/types.ts';
import { toDecodeSchema } from './convert.ts';
import { applyDefaults } from './defaulting.ts';
import { validateCustomResource } from './validate.ts';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object', required: ['cronSpec'],
      properties: {
        cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
        replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
        mode: { type: 'string', enum: ['a', 'b'] },
        name: { type: 'string', minLength: 2, maxLength: 4 },
        tags: { type: 'array', maxItems: 2, minItems: 1, items: { type: 'string' } },
        when: { type: 'string', format: 'date-time' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        port: { 'x-kubernetes-int-or-string': true },
      },
    },
  },
};

const cr = (spec: Record<string, unknown>): Record<string, unknown> =>
  ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'x' }, spec: { cronSpec: '* * * * */5', ...spec } });

describe('validateCustomResource', () => {
  it('accepts a valid object', () => assert.deepEqual(validateCustomResource(cr({ replicas: 3, port: 'http', mode: 'a' }), schema), []));
  const cases: { name: string; spec: Record<string, unknown>; want: string }[] = [
    { name: 'type', spec: { replicas: 'x' }, want: 'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"' },
    { name: 'required', spec: { cronSpec: undefined }, want: 'spec.cronSpec: Required value' },
    { name: 'enum', spec: { mode: 'c' }, want: 'spec.mode: Unsupported value: "c": supported values: "a", "b"' },
    { name: 'pattern', spec: { cronSpec: 'bad' },
      want: 'spec.cronSpec: Invalid value: "bad": spec.cronSpec in body should match \'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$\'' },
    { name: 'maximum', spec: { replicas: 20 }, want: 'spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10' },
    { name: 'minimum', spec: { replicas: 0 }, want: 'spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1' },
    { name: 'minLength', spec: { name: 'a' }, want: 'spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long' },
    { name: 'maxLength', spec: { name: 'abcdef' }, want: 'spec.name: Too long: may not be more than 4 bytes' },
    { name: 'maxItems', spec: { tags: ['a', 'b', 'c'] }, want: 'spec.tags: Too many: 3: must have at most 2 items' },
    { name: 'minItems', spec: { tags: [] }, want: 'spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items' },
    { name: 'item type', spec: { tags: [1] }, want: 'spec.tags[0]: Invalid value: "integer": spec.tags[0] in body must be of type string: "integer"' },
    { name: 'format', spec: { when: 'yesterday' }, want: 'spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"' },
    { name: 'map value', spec: { labels: { a: 1 } }, want: 'spec.labels[a]: Invalid value: "integer": spec.labels[a] in body must be of type string: "integer"' },
    { name: 'int-or-string', spec: { port: true }, want: 'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const obj = cr(c.spec);
      const spec = obj['spec'] as Record<string, unknown>;
      for (const [k, v] of Object.entries(spec)) if (v === undefined) delete spec[k];
      const got = validateCustomResource(obj, schema).map(formatFieldError);
      assert.ok(got.includes(c.want), got.join('\n'));
    });
  }
});

describe('applyDefaults', () => {
  it('fills missing properties from defaults', () => {
    const obj = cr({});
    applyDefaults(obj, schema);
    assert.equal((obj['spec'] as Record<string, unknown>)['replicas'], 1);
  });
  it('keeps given values', () => {
    const obj = cr({ replicas: 4 });
    applyDefaults(obj, schema);
    assert.equal((obj['spec'] as Record<string, unknown>)['replicas'], 4);
  });
});

describe('decoding with the CR schema', () => {
  const gvk = { group: 'stable.example.com', version: 'v1', kind: 'CronTab' };
  it('prunes unknown fields but keeps preserved ones, and leaves scalar types to validation', () => {
    const raw = JSON.stringify(cr({ bogus: 1, replicas: 'x', free: { any: { thing: 1 } } }));
    const { obj, problems } = decodeBody(raw, 'json', gvk, 'Warn', { schema: toDecodeSchema(schema) });
    const spec = (obj as Record<string, Record<string, unknown>>)['spec'];
    assert.equal(spec?.['bogus'], undefined);
    assert.equal(spec?.['replicas'], 'x');
    assert.deepEqual(spec?.['free'], { any: { thing: 1 } });
    assert.deepEqual(problems, ['unknown field "spec.bogus"']);
  });
  it('rejects unknown fields with Strict', () => {
    const raw = JSON.stringify(cr({ bogus: 1 }));
    assert.throws(() => decodeBody(raw, 'json', gvk, 'Strict', { schema: toDecodeSchema(schema) }), /strict decoding error: unknown field "spec.bogus"/);
  });
});
