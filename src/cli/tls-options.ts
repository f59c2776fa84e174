// --tls-min-version and --tls-cipher-suites (k8s.io/component-base/cli/flag/ciphersuites_flag.go
// and the apiserver's SecureServingOptions.ApplyTo): kube's names, Go's crypto/tls semantics,
// translated to the options of Node's TLS server (OpenSSL names, protocol strings).
import { getCiphers, type SecureVersion } from 'node:tls';

/** kube's TLS version names → Node's. */
const VERSIONS: Readonly<Record<string, SecureVersion>> = {
  VersionTLS10: 'TLSv1', VersionTLS11: 'TLSv1.1', VersionTLS12: 'TLSv1.2', VersionTLS13: 'TLSv1.3',
};

/** kube's default minimum (DefaultTLSVersion): TLS 1.2. */
export const DEFAULT_TLS_MIN_VERSION: SecureVersion = 'TLSv1.2';

/** The suites of TLS 1.3: Go uses all three whatever is configured, so kapi does too. */
const TLS13_SUITES = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'];

/** Go's tls.CipherSuites() (and kube's two legacy ChaCha20 names) for TLS 1.0-1.2 → OpenSSL. */
const SECURE: Readonly<Record<string, string>> = {
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
};

/** Go's tls.InsecureCipherSuites(): accepted, with kube's warning at start. */
const INSECURE: Readonly<Record<string, string>> = {
  TLS_RSA_WITH_RC4_128_SHA: 'RC4-SHA',
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: 'DES-CBC3-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: 'ECDHE-ECDSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: 'ECDHE-RSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: 'ECDHE-RSA-DES-CBC3-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
};

/** What Go's server offers for TLS 1.0-1.2 when nothing is configured (its default suites, in its order). */
const GO_DEFAULT_SUITES = [
  'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA',
  'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA',
];

/** Options for Node's TLS server. */
export interface ServingTLS {
  readonly minVersion: SecureVersion;
  /** An OpenSSL cipher string: TLS 1.0-1.2 suites, then TLS 1.3's. */
  readonly ciphers: string;
}

/** kube's TLSVersion: '' is the default; rejects other unknown names with kube's message. */
export function tlsVersion(name: string): SecureVersion {
  if (name === '') return DEFAULT_TLS_MIN_VERSION;
  // Own keys only: a name like "constructor" must not find Object.prototype's members.
  const v = Object.hasOwn(VERSIONS, name) ? VERSIONS[name] : undefined;
  if (v === undefined) throw new Error(`unknown tls version ${JSON.stringify(name)}`);
  return v;
}

/** kube's accepted names (TLSCipherPossibleValues), sorted. */
export const tlsCipherPossibleValues = (): string[] => [...TLS13_SUITES, ...Object.keys(SECURE), ...Object.keys(INSECURE)].sort();
export const insecureTLSCipherNames = (): string[] => Object.keys(INSECURE).sort();

/** Go's CipherSuites of kube's names, as OpenSSL names for TLS 1.0-1.2 (TLS 1.3 names are accepted and, as in Go, not configurable). */
export interface CipherSuites {
  readonly openssl: readonly string[];
  /** kube's start-up warnings for insecure suites. */
  readonly warnings: readonly string[];
}

/**
 * kube's TLSCipherSuites. Throws with kube's message for the first unknown name, and for a name
 * Go knows but this Node's OpenSSL cannot do (RC4 and 3DES are gone from OpenSSL 3).
 */
export function tlsCipherSuites(names: readonly string[]): CipherSuites {
  const available = new Set(getCiphers().map((c) => c.toUpperCase()));
  const warnings: string[] = [];
  const openssl: string[] = [];
  for (const name of names) {
    if (TLS13_SUITES.includes(name)) continue;
    const o = Object.hasOwn(SECURE, name) ? SECURE[name] : Object.hasOwn(INSECURE, name) ? INSECURE[name] : undefined;
    if (o === undefined) throw new Error(`Cipher suite ${name} not supported or doesn't exist`);
    if (!available.has(o)) throw new Error(`Cipher suite ${name} is not available in this Node.js's OpenSSL`);
    if (Object.hasOwn(INSECURE, name)) warnings.push(`Use of insecure cipher '${name}' detected.`);
    if (!openssl.includes(o)) openssl.push(o);
  }
  return { openssl, warnings };
}

/** Node's TLS server options for a minimum version and, when the flag was given, its suites. */
export function servingTLS(minVersion: SecureVersion, configured?: CipherSuites): ServingTLS {
  const suites = configured?.openssl ?? GO_DEFAULT_SUITES.map((n) => SECURE[n] ?? '');
  // Only TLS 1.3 names given: as with Go, no TLS 1.2 handshake can succeed.
  const effectiveMin: SecureVersion = suites.length === 0 ? 'TLSv1.3' : minVersion;
  // OpenSSL 3 refuses TLS 1.0 and 1.1 above security level 0; kube's flag asks for them explicitly.
  const level = effectiveMin === 'TLSv1' || effectiveMin === 'TLSv1.1' ? ['@SECLEVEL=0'] : [];
  return { minVersion: effectiveMin, ciphers: [...suites, ...TLS13_SUITES, ...level].join(':') };
}
