// The types of apiserver.config.k8s.io AuthorizationConfiguration as kapi holds them once decoded
// and defaulted (durations in milliseconds).
// Counterpart of k8s.io/apiserver/pkg/apis/apiserver/types.go (the authorization part).
export interface WebhookMatchCondition { readonly expression: string }

/** WebhookConfiguration (durations in milliseconds; a missing one is 0). */
export interface WebhookConfiguration {
  readonly authorizedTTLMs: number;
  readonly cacheAuthorizedRequests: boolean;
  readonly unauthorizedTTLMs: number;
  readonly cacheUnauthorizedRequests: boolean;
  readonly timeoutMs: number;
  readonly subjectAccessReviewVersion: string;
  readonly matchConditionSubjectAccessReviewVersion: string;
  readonly failurePolicy: string;
  readonly connectionInfo: { readonly type: string; readonly kubeConfigFile?: string };
  readonly matchConditions: readonly WebhookMatchCondition[];
}

export interface AuthorizerConfiguration {
  readonly type: string;
  readonly name: string;
  readonly webhook?: WebhookConfiguration;
}

export interface AuthorizationConfiguration {
  readonly authorizers: readonly AuthorizerConfiguration[];
}
