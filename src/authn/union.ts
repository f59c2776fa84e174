// Combinators of authenticators (request/union, group.AuthenticatedGroupAdder).
// Counterpart of k8s.io/apiserver/pkg/authentication/request/union and
// k8s.io/apiserver/pkg/authentication/group.
import {
  ALL_AUTHENTICATED_GROUP, ALL_UNAUTHENTICATED_GROUP, ANONYMOUS_USER,
  type AuthRequest, type AuthResponse, type Authenticator,
} from './authenticator.ts';

/** Go's utilerrors aggregate text: nested aggregates flattened, repeated messages once, brackets for several. */
function aggregateText(errors: readonly Error[]): string {
  const seen: string[] = [];
  const visit = (e: Error): void => {
    if (e instanceof AggregateAuthError) { for (const x of e.errors) visit(x); return; }
    if (!seen.includes(e.message)) seen.push(e.message);
  };
  for (const e of errors) visit(e);
  return seen.length === 1 ? (seen[0] ?? '') : `[${seen.join(', ')}]`;
}

/** Errors of every authenticator of a union that all failed. */
export class AggregateAuthError extends Error {
  override readonly name = 'AggregateAuthError';
  constructor(readonly errors: readonly Error[]) {
    super(aggregateText(errors));
  }
}

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/**
 * Tries each authenticator in order; the first user wins. Errors are collected and rethrown
 * together only when no authenticator found a user (so one bad scheme does not hide a good one).
 */
export function newUnionAuthenticator(...authenticators: Authenticator[]): Authenticator {
  return {
    async authenticate(req: AuthRequest): Promise<AuthResponse | undefined> {
      const errors: Error[] = [];
      for (const a of authenticators) {
        try {
          const resp = await a.authenticate(req);
          if (resp !== undefined) return resp;
        } catch (err) {
          errors.push(asError(err));
        }
      }
      if (errors.length > 0) throw new AggregateAuthError(errors);
      return undefined;
    },
  };
}

/** As newUnionAuthenticator, but the first error ends the search (invalid credentials never fall through to anonymous). */
export function newFailOnErrorUnionAuthenticator(...authenticators: Authenticator[]): Authenticator {
  return {
    async authenticate(req: AuthRequest): Promise<AuthResponse | undefined> {
      for (const a of authenticators) {
        const resp = await a.authenticate(req);
        if (resp !== undefined) return resp;
      }
      return undefined;
    },
  };
}

/** Adds system:authenticated to every user except system:anonymous and users already in an all-users group. */
export function withAuthenticatedGroup(inner: Authenticator): Authenticator {
  return {
    async authenticate(req: AuthRequest): Promise<AuthResponse | undefined> {
      const resp = await inner.authenticate(req);
      if (resp === undefined) return undefined;
      const { user } = resp;
      if (user.name === ANONYMOUS_USER) return resp;
      if (user.groups.some((g) => g === ALL_AUTHENTICATED_GROUP || g === ALL_UNAUTHENTICATED_GROUP)) return resp;
      return { ...resp, user: { ...user, groups: [...user.groups, ALL_AUTHENTICATED_GROUP] } };
    },
  };
}
