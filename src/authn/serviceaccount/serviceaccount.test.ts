import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { newServiceAccountTokenAuthenticator } from './authenticator.ts';
import { loadOrCreateServiceAccountKey, newServiceAccountTokenIssuer } from './issuer.ts';

const issuer = newServiceAccountTokenIssuer();
const req = { namespace: 'ns', name: 'sa', uid: 'u1', audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600 };

describe('service account tokens', () => {
  it('carry kube claims', () => {
    const { token, expiresAt } = issuer.issue(req, 1_000_000_000_000);
    const claims = issuer.verify(token);
    assert.ok(claims !== undefined);
    assert.equal(claims.iss, 'https://kubernetes.default.svc.cluster.local');
    assert.equal(claims.sub, 'system:serviceaccount:ns:sa');
    assert.deepEqual(claims.aud, ['https://kubernetes.default.svc.cluster.local']);
    assert.equal(claims.exp, 1_000_000_000 + 3600);
    assert.equal(expiresAt, claims.exp);
    assert.deepEqual(claims['kubernetes.io'], { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'u1' } });
  });

  const cases = [
    { name: 'valid', token: () => issuer.issue(req).token, uid: 'u1', want: 'system:serviceaccount:ns:sa' },
    { name: 'service account recreated', token: () => issuer.issue(req).token, uid: 'u2', want: undefined },
    { name: 'expired', token: () => issuer.issue(req, Date.now() - 7200_000).token, uid: 'u1', want: undefined },
    { name: 'other audience', token: () => issuer.issue({ ...req, audiences: ['x'] }).token, uid: 'u1', want: undefined },
    { name: 'other key', token: () => newServiceAccountTokenIssuer().issue(req).token, uid: 'u1', want: undefined },
    { name: 'not a JWT', token: () => 'abc', uid: 'u1', want: undefined },
  ];
  for (const c of cases) {
    it(`authenticate: ${c.name}`, async () => {
      const authn = newServiceAccountTokenAuthenticator({ issuer, getServiceAccountUID: () => Promise.resolve(c.uid) });
      const res = await authn.authenticateToken(c.token());
      assert.equal(res?.user.name, c.want);
      if (c.want !== undefined) {
        assert.deepEqual(res?.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:ns']);
        assert.equal(res?.user.uid, 'u1');
      }
    });
  }

  it('keeps its key in <dataDir>/pki/sa.key across restarts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kapi-sa-'));
    try {
      const first = newServiceAccountTokenIssuer({ privateKey: await loadOrCreateServiceAccountKey(dir) });
      const second = newServiceAccountTokenIssuer({ privateKey: await loadOrCreateServiceAccountKey(dir) });
      assert.ok(second.verify(first.issue(req).token) !== undefined);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
