import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { Creater } from '../../registry/rest/capabilities.ts';
import { authenticationGroup, type SelfSubjectReview, type TokenReview } from './install.ts';

const group = authenticationGroup({
  authenticate: (token) => Promise.resolve(token === 'good' ? { user: { name: 'jane', uid: '42', groups: ['devs'] } } : undefined),
});
const rest = (resource: string): Creater => {
  const vr = group.versions[0]?.virtualResources?.find((r) => r.resource === resource);
  assert.ok(vr !== undefined);
  return vr.storage(() => undefined) as Creater;
};
const tokenReview = (token: string): KubeObject =>
  ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec: { token } }) as unknown as KubeObject;

describe('authentication.k8s.io/v1 reviews', () => {
  const cases = [
    { name: 'valid token', token: 'good', want: { authenticated: true, user: { username: 'jane', uid: '42', groups: ['devs'] } } },
    { name: 'unknown token', token: 'bad', want: { user: {} } },
  ];
  for (const c of cases) {
    it(`tokenreviews: ${c.name}`, async () => {
      const out = await rest('tokenreviews').create(systemContext(), tokenReview(c.token), undefined, { dryRun: false }) as unknown as TokenReview;
      assert.deepEqual(out.status, c.want);
    });
  }

  it('tokenreviews need a token', async () => {
    await assert.rejects(rest('tokenreviews').create(systemContext(), tokenReview(''), undefined, { dryRun: false }),
      (e: unknown) => e instanceof StatusError && e.status.code === 400 && e.status.message === 'token is required for TokenReview in authentication');
  });

  it('selfsubjectreviews return the requesting user', async () => {
    const out = await rest('selfsubjectreviews').create(systemContext(),
      { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: {} }, undefined, { dryRun: false }) as unknown as SelfSubjectReview;
    assert.deepEqual(out.status, { userInfo: { username: 'system:apiserver', groups: ['system:masters'] } });
  });
});
