import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import type { ResourceQuota } from '../v1/types.ts';
import { validateResourceQuota, validateResourceQuotaUpdate } from './resourcequota.ts';

type Spec = NonNullable<ResourceQuota['spec']>;
const rq = (spec: Spec): ResourceQuota => ({ metadata: { name: 'q', namespace: 'ns' }, spec });
const scoped = (req: { scopeName: string; operator: string; values?: string[] }, hard: Record<string, string> = { pods: '1' }): Spec =>
  ({ hard, scopeSelector: { matchExpressions: [req] } });

describe('ResourceQuota validation (ValidateResourceQuota*), as kube-apiserver v1.36 answers', () => {
  const cases: { name: string; spec: Spec; want: string[] }[] = [
    { name: 'hard name not standard', spec: { hard: { bogus: '1' } }, want: [
      'spec.hard[bogus]: Invalid value: "bogus": must be a standard resource for quota', 'spec.hard[bogus]: Invalid value: "bogus": must be a standard resource type or fully qualified'] },
    { name: 'fractional count', spec: { hard: { 'count/secrets': '500m' } }, want: ['spec.hard[count/secrets]: Invalid value: "500m": must be an integer'] },
    { name: 'scope not for the resource', spec: { hard: { 'requests.storage': '1Gi' }, scopes: ['BestEffort'] },
      want: ['spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource'] },
    { name: 'conflicting scopes', spec: { hard: { pods: '1' }, scopes: ['Terminating', 'NotTerminating'] },
      want: ['spec.scopes: Invalid value: ["Terminating","NotTerminating"]: conflicting scopes'] },
    { name: 'selector operator must be Exists', spec: scoped({ scopeName: 'BestEffort', operator: 'In', values: ['x'] }), want: [
      'spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be \'Exists\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ' +
      'ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity'] },
    { name: 'selector In without values', spec: scoped({ scopeName: 'PriorityClass', operator: 'In' }), want: [
      'spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is \'In\' or \'NotIn\' for scope selector'] },
    { name: 'selector scope not for the resource', spec: scoped({ scopeName: 'Terminating', operator: 'Exists' }, { 'requests.storage': '1Gi' }), want: [
      'spec.scopeSelector.matchExpressions: Invalid value: {"MatchExpressions":[{"ScopeName":"Terminating","Operator":"Exists","Values":null}]}: unsupported scope applied to resource'] },
    { name: 'valid', spec: scoped({ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }), want: [] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validateResourceQuota(rq(c.spec)).map(formatFieldError).sort(), [...c.want].sort()));

  it('the scopes are immutable', () => {
    const errs = validateResourceQuotaUpdate(rq({ hard: { pods: '1' }, scopes: ['NotTerminating'] }), rq({ hard: { pods: '1' }, scopes: ['Terminating'] }));
    assert.deepEqual(errs.map(formatFieldError), ['spec.scopes: Invalid value: ["NotTerminating"]: field is immutable']);
  });
});
