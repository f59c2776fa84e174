// Audience-agnostic token authenticators (authenticator.WrapAudienceAgnosticToken): a static or
// token-file token knows no audience, so it is valid only for the server's own API audiences. A
// TokenReview asking for another audience ("is this token for vault?") gets no user.
import type { AuthResponse, TokenAuthenticator } from './authenticator.ts';

export function withImplicitAudiences(implicit: readonly string[], delegate: TokenAuthenticator): TokenAuthenticator {
  return {
    async authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthResponse | undefined> {
      // No audiences asked for: the server's own, which these tokens are for.
      if (audiences === undefined || audiences.length === 0) return await delegate.authenticateToken(token);
      const auds = implicit.filter((a) => audiences.includes(a));
      if (auds.length === 0) return undefined;
      const resp = await delegate.authenticateToken(token);
      return resp === undefined ? undefined : { ...resp, audiences: auds };
    },
  };
}
