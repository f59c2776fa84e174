import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext, type RequestContext } from '../../apimachinery/request/context.ts';
import type { Creater } from '../../registry/rest/capabilities.ts';
import type { Attributes, AuthorizationResult } from '../../authz/authorizer.ts';
import { newAlwaysAllowAuthorizer } from '../../authz/factory.ts';
import { authorizationGroup } from './install.ts';

const seen: Attributes[] = [];
let answer: AuthorizationResult = { decision: 'Allow', reason: '' };
const group = authorizationGroup({
  authorizer: { authorize: (a) => { seen.push(a); return Promise.resolve(answer); } },
  ruleResolver: {
    rulesFor: () => Promise.resolve({
      resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      incomplete: false, error: new Error('role.rbac.authorization.k8s.io "gone" not found'),
    }),
  },
});
const alwaysAllowGroup = authorizationGroup({ authorizer: newAlwaysAllowAuthorizer(), ruleResolver: newAlwaysAllowAuthorizer() });
const rest = (resource: string, g = group): Creater => {
  const vr = g.versions[0]?.virtualResources?.find((r) => r.resource === resource);
  assert.ok(vr !== undefined);
  return vr.storage(() => undefined) as Creater;
};
const review = (kind: string, spec: unknown, metadata: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'authorization.k8s.io/v1', kind, metadata, spec }) as unknown as KubeObject;
const ctxIn = (ns: string): RequestContext => systemContext(ns);

describe('authorization.k8s.io/v1 reviews', () => {
  it('subjectaccessreviews ask the authorizer about the named user', async () => {
    const out = await rest('subjectaccessreviews').create(ctxIn(''), review('SubjectAccessReview',
      { user: 'jane', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'ns' } }), undefined, { dryRun: false });
    assert.deepEqual((out as unknown as { status: unknown }).status, { allowed: true });
    assert.equal(seen.at(-1)?.user?.name, 'jane');
    assert.equal(seen.at(-1)?.resource, 'pods');
  });

  it('selfsubjectaccessreviews ask about the requester', async () => {
    const out = await rest('selfsubjectaccessreviews').create(ctxIn(''), review('SelfSubjectAccessReview',
      { nonResourceAttributes: { path: '/healthz', verb: 'get' } }), undefined, { dryRun: false });
    assert.equal(seen.at(-1)?.user?.name, 'system:apiserver');
    // SelfSubjectAccessReviewSpec has no user fields: the answer names nobody
    assert.deepEqual((out as unknown as { spec: unknown }).spec, { nonResourceAttributes: { path: '/healthz', verb: 'get' } });
    assert.equal(seen.at(-1)?.path, '/healthz');
    // The answer's spec is the request's: SelfSubjectAccessReviewSpec has no user, groups, uid or extra.
    assert.deepEqual((out as unknown as { spec: unknown }).spec, { nonResourceAttributes: { path: '/healthz', verb: 'get' } });
  });

  it('selfsubjectrulesreviews answer AlwaysAllow\'s rules', async () => {
    const out = await rest('selfsubjectrulesreviews', alwaysAllowGroup).create(ctxIn(''), review('SelfSubjectRulesReview', { namespace: 'ns' }), undefined, { dryRun: false });
    assert.deepEqual((out as unknown as { status: unknown }).status, {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
  });

  it('selfsubjectrulesreviews answer only the status, empty lists left out, with the evaluation error', async () => {
    const out = await rest('selfsubjectrulesreviews').create(ctxIn(''), review('SelfSubjectRulesReview', { namespace: 'ns' }, { name: 'x' }),
      undefined, { dryRun: false });
    assert.deepEqual(out, {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', metadata: {}, spec: {},
      status: {
        resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
        incomplete: false, evaluationError: 'role.rbac.authorization.k8s.io "gone" not found',
      },
    });
  });

  const decisions: { name: string; result: AuthorizationResult; want: unknown }[] = [
    { name: 'allow with RBAC\'s reason', result: { decision: 'Allow', reason: 'RBAC: allowed by ClusterRoleBinding "b" of ClusterRole "r" to User "jane"' },
      want: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "b" of ClusterRole "r" to User "jane"' } },
    { name: 'no opinion', result: { decision: 'NoOpinion', reason: '' }, want: { allowed: false } },
    { name: 'deny', result: { decision: 'Deny', reason: 'no' }, want: { allowed: false, denied: true, reason: 'no' } },
    { name: 'evaluation error', result: { decision: 'NoOpinion', reason: 'RBAC: x', error: new Error('boom') },
      want: { allowed: false, reason: 'RBAC: x', evaluationError: 'boom' } },
  ];
  for (const c of decisions) {
    it(`status of a review: ${c.name}`, async () => {
      answer = c.result;
      try {
        const out = await rest('subjectaccessreviews').create(ctxIn(''), review('SubjectAccessReview',
          { user: 'jane', groups: ['dev'], resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'ns' } }), undefined, { dryRun: false });
        assert.deepEqual((out as unknown as { status: unknown }).status, c.want);
        assert.deepEqual(seen.at(-1)?.user?.groups, ['dev']);
      } finally {
        answer = { decision: 'Allow', reason: '' };
      }
    });
  }

  const invalid = [
    { name: 'neither attributes', resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', ns: '', spec: { user: 'u' }, code: 422,
      message: '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified' },
    { name: 'both attributes', resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', ns: '',
      spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/' } }, code: 422,
      message: '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: {"Path":"/","Verb":""}: cannot be specified in combination with resourceAttributes' },
    { name: 'no subject', resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', ns: '', spec: { resourceAttributes: { verb: 'get' } }, code: 422,
      message: '.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified' },
    { name: 'local namespace mismatch', resource: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', ns: 'a',
      spec: { user: 'u', resourceAttributes: { namespace: 'b', verb: 'get' } }, code: 422,
      message: '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "b": must match metadata.namespace' },
    { name: 'rules review without namespace', resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', ns: '', spec: {}, code: 400,
      message: 'no namespace on request' },
  ];
  for (const c of invalid) {
    it(`rejects: ${c.name}`, async () => {
      await assert.rejects(rest(c.resource).create(ctxIn(c.ns), review(c.kind, c.spec), undefined, { dryRun: false }), (err: unknown) => {
        assert.ok(err instanceof StatusError);
        assert.equal(err.status.code, c.code);
        assert.equal(err.status.message, c.message);
        return true;
      });
    });
  }
});
