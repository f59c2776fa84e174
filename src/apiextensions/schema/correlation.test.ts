// Ratcheting of the OpenAPI schema validation on update (CRDValidationRatcheting, GA in v1.36): a
// value left as it was keeps its errors, a changed one is judged in full. Cases from kube's
// ratcheting_test.go and the oracle's answers (src/e2e/crd-cel-validation.test.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import type { JSONSchemaProps } from '../v1/types.ts';
import { CorrelatedObject } from './correlation.ts';
import { validateCustomResource } from './validate.ts';

const int = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'integer', ...extra });
const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        size: int({ maximum: 5 }), other: { type: 'string' },
        list: { type: 'array', items: { type: 'string', maxLength: 3 } },
        set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', maxLength: 3 } },
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: int({ maximum: 100 }) } } },
        labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 2 } },
      },
    },
  },
};

const OLD = { spec: { size: 8, other: 'a', list: ['long'], set: ['long'], ports: [{ name: 'a', port: 200 }, { name: 'b', port: 1 }], labels: { k: 'long' } } };
type Spec = Record<string, unknown>;

const CASES: readonly { name: string; change: (s: Spec) => void; want: readonly string[] }[] = [
  { name: 'another field changed: old errors stay quiet', change: (s) => { s['other'] = 'b'; }, want: [] },
  { name: 'invalid value changed to another invalid one', change: (s) => { s['size'] = 9; },
    want: ['spec.size: Invalid value: 9: spec.size in body should be less than or equal to 5'] },
  { name: 'invalid value made valid', change: (s) => { s['size'] = 1; }, want: [] },
  { name: 'atomic list changed: its old invalid item counts again', change: (s) => { s['list'] = ['long', 'ok']; },
    want: ['spec.list[0]: Too long: may not be more than 3 bytes'] },
  { name: 'set changed: items never pair', change: (s) => { s['set'] = ['ok', 'long']; },
    want: ['spec.set[1]: Too long: may not be more than 3 bytes'] },
  { name: 'map-list: another item changed', change: (s) => { s['ports'] = [{ name: 'a', port: 200 }, { name: 'b', port: 2 }]; }, want: [] },
  { name: 'map-list: items reordered pair by key', change: (s) => { s['ports'] = [{ name: 'b', port: 1 }, { name: 'a', port: 200 }]; }, want: [] },
  { name: 'map-list: invalid item changed', change: (s) => { s['ports'] = [{ name: 'a', port: 300 }, { name: 'b', port: 1 }]; },
    want: ['spec.ports[0].port: Invalid value: 300: spec.ports[0].port in body should be less than or equal to 100'] },
  { name: 'map-list: a new item under an old key name is new', change: (s) => { s['ports'] = [{ name: 'c', port: 200 }, { name: 'b', port: 1 }]; },
    want: ['spec.ports[0].port: Invalid value: 200: spec.ports[0].port in body should be less than or equal to 100'] },
  { name: 'map value unchanged beside a new key', change: (s) => { s['labels'] = { k: 'long', n: 'ok' }; }, want: [] },
  { name: 'map value changed', change: (s) => { s['labels'] = { k: 'longer' }; },
    want: ['spec.labels[k]: Too long: may not be more than 2 bytes'] },
];

describe('schema validation ratchets unchanged values on update', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const next = structuredClone(OLD);
      c.change(next.spec);
      const got = validateCustomResource(next, schema, new CorrelatedObject(next, OLD, schema)).map(formatFieldError);
      assert.deepEqual(got, c.want);
    });
  }
  it('without an old object every error counts', () => {
    assert.equal(validateCustomResource(OLD, schema).length, 5);
  });
});
