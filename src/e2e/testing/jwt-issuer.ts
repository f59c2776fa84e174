// An OpenID provider of the test's own: HTTPS on 127.0.0.1 with a CA made for it, serving the
// discovery document and the JSON Web Key Set (an RSA and a P-256 key), and signing ID tokens.
// No Go counterpart: the e2e test harness.
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { exportJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { newSelfSignedCACert, newSignedCert, type CertKeyPair } from '../../apimachinery/util/cert.ts';

export interface TestIssuer {
  /** https://127.0.0.1:<port> (also the tokens' `iss`). */
  readonly url: string;
  /** The CA that signed the issuer's serving certificate (PEM). */
  readonly ca: string;
  /** Requests served, by path (to see that the keys were fetched again). */
  readonly hits: Map<string, number>;
  /** Signs claims (iss defaults to the issuer, iat/exp to now and an hour) with the RSA key (RS256) or the EC key (ES256). */
  sign(claims: Readonly<Record<string, unknown>>, opts?: { alg?: 'RS256' | 'ES256' | 'PS256'; kid?: string; key?: KeyObject }): Promise<string>;
  /** Replaces the published keys with new ones (tokens of the old keys then fail). */
  rotate(): Promise<void>;
  close(): Promise<void>;
}

interface KeySet { rsa: KeyObject; ec: KeyObject; jwks: JWK[] }

async function newKeys(generation: number): Promise<KeySet> {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const jwk = async (k: KeyObject, kid: string, alg: string): Promise<JWK> => ({ ...(await exportJWK(createPublicKey(k))), kid, alg, use: 'sig' });
  return {
    rsa, ec,
    // The same RSA key also for PS256 (RSA-PSS), under its own kid.
    jwks: [await jwk(rsa, `rsa-${generation}`, 'RS256'), await jwk(ec, `ec-${generation}`, 'ES256'), await jwk(rsa, `pss-${generation}`, 'PS256')],
  };
}

/** Starts the provider; `discoveryIssuer` overrides the issuer the discovery document names. */
export async function startTestIssuer(opts: { discoveryIssuer?: string } = {}): Promise<TestIssuer> {
  const ca: CertKeyPair = await newSelfSignedCACert({ commonName: 'test-oidc-ca', validityDays: 1 });
  const serving = await newSignedCert(ca, { commonName: '127.0.0.1', ips: ['127.0.0.1'], usages: ['serverAuth'], validityDays: 1 });
  let generation = 0;
  let keys = await newKeys(generation);
  const hits = new Map<string, number>();
  let url = '';
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const json = (v: unknown): void => { res.writeHead(200, { 'Content-Type': 'application/json' }); res.end(JSON.stringify(v)); };
    if (path === '/.well-known/openid-configuration' || path === '/custom-discovery') {
      json({ issuer: opts.discoveryIssuer ?? url, jwks_uri: `${url}/keys`, id_token_signing_alg_values_supported: ['RS256', 'ES256', 'PS256'] });
    } else if (path === '/keys') {
      json({ keys: keys.jwks });
    } else {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url, ca: ca.cert, hits,
    async sign(claims, o = {}) {
      const alg = o.alg ?? 'RS256';
      const key = o.key ?? (alg === 'ES256' ? keys.ec : keys.rsa);
      const kid = o.kid ?? `${alg === 'ES256' ? 'ec' : alg === 'PS256' ? 'pss' : 'rsa'}-${generation}`;
      const now = Math.floor(Date.now() / 1000);
      // An undefined claim is left out of the token (to make tokens without exp, say).
      return await new SignJWT({ iss: url, iat: now, exp: now + 3600, ...claims } as JWTPayload).setProtectedHeader({ alg, kid }).sign(key);
    },
    async rotate() {
      generation += 1;
      keys = await newKeys(generation);
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
