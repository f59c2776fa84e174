// Compact JWS with ES256 (P-256, SHA-256), the form of kube's service account tokens.
// Counterpart of pkg/serviceaccount/jwt.go and github.com/go-jose/go-jose/v4.
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

const b64url = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

/** kube's key ID: the base64url SHA-256 of the DER (PKIX) public key. */
export function keyID(publicKey: KeyObject): string {
  return b64url(createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest());
}

export function signES256(claims: object, privateKey: KeyObject): string {
  const header = { alg: 'ES256', kid: keyID(createPublicKey(privateKey)) };
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  const sig = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${b64url(sig)}`;
}

/** The payload when the token is a JWS this key signed; undefined for anything else. */
export function verifyES256(token: string, publicKey: KeyObject): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [h = '', p = '', s = ''] = parts;
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== 'ES256') return undefined;
    const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
    if (!ok) return undefined;
    return unverifiedPayload(token);
  } catch {
    return undefined;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The payload of a compact JWS, NOT verified (for routing by issuer only); undefined when it is not one. */
export function unverifiedPayload(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8')) as unknown;
    return isRecord(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}

/** The `kid` of a compact JWS header, '' when absent or unreadable. */
export function headerKeyID(token: string): string {
  try {
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as unknown;
    return isRecord(header) && typeof header['kid'] === 'string' ? header['kid'] : '';
  } catch {
    return '';
  }
}
