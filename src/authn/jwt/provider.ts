// An OpenID provider as a JWT authenticator sees it: the discovery document at
// {issuer}/.well-known/openid-configuration (or the configured discoveryURL), whose issuer must be
// the configured one, and the JSON Web Key Set at its jwks_uri, fetched over HTTPS verified with
// the configured CA (else the system roots), kept, and fetched again when a token's signature
// matches no kept key (a key rotation).
// Signatures are checked with `jose` (JWK import for RSA, RSA-PSS and EC keys, key selection by
// kid/kty/alg, several candidate keys); the messages are go-oidc's, which kube passes on.
// Counterpart of github.com/coreos/go-oidc/v3/oidc (NewProvider, RemoteKeySet) as kube uses it.
import { request } from 'node:https';
import { compactVerify, createLocalJWKSet, type JWK } from 'jose';

/** A guard against a hung provider (kube's HTTP client timeout). */
const FETCH_TIMEOUT_MS = 30_000;
const MAX_BODY_BYTES = 4 << 20;

/** GETs a JSON document; rejects with go-oidc-like texts (`404 Not Found: <body>`). */
export function fetchJSON(url: string, ca: string | undefined): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { Accept: 'application/json' }, timeout: FETCH_TIMEOUT_MS, ...(ca !== undefined ? { ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY_BYTES) { req.destroy(new Error(`Get ${JSON.stringify(url)}: response too large`)); return; }
        chunks.push(c);
      });
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) { reject(new Error(`${res.statusCode ?? 0} ${res.statusMessage ?? ''}: ${body}`)); return; }
        try {
          resolve(JSON.parse(body) as unknown);
        } catch (err) {
          reject(new Error(`unable to decode response: ${(err as Error).message}`));
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`Get ${JSON.stringify(url)}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`)));
    req.on('error', (err) => reject(new Error(`Get ${JSON.stringify(url)}: ${err.message}`)));
    req.end();
  });
}

export interface ProviderOptions {
  readonly issuer: string;
  /** Where the discovery document is, when not under the issuer URL. */
  readonly discoveryURL?: string | undefined;
  /** PEM roots for the provider's serving certificate. */
  readonly ca?: string | undefined;
  readonly fetch?: (url: string, ca: string | undefined) => Promise<unknown>;
}

export interface Provider {
  /** The key set URL the discovery document named. */
  readonly jwksURI: string;
  /**
   * The payload of a token whose signature verifies with one of the provider's keys under an
   * allowed algorithm; rejects with go-oidc's `failed to verify signature: …`.
   */
  verifySignature(token: string, algorithms: readonly string[]): Promise<Uint8Array>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A JWKS member jose can start from: an object (jose checks its members, and refuses what is malformed). */
const isJWK = (v: unknown): v is JWK => isRecord(v);

/** Fetches the discovery document and returns the provider; rejects with go-oidc's message. */
export async function discoverProvider(opts: ProviderOptions): Promise<Provider> {
  const get = opts.fetch ?? fetchJSON;
  const wellKnown = opts.discoveryURL ?? `${opts.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let doc: unknown;
  try {
    doc = await get(wellKnown, opts.ca);
  } catch (err) {
    const m = (err as Error).message;
    throw new Error(m.startsWith('unable to decode') ? `oidc: failed to decode provider discovery object: ${m}` : m);
  }
  if (!isRecord(doc)) throw new Error('oidc: failed to decode provider discovery object: json: cannot unmarshal into Go value of type oidc.providerJSON');
  const iss = typeof doc['issuer'] === 'string' ? doc['issuer'] : '';
  if (iss !== opts.issuer) throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(opts.issuer)} got ${JSON.stringify(iss)}`);
  const jwksURI = typeof doc['jwks_uri'] === 'string' ? doc['jwks_uri'] : '';
  let keys: ReturnType<typeof createLocalJWKSet> | undefined;
  let fetching: Promise<ReturnType<typeof createLocalJWKSet>> | undefined;
  const refresh = (): Promise<ReturnType<typeof createLocalJWKSet>> => (fetching ??= (async () => {
    try {
      const set = await get(jwksURI, opts.ca);
      if (!isRecord(set) || !Array.isArray(set['keys'])) throw new Error('oidc: failed to decode keys: missing keys');
      const list: unknown[] = set['keys'];
      // jose reads each key's members itself and refuses malformed ones; it needs objects to start from
      if (!list.every(isJWK)) throw new Error('oidc: failed to decode keys: a key is no JSON object');
      keys = createLocalJWKSet({ keys: list });
      return keys;
    } catch (err) {
      throw new Error(`fetching keys oidc: get keys failed: ${(err as Error).message}`);
    } finally {
      fetching = undefined;
    }
  })());
  const tryKeys = async (set: ReturnType<typeof createLocalJWKSet>, token: string, algorithms: readonly string[]): Promise<Uint8Array | undefined> => {
    try {
      return (await compactVerify(token, set, { algorithms: [...algorithms] })).payload;
    } catch {
      return undefined;
    }
  };
  return {
    jwksURI,
    async verifySignature(token, algorithms) {
      const kept = keys;
      if (kept !== undefined) {
        const p = await tryKeys(kept, token, algorithms);
        if (p !== undefined) return p;
      }
      let fresh: ReturnType<typeof createLocalJWKSet>;
      try {
        fresh = await refresh();
      } catch (err) {
        throw new Error(`failed to verify signature: ${(err as Error).message}`);
      }
      const p = await tryKeys(fresh, token, algorithms);
      if (p === undefined) throw new Error('failed to verify signature: failed to verify id token signature');
      return p;
    },
  };
}
