// kube's rules for schemas under allOf/anyOf/oneOf/not (schema/validation.go validateNestedValueValidation).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPath, formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import type { JSONSchemaProps } from '../v1/types.ts';
import { validateJunctors } from './junctors.ts';

const P = 'v.properties[a]';
const CASES: readonly { name: string; a: JSONSchemaProps; want: readonly string[] }[] = [
  { name: 'type under allOf', a: { type: 'string', allOf: [{ type: 'string', minLength: 1 }] },
    want: [`${P}.allOf[0].type: Forbidden: must be empty to be structural`] },
  { name: 'extensions, default and nullable under anyOf', a: { type: 'array', items: { type: 'string' },
    anyOf: [{ 'x-kubernetes-list-type': 'set', default: ['x'], nullable: true }] },
  want: [`${P}.anyOf[0].default: Forbidden: must be undefined to be structural`, `${P}.anyOf[0].nullable: Forbidden: must be false to be structural`,
    `${P}.anyOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural`] },
  { name: 'description and title in items under oneOf', a: { type: 'array', items: { type: 'string' }, oneOf: [{ items: { description: 'd', title: 't' } }] },
    want: [`${P}.oneOf[0].items.title: Forbidden: must be empty to be structural`, `${P}.oneOf[0].items.description: Forbidden: must be empty to be structural`] },
  { name: 'additionalProperties under not', a: { type: 'object', not: { additionalProperties: { type: 'string' } } },
    want: [`${P}.not.additionalProperties: Forbidden: must be undefined to be structural`] },
  { name: 'validation rules under allOf', a: { type: 'integer', allOf: [{ 'x-kubernetes-validations': [{ rule: 'self > 0' }] }] },
    want: [`${P}.allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`] },
  { name: 'int-or-string idiom', a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }, want: [] },
  { name: 'value validations only', a: { type: 'string', allOf: [{ minLength: 1, pattern: 'a' }], not: { enum: ['x'] } }, want: [] },
];

describe('structural schemas: junctors carry value validations only', () => {
  for (const c of CASES) {
    it(c.name, () => assert.deepEqual(validateJunctors({ type: 'object', properties: { a: c.a } }, fieldPath('v')).map(formatFieldError), c.want));
  }
});
