import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { newSelfSignedCACert, newSignedCert } from './cert.ts';

/** The extended key usage OIDs of `cert` (node reports them as keyUsage). */
const extKeyUsages = (cert: X509Certificate): string[] => [...(cert.keyUsage ?? [])].sort();

const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';

describe('newSelfSignedCACert / newSignedCert', () => {
  const now = new Date('2030-01-02T03:04:05Z');

  it('makes a CA whose key matches, valid from a minute before now for the given days', async () => {
    const ca = await newSelfSignedCACert({ commonName: 'test-ca', validityDays: 10, now });
    const cert = new X509Certificate(ca.cert);
    assert.equal(cert.ca, true);
    assert.equal(cert.subject, 'CN=test-ca');
    assert.ok(cert.checkPrivateKey(createPrivateKey(ca.key)));
    assert.equal(new Date(cert.validFrom).getTime(), now.getTime() - 60_000);
    assert.equal(new Date(cert.validTo).getTime(), now.getTime() + 10 * 86_400_000);
  });

  it('signs a serving certificate for names and IPs, and a client certificate with organizations', async () => {
    const ca = await newSelfSignedCACert({ commonName: 'test-ca', validityDays: 10 });
    const caCert = new X509Certificate(ca.cert);
    const server = await newSignedCert(ca, {
      commonName: 'srv', hosts: ['localhost'], ips: ['127.0.0.1', '::1'], usages: ['serverAuth', 'clientAuth'], validityDays: 1,
    });
    const client = await newSignedCert(ca, { commonName: 'user, "x"', organizations: ['system:masters'], usages: ['clientAuth'], validityDays: 1 });

    const srv = new X509Certificate(server.cert);
    assert.equal(srv.ca, false);
    assert.ok(srv.checkIssued(caCert) && srv.verify(caCert.publicKey));
    assert.ok(srv.checkPrivateKey(createPrivateKey(server.key)));
    assert.equal(srv.checkHost('localhost', { subject: 'never' }), 'localhost');
    assert.equal(srv.checkIP('127.0.0.1'), '127.0.0.1');
    assert.equal(srv.checkIP('::1'), '::1');
    assert.deepEqual(extKeyUsages(srv), [SERVER_AUTH, CLIENT_AUTH]);

    const cli = new X509Certificate(client.cert);
    assert.ok(cli.checkIssued(caCert) && cli.verify(caCert.publicKey));
    assert.equal(cli.subjectAltName, undefined);
    assert.deepEqual(extKeyUsages(cli), [CLIENT_AUTH]);
    // Node escapes the special characters when it prints the subject.
    assert.match(cli.subject, /^CN=user\\, \\"x\\"$/m);
    assert.match(cli.subject, /^O=system:masters$/m);
  });

  it('rejects a CA key it cannot read', async () => {
    const ca = await newSelfSignedCACert({ commonName: 'test-ca', validityDays: 1 });
    await assert.rejects(newSignedCert({ cert: ca.cert, key: 'not a key' }, { commonName: 'x', usages: ['clientAuth'], validityDays: 1 }));
  });
});
