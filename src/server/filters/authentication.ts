// Authentication: a request without credentials is system:anonymous (group system:unauthenticated)
// where anonymous requests are allowed (--anonymous-auth, off with the AlwaysAllow authorizer), and
// authorization then decides; otherwise, like bad credentials, it gets 401 Unauthorized.
// Counterpart of k8s.io/apiserver/pkg/endpoints/filters/authentication.go.
import type { IncomingHttpHeaders } from 'node:http';
import { newUnauthorized } from '../../apimachinery/errors/status-error.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import type { Filter } from './types.ts';

export interface RequestAuthenticator {
  /**
   * Resolves the user, or undefined when the request carries no credentials this authenticator
   * knows; rejects with an Error saying why when credentials are invalid. `audiences`: who a token
   * must be for (TokenReview's spec.audiences; default the server's).
   */
  authenticate(headers: IncomingHttpHeaders, audiences?: readonly string[]): Promise<UserInfo | undefined> | UserInfo | undefined;
  /**
   * For TokenReview: as authenticate with a bearer token, also saying for which of `audiences`
   * the token is valid. Absent: TokenReview uses authenticate.
   */
  authenticateToken?(token: string, audiences: readonly string[]): Promise<{ user: UserInfo; audiences?: readonly string[] } | undefined>;
}

export const ANONYMOUS: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

/** `anonymousAllowed` says, by path, whether a request without credentials may go on as anonymous. */
export const withAuthentication = (authn: RequestAuthenticator, anonymousAllowed: (path: string) => boolean): Filter =>
  (next) => async (req, res, state) => {
    let user: UserInfo | undefined;
    try {
      user = await authn.authenticate(req.headers);
    } catch {
      // Credentials were presented and rejected: never anonymous.
      throw newUnauthorized();
    }
    if (user === undefined) {
      if (!anonymousAllowed(state.path)) throw newUnauthorized();
      user = ANONYMOUS;
    }
    state.user = user;
    // Credentials are not passed further down the chain (or to proxied backends).
    delete req.headers.authorization;
    await next(req, res, state);
  };
