// The authenticator chain kube-apiserver builds (authenticatorfactory / kubeapiserver/authenticator):
// token authenticators behind the bearer and WebSocket schemes, system:authenticated added, and
// anonymous last unless credentials were presented and rejected.
// Counterpart of k8s.io/apiserver/pkg/authentication/authenticatorfactory and
// pkg/kubeapiserver/authenticator.
import { newUnauthorized, type StatusError } from '../apimachinery/errors/status-error.ts';
import type { AuthRequest, AuthResponse, Authenticator, TokenAuthenticator } from './authenticator.ts';
import { newAnonymousAuthenticator } from './anonymous.ts';
import { newBearerTokenAuthenticator, newWebSocketProtocolAuthenticator } from './bearer-token.ts';
import { newFailOnErrorUnionAuthenticator, newUnionAuthenticator, withAuthenticatedGroup } from './union.ts';

export interface RequestAuthenticatorConfig {
  /** Tried in order for a bearer token (admin token, --token-auth-file, ...). */
  readonly tokenAuthenticators: readonly TokenAuthenticator[];
  /** Tried before the tokens, in order: the front-proxy (request-header) and client-certificate authenticators. */
  readonly requestAuthenticators?: readonly Authenticator[];
  /** --anonymous-auth (kube's default is true). */
  readonly anonymous: boolean;
  /**
   * Whether JWT authenticators are configured (--authentication-config, --oidc-*; they are among
   * the token authenticators). kube v1.36 then has one more bearer-token authenticator ahead of
   * the others that knows no token, so a refused token's error comes after its `invalid bearer
   * token` (TokenReview shows `[invalid bearer token, <why>]`; requests get 401 either way).
   */
  readonly jwtConfigured?: boolean;
}

/** Knows no token. */
const NO_TOKENS: TokenAuthenticator = { authenticateToken: () => Promise.resolve(undefined) };

/** Tries each token authenticator in order; an error of one does not stop the others. */
export function newTokenUnion(tokens: readonly TokenAuthenticator[]): TokenAuthenticator {
  return {
    async authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthResponse | undefined> {
      let firstError: unknown;
      for (const t of tokens) {
        try {
          const resp = await t.authenticateToken(token, audiences);
          if (resp !== undefined) return resp;
        } catch (err) {
          firstError ??= err;
        }
      }
      if (firstError !== undefined) throw firstError;
      return undefined;
    },
  };
}

export function newRequestAuthenticator(config: RequestAuthenticatorConfig): Authenticator {
  const tokens = newTokenUnion(config.tokenAuthenticators);
  const authenticated = withAuthenticatedGroup(newUnionAuthenticator(
    ...(config.requestAuthenticators ?? []),
    ...(config.jwtConfigured === true ? [newBearerTokenAuthenticator(NO_TOKENS)] : []),
    newBearerTokenAuthenticator(tokens),
    newWebSocketProtocolAuthenticator(tokens),
  ));
  return config.anonymous ? newFailOnErrorUnionAuthenticator(authenticated, newAnonymousAuthenticator()) : authenticated;
}

/** The 401 kube sends when authentication fails: Status reason Unauthorized, message "Unauthorized". */
export const unauthorized = (): StatusError => newUnauthorized('Unauthorized');

/**
 * Authenticates or rejects with the 401 StatusError; the cause of the failure (bad token, no
 * credentials with anonymous off) is not revealed to the client, as in kube.
 */
export async function authenticateOrUnauthorized(authn: Authenticator, req: AuthRequest): Promise<AuthResponse> {
  let resp: AuthResponse | undefined;
  try {
    resp = await authn.authenticate(req);
  } catch {
    throw unauthorized();
  }
  if (resp === undefined) throw unauthorized();
  return resp;
}
