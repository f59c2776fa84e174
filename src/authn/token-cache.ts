// The token authentication cache kube-apiserver puts in front of its token authenticators
// (k8s.io/apiserver/pkg/authentication/token/cache): a success is remembered for a short TTL
// (kube's default 10s), unknown tokens only when given a failure TTL (the token webhook's),
// errors never, so a deleted service account or bound object stops a token within the TTL. Keys are a keyed SHA-256 of the token and the audiences
// under a secret made at start, so the cache holds no tokens; concurrent checks of one token share one lookup.
import * as crypto from 'node:crypto';
import type { AuthResponse, TokenAuthenticator } from './authenticator.ts';

/** kube-apiserver's TokenSuccessCacheTTL. */
export const TOKEN_SUCCESS_CACHE_TTL_MS = 10_000;
/** Beyond this many live entries the oldest go first: tokens are user input, memory is not. */
const DEFAULT_MAX_ENTRIES = 10_000;

export interface TokenCacheOptions {
  readonly successTTLMs?: number;
  /** How long a token found unknown (not an error) is remembered; default 0 (not at all). */
  readonly failureTTLMs?: number;
  readonly maxEntries?: number;
  /** Milliseconds; default the clock. */
  now?(): number;
}

export function newCachedTokenAuthenticator(inner: TokenAuthenticator, opts: TokenCacheOptions = {}): TokenAuthenticator {
  const ttl = opts.successTTLMs ?? TOKEN_SUCCESS_CACHE_TTL_MS;
  const failureTTL = opts.failureTTLMs ?? 0;
  const max = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const now = opts.now ?? Date.now;
  const secret = crypto.randomBytes(32);
  const secretHex = secret.toString('hex');
  const cache = new Map<string, { resp: AuthResponse | undefined; expires: number }>();
  const inFlight = new Map<string, Promise<AuthResponse | undefined>>();

  // Length-prefixed, so that token "ab" + audience "c" differs from "a" + "bc". A one-shot hash of
  // the secret and the fields (Node >= 20.12) costs less than half an HMAC object per request;
  // as a cache key never shown to anyone, a secret prefix hides the token as well as an HMAC.
  const oneShot = (crypto as { hash?: (alg: string, data: string, enc: 'base64') => string }).hash;
  const keyOf = (token: string, audiences: readonly string[] | undefined): string => {
    if (oneShot !== undefined) {
      let data = `${secretHex}${token.length}:${token}${audiences === undefined ? '-' : audiences.length}`;
      for (const a of audiences ?? []) data += `${a.length}:${a}`;
      return oneShot('sha256', data, 'base64');
    }
    const h = crypto.createHmac('sha256', secret);
    const put = (s: string): void => { h.update(`${Buffer.byteLength(s)}:`); h.update(s); };
    put(token);
    h.update(audiences === undefined ? '-' : `${audiences.length}`);
    for (const a of audiences ?? []) put(a);
    return h.digest('base64');
  };

  return {
    async authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthResponse | undefined> {
      if (ttl <= 0 && failureTTL <= 0) return await inner.authenticateToken(token, audiences);
      const key = keyOf(token, audiences);
      const hit = cache.get(key);
      if (hit !== undefined) {
        if (hit.expires > now()) return hit.resp;
        cache.delete(key);
      }
      const pending = inFlight.get(key);
      if (pending !== undefined) return await pending;
      const lookup = inner.authenticateToken(token, audiences);
      inFlight.set(key, lookup);
      try {
        const resp = await lookup;
        const keep = resp !== undefined ? ttl : failureTTL;
        if (keep > 0) {
          cache.delete(key);
          cache.set(key, { resp, expires: now() + keep });
          while (cache.size > max) {
            const oldest = cache.keys().next();
            if (oldest.done === true) break;
            cache.delete(oldest.value);
          }
        }
        return resp;
      } finally {
        inFlight.delete(key);
      }
    },
  };
}
