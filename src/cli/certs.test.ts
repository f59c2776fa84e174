import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminTokenPath, ensureAdminClientCert, ensureAdminToken, ensurePKI, pkiPaths, type PKI } from './certs.ts';

function get(port: number, host: string, ca: string, servername?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path: '/', ca, ...(servername === undefined ? {} : { servername }) }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => { body += c.toString(); });
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('ensurePKI', () => {
  let dir: string;
  let pki: PKI;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-pki-'));
    pki = await ensurePKI({ dataDir: dir, ips: ['10.0.0.1'], hosts: ['api.example.test'] });
  });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  it('writes the four files, keys with mode 0600', async () => {
    const p = pkiPaths(dir);
    for (const f of [p.caKey, p.serverKey]) assert.equal((await stat(f)).mode & 0o777, 0o600);
    assert.equal(await readFile(p.caCert, 'utf8'), pki.caCert);
    assert.equal(await readFile(p.serverCert, 'utf8'), pki.serverCert);
    assert.equal(await readFile(p.serverKey, 'utf8'), pki.serverKey);
    assert.equal(pki.caGenerated, true);
  });

  it('the CA is a CA and signed the serving certificate', () => {
    const ca = new X509Certificate(pki.caCert);
    const srv = new X509Certificate(pki.serverCert);
    assert.equal(ca.ca, true);
    assert.equal(srv.ca, false);
    assert.ok(srv.checkIssued(ca));
    assert.ok(srv.verify(ca.publicKey));
  });

  const names = ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc',
    'kubernetes.default.svc.cluster.local', 'api.example.test'];
  for (const name of names) {
    it(`serving certificate covers DNS ${name}`, () => {
      assert.equal(new X509Certificate(pki.serverCert).checkHost(name, { subject: 'never' }), name);
    });
  }
  for (const ip of ['127.0.0.1', '::1', '10.0.0.1']) {
    it(`serving certificate covers IP ${ip}`, () => {
      assert.equal(new X509Certificate(pki.serverCert).checkIP(ip), ip);
    });
  }

  it('reuses the files on a later start', async () => {
    const again = await ensurePKI({ dataDir: dir, ips: ['10.0.0.1'], hosts: ['api.example.test'] });
    assert.equal(again.caCert, pki.caCert);
    assert.equal(again.serverCert, pki.serverCert);
    assert.equal(again.servingRegenerated, false);
    assert.equal(again.caGenerated, false);
  });

  it('regenerates the serving certificate, keeping the CA, when a new IP is requested', async () => {
    const other = await mkdtemp(join(tmpdir(), 'kapi-pki-'));
    try {
      const first = await ensurePKI({ dataDir: other });
      const second = await ensurePKI({ dataDir: other, ips: ['192.0.2.7'] });
      assert.equal(second.caCert, first.caCert);
      assert.notEqual(second.serverCert, first.serverCert);
      assert.equal(second.servingRegenerated, true);
      assert.equal(new X509Certificate(second.serverCert).checkIP('192.0.2.7'), '192.0.2.7');
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('replaces a corrupt serving key', async () => {
    const other = await mkdtemp(join(tmpdir(), 'kapi-pki-'));
    try {
      const first = await ensurePKI({ dataDir: other });
      await writeFile(pkiPaths(other).serverKey, 'garbage');
      const second = await ensurePKI({ dataDir: other });
      assert.equal(second.servingRegenerated, true);
      assert.equal(second.caCert, first.caCert);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  describe('an https server with the serving certificate', () => {
    let server: Server;
    let port: number;
    before(async () => {
      server = createServer({ cert: pki.serverCert, key: pki.serverKey }, (_req, res) => { res.end('ok'); });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    after(async () => { await new Promise<void>((resolve) => server.close(() => resolve())); });

    it('accepts a client that trusts the CA, verifying 127.0.0.1', async () => {
      assert.equal(await get(port, '127.0.0.1', pki.caCert), 'ok');
    });
    it('accepts a client that trusts the CA, verifying localhost', async () => {
      assert.equal(await get(port, '127.0.0.1', pki.caCert, 'localhost'), 'ok');
    });
    it('rejects a host name the certificate does not carry', async () => {
      await assert.rejects(get(port, '127.0.0.1', pki.caCert, 'evil.example'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    });
    it('rejects a client that does not trust the CA', async () => {
      const other = await mkdtemp(join(tmpdir(), 'kapi-pki-'));
      try {
        const foreign = await ensurePKI({ dataDir: other });
        await assert.rejects(get(port, '127.0.0.1', foreign.caCert), { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
      } finally {
        await rm(other, { recursive: true, force: true });
      }
    });
  });
});

describe('ensureAdminToken', () => {
  it('creates a 0600 token of 32 random bytes and reuses it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kapi-token-'));
    try {
      const token = await ensureAdminToken(dir);
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal((await stat(adminTokenPath(dir))).mode & 0o777, 0o600);
      assert.equal(await ensureAdminToken(dir), token);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('ensureAdminClientCert', () => {
  it('a system:masters client certificate with an "EC PRIVATE KEY" (as client-go writes), kept until the CA changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kapi-admin-cert-'));
    try {
      const pki = await ensurePKI({ dataDir: dir });
      const first = await ensureAdminClientCert(dir, { cert: pki.caCert, key: pki.caKey });
      assert.match(first.key, /^-----BEGIN EC PRIVATE KEY-----\n/);
      const cert = new X509Certificate(first.cert);
      assert.equal(cert.subject, 'CN=kapi-admin\nO=system:masters');
      assert.ok(cert.checkIssued(new X509Certificate(pki.caCert)));
      assert.deepEqual(await ensureAdminClientCert(dir, { cert: pki.caCert, key: pki.caKey }), first);
      await rm(pkiPaths(dir).caCert);
      const renewed = await ensurePKI({ dataDir: dir });
      const second = await ensureAdminClientCert(dir, { cert: renewed.caCert, key: renewed.caKey });
      assert.notEqual(second.cert, first.cert);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
