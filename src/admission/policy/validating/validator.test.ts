import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ValidatingAdmissionPolicySpec } from '../../../generated/types/admissionregistrationv1.gen.ts';
import { compilePolicy, policyExpressionProblems } from './compile.ts';
import { validate, type ValidateResult, type ValidationInput } from './validator.ts';

const MATCH = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] };

const input = (object: unknown, params: unknown = null): ValidationInput => ({
  object, oldObject: null, params,
  request: {
    kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { group: '', version: 'v1', resource: 'configmaps' },
    requestKind: { group: '', version: 'v1', kind: 'ConfigMap' }, requestResource: { group: '', version: 'v1', resource: 'configmaps' },
    name: 'cm', namespace: 'ns', operation: 'CREATE', userInfo: { username: 'alice', groups: ['devs'] }, dryRun: false,
  },
  namespace: { metadata: { name: 'ns', labels: { env: 'test' } } },
  user: { name: 'alice', groups: ['devs'] },
  authorizer: { authorize: (a) => ({ decision: a.verb === 'get' ? 'allow' : 'noOpinion', reason: '' }) },
  requestResource: { group: '', resource: 'configmaps', subresource: '', namespace: 'ns', name: 'cm' },
});

async function run(spec: Partial<ValidatingAdmissionPolicySpec>, object: unknown, params: unknown = null): Promise<ValidateResult> {
  return validate(compilePolicy({ metadata: { name: 'p' }, spec: { failurePolicy: 'Fail', matchConstraints: MATCH, ...spec } }), input(object, params));
}

const cm = (data: Record<string, string>): unknown => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' }, data });

describe('ValidatingAdmissionPolicy evaluation (validator.go)', () => {
  const cases: { name: string; spec: Partial<ValidatingAdmissionPolicySpec>; object?: unknown; params?: unknown; want: ValidateResult['decisions'] }[] = [
    { name: 'admitted', spec: { validations: [{ expression: "object.data.k == 'v'" }] }, want: [{ action: 'admit', evaluation: 'admit', message: '' }] },
    { name: 'denied with the expression as message', spec: { validations: [{ expression: "  object.data.k == 'x'  " }] },
      want: [{ action: 'deny', evaluation: 'deny', message: "failed expression: object.data.k == 'x'", reason: 'Invalid' }] },
    { name: 'message and reason', spec: { validations: [{ expression: 'false', message: ' static ', reason: 'Forbidden' }] },
      want: [{ action: 'deny', evaluation: 'deny', message: 'static', reason: 'Forbidden' }] },
    { name: 'messageExpression wins over message', spec: { validations: [{ expression: 'false', message: 'm', messageExpression: "'k is ' + object.data.k" }] },
      want: [{ action: 'deny', evaluation: 'deny', message: 'k is v', reason: 'Invalid' }] },
    { name: 'a multi-line messageExpression falls back to message', spec: { validations: [{ expression: 'false', message: 'm', messageExpression: "'a\\nb'" }] },
      want: [{ action: 'deny', evaluation: 'deny', message: 'm', reason: 'Invalid' }] },
    { name: 'a failing messageExpression falls back to the expression', spec: { validations: [{ expression: 'false', messageExpression: 'object.data.none' }] },
      want: [{ action: 'deny', evaluation: 'deny', message: 'failed expression: false', reason: 'Invalid' }] },
    { name: 'a runtime error (Fail)', spec: { validations: [{ expression: "object.data.none == 'x'" }] },
      want: [{ action: 'deny', evaluation: 'error', message: "expression 'object.data.none == 'x'' resulted in error: no such key: none" }] },
    { name: 'a runtime error (Ignore)', spec: { failurePolicy: 'Ignore', validations: [{ expression: "object.data.none == 'x'" }] },
      want: [{ action: 'admit', evaluation: 'error', message: "expression 'object.data.none == 'x'' resulted in error: no such key: none" }] },
    { name: 'params', spec: { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'object.data.k == params.data.want', messageExpression: "'want ' + params.data.want" }] },
      params: cm({ want: 'w' }), want: [{ action: 'deny', evaluation: 'deny', message: 'want w', reason: 'Invalid' }] },
    { name: 'variables, chained', spec: { variables: [{ name: 'k', expression: 'object.data.k' }, { name: 'kk', expression: 'variables.k + variables.k' }],
      validations: [{ expression: "variables.kk == 'vv'" }] }, want: [{ action: 'admit', evaluation: 'admit', message: '' }] },
    { name: 'typed variables', spec: { variables: [{ name: 'l', expression: '[1, 2]' }, { name: 'm', expression: "{'a': object.data.k}" }, { name: 'n', expression: 'variables.l[1] + 1' }],
      validations: [{ expression: "variables.l.size() == 2 && variables.n == 3 && variables.m['a'] == 'v'" }] }, want: [{ action: 'admit', evaluation: 'admit', message: '' }] },
    { name: 'a failed variable fails only what reads it', spec: {
      variables: [{ name: 'bad', expression: 'object.data.none' }, { name: 'worse', expression: "variables.bad + 'x'" }],
      validations: [{ expression: 'true' }, { expression: "variables.worse == ''" }] },
    want: [{ action: 'admit', evaluation: 'admit', message: '' }, { action: 'deny', evaluation: 'error',
      message: "expression 'variables.worse == ''' resulted in error: composited variable \"worse\" fails to evaluate: composited variable \"bad\" fails to evaluate: no such key: none" }] },
    { name: 'namespaceObject and request', spec: { validations: [{ expression: "namespaceObject.metadata.labels.env == 'test' && request.userInfo.username == 'alice'" }] },
      want: [{ action: 'admit', evaluation: 'admit', message: '' }] },
    { name: 'the authorizer', spec: { validations: [{ expression: "authorizer.group('').resource('secrets').check('get').allowed() && !authorizer.requestResource.check('create').allowed()" }] },
      want: [{ action: 'admit', evaluation: 'admit', message: '' }] },
    { name: 'a false match condition skips the policy', spec: { matchConditions: [{ name: 'n', expression: 'false' }], validations: [{ expression: 'false' }] }, want: [] },
    { name: 'a match condition that errs (Fail)', spec: { matchConditions: [{ name: 'n', expression: "object.data.none == 'x'" }], validations: [{ expression: 'false' }] },
      want: [{ action: 'deny', evaluation: 'error', message: "expression 'object.data.none == 'x'' resulted in error: no such key: none" }] },
    { name: 'a match condition that errs (Ignore)', spec: { failurePolicy: 'Ignore', matchConditions: [{ name: 'n', expression: "object.data.none == 'x'" }], validations: [{ expression: 'false' }] }, want: [] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await run(c.spec, c.object ?? cm({ k: 'v' }), c.params ?? null);
      assert.deepEqual(r.decisions, c.want);
    });
  }

  it('audit annotations: published, excluded, not compiled, failed', async () => {
    const r = await run({ auditAnnotations: [
      { key: 'k', valueExpression: "' ' + object.data.k + ' '" }, { key: 'none', valueExpression: 'null' }, { key: 'blank', valueExpression: "'  '" },
      { key: 'int', valueExpression: 'dyn(5)' }, { key: 'err', valueExpression: 'string(object.data.none)' },
    ] }, cm({ k: 'v' }));
    assert.deepEqual(r.auditAnnotations, [
      { key: 'k', action: 'publish', value: 'v' }, { key: 'none', action: 'exclude' }, { key: 'blank', action: 'exclude' },
      // dyn is refused when the policy is written; a stored one reports it on each evaluation
      { key: 'int', action: 'error', error: 'compilation error: must evaluate to one of [string null_type] but got dyn' },
      { key: 'err', action: 'error', error: "expression 'string(object.data.none)' resulted in error: no such key: none" },
    ]);
  });
});

describe('ValidatingAdmissionPolicy expressions on create (validation.go)', () => {
  const spec = (more: Partial<ValidatingAdmissionPolicySpec>): ValidatingAdmissionPolicySpec => ({ failurePolicy: 'Fail', matchConstraints: MATCH, ...more });
  const cases: { name: string; spec: ValidatingAdmissionPolicySpec; want: unknown }[] = [
    { name: 'a validation must be a bool, not dyn', spec: spec({ validations: [{ expression: 'object.data.k' }] }),
      want: { validations: [{ expression: { type: 'invalid', detail: 'must evaluate to bool but got dyn' }, messageExpression: undefined }] } },
    { name: 'a message must be a string', spec: spec({ validations: [{ expression: 'true', messageExpression: '1' }] }),
      want: { validations: [{ expression: undefined, messageExpression: { type: 'invalid', detail: 'must evaluate to string but got int' } }] } },
    { name: 'an audit annotation is a string or null', spec: spec({ auditAnnotations: [{ key: 'k', valueExpression: '5' }] }),
      want: { auditAnnotations: [{ type: 'invalid', detail: 'must evaluate to one of [string null_type] but got int' }] } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = policyExpressionProblems(c.spec) as unknown as Record<string, unknown>;
      for (const [k, v] of Object.entries(c.want as Record<string, unknown>)) assert.deepEqual(got[k], v, k);
    });
  }

  it('params and variables are declared only when the policy has them', () => {
    const p = policyExpressionProblems(spec({ validations: [{ expression: 'params.x == 1' }, { expression: 'variables.x == 1' }] }));
    assert.match(p.validations[0]?.expression?.detail ?? '', /undeclared reference to 'params'/);
    assert.match(p.validations[1]?.expression?.detail ?? '', /undeclared reference to 'variables'/);
    const q = policyExpressionProblems(spec({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, variables: [{ name: 'x', expression: '1' }],
      validations: [{ expression: 'params.x == 1' }, { expression: 'variables.x == 1' }, { expression: 'variables.y == 1' }] }));
    assert.equal(q.validations[0]?.expression, undefined);
    assert.equal(q.validations[1]?.expression, undefined);
    assert.match(q.validations[2]?.expression?.detail ?? '', /undefined field 'y'/);
  });
});
