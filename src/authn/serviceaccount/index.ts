// Service account tokens: issuing (TokenRequest) and authenticating them.
// Counterpart of pkg/serviceaccount.
export {
  ALL_SERVICE_ACCOUNTS_GROUP, SERVICE_ACCOUNT_USER_PREFIX, ServiceAccountTokenError, TOKEN_EXPIRED, TOKEN_INVALIDATED,
  TOKEN_ISSUED_IN_FUTURE, TOKEN_NOT_VALID_YET, newServiceAccountTokenAuthenticator,
  type ServiceAccountAuthenticatorOptions, type ServiceAccountTokenGetter, type TokenObject, type TokenObjectKind,
} from './authenticator.ts';
export {
  DEFAULT_SERVICE_ACCOUNT_ISSUER, loadOrCreateServiceAccountKey, newServiceAccountTokenIssuer,
  type BoundObject, type IssuerOptions, type KubernetesClaim, type ServiceAccountClaims, type ServiceAccountTokenIssuer,
  type ServiceAccountTokenRequest, NO_KEYS_ERROR, SIGNATURE_ERROR, type TokenCheck,
} from './issuer.ts';
