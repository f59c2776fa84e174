// The CRD-side checks of x-kubernetes-validations, one case per rule of kube's
// ValidateCustomResourceDefinitionOpenAPISchema (rule part), with the causes kube v1.36 returns
// (as the oracle answered them in src/e2e/crd-cel-validation.test.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPath, formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import type { JSONSchemaProps, ValidationRule } from '../v1/types.ts';
import { costErrorMessage, validateValidationRules } from './validation-rules.ts';

const int: JSONSchemaProps = { type: 'integer' };
const spec = (rules: ValidationRule[], properties: Record<string, JSONSchemaProps> = { a: int }): JSONSchemaProps =>
  ({ type: 'object', properties: { spec: { type: 'object', properties, 'x-kubernetes-validations': rules } } });
const R = 'v.properties[spec].x-kubernetes-validations[0]';

const CASES: readonly { name: string; schema: JSONSchemaProps; want: readonly string[] }[] = [
  { name: 'valid rule', schema: spec([{ rule: 'self.a > 0', message: 'm', reason: 'FieldValueForbidden', fieldPath: '.a' }]), want: [] },
  { name: 'empty rule', schema: spec([{ rule: '  ' }]), want: [`${R}.rule: Required value: rule is not specified`] },
  { name: 'message only spaces', schema: spec([{ rule: 'true', message: ' ' }]), want: [`${R}.message: Invalid value: " ": must be non-empty if specified`] },
  { name: 'message with a line break', schema: spec([{ rule: 'true', message: 'a\nb' }]), want: [`${R}.message: Invalid value: "a\\nb": must not contain line breaks`] },
  { name: 'multi-line rule without message', schema: spec([{ rule: 'true &&\ntrue' }]),
    want: [`${R}.message: Required value: message must be specified if rule contains line breaks`] },
  { name: 'messageExpression only spaces', schema: spec([{ rule: 'true', messageExpression: ' ' }]),
    want: [`${R}.messageExpression: Required value: messageExpression must be non-empty if specified`] },
  { name: 'unknown reason', schema: spec([{ rule: 'true', reason: 'Bogus' }]),
    want: [`${R}.reason: Unsupported value: "Bogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`] },
  { name: 'fieldPath not a field', schema: spec([{ rule: 'true', fieldPath: '.b' }]), want: [`${R}.fieldPath: Invalid value: ".b": must be a valid path`] },
  { name: 'fieldPath into a list', schema: spec([{ rule: 'true', fieldPath: '.l[0]' }], { l: { type: 'array', items: int } }),
    want: [`${R}.fieldPath: Invalid value: ".l[0]": must be a valid path`] },
  { name: 'fieldPath by quoted key', schema: spec([{ rule: 'true', fieldPath: "['a.b']" }], { 'a.b': int }), want: [] },
  { name: 'compile error', schema: spec([{ rule: 'self.b == 1' }]),
    want: [`${R}.rule: Invalid value: {"Rule":"self.b == 1","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: ` +
      "compilation failed: ERROR: <input>:1:5: undefined field 'b'\n | self.b == 1\n | ....^"] },
  { name: 'not a bool, HTML-escaped in the value', schema: spec([{ rule: 'self.a + 1 > 0 ? self.a : 0' }]),
    want: [`${R}.rule: Invalid value: {"Rule":"self.a + 1 \\u003e 0 ? self.a : 0","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: cel expression must evaluate to a bool`] },
  { name: 'messageExpression not a string', schema: spec([{ rule: 'true', messageExpression: 'self.a' }]),
    want: [`${R}.messageExpression: Invalid value: {"Rule":"true","Message":"","MessageExpression":"self.a","Reason":null,"FieldPath":"","OptionalOldSelf":null}: messageExpression must evaluate to a string`] },
  { name: 'optionalOldSelf without oldSelf', schema: spec([{ rule: 'self.a > 0', optionalOldSelf: false }]),
    want: [`${R}.optionalOldSelf: Invalid value: false: may not be set if oldSelf is not used in rule`] },
  { name: 'oldSelf below an atomic list', schema: spec([], { l: { type: 'array', items: { type: 'object', properties: { a: int }, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } }),
    want: ['v.properties[spec].properties[l].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": ' +
      'oldSelf cannot be used on the uncorrelatable portion of the schema within v.properties[spec].properties[l]'] },
  { name: 'oldSelf in map-list items', schema: spec([], { l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'],
    items: { type: 'object', required: ['k'], properties: { k: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } }), want: [] },
  { name: 'a field named oldSelf is no transition', schema: spec([{ rule: 'self.oldSelf > 0', optionalOldSelf: true }], { oldSelf: int }),
    want: [`${R}.optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`] },
];

describe('CRD validation rules are checked on CRD writes', () => {
  for (const c of CASES) {
    it(c.name, () => assert.deepEqual(validateValidationRules(c.schema, fieldPath('v'), { compile: true }).map(formatFieldError), c.want));
  }
  // kube (oracle): "compilation failed: ERROR: <input>:1:4: undefined field 'x'".
  it('has() of an undeclared field does not compile', () => {
    const errs = validateValidationRules(spec([{ rule: 'has(self.x)' }]), fieldPath('v'), { compile: true }).map(formatFieldError);
    assert.match(errs[0] ?? '', /undefined field 'x'/);
  });
  it('rules are not compiled when the schema has other errors', () => {
    assert.deepEqual(validateValidationRules(spec([{ rule: 'self.b == 1' }]), fieldPath('v'), { compile: false }), []);
  });
});

describe('cost error messages as kube words the factor', () => {
  const cases = [
    { cost: 10_365_380, want: '1.036538x' }, { cost: 124_000_000, want: '12.4x' }, { cost: 2_000_000_000, want: 'more than 100x' },
  ];
  for (const c of cases) {
    it(c.want, () => assert.match(costErrorMessage('estimated rule cost', c.cost, 10_000_000), new RegExp(`factor of ${c.want.replace('.', '\\.')} `)));
  }
});
