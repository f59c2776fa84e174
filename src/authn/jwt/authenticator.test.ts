import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { exportJWK, SignJWT, type JWTPayload } from 'jose';
import { newJWTAuthenticator, untrustedIssuer } from './authenticator.ts';
import type { JWTAuthenticator } from './config.ts';
import { validateJWTAuthenticator } from './validation.ts';

const ISS = 'https://issuer.test';
const NOW = 2_000_000_000;
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const jwks = { keys: [{ ...(await exportJWK(createPublicKey(rsa))), kid: 'k1', alg: 'RS256', use: 'sig' }] };

/** The provider's documents by URL; a URL it does not serve fails as a refused connection. */
function fetcher(docs: Record<string, unknown>, calls: string[] = []) {
  return (url: string): Promise<unknown> => {
    calls.push(url);
    return url in docs ? Promise.resolve(docs[url]) : Promise.reject(new Error(`Get "${url}": dial tcp: connect: connection refused`));
  };
}
const provider = { [`${ISS}/.well-known/openid-configuration`]: { issuer: ISS, jwks_uri: `${ISS}/keys` }, [`${ISS}/keys`]: jwks };

const sign = (claims: Record<string, unknown>, alg = 'RS256'): Promise<string> =>
  new SignJWT({ iss: ISS, aud: 'a', sub: 'alice', iat: NOW, exp: NOW + 600, ...claims } as JWTPayload).setProtectedHeader({ alg, kid: 'k1' }).sign(rsa);

function authenticator(config: Partial<JWTAuthenticator>, docs: Record<string, unknown> = provider, algs = ['RS256']) {
  const full: JWTAuthenticator = { issuer: { url: ISS, audiences: ['a'] }, claimMappings: { username: { claim: 'sub', prefix: '' } }, ...config };
  const { errors, mappings } = validateJWTAuthenticator(full, undefined);
  assert.deepEqual(errors, []);
  return newJWTAuthenticator({ config: full, mappings, signingAlgorithms: algs, now: () => NOW, fetch: fetcher(docs) });
}

async function outcome(a: ReturnType<typeof authenticator>, token: string): Promise<unknown> {
  try {
    return (await a.authenticateToken(token))?.user;
  } catch (err) {
    return (err as Error).message;
  } finally {
    a.close();
  }
}

describe('JWT authenticator', () => {
  const cases: { name: string; config?: Partial<JWTAuthenticator>; claims?: Record<string, unknown>; alg?: string; docs?: Record<string, unknown>; want: unknown }[] = [
    { name: 'username claim with a prefix, groups claim as one string with a prefix', claims: { groups: 'ops' },
      config: { claimMappings: { username: { claim: 'sub', prefix: 'oidc:' }, groups: { claim: 'groups', prefix: 'g:' } } },
      want: { name: 'oidc:alice', groups: ['g:ops'], uid: '' } },
    { name: 'no groups claim in the token: no groups', config: { claimMappings: { username: { claim: 'sub', prefix: '' }, groups: { claim: 'groups', prefix: '' } } },
      want: { name: 'alice', groups: [], uid: '' } },
    { name: 'email claim, email_verified false', claims: { email: 'a@x', email_verified: false },
      config: { claimMappings: { username: { claim: 'email', prefix: '' } } }, want: 'oidc: email not verified' },
    { name: 'email claim, email_verified a string', claims: { email: 'a@x', email_verified: 'true' },
      config: { claimMappings: { username: { claim: 'email', prefix: '' } } }, want: "oidc: parse 'email_verified' claim: json: cannot unmarshal string into Go value of type bool" },
    { name: 'username claim missing', claims: { sub: undefined }, want: 'oidc: parse username claims "sub": claim not present' },
    { name: 'CEL username empty', config: { claimMappings: { username: { expression: "''" } } }, want: 'oidc: empty username via CEL expression is not allowed' },
    { name: 'CEL username not a string', config: { claimMappings: { username: { expression: 'claims.iat' } } },
      want: 'oidc: error evaluating username claim expression: username claim expression must return a string' },
    { name: 'CEL uid not a string', config: { claimMappings: { username: { claim: 'sub', prefix: '' }, uid: { expression: 'claims.iat' } } },
      want: 'oidc: error evaluating uid claim expression: uid claim expression must return a string' },
    { name: 'CEL extra not strings', config: { claimMappings: { username: { claim: 'sub', prefix: '' }, extra: [{ key: 'example.org/x', valueExpression: '[1]' }] } },
      want: 'oidc: error evaluating extra claim expression: [1]: expression must return a string or a list of strings' },
    { name: 'CEL extra empty is left out', config: { claimMappings: { username: { claim: 'sub', prefix: '' }, extra: [{ key: 'example.org/x', valueExpression: "['', '']" }] } },
      want: { name: 'alice', groups: [], uid: '' } },
    { name: 'nbf within the 5-minute leeway', claims: { nbf: NOW + 299 }, want: { name: 'alice', groups: [], uid: '' } },
    { name: 'nbf past the leeway', claims: { nbf: NOW + 301 },
      want: 'oidc: verify token: oidc: current time 2033-05-18 03:33:20 +0000 UTC before the nbf (not before) time: 2033-05-18 03:38:21 +0000 UTC' },
    { name: 'expired', claims: { exp: NOW - 1 }, want: 'oidc: verify token: oidc: token is expired (Token Expiry: 2033-05-18 03:33:19 +0000 UTC)' },
    { name: 'an algorithm not allowed', alg: 'RS384',
      want: 'oidc: verify token: oidc: malformed jwt: go-jose/go-jose: unexpected signature algorithm "RS384"; expected ["RS256"]' },
    { name: 'provider down', docs: {}, want: 'oidc: authenticator not initialized' },
    { name: 'provider names another issuer', docs: { ...provider, [`${ISS}/.well-known/openid-configuration`]: { issuer: 'https://other', jwks_uri: `${ISS}/keys` } },
      want: 'oidc: authenticator not initialized' },
    { name: 'discoveryURL instead of the well-known path', config: { issuer: { url: ISS, audiences: ['a'], discoveryURL: 'https://disco.test/x' } },
      docs: { 'https://disco.test/x': { issuer: ISS, jwks_uri: `${ISS}/keys` }, [`${ISS}/keys`]: jwks }, want: { name: 'alice', groups: [], uid: '' } },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const a = authenticator(c.config ?? {}, c.docs ?? provider);
      assert.deepEqual(await outcome(a, await sign(c.claims ?? {}, c.alg)), c.want);
    });
  }

  it('is not the authenticator of another issuer\'s tokens, nor of what is no JWT', async () => {
    const a = authenticator({});
    assert.equal(await a.authenticateToken(await sign({ iss: 'https://elsewhere' })), undefined);
    assert.equal(await a.authenticateToken('abc'), undefined);
    assert.equal(await a.authenticateToken('{"iss":"https://issuer.test"}.x.y'), undefined);
    a.close();
  });

  it('routes by the unverified issuer, coalescing Google\'s legacy one', () => {
    const t = (p: object): string => `e30.${Buffer.from(JSON.stringify(p)).toString('base64url')}.x`;
    assert.equal(untrustedIssuer(t({ iss: 'accounts.google.com' })), 'https://accounts.google.com');
    assert.equal(untrustedIssuer(t({ iss: ISS })), ISS);
    assert.equal(untrustedIssuer('a.b'), undefined);
  });
});
