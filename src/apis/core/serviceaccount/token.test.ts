import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StatusError } from '../../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import { newServiceAccountTokenIssuer } from '../../../authn/serviceaccount/index.ts';
import { minimalPod, newFixture, subresourceContext, type Fixture } from '../pod/subresources/testing.ts';
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
    const ctx = systemContext('default');
    const opts = { dryRun: false };
    uids.node = (await f.store('nodes').create(systemContext(''), { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }, undefined, opts)).metadata.uid ?? '';
    uids.pod = (await f.store('pods').create(ctx, minimalPod('web', { serviceAccountName: 'builder', nodeName: 'n1' }), undefined, opts)).metadata.uid ?? '';
    uids.lost = (await f.store('pods').create(ctx, minimalPod('lost', { serviceAccountName: 'builder', nodeName: 'gone' }), undefined, opts)).metadata.uid ?? '';
    await f.store('pods').create(ctx, minimalPod('other', { serviceAccountName: 'default' }), undefined, opts);
    uids.secret = (await f.store('secrets').create(ctx, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1', namespace: 'default' } } as KubeObject, undefined, opts)).metadata.uid ?? '';
  });
  const uids = { pod: '', node: '', secret: '', lost: '' };
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

  const bound = [
    { name: 'pod (with its node)', ref: { kind: 'Pod', apiVersion: 'v1', name: 'web' },
      want: () => ({ pod: { name: 'web', uid: uids.pod }, node: { name: 'n1', uid: uids.node } }) },
    { name: 'pod on a node that does not exist (node name only)', ref: { kind: 'Pod', apiVersion: 'v1', name: 'lost' },
      want: () => ({ pod: { name: 'lost', uid: uids.lost }, node: { name: 'gone' } }) },
    { name: 'secret', ref: { kind: 'Secret', apiVersion: 'v1', name: 's1' }, want: () => ({ secret: { name: 's1', uid: uids.secret } }) },
    { name: 'node', ref: { kind: 'Node', apiVersion: 'v1', name: 'n1' }, want: () => ({ node: { name: 'n1', uid: uids.node } }) },
  ];
  for (const c of bound) {
    it(`binds a token to a ${c.name}`, async () => {
      const out = await create('builder', { boundObjectRef: c.ref }) as unknown as TokenRequest;
      const claims = issuer.verify(out.status?.token ?? '');
      assert.deepEqual(claims?.['kubernetes.io'], { namespace: 'default', serviceaccount: { name: 'builder', uid }, ...c.want() });
    });
  }

  const cases = [
    { name: 'too short', sa: 'builder', spec: { expirationSeconds: 60 }, code: 422,
      message: 'TokenRequest.authentication.k8s.io "builder" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes' },
    { name: 'missing service account', sa: 'nobody', spec: {}, code: 404, message: 'serviceaccounts "nobody" not found' },
    { name: 'bound to a kind kube does not bind', sa: 'builder', spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } },
      code: 400, message: 'cannot bind token to object of type /v1, Kind=ConfigMap' },
    { name: 'bound to a pod of another group', sa: 'builder', spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'apps/v1', name: 'web' } },
      code: 400, message: 'cannot bind token to object of type apps/v1, Kind=Pod' },
    { name: 'bound to a pod of another service account', sa: 'builder', spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'other' } },
      code: 400, message: 'cannot bind token for serviceaccount "builder" to pod running with different serviceaccount name.' },
    { name: 'bound object uid differs', sa: 'builder', spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's1', uid: 'old' } },
      code: 409, message: 'Operation cannot be fulfilled on Secret "s1": the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated' },
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
