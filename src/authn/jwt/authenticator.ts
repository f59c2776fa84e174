// A JWT authenticator of --authentication-config (or of the legacy --oidc-* flags): tokens whose
// unverified `iss` is the configured issuer are verified against the provider's keys and claims
// (issuer, audiences, exp, nbf with go-oidc's 5-minute leeway), then mapped to a user by claim or
// CEL expression, and checked by the claim and user validation rules. Tokens of other issuers are
// not this authenticator's (undefined), so the next one is tried. Failures carry kube's messages
// (TokenReview shows them; requests get a bare 401).
// Counterpart of k8s.io/apiserver/plugin/pkg/authenticator/token/oidc/oidc.go and go-oidc's
// IDTokenVerifier.Verify.
import type { UserInfo } from '../../apimachinery/request/context.ts';
import type { AuthResponse, TokenAuthenticator } from '../authenticator.ts';
import { evalClaims, evalUser, toStringList } from './cel.ts';
import type { JWTAuthenticator } from './config.ts';
import { discoverProvider, type Provider, type ProviderOptions } from './provider.ts';
import type { CompiledMappings } from './validation.ts';

/** go-oidc's allow-list; with --authentication-config every one of them is accepted. */
export const ALL_SIGNING_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'] as const;
const NBF_LEEWAY_SECONDS = 5 * 60;
/** kube retries a provider that could not be reached this often. */
const INIT_RETRY_MS = 10_000;

export interface JWTAuthenticatorOptions {
  readonly config: JWTAuthenticator;
  readonly mappings: CompiledMappings;
  readonly signingAlgorithms: readonly string[];
  /** Seconds since the epoch; default the clock. */
  readonly now?: () => number;
  /** Replaces the HTTPS fetch of the discovery document and keys (tests). */
  readonly fetch?: ProviderOptions['fetch'];
  /** Logs provider initialization failures, as kube's klog.Errorf. */
  readonly log?: (line: string) => void;
}

export interface ClosableTokenAuthenticator extends TokenAuthenticator {
  /** Stops retrying the provider. */
  close(): void;
  /** kube's HealthCheck: undefined once the provider's discovery and keys were fetched. */
  healthCheck(): Error | undefined;
  /** Settles when the first discovery attempt ended, whatever its outcome. */
  readonly firstAttempt: Promise<unknown>;
}

type Claims = Record<string, unknown>;

const b64json = (part: string): unknown => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The unverified issuer, as kube routes tokens (`accounts.google.com` is coalesced). */
export function untrustedIssuer(token: string): string | undefined {
  if (token.trim().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const p = b64json(parts[1] ?? '');
    if (!isRecord(p)) return undefined;
    const iss = typeof p['iss'] === 'string' ? p['iss'] : '';
    return iss === 'accounts.google.com' ? 'https://accounts.google.com' : iss;
  } catch {
    return undefined;
  }
}

/** Go's %v of a time.Time in UTC: `2026-01-02 15:04:05 +0000 UTC`. */
function goTime(seconds: number): string {
  if (seconds <= -62135596800) return '0001-01-01 00:00:00 +0000 UTC';
  const d = new Date(seconds * 1000).toISOString();
  const frac = d.slice(20, 23).replace(/0+$/, '');
  return `${d.slice(0, 10)} ${d.slice(11, 19)}${frac === '' ? '' : `.${frac}`} +0000 UTC`;
}
const goQuoteList = (xs: readonly string[]): string => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;

/** Go's json.Unmarshal of a claim into a string (or bool): its error text. */
function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v;
}
function claimString(c: Claims, name: string): string {
  if (!(name in c)) throw new Error('claim not present');
  const v = c[name];
  if (typeof v === 'string') return v;
  if (v === null) return '';
  throw new Error(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
}
function claimStrings(c: Claims, name: string): string[] {
  const v = c[name];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  if (v === null) return [];
  return [claimString(c, name)];
}
function fail(message: string): never {
  throw new Error(message);
}

/** go-oidc's checks of the payload, before the signature. */
function verifyClaims(claims: Claims, issuer: string, audiences: readonly string[], now: number): void {
  const iss = typeof claims['iss'] === 'string' ? claims['iss'] : '';
  if (iss !== issuer) fail(`oidc: id token issued by a different provider, expected ${JSON.stringify(issuer)} got ${JSON.stringify(iss)}`);
  const aud = claims['aud'];
  const tokenAuds = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
  if (audiences.length === 1) {
    if (!tokenAuds.includes(audiences[0] ?? '')) fail(`oidc: expected audience ${JSON.stringify(audiences[0])} got ${goQuoteList(tokenAuds)}`);
  }
  const exp = typeof claims['exp'] === 'number' ? claims['exp'] : Number.NEGATIVE_INFINITY;
  if (exp < now) fail(`oidc: token is expired (Token Expiry: ${goTime(Math.floor(exp))})`);
  const nbf = claims['nbf'];
  if (typeof nbf === 'number' && now + NBF_LEEWAY_SECONDS < nbf) {
    fail(`oidc: current time ${goTime(now)} before the nbf (not before) time: ${goTime(nbf)}`);
  }
}

export function newJWTAuthenticator(opts: JWTAuthenticatorOptions): ClosableTokenAuthenticator {
  const { config, mappings: m } = opts;
  const issuer = config.issuer.url ?? '';
  const audiences = config.issuer.audiences ?? [];
  const clock = opts.now ?? ((): number => Math.floor(Date.now() / 1000));
  const requiredClaims = (config.claimValidationRules ?? []).filter((r) => (r.claim ?? '') !== '');
  let provider: Provider | undefined;
  let pending: Promise<Provider | undefined> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let unhealthy: Error | undefined = new Error(`oidc: authenticator for issuer ${JSON.stringify(issuer)} is not initialized`);
  const init = (): Promise<Provider | undefined> => (pending = (async () => {
    try {
      provider = await discoverProvider({
        issuer, discoveryURL: config.issuer.discoveryURL, ca: config.issuer.certificateAuthority,
        ...(opts.fetch !== undefined ? { fetch: opts.fetch } : {}),
      });
      unhealthy = undefined;
      return provider;
    } catch (err) {
      unhealthy = err instanceof Error ? err : new Error(String(err));
      opts.log?.(`oidc authenticator: initializing plugin: ${(err as Error).message}`);
      if (!closed) timer = setTimeout(() => { void init(); }, INIT_RETRY_MS).unref();
      return undefined;
    }
  })());
  const firstAttempt = init();

  const username = (c: Claims): string => {
    if (m.username !== undefined) {
      const r = evalClaims(m.username, c);
      if (r.error !== undefined) fail(`oidc: error evaluating username claim expression: ${r.error}`);
      else if (typeof r.value !== 'string') fail('oidc: error evaluating username claim expression: username claim expression must return a string');
      else if (r.value === '') fail('oidc: empty username via CEL expression is not allowed');
      else return r.value;
    }
    const claim = config.claimMappings.username.claim ?? '';
    let name = '';
    try {
      name = claimString(c, claim);
    } catch (err) {
      fail(`oidc: parse username claims ${JSON.stringify(claim)}: ${(err as Error).message}`);
    }
    if (claim === 'email' && 'email_verified' in c) {
      const v = c['email_verified'];
      if (typeof v !== 'boolean' && v !== null) fail(`oidc: parse 'email_verified' claim: json: cannot unmarshal ${jsonKind(v)} into Go value of type bool`);
      if (v !== true) fail('oidc: email not verified');
    }
    const prefix = config.claimMappings.username.prefix ?? '';
    return prefix + name;
  };
  const groups = (c: Claims): string[] => {
    const claim = config.claimMappings.groups?.claim ?? '';
    if (claim !== '' && claim in c) {
      let gs: string[] = [];
      try {
        gs = claimStrings(c, claim);
      } catch (err) {
        fail(`oidc: parse groups claim ${JSON.stringify(claim)}: ${(err as Error).message}`);
      }
      const prefix = config.claimMappings.groups?.prefix ?? '';
      return gs.map((g) => prefix + g);
    }
    if (m.groups === undefined) return [];
    const r = evalClaims(m.groups, c);
    if (r.error !== undefined) return fail(`oidc: error evaluating group claim expression: ${r.error}`);
    const list = toStringList(r.value);
    return list instanceof Error ? fail(`oidc: error evaluating group claim expression: ${list.message}`) : list;
  };
  const uid = (c: Claims): string => {
    const claim = config.claimMappings.uid?.claim ?? '';
    if (claim !== '') {
      try {
        return claimString(c, claim);
      } catch (err) {
        return fail(`oidc: parse uid claim ${JSON.stringify(claim)}: ${(err as Error).message}`);
      }
    }
    if (m.uid === undefined) return '';
    const r = evalClaims(m.uid, c);
    if (r.error !== undefined) return fail(`oidc: error evaluating uid claim expression: ${r.error}`);
    return typeof r.value === 'string' ? r.value : fail('oidc: error evaluating uid claim expression: uid claim expression must return a string');
  };
  const extra = (c: Claims): Record<string, string[]> => {
    const out: Record<string, string[]> = {};
    if (typeof c['jti'] === 'string' && c['jti'] !== '') out['authentication.kubernetes.io/credential-id'] = [`JTI=${c['jti']}`];
    for (const x of m.extra) {
      const r = evalClaims(x.program, c);
      if (r.error !== undefined) fail(r.error);
      const list = toStringList(r.value);
      if (list instanceof Error) fail(`oidc: error evaluating extra claim expression: ${x.expression}: ${list.message}`);
      else if (list.length > 0) out[x.key] = list;
    }
    return out;
  };
  const checkRules = (results: readonly { expression: string; message: string; value: unknown }[], what: string): void => {
    for (const r of results) {
      if (typeof r.value !== 'boolean') fail(`oidc: error evaluating ${what}: validation expression must return a boolean`);
      if (r.value === false) fail(`oidc: error evaluating ${what}: validation expression '${r.expression}' failed: ${r.message}`);
    }
  };

  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
    },
    healthCheck: () => (unhealthy === undefined ? undefined
      : new Error(`oidc: authenticator for issuer ${JSON.stringify(issuer)} is not healthy: ${unhealthy.message}`)),
    firstAttempt,
    async authenticateToken(token: string): Promise<AuthResponse | undefined> {
      if (untrustedIssuer(token) !== issuer) return undefined;
      // A token in the first moments after start waits for the first discovery instead of failing.
      const p = provider ?? await pending;
      if (p === undefined) return fail('oidc: authenticator not initialized');
      const [h = '', payload = ''] = token.split('.');
      let claims: Claims;
      let alg = '';
      try {
        const header = b64json(h);
        alg = isRecord(header) && typeof header['alg'] === 'string' ? header['alg'] : '';
        const parsed = b64json(payload);
        if (!isRecord(parsed)) throw new Error('json: cannot unmarshal into Go value of type oidc.idToken');
        claims = parsed;
      } catch (err) {
        return fail(`oidc: verify token: oidc: malformed jwt: ${(err as Error).message}`);
      }
      if (!opts.signingAlgorithms.includes(alg)) {
        fail(`oidc: verify token: oidc: malformed jwt: go-jose/go-jose: unexpected signature algorithm ${JSON.stringify(alg)}; expected ${goQuoteList(opts.signingAlgorithms)}`);
      }
      try {
        verifyClaims(claims, issuer, audiences, clock());
        await p.verifySignature(token, opts.signingAlgorithms);
      } catch (err) {
        return fail(`oidc: verify token: ${(err as Error).message}`);
      }
      if (audiences.length > 1) {
        const aud = claims['aud'];
        const tokenAuds = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
        if (!tokenAuds.some((a) => audiences.includes(a))) {
          fail(`oidc: verify token: oidc: expected audience in ${goQuoteList([...audiences].sort())} got ${goQuoteList(tokenAuds)}`);
        }
      }
      const user: UserInfo = { name: username(claims), groups: groups(claims), uid: uid(claims) };
      const ex = extra(claims);
      const info: UserInfo = Object.keys(ex).length > 0 ? { ...user, extra: ex } : user;
      for (const r of requiredClaims) {
        const claim = r.claim ?? '';
        if (!(claim in claims)) fail(`oidc: required claim ${claim} not present in ID token`);
        let v = '';
        try {
          v = claimString(claims, claim);
        } catch (err) {
          fail(`oidc: parse claim ${claim}: ${(err as Error).message}`);
        }
        if (v !== (r.requiredValue ?? '')) fail(`oidc: required claim ${claim} value does not match. Got = ${v}, want = ${r.requiredValue ?? ''}`);
      }
      const claimResults = m.claimValidationRules.map((r) => {
        const e = evalClaims(r.program, claims);
        if (e.error !== undefined) throw new Error(`oidc: error evaluating claim validation expression: ${e.error}`);
        return { expression: r.expression, message: r.message, value: e.value };
      });
      checkRules(claimResults, 'claim validation expression');
      const userResults = m.userValidationRules.map((r) => {
        const e = evalUser(r.program, info);
        if (e.error !== undefined) throw new Error(`oidc: error evaluating user info validation rule: ${e.error}`);
        return { expression: r.expression, message: r.message, value: e.value };
      });
      checkRules(userResults, 'user info validation rule');
      return { user: info };
    },
  };
}
