// A CRD's selectableFields, checked as kube checks them (answers of the oracle in
// src/e2e/crd-cel-validation.test.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPath, formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import type { JSONSchemaProps } from '../v1/types.ts';
import { validateSelectableFields } from './selectable-fields.ts';

const str: JSONSchemaProps = { type: 'string' };
const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: {
  color: str, size: { type: 'integer' }, on: { type: 'boolean' }, tags: { type: 'array', items: str }, m: { type: 'object', additionalProperties: str },
} } } };
const P = 's.selectableFields';

const CASES: readonly { name: string; paths: readonly string[]; want: readonly string[] }[] = [
  { name: 'string, integer, boolean and a map value', paths: ['.spec.color', '.spec.size', '.spec.on', '.spec.m.k'], want: [] },
  { name: 'no leading dot', paths: ['spec.color'], want: [`${P}[0].jsonPath: Invalid value: "spec.color": is an invalid path: expected [ or . but got: spec`] },
  { name: 'unknown field', paths: ['.spec.nope'], want: [`${P}[0].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field`] },
  { name: 'a list', paths: ['.spec.tags'],
    want: [`${P}[0].jsonPath: Invalid value: ".spec.tags": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`] },
  { name: 'array notation', paths: [".spec['color']"], want: [`${P}[0].jsonPath: Invalid value: ".spec['color']": is an invalid path: array notation is not allowed`] },
  { name: 'empty', paths: [''], want: [`${P}[0].jsonPath: Required value`] },
  { name: 'twice', paths: ['.spec.color', '.spec.color'], want: [`${P}[1].jsonPath: Duplicate value: ".spec.color"`] },
];

describe('selectable fields', () => {
  for (const c of CASES) {
    it(c.name, () => assert.deepEqual(validateSelectableFields(c.paths.map((jsonPath) => ({ jsonPath })), schema, fieldPath('s', 'selectableFields')).map(formatFieldError), c.want));
  }
  it('at most eight', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ jsonPath: `.spec.f${i}` }));
    const wide: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: Object.fromEntries(many.map((_, i) => [`f${i}`, str])) } } };
    assert.deepEqual(validateSelectableFields(many, wide, fieldPath('s', 'selectableFields')).map(formatFieldError), [`${P}: Too many: 9: must have at most 8 items`]);
  });
});
