import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import * as px509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import { newSelfSignedCACert, newSignedCert } from '../apimachinery/util/cert.ts';
import { CREDENTIAL_ID_KEY, newX509Authenticator, userFromCertificate, verifyClientChain } from './x509.ts';

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A leaf whose subject is written attribute by attribute (UID OIDs, repeated CNs). */
async function leafWithSubject(subject: string): Promise<X509Certificate> {
  const keys = await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
  const cert = await px509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01', name: subject, notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: ALG, keys,
  });
  return new X509Certificate(Buffer.from(cert.rawData));
}

describe('x509 user conversion (CommonNameUserConversion)', () => {
  const cases: { name: string; subject: string; want: unknown }[] = [
    { name: 'CN user, O groups in order', subject: 'CN=jane, O=b, O=a', want: { name: 'jane', groups: ['b', 'a'] } },
    { name: 'the UID attribute', subject: 'CN=jane, 1.3.6.1.4.1.57683.2=u-1', want: { name: 'jane', uid: 'u-1', groups: [] } },
    { name: 'no CN: no user', subject: 'O=devs', want: undefined },
    { name: 'two UIDs: an error', subject: 'CN=jane, 1.3.6.1.4.1.57683.2=a, 1.3.6.1.4.1.57683.2=b', want: 'expected 1 UID, but found multiple: [a b]' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const leaf = await leafWithSubject(c.subject);
      let got: unknown;
      try {
        const u = await userFromCertificate(leaf);
        got = u === undefined ? undefined : { name: u.name, ...(u.uid !== undefined ? { uid: u.uid } : {}), groups: u.groups };
        if (u !== undefined) assert.match(u.extra?.[CREDENTIAL_ID_KEY]?.[0] ?? '', /^X509SHA256=[0-9a-f]{64}$/);
      } catch (err) {
        got = (err as Error).message;
      }
      assert.deepEqual(got, c.want);
    });
  }
});

describe('client certificate chain verification', () => {
  it('accepts a chain through a presented intermediate and names kube\'s failures', async () => {
    const root = await newSelfSignedCACert({ commonName: 'root', validityDays: 10 });
    const rootCert = new X509Certificate(root.cert);
    const leaf = new X509Certificate((await newSignedCert(root, { commonName: 'u', usages: ['clientAuth'], validityDays: 1 })).cert);
    assert.equal(verifyClientChain(leaf, [], [rootCert], new Date()).length, 2);
    const other = new X509Certificate((await newSelfSignedCACert({ commonName: 'other', validityDays: 10 })).cert);
    assert.throws(() => verifyClientChain(leaf, [], [other], new Date()), { message: 'x509: certificate signed by unknown authority' });
    const later = new Date(Date.now() + 5 * 86_400_000);
    assert.throws(() => verifyClientChain(leaf, [], [rootCert], later), /^Error: x509: certificate has expired or is not yet valid: current time \S+Z is after \S+Z$/);
    const server = new X509Certificate((await newSignedCert(root, { commonName: 's', usages: ['serverAuth'], validityDays: 1 })).cert);
    assert.throws(() => verifyClientChain(server, [], [rootCert], new Date()), { message: 'x509: certificate specifies an incompatible key usage' });
  });

  it('the authenticator: no certificate is no opinion; a bad one an error naming the serial', async () => {
    const root = await newSelfSignedCACert({ commonName: 'root', validityDays: 10 });
    const authn = newX509Authenticator(() => [new X509Certificate(root.cert)]);
    assert.equal(await authn.authenticate({ headers: {} }), undefined);
    const stranger = await newSignedCert(await newSelfSignedCACert({ commonName: 'x', validityDays: 1 }), { commonName: 'u', usages: ['clientAuth'], validityDays: 1 });
    await assert.rejects(authn.authenticate({ headers: {}, peerCertificates: [new X509Certificate(stranger.cert).raw] }),
      /^Error: verifying certificate SN=\d+ failed: x509: certificate signed by unknown authority$/);
  });

});
