import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getCiphers } from 'node:tls';
import { servingTLS, tlsCipherPossibleValues, tlsCipherSuites, tlsVersion } from './tls-options.ts';

describe('--tls-min-version', () => {
  const cases = [
    { name: 'unset: kube default TLS 1.2', value: '', want: 'TLSv1.2' },
    { name: 'VersionTLS10', value: 'VersionTLS10', want: 'TLSv1' },
    { name: 'VersionTLS11', value: 'VersionTLS11', want: 'TLSv1.1' },
    { name: 'VersionTLS12', value: 'VersionTLS12', want: 'TLSv1.2' },
    { name: 'VersionTLS13', value: 'VersionTLS13', want: 'TLSv1.3' },
    { name: 'case matters', value: 'versiontls12', error: 'unknown tls version "versiontls12"' },
    { name: 'SSL 3', value: 'VersionSSL30', error: 'unknown tls version "VersionSSL30"' },
    { name: 'a name of Object.prototype', value: 'constructor', error: 'unknown tls version "constructor"' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      if (c.error !== undefined) assert.throws(() => tlsVersion(c.value), { message: c.error });
      else assert.equal(tlsVersion(c.value), c.want);
    });
  }
});

describe('--tls-cipher-suites', () => {
  const cases = [
    { name: 'Go names become OpenSSL names', value: ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA'],
      want: ['ECDHE-ECDSA-AES256-GCM-SHA384', 'ECDHE-ECDSA-AES128-SHA'], warnings: [] },
    { name: 'kube\'s legacy ChaCha20 names', value: ['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256'],
      want: ['ECDHE-RSA-CHACHA20-POLY1305'], warnings: [] },
    { name: 'TLS 1.3 names are accepted and not configurable', value: ['TLS_AES_128_GCM_SHA256'], want: [], warnings: [] },
    { name: 'insecure names are accepted with kube\'s warning', value: ['TLS_RSA_WITH_AES_256_CBC_SHA'],
      want: ['AES256-SHA'], warnings: ["Use of insecure cipher 'TLS_RSA_WITH_AES_256_CBC_SHA' detected."] },
    { name: 'an OpenSSL name is not a Go name', value: ['ECDHE-RSA-AES128-GCM-SHA256'],
      error: "Cipher suite ECDHE-RSA-AES128-GCM-SHA256 not supported or doesn't exist" },
    { name: 'a name of Object.prototype is not a Go name', value: ['toString'],
      error: "Cipher suite toString not supported or doesn't exist" },
    { name: 'RC4 is gone from OpenSSL 3', value: ['TLS_RSA_WITH_RC4_128_SHA'],
      error: "Cipher suite TLS_RSA_WITH_RC4_128_SHA is not available in this Node.js's OpenSSL" },
  ];
  for (const c of cases) {
    it(c.name, () => {
      if (c.error !== undefined) {
        assert.throws(() => tlsCipherSuites(c.value), { message: c.error });
        return;
      }
      const got = tlsCipherSuites(c.value);
      assert.deepEqual(got.openssl, c.want);
      assert.deepEqual(got.warnings, c.warnings);
    });
  }

  it('every Go name kube accepts is known, and all but RC4 and 3DES exist in OpenSSL', () => {
    const available = new Set(getCiphers().map((n) => n.toUpperCase()));
    const missing = tlsCipherPossibleValues().filter((n) => {
      try {
        return tlsCipherSuites([n]).openssl.some((o) => !available.has(o));
      } catch {
        return true;
      }
    });
    assert.deepEqual(missing, [
      'TLS_ECDHE_ECDSA_WITH_RC4_128_SHA', 'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA', 'TLS_ECDHE_RSA_WITH_RC4_128_SHA',
      'TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'TLS_RSA_WITH_RC4_128_SHA',
    ]);
  });
});

describe('servingTLS', () => {
  const T13 = 'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256';
  const cases = [
    { name: 'suites given: those, then TLS 1.3\'s', min: 'TLSv1.2', suites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'],
      want: { minVersion: 'TLSv1.2', ciphers: `ECDHE-RSA-AES128-GCM-SHA256:${T13}` } },
    { name: 'only TLS 1.3 suites: TLS 1.3 only, as with Go', min: 'TLSv1.2', suites: ['TLS_AES_256_GCM_SHA384'],
      want: { minVersion: 'TLSv1.3', ciphers: T13 } },
    { name: 'TLS 1.1 needs OpenSSL security level 0', min: 'TLSv1.1', suites: ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA'],
      want: { minVersion: 'TLSv1.1', ciphers: `ECDHE-RSA-AES128-SHA:${T13}:@SECLEVEL=0` } },
  ] as const;
  for (const c of cases) it(c.name, () => assert.deepEqual(servingTLS(c.min, tlsCipherSuites(c.suites)), c.want));
});
