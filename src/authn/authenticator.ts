// Request authentication (k8s.io/apiserver/pkg/authentication/authenticator): the contracts.
import type { UserInfo, WarningRecorder } from '../apimachinery/request/context.ts';

/** Header names in lower case, as Node's IncomingMessage.headers has them. */
export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface AuthRequest {
  readonly headers: RequestHeaders;
  /** Receives warnings such as the one for an Authorization header with a doubled space. */
  readonly warnings?: WarningRecorder;
  /** Who the credential must be for (TokenReview's spec.audiences); default the server's API audiences. */
  readonly audiences?: readonly string[];
  /** The client certificate chain of the TLS connection (DER, leaf first), when one was presented. */
  readonly peerCertificates?: readonly Buffer[];
  /** Removes request headers once they were read as credentials (front-proxy headers). */
  readonly removeHeaders?: (names: readonly string[], prefixes: readonly string[]) => void;
  /**
   * Every value of a header, one per header line, as Go's Header map holds them (`headers` joins
   * repeated lines with ", ", which a front proxy's group names may contain).
   */
  readonly headerValues?: (name: string) => readonly string[];
}

export interface AuthResponse {
  readonly user: UserInfo;
  /** The audiences the credential was found valid for, when the authenticator knows audiences. */
  readonly audiences?: readonly string[];
}

export interface Authenticator {
  /**
   * Resolves the user, or undefined when the request carries no credentials this authenticator
   * understands. Rejects with an Error when the request carries credentials that are invalid
   * (kube then answers 401 even if anonymous access is on).
   */
  authenticate(req: AuthRequest): Promise<AuthResponse | undefined>;
}

/** Authenticates a bare token (authenticator.Token): the bearer-token and token-file schemes. */
export interface TokenAuthenticator {
  /**
   * Resolves undefined for a token this authenticator does not know; rejects with an Error whose
   * message says why when the token is its kind but invalid (TokenReview shows the message), or
   * when it cannot check the token. `audiences`: who the token must be for (default: the server's).
   */
  authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthResponse | undefined>;
}

/** Well-known user and group names (k8s.io/apiserver/pkg/authentication/user). */
export const ANONYMOUS_USER = 'system:anonymous';
export const ALL_AUTHENTICATED_GROUP = 'system:authenticated';
export const ALL_UNAUTHENTICATED_GROUP = 'system:unauthenticated';
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';

/** The first value of a header (Go's Header.Get). */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : v[0];
}
