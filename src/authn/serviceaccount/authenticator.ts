// Authenticates service account tokens (pkg/serviceaccount/jwt.go and the bound token validator
// of claims.go): issuer and signature, audience, the time claims with go-jose's one-minute leeway,
// and, on every use, that the service account and the object the token is bound to (Pod, Secret
// or Node) still exist with the uids the token names and are not being deleted. Failures carry
// kube's messages: TokenReview reports them in status.error, requests get a bare 401.
import type { AuthResponse, TokenAuthenticator } from '../authenticator.ts';
import type { ServiceAccountTokenIssuer, SignedPayload } from './issuer.ts';

export type TokenObjectKind = 'ServiceAccount' | 'Pod' | 'Secret' | 'Node';

/** What the validator needs of a live object. */
export interface TokenObject {
  readonly uid: string;
  /** RFC 3339, set once deletion was requested (graceful deletion, finalizers). */
  readonly deletionTimestamp?: string | undefined;
}

/** kube's ServiceAccountTokenGetter: where the validator looks objects up (namespace '' for nodes). */
export interface ServiceAccountTokenGetter {
  /** The object as stored now, or undefined when it does not exist; rejects only when storage cannot answer. */
  get(kind: TokenObjectKind, namespace: string, name: string): Promise<TokenObject | undefined>;
}

export interface ServiceAccountAuthenticatorOptions {
  readonly issuer: ServiceAccountTokenIssuer;
  /** --api-audiences: what a token must be for when the caller asks for nothing else (default: the issuer). */
  readonly audiences?: readonly string[];
  readonly getter: ServiceAccountTokenGetter;
  /** Seconds since the epoch; default the clock. */
  now?(): number;
}

export const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';

/** go-jose's jwt.DefaultLeeway, which kube uses for every time claim and for deletion timestamps. */
const LEEWAY_SECONDS = 60;

export const TOKEN_INVALIDATED = 'service account token has been invalidated';
export const TOKEN_EXPIRED = 'service account token has expired';
export const TOKEN_NOT_VALID_YET = 'service account token is not valid yet';
export const TOKEN_ISSUED_IN_FUTURE = 'service account token is issued in the future';

/** Go's %q of a []string: ["a" "b"]. */
const goQuoteList = (xs: readonly string[]): string => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;

/** A rejection of a token that is ours: the message is kube's, shown by TokenReview. */
export class ServiceAccountTokenError extends Error {
  override readonly name = 'ServiceAccountTokenError';
}

const fail = (message: string): never => { throw new ServiceAccountTokenError(message); };

function tokenAudiences(aud: unknown): string[] {
  if (typeof aud === 'string') return aud === '' ? [] : [aud];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

/** go-jose's Claims.ValidateWithLeeway on the time claims, with kube's messages. */
function checkTimes(claims: SignedPayload, now: number): void {
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const nbf = num(claims['nbf']);
  const exp = num(claims['exp']);
  const iat = num(claims['iat']);
  if (nbf !== undefined && now + LEEWAY_SECONDS < nbf) fail(TOKEN_NOT_VALID_YET);
  if (exp !== undefined && now - LEEWAY_SECONDS > exp) fail(TOKEN_EXPIRED);
  if (iat !== undefined && now + LEEWAY_SECONDS < iat) fail(TOKEN_ISSUED_IN_FUTURE);
}

type Ref = { name: string; uid: string };
const UNEXPECTED_CLAIM = 'service account token claims could not be validated due to unexpected private claim';

/** A {name, uid} reference; kube omits empty fields (a pod's node may have no uid). */
function ref(v: unknown): Ref | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null) return fail(UNEXPECTED_CLAIM);
  const { name = '', uid = '' } = v as { name?: unknown; uid?: unknown };
  if (typeof name !== 'string' || typeof uid !== 'string') return fail(UNEXPECTED_CLAIM);
  return { name, uid };
}

/** The private claim, normalised; an error for one this server could not have written. */
function privateClaim(claims: SignedPayload): { namespace: string; serviceaccount: Ref; pod?: Ref | undefined; secret?: Ref | undefined; node?: Ref | undefined } {
  const k = claims['kubernetes.io'];
  if (typeof k !== 'object' || k === null) return fail(UNEXPECTED_CLAIM);
  const c = k as Record<string, unknown>;
  const namespace = c['namespace'] ?? '';
  if (typeof namespace !== 'string') return fail(UNEXPECTED_CLAIM);
  return {
    namespace, serviceaccount: ref(c['serviceaccount'] ?? {}) ?? { name: '', uid: '' },
    pod: ref(c['pod']), secret: ref(c['secret']), node: ref(c['node']),
  };
}

export function newServiceAccountTokenAuthenticator(opts: ServiceAccountAuthenticatorOptions): TokenAuthenticator {
  const implicit = opts.audiences ?? [opts.issuer.issuer];
  const clock = opts.now ?? ((): number => Math.floor(Date.now() / 1000));
  const getter = opts.getter;

  /** kube deems an object gone once its deletion was requested more than the leeway ago. */
  const deletedBefore = (o: TokenObject, now: number): boolean => {
    if (o.deletionTimestamp === undefined || o.deletionTimestamp === '') return false;
    const t = Date.parse(o.deletionTimestamp);
    return !Number.isNaN(t) && t / 1000 < now - LEEWAY_SECONDS;
  };

  /** A bound object: any failure to find it invalidates the token, as in kube. */
  const checkBound = async (kind: 'Pod' | 'Secret' | 'Node', namespace: string, bound: Ref, now: number): Promise<void> => {
    let live: TokenObject | undefined;
    try {
      live = await getter.get(kind, namespace, bound.name);
    } catch {
      live = undefined;
    }
    if (live === undefined) fail(TOKEN_INVALIDATED);
    else {
      if (live.uid !== bound.uid) fail(`${kind.toLowerCase()} UID (${live.uid}) does not match service account ${kind.toLowerCase()} ref claim (${bound.uid})`);
      if (deletedBefore(live, now)) fail(TOKEN_INVALIDATED);
    }
  };

  return {
    async authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthResponse | undefined> {
      const checked = opts.issuer.check(token);
      if (checked.result === 'foreign') return undefined;
      if (checked.result === 'invalid') return fail(checked.message);
      const { claims } = checked;

      const own = tokenAudiences(claims['aud']);
      const tokenAuds = own.length > 0 ? own : [...implicit];
      const requested = audiences !== undefined && audiences.length > 0 ? audiences : implicit;
      const auds = tokenAuds.filter((a) => requested.includes(a));
      if (auds.length === 0 && implicit.length > 0) {
        fail(`token audiences ${goQuoteList(tokenAuds)} is invalid for the target audiences ${goQuoteList(requested)}`);
      }

      const now = clock();
      checkTimes(claims, now);
      const k8s = privateClaim(claims);
      const { namespace, serviceaccount: saRef } = k8s;

      const sa = await getter.get('ServiceAccount', namespace, saRef.name);
      if (sa === undefined) return fail(`serviceaccounts "${saRef.name}" not found`);
      if (sa.uid !== saRef.uid) fail(`service account UID (${sa.uid}) does not match claim (${saRef.uid})`);
      if (deletedBefore(sa, now)) fail(`service account ${namespace}/${saRef.name} has been deleted`);

      if (k8s.secret !== undefined) await checkBound('Secret', namespace, k8s.secret, now);
      if (k8s.pod !== undefined) await checkBound('Pod', namespace, k8s.pod, now);
      // A pod-bound token names its pod's node for information only; a node-bound token is checked.
      if (k8s.node !== undefined && k8s.pod === undefined) await checkBound('Node', '', k8s.node, now);

      const extra: Record<string, string[]> = {};
      if (k8s.pod !== undefined && k8s.pod.name !== '' && k8s.pod.uid !== '') {
        extra['authentication.kubernetes.io/pod-name'] = [k8s.pod.name];
        extra['authentication.kubernetes.io/pod-uid'] = [k8s.pod.uid];
      }
      const jti = claims['jti'];
      if (typeof jti === 'string' && jti !== '') extra['authentication.kubernetes.io/credential-id'] = [`JTI=${jti}`];
      if (k8s.node !== undefined && k8s.node.name !== '') {
        extra['authentication.kubernetes.io/node-name'] = [k8s.node.name];
        if (k8s.node.uid !== '') extra['authentication.kubernetes.io/node-uid'] = [k8s.node.uid];
      }
      return {
        user: {
          name: `${SERVICE_ACCOUNT_USER_PREFIX}${namespace}:${saRef.name}`,
          uid: saRef.uid,
          groups: [ALL_SERVICE_ACCOUNTS_GROUP, `${ALL_SERVICE_ACCOUNTS_GROUP}:${namespace}`],
          ...(Object.keys(extra).length > 0 ? { extra } : {}),
        },
        audiences: auds,
      };
    },
  };
}
