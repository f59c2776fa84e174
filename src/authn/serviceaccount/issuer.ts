// Issues service account tokens (pkg/serviceaccount/claims.go + jwt.go): JWTs with kube's claims,
// signed RS256 with an RSA key or ES256 with a P-256 key, by one key the server keeps (in memory,
// <dataDir>/pki/sa.key, or --service-account-signing-key-file).
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { serviceAccountClaims, type KubernetesClaim, type ServiceAccountClaims } from './claims.ts';
import { headerKeyID, keyID, signJWT, unverifiedPayload, verifyJWT } from './jwt.ts';

export type { KubernetesClaim, ServiceAccountClaims } from './claims.ts';

/** --service-account-issuer's usual value; also the default audience (--api-audiences). */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

export interface BoundObject { readonly kind: 'Pod' | 'Secret' | 'Node'; readonly name: string; readonly uid: string }

/** What a token says about its subject. */
export interface ServiceAccountTokenRequest {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
  readonly boundObject?: BoundObject;
  /** The node a bound pod runs on (kube adds it to pod-bound tokens). */
  readonly node?: { readonly name: string; readonly uid: string };
  /** An extended token's requested lifetime: kube writes `kubernetes.io.warnafter` (iat + this). */
  readonly warnAfterSeconds?: number;
}

/**
 * A payload our key signed, as it is: the authenticator judges its claims with kube's messages
 * (a token kube signed with the same key may hold a string audience, or lack a claim).
 */
export type SignedPayload = Readonly<Record<string, unknown>>;

export interface ServiceAccountTokenIssuer {
  readonly issuer: string;
  /** Signs a token; `now` in milliseconds. Returns the token and its expiry (seconds since the epoch). */
  issue(req: ServiceAccountTokenRequest, now?: number): { token: string; expiresAt: number };
  /**
   * The claims of a token this issuer signed (signature only: expiry and audience are the caller's);
   * undefined for a payload without the claims this issuer writes.
   */
  verify(token: string): ServiceAccountClaims | undefined;
  /**
   * What kube's JWT authenticator concludes from the token alone: not ours to judge (not a JWT, or
   * another issuer), ours with a bad signature (with kube's message), or ours and signed by our key.
   */
  check(token: string): TokenCheck;
  /** The public keys that verify this issuer's tokens (the signing key's first), for the JWKS document. */
  publicKeys(): readonly KeyObject[];
  /** --service-account-max-token-expiration in seconds; 0: no cap. */
  readonly maxExpirationSeconds: number;
  /** --service-account-extend-token-expiration. */
  readonly extendExpiration: boolean;
}

export type TokenCheck =
  | { readonly result: 'foreign' }
  | { readonly result: 'invalid'; readonly message: string }
  | { readonly result: 'signed'; readonly claims: SignedPayload };

/** go-jose's error for a signature that does not verify, which kube passes on. */
export const SIGNATURE_ERROR = 'go-jose/go-jose: error in cryptographic primitive';
/** kube's error when the token's key ID names no key it has. */
export const NO_KEYS_ERROR = 'invalid signature, no keys found';

export interface IssuerOptions {
  /** An RSA or P-256 private key; a P-256 one is generated in memory when absent. */
  readonly privateKey?: KeyObject;
  /** Caps TokenRequest lifetimes (seconds; 0 or absent: no cap). */
  readonly maxExpirationSeconds?: number;
  /** Extends admission-injected pod-bound tokens to a year (default true, as kube's flag). */
  readonly extendExpiration?: boolean;
  readonly issuer?: string;
  /** More issuers whose tokens are accepted (--service-account-issuer given several times; `issuer` first). */
  readonly acceptedIssuers?: readonly string[];
  /** More public keys that verify tokens (--service-account-key-file); the signing key always does. */
  readonly verificationKeys?: readonly KeyObject[];
}

export function newServiceAccountTokenIssuer(opts: IssuerOptions = {}): ServiceAccountTokenIssuer {
  const privateKey = opts.privateKey ?? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const publicKey = createPublicKey(privateKey);
  const issuer = opts.issuer ?? DEFAULT_SERVICE_ACCOUNT_ISSUER;
  const accepted = new Set([issuer, ...(opts.acceptedIssuers ?? [])]);
  // Keys by kube's key ID: a token names the key that signed it.
  const keys = new Map<string, KeyObject>();
  for (const k of [publicKey, ...(opts.verificationKeys ?? [])]) keys.set(keyID(k), k);
  const signed = (token: string): SignedPayload | undefined => {
    const kid = headerKeyID(token);
    const candidates = kid === '' ? [...keys.values()] : [keys.get(kid)].filter((k): k is KeyObject => k !== undefined);
    for (const k of candidates) {
      const payload = verifyJWT(token, k);
      if (payload !== undefined) return typeof payload['iss'] === 'string' && accepted.has(payload['iss']) ? payload : undefined;
    }
    return undefined;
  };
  const verify = (token: string): ServiceAccountClaims | undefined => {
    const payload = signed(token);
    return payload === undefined ? undefined : serviceAccountClaims(payload);
  };
  return {
    issuer,
    issue(req, now = Date.now()) {
      const iat = Math.floor(now / 1000);
      const exp = iat + req.expirationSeconds;
      const k8s: KubernetesClaim = { namespace: req.namespace, serviceaccount: { name: req.name, uid: req.uid } };
      const b = req.boundObject;
      if (b?.kind === 'Pod') k8s.pod = { name: b.name, uid: b.uid };
      if (b?.kind === 'Secret') k8s.secret = { name: b.name, uid: b.uid };
      if (b?.kind === 'Node') k8s.node = { name: b.name, uid: b.uid };
      // kube omits empty fields: a pod's node that could not be found has a name only
      if (req.node !== undefined && b?.kind === 'Pod') k8s.node = req.node.uid === '' ? { name: req.node.name } : { name: req.node.name, uid: req.node.uid };
      if (req.warnAfterSeconds !== undefined) k8s.warnafter = iat + req.warnAfterSeconds;
      const claims: ServiceAccountClaims = {
        aud: [...req.audiences], exp, iat, iss: issuer, jti: randomUUID(), 'kubernetes.io': k8s, nbf: iat,
        sub: `system:serviceaccount:${req.namespace}:${req.name}`,
      };
      return { token: signJWT(claims, privateKey), expiresAt: exp };
    },
    verify,
    publicKeys: () => [...keys.values()],
    maxExpirationSeconds: opts.maxExpirationSeconds ?? 0,
    extendExpiration: opts.extendExpiration ?? true,
    check(token) {
      // kube routes by the unverified issuer first: tokens of other issuers are someone else's
      if (token.trimStart().startsWith('{')) return { result: 'foreign' };
      const iss = unverifiedPayload(token)?.['iss'];
      if (typeof iss !== 'string' || !accepted.has(iss)) return { result: 'foreign' };
      const tokenKid = headerKeyID(token);
      if (tokenKid !== '' && !keys.has(tokenKid)) return { result: 'invalid', message: NO_KEYS_ERROR };
      const claims = signed(token);
      return claims === undefined ? { result: 'invalid', message: SIGNATURE_ERROR } : { result: 'signed', claims };
    },
  };
}

/**
 * The signing key at `<dataDir>/pki/sa.key` (PEM, PKCS#8 or SEC1), created with a new P-256 key
 * when missing, so tokens survive restarts.
 */
export async function loadOrCreateServiceAccountKey(dataDir: string): Promise<KeyObject> {
  const path = join(dataDir, 'pki', 'sa.key');
  try {
    return createPrivateKey(await readFile(path, 'utf8'));
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOENT') throw err;
  }
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' }).catch(async (err: unknown) => {
    if ((err as { code?: string }).code !== 'EEXIST') throw err;
  });
  // another server may have won the race to create it: use the key on disk
  return createPrivateKey(await readFile(path, 'utf8'));
}
