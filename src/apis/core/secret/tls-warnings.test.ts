import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { x509KeyPairError } from './tls-warnings.ts';

// Certificates themselves are covered by e2e/core-validation.test.ts (PEM in testing/tls-pem.ts).
const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const block = (type: string): string => `-----BEGIN ${type}-----\nAAAA\n-----END ${type}-----\n`;

describe("x509KeyPairError: tls.X509KeyPair's error texts, as kube warns them", () => {
  const cases: [string, string, string, string][] = [
    ['no PEM at all', 'c', 'k', 'tls: failed to find any PEM data in certificate input'],
    ['a key where the certificate goes', key, 'k', 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched'],
    ['other blocks only', block('FOO'), 'k', 'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [FOO]'],
    ['a certificate but no key', block('CERTIFICATE'), 'k', 'tls: failed to find any PEM data in key input'],
    ['a certificate as the key', block('CERTIFICATE'), block('CERTIFICATE'), 'tls: found a certificate rather than a key in the PEM for the private key'],
    ['a broken certificate', block('CERTIFICATE'), key, 'x509: malformed certificate'],
  ];
  for (const [name, cert, k, want] of cases) it(name, () => assert.equal(x509KeyPairError(cert, k), want));
});
