// Compact JWS with ES256 (P-256, SHA-256) or RS256 (RSA PKCS#1 v1.5, SHA-256), the forms of kube's
// service account tokens: kube signs with RS256 for an RSA key and ES256 for a P-256 one.
// Counterpart of pkg/serviceaccount/jwt.go and github.com/go-jose/go-jose/v4.
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

const b64url = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

/** kube's key ID: the base64url SHA-256 of the DER (PKIX) public key. */
export function keyID(publicKey: KeyObject): string {
  return b64url(createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest());
}

export type SigningAlgorithm = 'ES256' | 'RS256';

/** The algorithm kube signs with for a key: RS256 for RSA, ES256 for P-256; undefined for any other key. */
export function signingAlgorithm(key: KeyObject): SigningAlgorithm | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  return undefined;
}

/** Signs with the key's algorithm (see signingAlgorithm); the key must be RSA or P-256. */
export function signJWT(claims: object, privateKey: KeyObject): string {
  const alg = signingAlgorithm(privateKey) ?? 'ES256';
  const header = { alg, kid: keyID(createPublicKey(privateKey)) };
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  const sig = alg === 'RS256' ? sign('sha256', Buffer.from(input), privateKey)
    : sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${b64url(sig)}`;
}


/**
 * The payload when the token is a JWS this key signed with the key's algorithm (RS256 for RSA,
 * ES256 for P-256); undefined for anything else.
 */
export function verifyJWT(token: string, publicKey: KeyObject): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [h = '', p = '', s = ''] = parts;
  const alg = signingAlgorithm(publicKey);
  if (alg === undefined) return undefined;
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== alg) return undefined;
    const key = alg === 'RS256' ? publicKey : { key: publicKey, dsaEncoding: 'ieee-p1363' as const };
    const ok = verify('sha256', Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'));
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
