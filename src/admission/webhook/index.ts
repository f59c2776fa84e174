// Mutating and validating admission webhooks (k8s.io/apiserver/pkg/admission/plugin/webhook).
export { webhookAccessors, type WebhookAccessor, type WebhookType } from './accessor.ts';
export type { WebhookCaller } from './call.ts';
export { clientCaller } from './client.ts';
export { matchConditionsEvaluator } from './match-conditions.ts';
export type { MatchConditionsFn, NamespaceGetter } from './matching.ts';
export { mutatingAdmissionWebhook, validatingAdmissionWebhook, type WebhookPluginOptions } from './plugin.ts';
export { InformerWebhookSource, staticWebhookSource, type WebhookSource } from './source.ts';
