// JWT authentication end to end: --authentication-config against an OpenID provider the test serves
// itself on 127.0.0.1 (HTTPS with its own CA, discovery and JWKS), `kubectl auth whoami` with the
// token showing the mapped username, groups, uid and extra (claims and CEL), bad tokens 401, key
// rotation, the anonymous section's conditions; bootstrap tokens; RSA service account keys and
// --service-account-max-token-expiration.
// No Go counterpart: end-to-end tests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { writeAdminKubeconfig } from '../cli/kubeconfig.ts';
import { startTestIssuer, type TestIssuer } from './testing/jwt-issuer.ts';
import { kubectl } from './testing/kubectl.ts';
import { rawRequest } from './testing/https-client.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const AUD = 'kapi-e2e';

function authConfig(issuer: TestIssuer): Record<string, unknown> {
  return {
    apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthenticationConfiguration',
    jwt: [{
      issuer: { url: issuer.url, audiences: [AUD, 'other'], audienceMatchPolicy: 'MatchAny', certificateAuthority: issuer.ca },
      claimValidationRules: [
        { claim: 'tenant', requiredValue: 'acme' },
        { expression: 'claims.exp - claims.iat <= 86400', message: 'token lives too long' },
      ],
      claimMappings: {
        username: { expression: "'jwt:' + claims.sub" },
        groups: { expression: "dyn(claims.roles).map(r, 'role:' + r)" },
        uid: { claim: 'uid' },
        extra: [{ key: 'example.org/team', valueExpression: 'claims.team' }],
      },
      userValidationRules: [{ expression: "!user.username.startsWith('jwt:system:')", message: 'system users are reserved' }],
    }],
    anonymous: { enabled: true, conditions: [{ path: '/livez' }] },
  };
}

const GOOD = { sub: 'alice', aud: AUD, tenant: 'acme', roles: ['admin', 'dev'], uid: 'u-1', team: 'blue', jti: 'j-1' };

describe('JWT authenticators from --authentication-config, bootstrap tokens, RSA service account keys', () => {
  let issuer: TestIssuer;
  let s: Suite;
  let dir: string;
  const whoami = async (token: string): Promise<{ code: number; user: Record<string, unknown>; stderr: string }> => {
    const kc = join(dir, `kc-${Math.random().toString(36).slice(2)}`);
    await writeAdminKubeconfig(kc, { server: s.creds.server, caCert: s.creds.ca, token });
    const r = await kubectl({ kubeconfigPath: kc, home: dir }, ['auth', 'whoami', '-o', 'json']);
    const user = r.code === 0 ? ((JSON.parse(r.stdout) as { status: { userInfo: Record<string, unknown> } }).status.userInfo) : {};
    return { code: r.code, user, stderr: r.stderr };
  };
  const get = (token: string | undefined, path: string) =>
    rawRequest({ ...s.creds, token: token ?? '' }, { method: 'GET', path, ...(token === undefined ? { auth: false } : {}) });

  before(async () => {
    issuer = await startTestIssuer();
    dir = await mkdtemp(join(tmpdir(), 'kapi-jwt-'));
    await writeFile(join(dir, 'auth.yaml'), stringify(authConfig(issuer)));
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await writeFile(join(dir, 'sa.key'), rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }));
    await writeFile(join(dir, 'sa.pub'), rsa.publicKey.export({ type: 'spki', format: 'pem' }));
    s = await startSuite({ flags: [
      '--authorization-mode', 'RBAC', '--authentication-config', join(dir, 'auth.yaml'), '--enable-bootstrap-token-auth',
      '--service-account-signing-key-file', join(dir, 'sa.key'), '--service-account-key-file', join(dir, 'sa.pub'),
      '--service-account-issuer', 'https://kubernetes.default.svc.cluster.local', '--service-account-max-token-expiration', '2h',
    ] });
  });
  after(async () => {
    await s?.close();
    await issuer?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('kubectl auth whoami shows the user mapped from claims and CEL', async () => {
    const r = await whoami(await issuer.sign(GOOD));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.user, {
      username: 'jwt:alice', uid: 'u-1', groups: ['role:admin', 'role:dev', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': ['JTI=j-1'], 'example.org/team': ['blue'] },
    });
  });

  it('accepts ES256 and PS256 tokens and a token for the second audience', async () => {
    for (const t of [await issuer.sign(GOOD, { alg: 'ES256' }), await issuer.sign(GOOD, { alg: 'PS256' }), await issuer.sign({ ...GOOD, aud: ['x', 'other'] })]) {
      const r = await get(t, '/apis/authentication.k8s.io/v1');
      assert.equal(r.status, 200, r.text);
    }
  });

  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const badTokens: { name: string; token: () => Promise<string> }[] = [
    { name: 'another audience', token: () => issuer.sign({ ...GOOD, aud: 'someone-else' }) },
    { name: 'expired', token: () => issuer.sign({ ...GOOD, iat: 1_000_000, exp: 1_000_100 }) },
    { name: 'required claim missing', token: () => issuer.sign({ ...GOOD, tenant: undefined }) },
    { name: 'required claim of another value', token: () => issuer.sign({ ...GOOD, tenant: 'evil' }) },
    { name: 'claim validation expression false', token: () => issuer.sign({ ...GOOD, exp: Math.floor(Date.now() / 1000) + 2 * 86400 }) },
    { name: 'user validation rule false', token: () => issuer.sign({ ...GOOD, sub: 'system:admin' }) },
    { name: 'groups expression fails (no roles claim)', token: () => issuer.sign({ ...GOOD, roles: undefined }) },
    { name: 'signed by a key the issuer does not publish', token: () => issuer.sign(GOOD, { key: other }) },
    { name: 'tampered payload', token: async () => {
      const [h, , sig] = (await issuer.sign(GOOD)).split('.');
      return `${h}.${Buffer.from(JSON.stringify({ ...GOOD, iss: issuer.url, sub: 'mallory', exp: 9_999_999_999 })).toString('base64url')}.${sig}`;
    } },
    { name: 'another issuer', token: () => issuer.sign({ ...GOOD, iss: 'https://elsewhere.example' }) },
  ];
  for (const c of badTokens) {
    it(`401 for a bad token: ${c.name}`, async () => {
      const r = await get(await c.token(), '/api');
      assert.equal(r.status, 401, r.text);
      assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    });
  }

  // kube v1.36 puts `invalid bearer token` first when JWT authenticators are configured.
  it('TokenReview says why a token was refused, in kube\'s words', async () => {
    const review = async (token: string): Promise<Record<string, unknown>> => {
      const r = await s.request({ method: 'POST', path: '/apis/authentication.k8s.io/v1/tokenreviews', contentType: 'application/json',
        body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } }) });
      return (r.json() as { status: Record<string, unknown> }).status;
    };
    assert.equal((await review(await issuer.sign({ ...GOOD, tenant: 'evil' })))['error'],
      '[invalid bearer token, oidc: required claim tenant value does not match. Got = evil, want = acme]');
    assert.equal((await review(await issuer.sign({ ...GOOD, sub: 'system:admin' })))['error'],
      "[invalid bearer token, oidc: error evaluating user info validation rule: validation expression '!user.username.startsWith('jwt:system:')' failed: system users are reserved]");
    assert.equal((await review(await issuer.sign({ ...GOOD, aud: 'nope' })))['error'],
      '[invalid bearer token, oidc: verify token: oidc: expected audience in ["kapi-e2e" "other"] got ["nope"]]');
    assert.equal((await review(await issuer.sign(GOOD)))['authenticated'], true);
  });

  it('fetches the keys again when the provider rotates them', async () => {
    const before = issuer.hits.get('/keys') ?? 0;
    await issuer.rotate();
    const r = await get(await issuer.sign(GOOD), '/api');
    assert.equal(r.status, 200, r.text);
    assert.ok((issuer.hits.get('/keys') ?? 0) > before);
  });

  it('anonymous only on the paths of its conditions', async () => {
    assert.equal((await get(undefined, '/livez')).status, 200);
    assert.equal((await get(undefined, '/version')).status, 401);
    assert.equal((await get(undefined, '/readyz')).status, 401);
  });

  it('bootstrap tokens: system:bootstrap:<id> in system:bootstrappers and the extra groups, until they expire', async () => {
    const secret = (name: string, id: string, expiration: string): string => JSON.stringify({
      apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.kubernetes.io/token', metadata: { name, namespace: 'kube-system' },
      stringData: {
        'token-id': id, 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', expiration,
        'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token',
      },
    });
    const later = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    assert.equal((await s.kubectl(['apply', '-f', '-'], secret('bootstrap-token-abcdef', 'abcdef', later))).code, 0);
    assert.equal((await s.kubectl(['apply', '-f', '-'], secret('bootstrap-token-zzzzzz', 'zzzzzz', '2001-01-01T00:00:00Z'))).code, 0);
    const r = await whoami('abcdef.0123456789abcdef');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.user, { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'] });
    assert.equal((await get('zzzzzz.0123456789abcdef', '/api')).status, 401);
    assert.equal((await get('abcdef.0123456789abcdeX', '/api')).status, 401);
  });

  it('service account tokens signed RS256 with the RSA key, capped at --service-account-max-token-expiration', async () => {
    const r = await s.kubectl(['create', 'token', 'default', '--duration', '10h']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /requested expiration of 36000 seconds shortened to 7200 seconds/);
    const token = r.stdout.trim();
    const [h = '', p = ''] = token.split('.');
    assert.equal((JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg: string }).alg, 'RS256');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { exp: number; iat: number };
    assert.equal(claims.exp - claims.iat, 7200);
    const who = await whoami(token);
    assert.equal(who.code, 0, who.stderr);
    assert.equal(who.user['username'], 'system:serviceaccount:default:default');
    const jwks = (await s.request({ method: 'GET', path: '/openid/v1/jwks', headers: { Accept: 'application/jwk-set+json' } })).json() as { keys: { kty: string; alg: string }[] };
    assert.deepEqual(jwks.keys.map((k) => [k.kty, k.alg]), [['RSA', 'RS256']]);
    const discovery = (await s.request({ method: 'GET', path: '/.well-known/openid-configuration' })).json() as Record<string, unknown>;
    assert.deepEqual(discovery['id_token_signing_alg_values_supported'], ['RS256']);
  });

  it('a pod-bound token of the ServiceAccount admission plugin\'s 3607 s is extended to a year, with warnafter', async () => {
    const pod = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    assert.equal((await s.kubectl(['apply', '-f', '-'], pod)).code, 0);
    const uid = (await s.kubectl(['get', 'pod', 'p', '-o', 'jsonpath={.metadata.uid}'])).stdout;
    const request = async (audiences: string[]): Promise<{ claims: Record<string, unknown>; status: { expirationTimestamp: string } }> => {
      const r = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/default/token', contentType: 'application/json',
        body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest',
          spec: { audiences, expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid } } }) });
      assert.equal(r.status, 201, r.text);
      const tr = r.json() as { status: { token: string; expirationTimestamp: string } };
      return { claims: JSON.parse(Buffer.from(tr.status.token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>, status: tr.status };
    };
    const extended = await request(['https://kubernetes.default.svc.cluster.local']);
    const iat = extended.claims['iat'] as number;
    assert.equal((extended.claims['exp'] as number) - iat, 365 * 24 * 3600);
    assert.equal((extended.claims['kubernetes.io'] as Record<string, unknown>)['warnafter'], iat + 3607);
    // The status names the lifetime asked for.
    assert.equal(Date.parse(extended.status.expirationTimestamp) / 1000, iat + 3607);
    const other = await request(['vault']);
    assert.equal((other.claims['exp'] as number) - (other.claims['iat'] as number), 3607);
    assert.equal((other.claims['kubernetes.io'] as Record<string, unknown>)['warnafter'], undefined);
  });
});

describe('JWT authentication from the legacy --oidc-* flags', () => {
  let issuer: TestIssuer;
  let s: Suite;
  let dir: string;
  before(async () => {
    issuer = await startTestIssuer();
    dir = await mkdtemp(join(tmpdir(), 'kapi-oidc-'));
    await writeFile(join(dir, 'ca.pem'), issuer.ca);
    s = await startSuite({ flags: [
      '--oidc-issuer-url', issuer.url, '--oidc-client-id', AUD, '--oidc-ca-file', join(dir, 'ca.pem'), '--oidc-username-claim', 'email',
      '--oidc-groups-claim', 'groups', '--oidc-groups-prefix', 'oidc:', '--oidc-required-claim', 'tenant=acme', '--oidc-signing-algs', 'ES256',
    ] });
  });
  after(async () => {
    await s?.close();
    await issuer?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('kubectl auth whoami: the email as the username (no prefix), prefixed groups', async () => {
    const token = await issuer.sign({ sub: 'bob', email: 'bob@example.org', email_verified: true, aud: AUD, groups: ['dev', 'ops'], tenant: 'acme' }, { alg: 'ES256' });
    const kc = join(dir, 'kc');
    await writeAdminKubeconfig(kc, { server: s.creds.server, caCert: s.creds.ca, token });
    const r = await kubectl({ kubeconfigPath: kc, home: dir }, ['auth', 'whoami', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { status: unknown }).status, {
      userInfo: { username: 'bob@example.org', groups: ['oidc:dev', 'oidc:ops', 'system:authenticated'] },
    });
  });

  const refused: { name: string; token: () => Promise<string> }[] = [
    { name: 'signed RS256, not in --oidc-signing-algs', token: () => issuer.sign({ email: 'bob@example.org', aud: AUD, tenant: 'acme' }) },
    { name: 'without the required claim', token: () => issuer.sign({ email: 'bob@example.org', aud: AUD }, { alg: 'ES256' }) },
    { name: 'for another client', token: () => issuer.sign({ email: 'bob@example.org', aud: 'x', tenant: 'acme' }, { alg: 'ES256' }) },
  ];
  for (const c of refused) {
    it(`401: ${c.name}`, async () => {
      const r = await rawRequest({ ...s.creds, token: await c.token() }, { method: 'GET', path: '/api' });
      assert.equal(r.status, 401, r.text);
    });
  }
});
