import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StatusError } from '../../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import { newServiceAccountTokenIssuer } from '../../../authn/serviceaccount/index.ts';
import { newFixture, subresourceContext, type Fixture } from '../pod/subresources/testing.ts';
import { newTokenREST, type TokenRequest } from './token.ts';

const issuer = newServiceAccountTokenIssuer();
const body = (spec: TokenRequest['spec']): KubeObject =>
  ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec }) as unknown as KubeObject;

describe('serviceaccounts/token', () => {
  let f: Fixture;
  let uid = '';
  before(async () => {
    f = await newFixture();
    const sa = await f.store('serviceaccounts').create(systemContext('default'),
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' } }, undefined, { dryRun: false });
    uid = sa.metadata.uid ?? '';
  });
  after(async () => { await f.backend.close(); });
  const create = (name: string, spec: TokenRequest['spec']): Promise<KubeObject> =>
    newTokenREST(f.store('serviceaccounts'), f.lookup, issuer).create(subresourceContext('default', 'serviceaccounts', name, 'token'), body(spec), undefined, { dryRun: false });

  it('issues a token for the service account with the default audience and an hour', async () => {
    const out = await create('builder', {}) as unknown as TokenRequest;
    assert.deepEqual(out.spec.audiences, ['https://kubernetes.default.svc.cluster.local']);
    assert.equal(out.spec.expirationSeconds, 3600);
    const claims = issuer.verify(out.status?.token ?? '');
    assert.equal(claims?.['kubernetes.io'].serviceaccount.uid, uid);
    assert.equal(new Date(out.status?.expirationTimestamp ?? '').getTime() / 1000, claims?.exp);
  });

  const cases = [
    { name: 'too short', sa: 'builder', spec: { expirationSeconds: 60 }, code: 422,
      message: 'TokenRequest.authentication.k8s.io "builder" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes' },
    { name: 'missing service account', sa: 'nobody', spec: {}, code: 404, message: 'serviceaccounts "nobody" not found' },
    { name: 'missing bound pod', sa: 'builder', spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'gone' } }, code: 404, message: 'pods "gone" not found' },
  ];
  for (const c of cases) {
    it(`rejects: ${c.name}`, async () => {
      await assert.rejects(create(c.sa, c.spec), (err: unknown) => {
        assert.ok(err instanceof StatusError);
        assert.equal(err.status.code, c.code);
        assert.equal(err.status.message, c.message);
        return true;
      });
    });
  }
});
