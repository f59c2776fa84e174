// The warning kube returns for a kubernetes.io/tls Secret whose tls.crt and tls.key do not make a
// key pair (secret strategy's warningsForSecret): the text of Go's tls.X509KeyPair error.
// Counterpart of pkg/registry/core/secret/strategy.go (warningsForSecret) and crypto/tls (X509KeyPair).
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';

interface Block { readonly type: string; readonly der: Buffer }

/** pem.Decode over the whole input: the well-formed blocks, in order. */
function pemBlocks(text: string): Block[] {
  const re = /-----BEGIN ([^\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/g;
  const out: Block[] = [];
  for (const m of text.matchAll(re)) {
    const body = (m[2] ?? '').replace(/^[^\n:]+:[^\n]*\n/gm, '').replace(/\s+/g, '');
    if (/^[A-Za-z0-9+/]*={0,2}$/.test(body)) out.push({ type: m[1] ?? '', der: Buffer.from(body, 'base64') });
  }
  return out;
}

const isPrivateKeyType = (t: string): boolean => t === 'PRIVATE KEY' || t.endsWith(' PRIVATE KEY');
const goList = (types: readonly string[]): string => `[${types.join(' ')}]`;

/** parsePrivateKey: PKCS#1, PKCS#8, then SEC 1. */
function parsePrivateKey(der: Buffer): KeyObject | undefined {
  for (const type of ['pkcs1', 'pkcs8', 'sec1'] as const) {
    try {
      return createPrivateKey({ key: der, format: 'der', type });
    } catch {
      // the next encoding
    }
  }
  return undefined;
}

/** tls.X509KeyPair's error text, or undefined when the pair is good. Inputs are the decoded bytes. */
export function x509KeyPairError(certPEM: string, keyPEM: string): string | undefined {
  const certBlocks = pemBlocks(certPEM);
  const certs = certBlocks.filter((b) => b.type === 'CERTIFICATE');
  if (certs.length === 0) {
    const skipped = certBlocks.map((b) => b.type);
    if (skipped.length === 0) return 'tls: failed to find any PEM data in certificate input';
    if (skipped.length === 1 && (skipped[0] ?? '').endsWith('PRIVATE KEY')) {
      return 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched';
    }
    return `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: ${goList(skipped)}`;
  }
  const keyBlocks = pemBlocks(keyPEM);
  const keyIndex = keyBlocks.findIndex((b) => isPrivateKeyType(b.type));
  if (keyIndex < 0) {
    const skipped = keyBlocks.map((b) => b.type);
    if (skipped.length === 0) return 'tls: failed to find any PEM data in key input';
    if (skipped.length === 1 && skipped[0] === 'CERTIFICATE') return 'tls: found a certificate rather than a key in the PEM for the private key';
    return `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: ${goList(skipped)}`;
  }
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certs[0]?.der ?? Buffer.alloc(0));
  } catch {
    return 'x509: malformed certificate';
  }
  const key = parsePrivateKey(keyBlocks[keyIndex]?.der ?? Buffer.alloc(0));
  if (key === undefined) return 'tls: failed to parse private key';
  const pub = cert.publicKey;
  const derived = createPublicKey(key);
  if (pub.asymmetricKeyType !== derived.asymmetricKeyType) return 'tls: private key type does not match public key type';
  const same = pub.export({ format: 'der', type: 'spki' }).equals(derived.export({ format: 'der', type: 'spki' }));
  return same ? undefined : 'tls: private key does not match public key';
}
