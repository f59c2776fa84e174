// Client certificate authentication (--client-ca-file: CN the user, O the groups) with kubectl and
// raw clients, certificates kube rejects (expired, unknown CA: 401 Unauthorized), front-proxy
// (request-header) authentication through a proxy's client certificate, and the
// extension-apiserver-authentication ConfigMap.
// No Go counterpart: end-to-end tests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { newSelfSignedCACert, newSignedCert, type CertKeyPair } from '../apimachinery/util/cert.ts';
import { pkiPaths } from '../cli/certs.ts';
import { kubectl } from './testing/kubectl.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startSuite, type Suite } from './testing/suite.ts';

interface Reply { status: number; body: Record<string, unknown> }

/** One request presenting `cert` (no bearer token). */
function certRequest(s: { creds: { server: string; ca: string } }, cert: CertKeyPair | undefined, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  const url = new URL(s.creds.server);
  return new Promise((resolve, reject) => {
    const r = httpsRequest({
      hostname: url.hostname, port: url.port, path, method: 'GET', ca: s.creds.ca, agent: false,
      headers: { Accept: 'application/json', ...headers }, ...(cert !== undefined ? { cert: cert.cert, key: cert.key } : {}),
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    r.on('error', reject);
    r.end();
  });
}

const unauthorized = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

async function selfReview(s: { creds: { server: string; ca: string } }, cert: CertKeyPair | undefined, headers: Record<string, string> = {}): Promise<Reply> {
  const url = new URL(s.creds.server);
  const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
  return await new Promise((resolve, reject) => {
    const r = httpsRequest({
      hostname: url.hostname, port: url.port, path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', method: 'POST', ca: s.creds.ca, agent: false,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
      ...(cert !== undefined ? { cert: cert.cert, key: cert.key } : {}),
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    r.on('error', reject);
    r.end(body);
  });
}

const userInfoOf = (r: Reply): Record<string, unknown> => ((r.body['status'] as Record<string, unknown>)['userInfo'] as Record<string, unknown>);

describe('x509 client certificate authentication (kapi CA as client CA)', () => {
  let s: Suite;
  let dir: string;
  let ca: CertKeyPair;
  before(async () => {
    s = await startSuite();
    dir = await mkdtemp(join(tmpdir(), 'kapi-x509-'));
    const p = pkiPaths(s.server.dataDir);
    ca = { cert: await readFile(p.caCert, 'utf8'), key: await readFile(p.caKey, 'utf8') };
  });
  after(async () => { await s?.close(); await rm(dir, { recursive: true, force: true }); });

  it('kubectl with only the admin kubeconfig\'s client certificate is kapi-admin in system:masters', async () => {
    const cfg = parse(await readFile(s.server.kubeconfigPath, 'utf8')) as { users: { user: Record<string, string> }[] };
    const user = cfg.users[0]?.user ?? {};
    assert.ok(user['client-certificate-data'] !== undefined && user['client-key-data'] !== undefined && user['token'] !== undefined);
    delete user['token'];
    const path = join(dir, 'cert-only.kubeconfig');
    await writeFile(path, stringify(cfg));
    const r = await kubectl({ kubeconfigPath: path, home: dir }, ['auth', 'whoami', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const info = userInfoOf({ status: 200, body: JSON.parse(r.stdout) as Record<string, unknown> });
    assert.equal(info['username'], 'kapi-admin');
    assert.deepEqual(info['groups'], ['system:masters', 'system:authenticated']);
    const ids = (info['extra'] as Record<string, string[]>)['authentication.kubernetes.io/credential-id'] ?? [];
    assert.match(ids[0] ?? '', /^X509SHA256=[0-9a-f]{64}$/);
    const list = await kubectl({ kubeconfigPath: path, home: dir }, ['get', 'namespaces', '-o', 'name']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /namespace\/kube-system/);
  });

  it('CN is the user, O the groups, the UID attribute the uid', async () => {
    const jane = await newSignedCert(ca, { commonName: 'jane', organizations: ['devs', 'ops'], usages: ['clientAuth'], validityDays: 1 });
    const r = await selfReview(s, jane);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const info = userInfoOf(r);
    assert.equal(info['username'], 'jane');
    assert.deepEqual(info['groups'], ['devs', 'ops', 'system:authenticated']);
  });

  const rejected: { name: string; cert: () => Promise<CertKeyPair> }[] = [
    { name: 'an expired certificate', cert: () => newSignedCert(ca, {
      commonName: 'old', usages: ['clientAuth'], validityDays: 1, now: new Date(Date.now() - 10 * 86_400_000) }) },
    { name: 'a certificate of an unknown CA', cert: async () => newSignedCert(
      await newSelfSignedCACert({ commonName: 'other-ca', validityDays: 1 }), { commonName: 'mallory', organizations: ['system:masters'], usages: ['clientAuth'], validityDays: 1 }) },
    { name: 'a serving-only certificate', cert: () => newSignedCert(ca, { commonName: 'srv', usages: ['serverAuth'], validityDays: 1 }) },
  ];
  for (const c of rejected) {
    it(`${c.name} gets 401 Unauthorized, never anonymous`, async () => {
      const r = await certRequest(s, await c.cert(), '/api/v1/namespaces');
      assert.deepEqual([r.status, r.body], [401, unauthorized]);
    });
  }

  it('a certificate without CN is not a user (no other credentials: 401)', async () => {
    const noCN = await newSignedCert(ca, { commonName: '', organizations: ['devs'], usages: ['clientAuth'], validityDays: 1 });
    const r = await certRequest(s, noCN, '/api/v1/namespaces');
    assert.equal(r.status, 401);
  });

  it('publishes the client CA in kube-system/extension-apiserver-authentication', async () => {
    const r = await s.request({ method: 'GET', path: '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication' });
    assert.equal(r.status, 200, r.text);
    const data = (r.json() as { data: Record<string, string> }).data;
    assert.deepEqual(Object.keys(data), ['client-ca-file']);
    assert.equal(data['client-ca-file']?.trim(), ca.cert.trim());
  });
});

describe('request-header authentication through a front proxy', () => {
  let s: Suite;
  let dir: string;
  let proxyCA: CertKeyPair;
  let proxy: CertKeyPair;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-rh-'));
    proxyCA = await newSelfSignedCACert({ commonName: 'front-proxy-ca', validityDays: 10 });
    proxy = await newSignedCert(proxyCA, { commonName: 'front-proxy-client', usages: ['clientAuth'], validityDays: 10 });
    await writeFile(join(dir, 'proxy-ca.crt'), proxyCA.cert);
    s = await startSuite({ flags: [
      '--requestheader-client-ca-file', join(dir, 'proxy-ca.crt'), '--requestheader-allowed-names', 'front-proxy-client',
      '--requestheader-username-headers', 'X-Remote-User', '--requestheader-uid-headers', 'X-Remote-Uid',
      '--requestheader-group-headers', 'X-Remote-Group', '--requestheader-extra-headers-prefix', 'X-Remote-Extra-',
    ] });
  });
  after(async () => { await s?.close(); await rm(dir, { recursive: true, force: true }); });

  it('the proxy\'s headers name the user, uid, groups and extras', async () => {
    const r = await selfReview(s, proxy, {
      'X-Remote-User': 'alice', 'X-Remote-Uid': 'u-1', 'X-Remote-Group': 'g1', 'X-Remote-Extra-Scopes': 'a', 'X-Remote-Extra-Acme.com%2Fproject': 'p',
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.deepEqual(userInfoOf(r), {
      username: 'alice', uid: 'u-1', groups: ['g1', 'system:authenticated'], extra: { scopes: ['a'], 'acme.com/project': ['p'] },
    });
    // kube writes the extras sorted by key (a Go map).
    assert.deepEqual(Object.keys(userInfoOf(r)['extra'] as object), ['acme.com/project', 'scopes']);
  });

  const refused: { name: string; cert: () => Promise<CertKeyPair> }[] = [
    { name: 'a CN not in --requestheader-allowed-names', cert: () => newSignedCert(proxyCA, { commonName: 'other', usages: ['clientAuth'], validityDays: 1 }) },
    { name: 'a certificate of another CA', cert: async () => newSignedCert(
      await newSelfSignedCACert({ commonName: 'x', validityDays: 1 }), { commonName: 'front-proxy-client', usages: ['clientAuth'], validityDays: 1 }) },
  ];
  for (const c of refused) {
    it(`${c.name} cannot set the headers: 401`, async () => {
      const r = await certRequest(s, await c.cert(), '/api/v1/namespaces', { 'X-Remote-User': 'alice', 'X-Remote-Group': 'system:masters' });
      assert.deepEqual([r.status, r.body], [401, unauthorized]);
    });
  }

  it('the headers of a client without the proxy certificate are not read', async () => {
    const r = await s.request({ method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }), headers: { 'X-Remote-User': 'alice' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(((r.json() as { status: { userInfo: { username: string } } }).status.userInfo.username), 'kapi-admin');
  });

  it('publishes the request-header configuration as kube does', async () => {
    const r = await s.request({ method: 'GET', path: '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication' });
    assert.equal(r.status, 200, r.text);
    const data = (r.json() as { data: Record<string, string> }).data;
    assert.deepEqual(Object.keys(data).sort(), [
      'client-ca-file', 'requestheader-allowed-names', 'requestheader-client-ca-file', 'requestheader-extra-headers-prefix',
      'requestheader-group-headers', 'requestheader-uid-headers', 'requestheader-username-headers',
    ]);
    assert.equal(data['requestheader-client-ca-file']?.trim(), proxyCA.cert.trim());
    assert.equal(data['requestheader-allowed-names'], '["front-proxy-client"]');
    assert.equal(data['requestheader-username-headers'], '["X-Remote-User"]');
    assert.equal(data['requestheader-uid-headers'], '["X-Remote-Uid"]');
    assert.equal(data['requestheader-group-headers'], '["X-Remote-Group"]');
    assert.equal(data['requestheader-extra-headers-prefix'], '["X-Remote-Extra-"]');
  });
});

/**
 * The same cases against kube-apiserver v1.36.3 and kapi, both given one client CA and one front-proxy
 * CA: the same users, the same 401s, the same published ConfigMap keys.
 */
describe('client certificates and front proxies against the reference kube-apiserver', { skip: oracleUnavailable() ?? false }, () => {
  let dir: string;
  let ca: CertKeyPair;
  let proxyCA: CertKeyPair;
  let kapi: Suite;
  let oracle: Oracle;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-x509-oracle-'));
    ca = await newSelfSignedCACert({ commonName: 'client-ca', validityDays: 10 });
    proxyCA = await newSelfSignedCACert({ commonName: 'proxy-ca', validityDays: 10 });
    await writeFile(join(dir, 'ca.crt'), ca.cert);
    await writeFile(join(dir, 'proxy-ca.crt'), proxyCA.cert);
    const flags = ['--client-ca-file', join(dir, 'ca.crt'), '--requestheader-client-ca-file', join(dir, 'proxy-ca.crt'),
      '--requestheader-allowed-names', 'front-proxy-client', '--requestheader-username-headers', 'X-Remote-User',
      '--requestheader-uid-headers', 'X-Remote-Uid', '--requestheader-group-headers', 'X-Remote-Group', '--requestheader-extra-headers-prefix', 'X-Remote-Extra-'];
    [kapi, oracle] = await Promise.all([startSuite({ flags }), startOracle({ flags })]);
  });
  after(async () => { await Promise.allSettled([kapi?.close(), oracle?.stop()]); await rm(dir, { recursive: true, force: true }); });

  it('answers alike', async () => {
    const jane = await newSignedCert(ca, { commonName: 'jane', organizations: ['devs'], usages: ['clientAuth'], validityDays: 1 });
    const expired = await newSignedCert(ca, { commonName: 'old', usages: ['clientAuth'], validityDays: 1, now: new Date(Date.now() - 10 * 86_400_000) });
    const stranger = await newSignedCert(await newSelfSignedCACert({ commonName: 'x', validityDays: 1 }), { commonName: 'm', usages: ['clientAuth'], validityDays: 1 });
    const proxy = await newSignedCert(proxyCA, { commonName: 'front-proxy-client', usages: ['clientAuth'], validityDays: 1 });
    const otherProxy = await newSignedCert(proxyCA, { commonName: 'other', usages: ['clientAuth'], validityDays: 1 });
    const headers = { 'X-Remote-User': 'alice', 'X-Remote-Uid': 'u-1', 'X-Remote-Group': 'g1', 'X-Remote-Extra-Scopes': 'a', 'X-Remote-Extra-Acme.com%2Fproject': 'p' };
    const answers = async (server: { creds: { server: string; ca: string } }): Promise<unknown[]> => {
      const review = async (cert: CertKeyPair, h: Record<string, string> = {}): Promise<unknown> => {
        const r = await selfReview(server, cert, h);
        return r.status === 201 ? userInfoOf(r) : [r.status, r.body];
      };
      const cm = await certRequest(server, jane, '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication');
      const data = (cm.body as { data?: Record<string, string> }).data ?? {};
      return [
        await review(jane), await review(expired), await review(stranger), await review(proxy, headers), await review(proxy),
        await review(otherProxy, headers),
        // Both servers run AlwaysAllow (kapi's default, and so the oracle's), so jane may read the ConfigMap.
        Object.fromEntries(Object.entries(data).map(([k, v]) => [k, k.endsWith('ca-file') ? v.trim() : v])),
      ];
    };
    const [k, o] = await Promise.all([answers(kapi), answers(oracle)]);
    // The credential IDs agree too: each is the fingerprint of the same certificate.
    assert.deepEqual(k, o);
  });
});
