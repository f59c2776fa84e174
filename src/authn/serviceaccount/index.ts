// Service account tokens: issuing (TokenRequest) and authenticating them.
export {
  ALL_SERVICE_ACCOUNTS_GROUP, SERVICE_ACCOUNT_USER_PREFIX, newServiceAccountTokenAuthenticator,
  type ServiceAccountAuthenticatorOptions,
} from './authenticator.ts';
export {
  DEFAULT_SERVICE_ACCOUNT_ISSUER, loadOrCreateServiceAccountKey, newServiceAccountTokenIssuer,
  type BoundObject, type IssuerOptions, type KubernetesClaim, type ServiceAccountClaims, type ServiceAccountTokenIssuer,
  type ServiceAccountTokenRequest,
} from './issuer.ts';
