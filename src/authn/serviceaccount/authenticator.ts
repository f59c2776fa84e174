// Authenticates service account tokens (pkg/serviceaccount/jwt.go + the legacy and bound token
// validators): signature, expiry, audience, and the service account still existing with the
// uid the token names.
import type { AuthResponse, TokenAuthenticator } from '../authenticator.ts';
import type { ServiceAccountTokenIssuer } from './issuer.ts';
import { looksLikeJWT } from './jwt.ts';

export interface ServiceAccountAuthenticatorOptions {
  readonly issuer: ServiceAccountTokenIssuer;
  /** --api-audiences: a token must be for one of them (default: the issuer). */
  readonly audiences?: readonly string[];
  /** The uid of a service account, or undefined when it does not exist. */
  getServiceAccountUID(namespace: string, name: string): Promise<string | undefined>;
  /** Optional: the uid of a bound object (Pod, Secret, Node), or undefined when it is gone. */
  getObjectUID?(kind: 'Pod' | 'Secret' | 'Node', namespace: string, name: string): Promise<string | undefined>;
  /** Seconds since the epoch; default the clock. */
  now?(): number;
}

export const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';

export function newServiceAccountTokenAuthenticator(opts: ServiceAccountAuthenticatorOptions): TokenAuthenticator {
  const audiences = opts.audiences ?? [opts.issuer.issuer];
  const now = opts.now ?? ((): number => Math.floor(Date.now() / 1000));
  return {
    async authenticateToken(token: string): Promise<AuthResponse | undefined> {
      if (!looksLikeJWT(token)) return undefined;
      const claims = opts.issuer.verify(token);
      if (claims === undefined) return undefined;
      const t = now();
      if (typeof claims.exp !== 'number' || claims.exp < t) return undefined;
      if (typeof claims.nbf === 'number' && claims.nbf > t + 60) return undefined;
      const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
      if (!aud.some((a) => audiences.includes(a))) return undefined;
      const k8s = claims['kubernetes.io'];
      if (typeof k8s !== 'object' || k8s === null) return undefined;
      const { namespace, serviceaccount } = k8s;
      if (claims.sub !== `${SERVICE_ACCOUNT_USER_PREFIX}${namespace}:${serviceaccount.name}`) return undefined;
      const uid = await opts.getServiceAccountUID(namespace, serviceaccount.name);
      if (uid === undefined || uid !== serviceaccount.uid) return undefined;
      const extra: Record<string, string[]> = {};
      for (const [kind, ref] of [['Pod', k8s.pod], ['Secret', k8s.secret], ['Node', k8s.node]] as const) {
        if (ref === undefined) continue;
        // a token bound to a pod also names the pod's node; only the bound object itself must still exist
        const bound = kind === 'Node' && k8s.pod !== undefined ? false : true;
        if (bound && opts.getObjectUID !== undefined) {
          const live = await opts.getObjectUID(kind, kind === 'Node' ? '' : namespace, ref.name);
          if (live === undefined || live !== ref.uid) return undefined;
        }
        const key = kind.toLowerCase();
        extra[`authentication.kubernetes.io/${key}-name`] = [ref.name];
        extra[`authentication.kubernetes.io/${key}-uid`] = [ref.uid];
      }
      if (typeof claims.jti === 'string' && claims.jti !== '') extra['authentication.kubernetes.io/credential-id'] = [`JTI=${claims.jti}`];
      return {
        user: {
          name: `${SERVICE_ACCOUNT_USER_PREFIX}${namespace}:${serviceaccount.name}`,
          uid: serviceaccount.uid,
          groups: [ALL_SERVICE_ACCOUNTS_GROUP, `${ALL_SERVICE_ACCOUNTS_GROUP}:${namespace}`],
          ...(Object.keys(extra).length > 0 ? { extra } : {}),
        },
      };
    },
  };
}
