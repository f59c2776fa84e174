// Counterpart of client-go's util/cert and keyutil: a self-signed CA and certificates signed by it
// (ECDSA P-256, PEM), for kapi's own serving PKI and for the test etcd's TLS. Nothing here is
// written to disk; the callers decide where the files go.
// Counterpart of k8s.io/client-go/util/cert and k8s.io/client-go/util/keyutil.
import { randomBytes, webcrypto } from 'node:crypto';
import type { JsonGeneralName } from '@peculiar/x509';
import { loadX509, type X509Lib } from './x509-lib.ts';

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;
/** notBefore is set this far in the past, for clocks slightly behind. */
const BACKDATE_MS = 60_000;

/** A certificate and its private key, both PEM (the key PKCS#8). */
export interface CertKeyPair {
  readonly cert: string;
  readonly key: string;
}

/** What a signed certificate is for (its extended key usages). */
export type CertUsage = 'serverAuth' | 'clientAuth';

export interface CACertOptions {
  readonly commonName: string;
  readonly validityDays: number;
  /** Overrides the clock (tests). */
  readonly now?: Date;
}

export interface SignedCertOptions {
  readonly commonName: string;
  /** Subject organizations (for a client certificate: the groups kube reads from it). */
  readonly organizations?: readonly string[];
  /** DNS subject alternative names. */
  readonly hosts?: readonly string[];
  /** IP subject alternative names. */
  readonly ips?: readonly string[];
  readonly usages: readonly CertUsage[];
  readonly validityDays: number;
  /** Overrides the clock (tests). */
  readonly now?: Date;
}

function toPem(x509: X509Lib, der: ArrayBuffer, label: string): string {
  return `${x509.PemConverter.encode(der, label)}\n`;
}

async function newKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
}

async function exportKey(x509: X509Lib, key: webcrypto.CryptoKey): Promise<string> {
  return toPem(x509, await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

/** Rejects when `pem` is not a PKCS#8 P-256 key (as this module writes them). */
async function importKey(x509: X509Lib, pem: string): Promise<webcrypto.CryptoKey> {
  const der = x509.PemConverter.decodeFirst(pem);
  return await webcrypto.subtle.importKey('pkcs8', der, ALG, true, ['sign']);
}

/** A positive 128-bit serial (the high bit cleared so DER does not read it as negative). */
function randomSerial(): string {
  const b = randomBytes(16);
  b[0] = (b[0] ?? 0) & 0x7f;
  return b.toString('hex');
}

/** Escapes a relative distinguished name value (RFC 4514) for @peculiar/x509's name parser. */
const rdn = (value: string): string => value.replace(/[\\,+"<>;=]/g, (c) => `\\${c}`);

function validity(now: Date | undefined, days: number): { notBefore: Date; notAfter: Date } {
  const t = (now ?? new Date()).getTime();
  return { notBefore: new Date(t - BACKDATE_MS), notAfter: new Date(t + days * DAY_MS) };
}

/** A new self-signed CA (client-go's NewSelfSignedCACert). Never rejects for valid options. */
export async function newSelfSignedCACert(opts: CACertOptions): Promise<CertKeyPair> {
  const [keys, x509] = await Promise.all([newKeyPair(), loadX509()]);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=${rdn(opts.commonName)}`,
    ...validity(opts.now, opts.validityDays),
    signingAlgorithm: ALG,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: `${cert.toString('pem')}\n`, key: await exportKey(x509, keys.privateKey) };
}

/**
 * A new leaf certificate signed by `ca` (kubeadm's NewSignedCert). Rejects when the CA's
 * certificate or key cannot be parsed.
 */
export async function newSignedCert(ca: CertKeyPair, opts: SignedCertOptions): Promise<CertKeyPair> {
  const [keys, x509] = await Promise.all([newKeyPair(), loadX509()]);
  const caCert = new x509.X509Certificate(ca.cert);
  const caKey = await importKey(x509, ca.key);
  const names: JsonGeneralName[] = [
    ...(opts.hosts ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(opts.ips ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const subject = [`CN=${rdn(opts.commonName)}`, ...(opts.organizations ?? []).map((o) => `O=${rdn(o)}`)].join(', ');
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject,
    issuer: caCert.subject,
    ...validity(opts.now, opts.validityDays),
    signingAlgorithm: ALG,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension(opts.usages.map((u) => x509.ExtendedKeyUsage[u])),
      ...(names.length > 0 ? [new x509.SubjectAlternativeNameExtension(names)] : []),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: `${cert.toString('pem')}\n`, key: await exportKey(x509, keys.privateKey) };
}
