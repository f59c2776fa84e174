// The service account flags envtest (and every cluster) passes: --service-account-signing-key-file
// signs the tokens, --service-account-issuer (several) names and accepts issuers,
// --service-account-key-file adds verification keys; and kube's start-up errors for unreadable
// key and CA files (texts asked of kube-apiserver v1.36.3).
// No Go counterpart: end-to-end tests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, verify } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSelfSignedCACert } from '../apimachinery/util/cert.ts';
import { newServiceAccountTokenIssuer } from '../authn/serviceaccount/index.ts';
import { startServer } from '../cli/serve.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const pem = (k: { export(o: { type: 'pkcs8' | 'spki'; format: 'pem' }): string | Buffer }, type: 'pkcs8' | 'spki'): string => String(k.export({ type, format: 'pem' }));

describe('service account key and issuer flags', () => {
  let s: Suite;
  let dir: string;
  const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const second = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-sa-flags-'));
    await writeFile(join(dir, 'sa.key'), pem(signing.privateKey, 'pkcs8'));
    await writeFile(join(dir, 'sa.pub'), pem(signing.publicKey, 'spki') + pem(second.publicKey, 'spki'));
    s = await startSuite({ flags: [
      '--service-account-signing-key-file', join(dir, 'sa.key'), '--service-account-key-file', join(dir, 'sa.pub'),
      '--service-account-issuer', 'https://a.example', '--service-account-issuer', 'https://b.example',
    ] });
  });
  after(async () => { await s?.close(); await rm(dir, { recursive: true, force: true }); });

  const whoami = async (token: string): Promise<unknown> => {
    const r = await s.request({ method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', auth: false,
      headers: { Authorization: `Bearer ${token}` }, body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }) });
    return r.status === 201 ? (r.json() as { status: { userInfo: { username: string } } }).status.userInfo.username : r.status;
  };

  it('TokenRequest signs with the signing key file for the first issuer and audience', async () => {
    const r = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts/default/token',
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }) });
    assert.equal(r.status, 201, r.text);
    const token = (r.json() as { status: { token: string } }).status.token;
    const [h = '', p = '', sig = ''] = token.split('.');
    assert.ok(verify('sha256', Buffer.from(`${h}.${p}`), { key: signing.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url')));
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as { iss: string; aud: string[] };
    assert.deepEqual([claims.iss, claims.aud], ['https://a.example', ['https://a.example', 'https://b.example']]);
    assert.equal(await whoami(token), 'system:serviceaccount:default:default');
  });

  it('a token of the second issuer signed by a key of --service-account-key-file authenticates; an unknown key does not', async () => {
    const sa = await s.request({ method: 'GET', path: '/api/v1/namespaces/default/serviceaccounts/default' });
    const uid = (sa.json() as { metadata: { uid: string } }).metadata.uid;
    const req = { namespace: 'default', name: 'default', uid, audiences: ['https://b.example'], expirationSeconds: 3600 };
    const good = newServiceAccountTokenIssuer({ privateKey: second.privateKey, issuer: 'https://b.example' }).issue(req).token;
    assert.equal(await whoami(good), 'system:serviceaccount:default:default');
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const bad = newServiceAccountTokenIssuer({ privateKey: stranger, issuer: 'https://b.example' }).issue(req).token;
    assert.equal(await whoami(bad), 401);
  });
});

describe('start-up errors of the authentication files (kube-apiserver\'s texts)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-authn-files-'));
    await writeFile(join(dir, 'empty.crt'), '');
    await writeFile(join(dir, 'ca.crt'), (await newSelfSignedCACert({ commonName: 'shared', validityDays: 1 })).cert);
    await writeFile(join(dir, 'garbage'), 'garbage\n');
    await writeFile(join(dir, 'rsa.key'), pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'pkcs8'));
    await writeFile(join(dir, 'p384.key'), pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey, 'pkcs8'));
  });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  const f = (name: string): string => join(dir ?? '', name);
  const cases: { name: string; flags: () => string[]; want: () => string }[] = [
    { name: 'missing client CA file', flags: () => ['--client-ca-file', f('nope.crt')], want: () => `open ${f('nope.crt')}: no such file or directory` },
    { name: 'empty client CA file', flags: () => ['--client-ca-file', f('empty.crt')], want: () => `missing content for CA bundle "client-ca-bundle::${f('empty.crt')}"` },
    { name: 'client CA file without certificates', flags: () => ['--client-ca-file', f('garbage')],
      want: () => `error loading CA bundle for "client-ca-bundle::${f('garbage')}": data does not contain any valid RSA or ECDSA certificates` },
    { name: 'request-header CA file without certificates', flags: () => ['--requestheader-client-ca-file', f('garbage')],
      want: () => `error loading CA bundle for "request-header::${f('garbage')}": data does not contain any valid RSA or ECDSA certificates` },
    { name: 'missing service account key file', flags: () => ['--service-account-key-file', f('nope.pub')], want: () => `open ${f('nope.pub')}: no such file or directory` },
    { name: 'service account key file without keys', flags: () => ['--service-account-key-file', f('garbage')],
      want: () => `error reading public key file ${f('garbage')}: data does not contain any valid RSA or ECDSA public keys` },
    { name: 'missing signing key file', flags: () => ['--service-account-signing-key-file', f('nope.key')],
      want: () => `failed to parse service-account-issuer-key-file: open ${f('nope.key')}: no such file or directory` },
    { name: 'signing key file without a key', flags: () => ['--service-account-signing-key-file', f('garbage')],
      want: () => `failed to parse service-account-issuer-key-file: error reading private key file ${f('garbage')}: data does not contain a valid RSA or ECDSA private key` },
    { name: 'one CA for client certificates and front proxies without allowed names', flags: () => ['--client-ca-file', f('ca.crt'), '--requestheader-client-ca-file', f('ca.crt')],
      want: () => '--requestheader-client-ca-file and --client-ca-file contain overlapping certificates; --requestheader-allowed-names must be specified to ensure regular client certificates cannot set authenticating proxy headers for arbitrary users' },
    // kube signs ES384 with a P-384 key; kapi refuses rather than ignore the key (RSA and P-256 keys it signs with).
    { name: 'a P-384 signing key: refused clearly', flags: () => ['--service-account-signing-key-file', f('p384.key')],
      want: () => `--service-account-signing-key-file "${f('p384.key')}": kapi signs service account tokens with RSA (RS256) and ECDSA P-256 (ES256) keys only` },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      await assert.rejects(startServer({ flags: c.flags() }), { message: c.want() });
    });
  }
});
