// One case per rule of kube's ValidateCustomResourceDefinitionOpenAPISchema that schema-extensions.ts
// implements (validation.go, schema/validation.go, schema/defaulting/validation.go), with kube's paths,
// error types and messages.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPath, formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import type { JSONSchemaProps } from '../v1/types.ts';
import { validateSchemaExtensions } from './schema-extensions.ts';

const P = 'v.properties[a]';
const root = (a: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { a } });
const str: JSONSchemaProps = { type: 'string' };
const keyed = (items: JSONSchemaProps, keys?: string[]): JSONSchemaProps =>
  ({ type: 'array', 'x-kubernetes-list-type': 'map', ...(keys === undefined ? {} : { 'x-kubernetes-list-map-keys': keys }), items });
const bad = (v: string): JSONSchemaProps => ({ type: 'string', pattern: v });

const CASES: readonly { name: string; schema: JSONSchemaProps; want: readonly string[] }[] = [
  { name: 'pattern Go refuses', schema: bad('(?=a)'),
    want: [`${P}.pattern: Invalid value: "(?=a)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``] },
  { name: 'pattern under allOf', schema: { type: 'string', allOf: [{ pattern: 'a**' }] },
    want: [`${P}.allOf[0].pattern: Invalid value: "a**": must be a valid regular expression, but isn't: error parsing regexp: invalid nested repetition operator: \`**\``] },
  { name: 'pattern RE2 accepts', schema: bad('\\Aa(?i)b[[:word:]]\\pL\\z'), want: [] },
  { name: 'list-type map without keys', schema: keyed({ type: 'object', properties: { k: str }, required: ['k'] }),
    want: [`${P}.x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`] },
  { name: 'list-type map of scalars', schema: keyed(str, ['k']),
    want: [`${P}.items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`] },
  { name: 'map key not a property', schema: keyed({ type: 'object', properties: { j: str } }, ['k']),
    want: [`${P}.x-kubernetes-list-map-keys: Invalid value: ["k"]: entries must all be names of item properties`] },
  { name: 'map key not scalar', schema: keyed({ type: 'object', properties: { k: { type: 'object' } }, required: ['k'] }, ['k']),
    want: [`${P}.items.properties[k].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`] },
  { name: 'map key neither required nor defaulted', schema: keyed({ type: 'object', properties: { k: str } }, ['k']),
    want: [`${P}.items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`] },
  { name: 'map key defaulted', schema: keyed({ type: 'object', properties: { k: { type: 'string', default: 'x' } } }, ['k']), want: [] },
  { name: 'duplicate map keys', schema: keyed({ type: 'object', properties: { k: str }, required: ['k'] }, ['k', 'k']),
    want: [`${P}.x-kubernetes-list-map-keys: Invalid value: ["k","k"]: must not contain duplicate entries`] },
  { name: 'map keys without list-type', schema: { type: 'array', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: str }, required: ['k'] } },
    want: [`${P}.x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`] },
  { name: 'set of granular objects', schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { k: str } } },
    want: [`${P}.items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`] },
  { name: 'unknown list-type', schema: { type: 'array', 'x-kubernetes-list-type': 'bogus' as 'set', items: str },
    want: [`${P}.x-kubernetes-list-type: Unsupported value: "bogus": supported values: "atomic", "set", "map"`] },
  { name: 'list-type on a string', schema: { type: 'string', 'x-kubernetes-list-type': 'set' },
    want: [`${P}.type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`] },
  { name: 'unknown map-type', schema: { type: 'object', 'x-kubernetes-map-type': 'bogus' as 'atomic' },
    want: [`${P}.x-kubernetes-map-type: Unsupported value: "bogus": supported values: "atomic", "granular"`] },
  { name: 'map-type on a string', schema: { type: 'string', 'x-kubernetes-map-type': 'atomic' },
    want: [`${P}.type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`] },
  { name: 'list-type under a junctor needs type array', schema: { type: 'array', items: str, anyOf: [{ 'x-kubernetes-list-type': 'set' }] },
    want: [`${P}.anyOf[0].type: Required value: must be array if x-kubernetes-list-type is specified`] },
  { name: 'embedded resource without properties', schema: { type: 'object', 'x-kubernetes-embedded-resource': true },
    want: [`${P}.properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`] },
  { name: 'default of the wrong type', schema: { type: 'integer', default: 'x' },
    want: [`${P}.default: Invalid value: "string":  in body must be of type integer: "string"`] },
  { name: 'default outside enum', schema: { type: 'string', enum: ['a'], default: 'c' },
    want: [`${P}.default: Unsupported value: "c": supported values: "a"`] },
  { name: 'default above maximum', schema: { type: 'integer', maximum: 5, default: 7 },
    want: [`${P}.default: Invalid value: 7:  in body should be less than or equal to 5`] },
  { name: 'default with an unknown field', schema: { type: 'object', properties: { b: str }, default: { b: 'x', c: 'y' } },
    want: [`${P}.default: Invalid value: {"b":"x","c":"y"}: must not have unknown fields`] },
  { name: 'default missing a required field', schema: { type: 'object', properties: { b: str }, required: ['b'], default: {} },
    want: [`${P}.default.b: Required value`] },
  { name: 'default null', schema: { type: 'string', default: null }, want: [] },
];

describe('CRD schema extension rules (kube validation.go)', () => {
  for (const c of CASES) {
    it(c.name, () => assert.deepEqual(validateSchemaExtensions(root(c.schema), fieldPath('v')).map(formatFieldError), c.want));
  }
});
