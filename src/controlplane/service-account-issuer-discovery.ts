// ServiceAccountIssuerDiscovery: /.well-known/openid-configuration (the OIDC discovery document of
// the service account issuer) and /openid/v1/jwks (the public keys that verify its tokens), so
// relying parties outside the cluster can verify service account tokens. Served only when the
// issuer is an https URL without query or fragment, as kube does; the JWKS URI is
// https://<advertise address>:<secure port>/openid/v1/jwks unless --service-account-jwks-uri says otherwise.
// Counterpart of pkg/serviceaccount/openidmetadata.go and pkg/routes/openidmetadata.go.
import type { KeyObject } from 'node:crypto';
import { newGenericServerResponse } from '../apimachinery/errors/status-error.ts';
import { keyID } from '../authn/serviceaccount/jwt.ts';
import { writeRaw } from '../endpoints/handlers/response.ts';
import { checkRouteAccept } from '../endpoints/negotiation.ts';
import type { NonResourceHandler } from '../server/generic-server.ts';

export const OPENID_CONFIG_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';
const JWKS_MIME = 'application/jwk-set+json';
/** kube's cache age for both documents (the public keys' cache age: an hour). */
const CACHE_CONTROL = 'public, max-age=3600';

export interface IssuerDiscoveryOptions {
  readonly issuer: string;
  /** The keys that verify tokens (RS256 or ES256). */
  readonly keys: () => readonly KeyObject[];
  /** The JWKS URI; called per request (the secure port is known once bound). */
  readonly jwksURI: () => string;
}

/** Whether kube serves the discovery documents for this issuer. */
export function issuerDiscoverable(issuer: string): boolean {
  try {
    const u = new URL(issuer);
    return u.protocol === 'https:' && u.search === '' && u.hash === '' && !issuer.includes('?') && !issuer.includes('#');
  } catch {
    return false;
  }
}

/** The JWK of an RSA (RS256) or P-256 (ES256) public key, fields in go-jose's order. */
function jwk(k: KeyObject): Record<string, string> {
  if (k.asymmetricKeyType === 'rsa') {
    const { n = '', e = '' } = k.export({ format: 'jwk' });
    return { use: 'sig', kty: 'RSA', kid: keyID(k), alg: 'RS256', n, e };
  }
  const { crv = '', x = '', y = '' } = k.export({ format: 'jwk' });
  return { use: 'sig', kty: 'EC', kid: keyID(k), crv, alg: 'ES256', x, y };
}

/** A go-restful GET route producing `mime`: other methods 405, an Accept it cannot meet 406. */
const route = (mime: string, body: () => string): NonResourceHandler => (req, res, state) => {
  if (req.method !== 'GET') throw newGenericServerResponse(405, '');
  checkRouteAccept(req.headers.accept, [mime]);
  res.setHeader('Cache-Control', CACHE_CONTROL);
  writeRaw(res, 200, mime, body(), state);
};

export function issuerDiscoveryHandlers(opts: IssuerDiscoveryOptions): [string, NonResourceHandler][] {
  const keys = (): Record<string, string>[] => {
    const seen = new Set<string>();
    return opts.keys().map(jwk).filter((k) => !seen.has(k['kid'] ?? '') && seen.add(k['kid'] ?? ''));
  };
  const served: [string, NonResourceHandler][] = [
    [OPENID_CONFIG_PATH, route('application/json', () => JSON.stringify({
      issuer: opts.issuer, jwks_uri: opts.jwksURI(), response_types_supported: ['id_token'],
      // The algorithms of the keys, sorted, as kube lists them.
      subject_types_supported: ['public'], id_token_signing_alg_values_supported: [...new Set(keys().map((k) => k['alg'] ?? ''))].sort(),
    }))],
    [JWKS_PATH, route(JWKS_MIME, () => JSON.stringify({ keys: keys() }))],
  ];
  // go-restful matches a request path with a trailing slash to the route without one: kube
  // answers /.well-known/openid-configuration/ and /openid/v1/jwks/ as the paths without it.
  return served.flatMap(([path, h]): [string, NonResourceHandler][] => [[path, h], [`${path}/`, h]]);
}
