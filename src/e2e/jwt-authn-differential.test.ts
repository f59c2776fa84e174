// JWT authentication, kapi against the oracle: the same --authentication-config (or the same
// --oidc-* flags) and the same provider served by the test; each token's TokenReview status (user,
// audiences, error text) and the anonymous paths must be the same on both. Skips with the reason
// when the oracle is not cached.
// No Go counterpart: differential end-to-end tests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { startTestIssuer, type TestIssuer } from './testing/jwt-issuer.ts';
import { rawRequest, type AdminCredentials } from './testing/https-client.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const missing = oracleUnavailable();
const AUD = 'kapi-diff';

type Sign = (issuer: TestIssuer) => Promise<string>;
const claims = { sub: 'alice', aud: AUD, tenant: 'acme', roles: ['admin', 'dev'], uid: 'u-1', team: 'blue', jti: 'j-1', email: 'a@x.io', email_verified: true };

const TOKENS: { name: string; sign: Sign }[] = [
  { name: 'valid RS256', sign: (i) => i.sign(claims) },
  { name: 'valid ES256', sign: (i) => i.sign(claims, { alg: 'ES256' }) },
  { name: 'groups as one string', sign: (i) => i.sign({ ...claims, roles: 'ops', groups: 'ops' }) },
  { name: 'another audience', sign: (i) => i.sign({ ...claims, aud: ['x', 'y'] }) },
  { name: 'expired', sign: (i) => i.sign({ ...claims, iat: 1_000_000, exp: 1_000_100 }) },
  { name: 'no exp', sign: (i) => i.sign({ ...claims, exp: undefined }) },
  { name: 'required claim differs', sign: (i) => i.sign({ ...claims, tenant: 'evil' }) },
  { name: 'required claim missing', sign: (i) => i.sign({ ...claims, tenant: undefined }) },
  { name: 'expression rule false', sign: (i) => i.sign({ ...claims, exp: Math.floor(Date.now() / 1000) + 2 * 86400 }) },
  { name: 'user rule false', sign: (i) => i.sign({ ...claims, sub: 'system:x' }) },
  { name: 'mapping fails: no roles', sign: (i) => i.sign({ ...claims, roles: undefined }) },
  { name: 'uid claim not a string', sign: (i) => i.sign({ ...claims, uid: 7 }) },
  { name: 'email not verified', sign: (i) => i.sign({ ...claims, email_verified: false }) },
  { name: 'tampered', sign: async (i) => { const [h, p] = (await i.sign(claims)).split('.'); return `${h}.${p}.AAAA`; } },
  { name: 'unknown kid', sign: (i) => i.sign(claims, { kid: 'nope' }) },
  { name: 'not a JWT', sign: () => Promise.resolve('abc') },
  { name: 'a JWT of another issuer', sign: (i) => i.sign({ ...claims, iss: 'https://elsewhere.example' }) },
];

function config(issuer: TestIssuer): string {
  return stringify({
    apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthenticationConfiguration',
    jwt: [{
      issuer: { url: issuer.url, audiences: [AUD], certificateAuthority: issuer.ca },
      claimValidationRules: [{ claim: 'tenant', requiredValue: 'acme' }, { expression: 'claims.exp - claims.iat <= 86400', message: 'too long' }],
      claimMappings: {
        username: { expression: "'jwt:' + claims.sub" }, groups: { expression: "dyn(claims.roles).map(r, 'role:' + r)" },
        uid: { claim: 'uid' }, extra: [{ key: 'example.org/team', valueExpression: 'claims.team' }],
      },
      userValidationRules: [{ expression: "!user.username.startsWith('jwt:system:')", message: 'reserved' }],
    }],
    anonymous: { enabled: true, conditions: [{ path: '/livez' }] },
  });
}

async function review(creds: AdminCredentials, token: string): Promise<unknown> {
  const r = await rawRequest(creds, { method: 'POST', path: '/apis/authentication.k8s.io/v1/tokenreviews', contentType: 'application/json',
    body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } }) });
  return (r.json() as { status: unknown }).status;
}

/** kube discovers the provider in the background: wait until a good token passes (a guard, not a timing assertion). */
async function waitAuthenticated(creds: AdminCredentials, token: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if ((await review(creds, token) as { authenticated?: boolean }).authenticated === true) return;
    await sleep(200);
  }
  throw new Error('the JWT authenticator never authenticated a good token');
}

for (const mode of ['--authentication-config', '--oidc-* flags'] as const) {
  describe(`JWT authentication (${mode}): kapi and kube-apiserver agree`, { skip: missing }, () => {
    let issuer: TestIssuer;
    let dir: string;
    let oracle: Oracle;
    let s: Suite;
    before(async () => {
      issuer = await startTestIssuer();
      dir = await mkdtemp(join(tmpdir(), 'kapi-jwt-diff-'));
      await writeFile(join(dir, 'auth.yaml'), config(issuer));
      await writeFile(join(dir, 'ca.pem'), issuer.ca);
      const flags = mode === '--authentication-config' ? ['--authentication-config', join(dir, 'auth.yaml')] : [
        '--oidc-issuer-url', issuer.url, '--oidc-client-id', AUD, '--oidc-ca-file', join(dir, 'ca.pem'), '--oidc-username-claim', 'email',
        '--oidc-groups-claim', 'groups', '--oidc-groups-prefix', 'oidc:', '--oidc-required-claim', 'tenant=acme', '--oidc-signing-algs', 'RS256,ES256',
      ];
      oracle = await startOracle({ authorizationModes: ['RBAC'], flags });
      s = await startSuite({ flags: ['--authorization-mode', 'RBAC', ...flags] });
      const good = await issuer.sign(claims);
      await waitAuthenticated(oracle.creds, good);
      await waitAuthenticated(s.creds, good);
    });
    after(async () => {
      await s?.close();
      await oracle?.stop();
      await issuer?.close();
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    });

    for (const t of TOKENS) {
      it(`TokenReview of a token: ${t.name}`, async () => {
        const token = await t.sign(issuer);
        assert.deepEqual(await review(s.creds, token), await review(oracle.creds, token));
      });
    }

    it('TokenReview of a service account token whose service account is gone (the other bearer authenticator\'s error)', async () => {
      const saToken = async (creds: AdminCredentials): Promise<string> => {
        const sa = JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'gone' } });
        await rawRequest(creds, { method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', contentType: 'application/json', body: sa });
        const tr = await rawRequest(creds, { method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/gone/token', contentType: 'application/json',
          body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }) });
        await rawRequest(creds, { method: 'DELETE', path: '/api/v1/namespaces/default/serviceaccounts/gone' });
        return (tr.json() as { status: { token: string } }).status.token;
      };
      assert.deepEqual(await review(s.creds, await saToken(s.creds)), await review(oracle.creds, await saToken(oracle.creds)));
    });

    it('anonymous requests', async () => {
      for (const path of ['/livez', '/version', '/readyz']) {
        const k = await rawRequest({ ...s.creds, token: '' }, { method: 'GET', path, auth: false });
        const o = await rawRequest({ ...oracle.creds, token: '' }, { method: 'GET', path, auth: false });
        assert.equal(k.status, o.status, path);
      }
    });
  });
}
