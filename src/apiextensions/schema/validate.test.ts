// Custom-resource rules of kube's CR validation (pkg/apiserver/validation + schema/listtype +
// structural defaulting), one case each, with the causes kube v1.36 returns.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPath, formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import type { JSONSchemaProps } from '../v1/types.ts';
import { applyDefaults } from './defaulting.ts';
import { validateListSetsAndMaps } from './list-types.ts';
import { validateCustomResource } from './validate.ts';

const str: JSONSchemaProps = { type: 'string' };
const set = (items: JSONSchemaProps): JSONSchemaProps => ({ type: 'array', 'x-kubernetes-list-type': 'set', items });
const map = (keys: string[], items: JSONSchemaProps): JSONSchemaProps =>
  ({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys, items });
const obj = (properties: Record<string, JSONSchemaProps>, required?: string[]): JSONSchemaProps =>
  ({ type: 'object', properties, ...(required === undefined ? {} : { required }) });

const CASES: readonly { name: string; a: JSONSchemaProps; value: unknown; want: readonly string[] }[] = [
  { name: 'set duplicates', a: set(str), value: ['x', 'y', 'x'], want: ['a[2]: Duplicate value: "x"'] },
  { name: 'each repeat is a cause', a: set({ type: 'integer' }), value: [1, 2, 1, 2], want: ['a[2]: Duplicate value: 1', 'a[3]: Duplicate value: 2'] },
  { name: 'atomic objects in a set compare whole, key order aside', a: set({ type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { k: str } }),
    value: [{ k: 'x', n: 1 }, { n: 1, k: 'x' }], want: ['a[1]: Duplicate value: {"k":"x","n":1}'] },
  { name: 'map duplicate key', a: map(['k'], obj({ k: str, v: str }, ['k'])), value: [{ k: 'x', v: '1' }, { k: 'x', v: '2' }],
    want: ['a[1]: Duplicate value: {"k":"x"}'] },
  { name: 'map composite keys', a: map(['k', 'n'], obj({ k: str, n: { type: 'integer' } }, ['k', 'n'])),
    value: [{ k: 'x', n: 1 }, { k: 'x', n: 2 }, { k: 'x', n: 1 }], want: ['a[2]: Duplicate value: {"k":"x","n":1}'] },
  { name: 'atomic list may repeat', a: { type: 'array', items: str }, value: ['x', 'x'], want: [] },
  { name: 'maxItems 1 says item', a: { type: 'array', maxItems: 1, items: str }, value: ['x', 'y'], want: ['a: Too many: 2: must have at most 1 item'] },
  { name: 'maxProperties 2 says items', a: { type: 'object', maxProperties: 2, additionalProperties: str }, value: { x: '1', y: '2', z: '3' },
    want: ['a: Too many: 3: must have at most 2 items'] },
  { name: 'minProperties', a: { type: 'object', minProperties: 2, additionalProperties: str }, value: { x: '1' },
    want: ['a: Invalid value: 1: a in body should have at least 2 properties'] },
  { name: 'integer given a fraction', a: { type: 'integer' }, value: 1.5,
    want: ['a: Invalid value: "number": a in body must be of type integer: "number"',
      '<nil>: Invalid value: "": Checked value must be of type integer (default format) in a'] },
  { name: 'enum checked on a value of the wrong type too, and listed first', a: { type: 'string', enum: ['small', 'large'] }, value: 12345,
    want: ['a: Unsupported value: 12345: supported values: "small", "large"', 'a: Invalid value: "integer": a in body must be of type string: "integer"'] },
  { name: 'int32 overflow', a: { type: 'integer', format: 'int32' }, value: 2147483648,
    want: ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in a'] },
  { name: 'fractional maximum of an integer', a: { type: 'integer', maximum: 10.5 }, value: 11,
    want: ['<nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in a',
      'a: Invalid value: 11: a in body should be less than or equal to 10.5'] },
  { name: 'fractional minimum of an integer', a: { type: 'integer', minimum: 0.5 }, value: 1,
    want: ['<nil>: Invalid value: "": Minimum boundary value must be of type integer (default format) in a'] },
  { name: 'fractional multipleOf of an integer', a: { type: 'integer', multipleOf: 0.5 }, value: 3,
    want: ['<nil>: Invalid value: "": MultipleOf value must be of type integer (default format) in a'] },
  { name: 'int32 maximum beyond int32', a: { type: 'integer', format: 'int32', maximum: 4294967296 }, value: 1,
    want: ['<nil>: Invalid value: "": Maximum boundary value must be of type integer with format int32 in a'] },
  { name: 'format is a type error', a: { type: 'string', format: 'cidr' }, value: '10.0.0.0', want: ['a: Invalid value: "10.0.0.0": a in body must be of type cidr: "10.0.0.0"'] },
  { name: 'cidr accepted', a: { type: 'string', format: 'cidr' }, value: '10.0.0.0/8', want: [] },
  { name: 'duration', a: { type: 'string', format: 'duration' }, value: 'forever', want: ['a: Invalid value: "forever": a in body must be of type duration: "forever"'] },
  { name: 'Go duration accepted', a: { type: 'string', format: 'duration' }, value: '1h30m', want: [] },
  { name: 'ipv6', a: { type: 'string', format: 'ipv6' }, value: '1:2:3', want: ['a: Invalid value: "1:2:3": a in body must be of type ipv6: "1:2:3"'] },
  { name: 'unknown format unchecked', a: { type: 'string', format: 'bogus' }, value: 'x', want: [] },
  { name: 'pattern matched as Go: \\z', a: { type: 'string', pattern: '^ab\\z' }, value: 'abc', want: ["a: Invalid value: \"abc\": a in body should match '^ab\\z'"] },
  { name: 'pattern matched as Go: (?i)', a: { type: 'string', pattern: '^(?i)ab$' }, value: 'AB', want: [] },
  { name: 'pattern matched as Go: . takes \\r', a: { type: 'string', pattern: '^a.$' }, value: 'a\r', want: [] },
  { name: 'pattern matched as Go: \\pL', a: { type: 'string', pattern: '^\\pL+$' }, value: 'ab1', want: ["a: Invalid value: \"ab1\": a in body should match '^\\pL+$'"] },
];

describe('custom resource values (kube CR validation)', () => {
  for (const c of CASES) {
    it(c.name, () => assert.deepEqual([...validateCustomResource({ a: c.value }, obj({ a: c.a })), ...validateListSetsAndMaps(fieldPath(''), obj({ a: c.a }), { a: c.value })].map(formatFieldError), c.want));
  }
});

describe('nulls of non-nullable fields (PruneNonNullableNullsWithoutDefaults)', () => {
  const schema = obj({ s: str, d: { type: 'string', default: 'x' }, n: { type: 'string', nullable: true }, m: { type: 'object', additionalProperties: str } });
  const cases: readonly { name: string; in: Record<string, unknown>; out: Record<string, unknown> }[] = [
    { name: 'dropped without a default', in: { s: null }, out: { d: 'x' } },
    { name: 'replaced by the default', in: { d: null }, out: { d: 'x' } },
    { name: 'kept when nullable', in: { n: null }, out: { n: null, d: 'x' } },
    { name: 'dropped under additionalProperties', in: { m: { a: null, b: 'y' } }, out: { m: { b: 'y' }, d: 'x' } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const v = structuredClone(c.in);
      applyDefaults(v, schema);
      assert.deepEqual(v, c.out);
    });
  }
});
