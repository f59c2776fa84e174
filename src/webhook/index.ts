// The generic webhook client (k8s.io/apiserver/pkg/util/webhook): configuration, client
// manager, service resolution, validation and the errors of a call.
export { clientConfigFromWire, clientConfigKey, type ClientConfig, type ClientConfigService, type ClientCredentials, type WebhookClientConfigWire } from './client-config.ts';
export { ClientManager, DEFAULT_TIMEOUT_MS, WebhookClient, type PostOptions } from './client.ts';
export { decodeWebhookObject } from './decode.ts';
export { ErrCallingWebhook, ErrWebhookRejection, WebhookRequestError } from './errors.ts';
export { goDuration, goNetErrorText, joinHostPort } from './net-errors.ts';
export { defaultServiceResolver, type ServiceResolver } from './service-resolver.ts';
export { caBundleError, validateCABundle, validateWebhookService, validateWebhookURL } from './validation.ts';
export { DEFAULT_AUTH_WEBHOOK_BACKOFF, shouldRetry, withExponentialBackoff, type Backoff } from './backoff.ts';
export { loadWebhookKubeconfig } from './kubeconfig.ts';
