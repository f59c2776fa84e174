// Authentication: a request without credentials is system:anonymous (group system:unauthenticated)
// where anonymous requests are allowed (--anonymous-auth, off with the AlwaysAllow authorizer), and
// authorization then decides; otherwise, like bad credentials, it gets 401 Unauthorized.
// Counterpart of k8s.io/apiserver/pkg/endpoints/filters/authentication.go.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import { newUnauthorized } from '../../apimachinery/errors/status-error.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import { recordAuthentication } from './auth-metrics.ts';
import type { Filter } from './types.ts';

export interface RequestAuthenticator {
  /**
   * Resolves the user, or undefined when the request carries no credentials this authenticator
   * knows; rejects with an Error saying why when credentials are invalid. `audiences`: who a token
   * must be for (TokenReview's spec.audiences; default the server's).
   */
  authenticate(headers: IncomingHttpHeaders, audiences?: readonly string[], conn?: ConnectionCredentials): Promise<UserInfo | undefined> | UserInfo | undefined;
  /**
   * For TokenReview: as authenticate with a bearer token, also saying for which of `audiences`
   * the token is valid. Absent: TokenReview uses authenticate.
   */
  authenticateToken?(token: string, audiences: readonly string[]): Promise<{ user: UserInfo; audiences?: readonly string[] } | undefined>;
}

/** What the connection, not the headers, carries: the client certificate chain; and a way to drop used headers. */
export interface ConnectionCredentials {
  /** DER, leaf first; empty when the client presented no certificate. */
  readonly peerCertificates: readonly Buffer[];
  /** Deletes the named headers and every header under the prefixes (case-insensitive). */
  readonly removeHeaders: (names: readonly string[], prefixes: readonly string[]) => void;
  /** Every value of a header, one per header line (Go's Header map), not joined with ", ". */
  readonly headerValues: (name: string) => readonly string[];
}

/** The chain the client presented in the handshake (Node links each certificate to its issuer). */
function peerChain(req: IncomingMessage): Buffer[] {
  const socket = req.socket;
  if (!(socket instanceof TLSSocket)) return [];
  const chain: Buffer[] = [];
  let c = socket.getPeerCertificate(true);
  while (c !== undefined && c.raw !== undefined && !chain.some((x) => x.equals(c.raw))) {
    chain.push(c.raw);
    c = c.issuerCertificate;
  }
  return chain;
}

export function connectionCredentials(req: IncomingMessage): ConnectionCredentials {
  return {
    peerCertificates: peerChain(req),
    headerValues: (name) => req.headersDistinct[name.toLowerCase()] ?? [],
    removeHeaders: (names, prefixes) => {
      for (const n of names) delete req.headers[n.toLowerCase()];
      for (const p of prefixes.map((x) => x.toLowerCase())) {
        for (const h of Object.keys(req.headers)) if (h.startsWith(p)) delete req.headers[h];
      }
    },
  };
}

export const ANONYMOUS: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

/** `anonymousAllowed` says, by path, whether a request without credentials may go on as anonymous. */
export const withAuthentication = (authn: RequestAuthenticator, anonymousAllowed: (path: string) => boolean): Filter =>
  (next) => async (req, res, state) => {
    // kube's UnauthenticatedHTTP2DOSMitigation (beta, on): an HTTP/2 connection of an
    // unauthenticated client serves this one request, then gets GOAWAY (Connection: close, which
    // the HTTP/2 server turns into it), as HTTP/1.1 without keep-alive would.
    const unauthenticated = (): void => { if (req.httpVersionMajor === 2) res.setHeader('Connection', 'close'); };
    let user: UserInfo | undefined;
    const start = process.hrtime.bigint();
    const seconds = (): number => Number(process.hrtime.bigint() - start) / 1e9;
    try {
      user = await authn.authenticate(req.headers, undefined, connectionCredentials(req));
    } catch {
      // Credentials were presented and rejected: never anonymous.
      recordAuthentication(undefined, seconds());
      unauthenticated();
      throw newUnauthorized();
    }
    if (user === undefined) {
      unauthenticated();
      if (!anonymousAllowed(state.path)) {
        recordAuthentication(undefined, seconds());
        throw newUnauthorized();
      }
      user = ANONYMOUS;
    } else if (user.name === ANONYMOUS.name || (user.groups ?? []).includes('system:unauthenticated')) {
      unauthenticated();
    }
    recordAuthentication(user.name, seconds());
    state.user = user;
    // Credentials are not passed further down the chain (or to proxied backends).
    delete req.headers.authorization;
    await next(req, res, state);
  };
