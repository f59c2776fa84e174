// The HTTPS listener honours --tls-min-version and --tls-cipher-suites as kube-apiserver does:
// TLS 1.2 and Go's default suites unless told otherwise, TLS 1.0/1.1 only when asked for, bad
// values stop start-up naming the flag, and every answer carries X-Content-Type-Options: nosniff.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type ConnectionOptions, type SecureVersion } from 'node:tls';
import { startServer, type RunningServer } from '../index.ts';
import { loadAdminCredentials, rawRequest, type AdminCredentials } from './testing/https-client.ts';

interface Handshake { protocol: string; cipher: string }

/** One TLS handshake with the server; the negotiated protocol and cipher, or the client's error code. */
function handshake(port: number, opts: ConnectionOptions): Promise<Handshake | string> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...opts }, () => {
      resolve({ protocol: s.getProtocol() ?? '', cipher: s.getCipher().name });
      s.end();
    });
    s.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

/** A client that offers only `version` (OpenSSL 3 offers TLS 1.0/1.1 only at security level 0). */
const only = (version: SecureVersion, ciphers?: string): ConnectionOptions => ({
  minVersion: version, maxVersion: version,
  ...(version === 'TLSv1' || version === 'TLSv1.1' ? { ciphers: `${ciphers ?? 'DEFAULT'}:@SECLEVEL=0` } : ciphers !== undefined ? { ciphers } : {}),
});

describe('TLS serving flags', () => {
  const servers = new Map<string, RunningServer>();
  const configs: Record<string, string[]> = {
    default: [],
    tls11: ['--tls-min-version=VersionTLS11'],
    tls13: ['--tls-min-version=VersionTLS13'],
    suite: ['--tls-cipher-suites=TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384'],
  };
  before(async () => {
    for (const [name, flags] of Object.entries(configs)) servers.set(name, await startServer({ flags }));
  });
  after(async () => {
    for (const s of servers.values()) await s.close();
  });
  const port = (name: string): number => servers.get(name)?.port ?? 0;

  const cases: { name: string; server: string; client: ConnectionOptions; want: Partial<Handshake> | 'refused' }[] = [
    { name: 'default: TLS 1.3', server: 'default', client: {}, want: { protocol: 'TLSv1.3' } },
    { name: 'default: TLS 1.2', server: 'default', client: only('TLSv1.2'), want: { protocol: 'TLSv1.2' } },
    { name: 'default: TLS 1.1 refused', server: 'default', client: only('TLSv1.1'), want: 'refused' },
    { name: 'default: TLS 1.0 refused', server: 'default', client: only('TLSv1'), want: 'refused' },
    { name: 'default: a suite outside Go\'s defaults refused', server: 'default', client: only('TLSv1.2', 'ECDHE-ECDSA-AES128-SHA256'), want: 'refused' },
    { name: 'VersionTLS11: TLS 1.1 accepted', server: 'tls11', client: only('TLSv1.1'), want: { protocol: 'TLSv1.1' } },
    { name: 'VersionTLS11: TLS 1.0 refused', server: 'tls11', client: only('TLSv1'), want: 'refused' },
    { name: 'VersionTLS13: TLS 1.2 refused', server: 'tls13', client: only('TLSv1.2'), want: 'refused' },
    { name: 'VersionTLS13: TLS 1.3 accepted', server: 'tls13', client: {}, want: { protocol: 'TLSv1.3' } },
    { name: 'suites: the configured one is used', server: 'suite', client: only('TLSv1.2'),
      want: { protocol: 'TLSv1.2', cipher: 'ECDHE-ECDSA-AES256-GCM-SHA384' } },
    { name: 'suites: another TLS 1.2 suite refused', server: 'suite', client: only('TLSv1.2', 'ECDHE-ECDSA-AES128-GCM-SHA256'), want: 'refused' },
    { name: 'suites: TLS 1.3 keeps its own suites', server: 'suite', client: {}, want: { protocol: 'TLSv1.3' } },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const got = await handshake(port(c.server), c.client);
      if (c.want === 'refused') assert.equal(typeof got, 'string', `expected a refused handshake, got ${JSON.stringify(got)}`);
      else {
        assert.equal(typeof got, 'object', `handshake failed: ${String(got)}`);
        for (const [k, v] of Object.entries(c.want)) assert.equal((got as unknown as Record<string, string>)[k], v);
      }
    });
  }

  it('every answer carries X-Content-Type-Options: nosniff', async () => {
    const server = servers.get('default');
    assert.ok(server !== undefined);
    const creds: AdminCredentials = await loadAdminCredentials(server.kubeconfigPath);
    for (const req of [
      { method: 'GET', path: '/api/v1/namespaces/default', want: 200 },
      { method: 'GET', path: '/readyz', want: 200 },
      { method: 'GET', path: '/api/v1/namespaces/nope', want: 404 },
      { method: 'GET', path: '/api/v1/namespaces', auth: false, want: 401 },
    ]) {
      const r = await rawRequest(creds, req);
      assert.equal(r.status, req.want, `${req.path}: ${r.text}`);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', req.path);
    }
  });

  it('bad values stop start-up, naming the flag and the value', async () => {
    const cases = [
      { flags: ['--tls-min-version=VersionTLS9'], message: 'invalid argument "VersionTLS9" for "--tls-min-version" flag: unknown tls version "VersionTLS9"' },
      { flags: ['--tls-cipher-suites=TLS_FOO'], message: 'invalid argument "TLS_FOO" for "--tls-cipher-suites" flag: Cipher suite TLS_FOO not supported or doesn\'t exist' },
    ];
    for (const c of cases) await assert.rejects(startServer({ flags: c.flags }), { name: 'FlagError', message: c.message });
  });
});
