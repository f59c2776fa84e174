// ServiceAccountIssuerDiscovery: /.well-known/openid-configuration and /openid/v1/jwks as kube
// serves them (headers, 405 and 406 of go-restful routes, asked of kube-apiserver v1.36.3), a
// service account token verified by a JWT library (jose) with the published keys, and no
// endpoints for an issuer that is no https URL.
// No Go counterpart: end-to-end tests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { startSuite, type Suite } from './testing/suite.ts';

describe('service account issuer discovery', () => {
  let s: Suite;
  before(async () => { s = await startSuite({ flags: ['--service-account-issuer', 'https://issuer.example/cluster'] }); });
  after(async () => { await s?.close(); });

  it('serves the OIDC discovery document', async () => {
    const r = await s.request({ method: 'GET', path: '/.well-known/openid-configuration', headers: { Accept: '*/*' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.headers['content-type'], r.headers['cache-control']], ['application/json', 'public, max-age=3600']);
    const doc = r.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(doc), ['issuer', 'jwks_uri', 'response_types_supported', 'subject_types_supported', 'id_token_signing_alg_values_supported']);
    assert.equal(doc['issuer'], 'https://issuer.example/cluster');
    assert.match(String(doc['jwks_uri']), new RegExp(`^https://[^/]+:${s.server.port}/openid/v1/jwks$`));
    assert.deepEqual([doc['response_types_supported'], doc['subject_types_supported'], doc['id_token_signing_alg_values_supported']],
      [['id_token'], ['public'], ['ES256']]);
  });

  it('serves the key set, and a service account token verifies against it with a JWT library', async () => {
    const r = await s.request({ method: 'GET', path: '/openid/v1/jwks', headers: { Accept: 'application/jwk-set+json' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.headers['content-type'], r.headers['cache-control']], ['application/jwk-set+json', 'public, max-age=3600']);
    const jwks = r.json() as JSONWebKeySet;
    assert.deepEqual(jwks.keys.map((k) => Object.keys(k)), [['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']]);
    const t = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/default/token',
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['vault'] } }) });
    assert.equal(t.status, 201, t.text);
    const token = (t.json() as { status: { token: string } }).status.token;
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: 'https://issuer.example/cluster', audience: 'vault' });
    assert.equal(payload.sub, 'system:serviceaccount:default:default');
  });

  // go-restful matches a path with a trailing slash to the route without it (kube-apiserver v1.36.3
  // answers both alike; its RBAC role for discovery lists both).
  const slashed: { path: string; accept: string }[] = [
    { path: '/.well-known/openid-configuration', accept: '*/*' }, { path: '/openid/v1/jwks', accept: 'application/jwk-set+json' },
  ];
  for (const c of slashed) {
    it(`serves ${c.path}/ as ${c.path}`, async () => {
      const [plain, slash] = await Promise.all(['', '/'].map((end) => s.request({ method: 'GET', path: c.path + end, headers: { Accept: c.accept } })));
      assert.equal(slash?.status, 200, slash?.text);
      assert.deepEqual([slash?.headers['content-type'], slash?.headers['cache-control'], slash?.text],
        [plain?.headers['content-type'], plain?.headers['cache-control'], plain?.text]);
    });
  }

  const refusals: { name: string; method: string; path: string; accept?: string; want: [number, string] }[] = [
    { name: 'the key set for Accept: application/json', method: 'GET', path: '/openid/v1/jwks', accept: 'application/json',
      want: [406, '406: Not Acceptable\n\nAvailable representations: application/jwk-set+json'] },
    { name: 'the document for Accept: application/jwk-set+json', method: 'GET', path: '/.well-known/openid-configuration', accept: 'application/jwk-set+json',
      want: [406, '406: Not Acceptable\n\nAvailable representations: application/json'] },
    { name: 'the key set at /openid/v1/jwks/ for Accept: application/json', method: 'GET', path: '/openid/v1/jwks/', accept: 'application/json',
      want: [406, '406: Not Acceptable\n\nAvailable representations: application/jwk-set+json'] },
    { name: 'POST', method: 'POST', path: '/openid/v1/jwks', want: [405, 'the server does not allow this method on the requested resource'] },
  ];
  for (const c of refusals) {
    it(`refuses ${c.name} as go-restful does`, async () => {
      const r = await s.request({ method: c.method, path: c.path, ...(c.accept !== undefined ? { headers: { Accept: c.accept } } : {}) });
      assert.deepEqual([r.status, (r.json() as { message: string }).message], c.want);
    });
  }
});

describe('service account issuer discovery for an issuer that is no https URL', () => {
  let s: Suite;
  before(async () => { s = await startSuite({ flags: ['--service-account-issuer', 'kapi-issuer'] }); });
  after(async () => { await s?.close(); });

  for (const path of ['/.well-known/openid-configuration', '/openid/v1/jwks']) {
    it(`${path} is not served`, async () => {
      const r = await s.request({ method: 'GET', path, headers: { Accept: '*/*' } });
      assert.deepEqual([r.status, r.text], [404, '404 page not found\n']);
    });
  }
});
