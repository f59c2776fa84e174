// Request authentication (k8s.io/apiserver/pkg/authentication).
export {
  ALL_AUTHENTICATED_GROUP, ALL_UNAUTHENTICATED_GROUP, ANONYMOUS_USER, SYSTEM_PRIVILEGED_GROUP, headerValue,
  type AuthRequest, type AuthResponse, type Authenticator, type RequestHeaders, type TokenAuthenticator,
} from './authenticator.ts';
export { ADMIN_USER, newAdminTokenAuthenticator } from './admin.ts';
export { withImplicitAudiences } from './audience-agnostic.ts';
export { PUBLIC_INFO_PATHS, isAnonymousAllowedPath, newAnonymousAuthenticator } from './anonymous.ts';
export {
  INVALID_BEARER_TOKEN, INVALID_TOKEN_WITH_SPACE_WARNING, InvalidTokenError, newBearerTokenAuthenticator,
  newWebSocketProtocolAuthenticator,
} from './bearer-token.ts';
export { CSVParseError, readCSV } from './csv.ts';
export {
  authenticateOrUnauthorized, newRequestAuthenticator, newTokenUnion, unauthorized, type RequestAuthenticatorConfig,
} from './request-authenticator.ts';
export { TOKEN_SUCCESS_CACHE_TTL_MS, newCachedTokenAuthenticator, type TokenCacheOptions } from './token-cache.ts';
export { loadTokenFile, newStaticTokenAuthenticator, parseTokenFile, type ParsedTokenFile } from './token-file.ts';
export { AggregateAuthError, newFailOnErrorUnionAuthenticator, newUnionAuthenticator, withAuthenticatedGroup } from './union.ts';
export { CREDENTIAL_ID_KEY, newX509Authenticator, newX509Verifier, parseCABundle, userFromCertificate, verifyClientChain, type CAProvider } from './x509.ts';
export {
  newRequestHeaderAuthenticator, newRequestHeaderReader, validateRequestHeaderFlags, type RequestHeaderConfig,
} from './request-header.ts';
export {
  DEFAULT_TOKEN_WEBHOOK_CACHE_TTL_MS, DEFAULT_TOKEN_WEBHOOK_VERSION, loadWebhookTokenAuthenticator, newWebhookTokenAuthenticator,
  type TokenReviewVersion, type WebhookTokenOptions,
} from './webhook-token.ts';
