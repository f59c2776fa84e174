// Custom resources judged by their CRD's rules, as kube's cel.Validator judges them (messages
// from the oracle's answers in src/e2e/crd-cel-validation.test.ts): where errors point, what they
// say, when transition rules run, and which errors ratchet into warnings.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { systemContext, type RequestContext } from '../../../apimachinery/request/context.ts';
import type { JSONSchemaProps, ValidationRule } from '../../v1/types.ts';
import { CorrelatedObject } from '../correlation.ts';
import { CustomResourceValidator } from '../../server/validator.ts';
import { fieldPath, formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { newRuleValidator, validateDefaultRules } from './validation.ts';

const int: JSONSchemaProps = { type: 'integer' };
const str: JSONSchemaProps = { type: 'string' };
const rules = (...r: ValidationRule[]): JSONSchemaProps => ({ 'x-kubernetes-validations': r });

const schema: JSONSchemaProps = {
  type: 'object',
  ...rules({ rule: '!has(self.spec) || !has(self.spec.n) || self.spec.n < 50', message: 'root' }),
  properties: {
    spec: {
      type: 'object',
      ...rules({ rule: '!has(self.n) || !has(self.max) || self.n <= self.max', fieldPath: '.n' },
        { rule: "!has(self.r) || self.r != 'no'", reason: 'FieldValueForbidden', messageExpression: "'r is ' + self.r" }),
      properties: {
        n: int, max: int, r: { type: 'string', maxLength: 5 },
        mode: { ...str, ...rules({ rule: 'self == oldSelf', message: 'immutable' }) },
        phase: { ...str, ...rules({ rule: "oldSelf.hasValue() ? self == oldSelf.value() : self == 'New'", optionalOldSelf: true, message: 'phase' }) },
        d: { ...int, ...rules({ rule: '10 / self > 1' }) },
        count: { ...int, ...rules({ rule: 'self < 10', message: 'count' }) },
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], maxItems: 5,
          items: { type: 'object', required: ['name'], properties: { name: { ...str, maxLength: 5 }, port: int },
            ...rules({ rule: 'self.port >= oldSelf.port', message: 'no decrease' }) } },
        tags: { type: 'array', maxItems: 5, items: { ...str, maxLength: 5, ...rules({ rule: 'self.size() > 1', message: 'short' }) } },
      },
    },
  },
};

interface Recorded { ctx: RequestContext; warnings: string[] }
function recorder(): Recorded {
  const warnings: string[] = [];
  return { ctx: { ...systemContext(), warnings: { addWarning: (w: string) => { warnings.push(w); } } }, warnings };
}

const validator = new CustomResourceValidator(schema, newRuleValidator(schema));
const cr = (spec: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' }, spec });

const CREATES: readonly { name: string; spec: Record<string, unknown>; want: readonly string[] }[] = [
  { name: 'valid', spec: { n: 1, max: 2, mode: 'a', phase: 'New', tags: ['ab'] }, want: [] },
  { name: 'object rule at its fieldPath, default message, value omitted', spec: { n: 3, max: 2 },
    want: ['spec.n: Invalid value: failed rule: !has(self.n) || !has(self.max) || self.n <= self.max'] },
  { name: 'root rule names no field', spec: { n: 60 }, want: ['<nil>: Invalid value: root'] },
  { name: 'reason Forbidden with messageExpression', spec: { r: 'no' }, want: ['spec: Forbidden: r is no'] },
  { name: 'transition rules wait for an old value', spec: { mode: 'x' }, want: [] },
  { name: 'optionalOldSelf runs on create', spec: { phase: 'Old' }, want: ['spec.phase: Invalid value: "Old": phase'] },
  { name: 'runtime error', spec: { d: 0 }, want: ['spec.d: Invalid value: "integer": division by zero evaluating rule: 10 / self > 1'] },
  { name: 'list items', spec: { tags: ['ab', 'c'] }, want: ['spec.tags[1]: Invalid value: "c": short'] },
  { name: 'blocking schema error skips the rules', spec: { r: 'toolong', n: 60 },
    want: ['spec.r: Too long: may not be more than 5 bytes',
      '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation'] },
];

const OLD = { n: 1, max: 2, mode: 'a', phase: 'New', count: 20, ports: [{ name: 'a', port: 5 }, { name: 'b', port: 5 }] };
const UPDATES: readonly { name: string; change: (s: Record<string, unknown>) => void; want: readonly string[]; warnings?: readonly string[] }[] = [
  { name: 'transition rule refuses a change', change: (s) => { s['mode'] = 'b'; }, want: ['spec.mode: Invalid value: "b": immutable'], warnings: ['spec.count: Invalid value: 20: count'] },
  { name: 'optionalOldSelf sees the old value', change: (s) => { s['phase'] = 'Other'; }, want: ['spec.phase: Invalid value: "Other": phase'], warnings: ['spec.count: Invalid value: 20: count'] },
  { name: 'map-list items pair by key, whatever their order', change: (s) => { s['ports'] = [{ name: 'b', port: 6 }, { name: 'a', port: 4 }]; },
    want: ['spec.ports[1]: Invalid value: no decrease'], warnings: ['spec.count: Invalid value: 20: count'] },
  { name: 'a changed invalid value fails', change: (s) => { s['count'] = 30; }, want: ['spec.count: Invalid value: 30: count'] },
];

describe('CRD validation rules on custom resources', () => {
  for (const c of CREATES) {
    it(`create: ${c.name}`, () => {
      const r = recorder();
      assert.deepEqual(validator.validate(r.ctx, cr(c.spec)).map(formatFieldError), c.want);
    });
  }
  for (const c of UPDATES) {
    it(`update: ${c.name}`, () => {
      const r = recorder();
      const old = cr(structuredClone(OLD));
      const next = cr(structuredClone(OLD));
      c.change(next['spec'] as Record<string, unknown>);
      assert.deepEqual(validator.validateUpdate(r.ctx, next, old).map(formatFieldError), c.want);
      assert.deepEqual(r.warnings, c.warnings ?? []);
    });
  }
  it('a schema without rules has no rule validator', () => {
    assert.equal(newRuleValidator({ type: 'object', properties: { a: int } }), undefined);
  });
  it('the correlation is shared: an unchanged object raises nothing', () => {
    const r = recorder();
    const old = cr(structuredClone(OLD));
    const rv = newRuleValidator(schema);
    assert.deepEqual(rv?.validate(r.ctx, old, old, new CorrelatedObject(old, old, schema)), []);
  });
});

describe('CRD defaults meet their rules', () => {
  const cases: readonly { name: string; schema: JSONSchemaProps; want: readonly string[] }[] = [
    { name: 'its own rule', schema: { ...int, default: 5, ...rules({ rule: 'self < 3', message: 'below 3' }) }, want: ['d.default: Invalid value: 5: below 3'] },
    { name: 'a rule below it', schema: { type: 'object', default: { b: 7 }, properties: { b: { ...int, ...rules({ rule: 'self < 3' }) } } },
      want: ['d.default.b: Invalid value: 7: failed rule: self < 3'] },
    { name: 'a transition rule sees the default as its old value', schema: { ...int, default: 5, ...rules({ rule: 'self == oldSelf' }) }, want: [] },
    { name: 'optionalOldSelf is also tried without an old value', schema: { ...int, default: 5,
      ...rules({ rule: 'oldSelf.hasValue() || self < 3', optionalOldSelf: true, message: 'new values below 3' }) }, want: ['d.default: Invalid value: 5: new values below 3'] },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(validateDefaultRules(recorder().ctx, c.schema, c.schema.default, fieldPath('d', 'default')).map(formatFieldError), c.want));
  }
});
