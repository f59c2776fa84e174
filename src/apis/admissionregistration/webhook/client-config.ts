// A webhook configuration's clientConfig: exactly one of url and service, each checked by the
// shared webhook validation (k8s.io/apiserver/pkg/util/webhook).
import { required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { WebhookClientConfig } from '../v1/types.ts';
import { validateWebhookService, validateWebhookURL } from '../../../webhook/validation.ts';

/** Exactly one of url and service; then each is checked. */
export function validateClientConfig(cc: DeepReadonly<WebhookClientConfig> | undefined, p: FieldPath): FieldError[] {
  const hasURL = cc?.url !== undefined;
  const hasService = cc?.service !== undefined;
  if (hasURL === hasService) return [required(p, 'exactly one of url or service is required')];
  if (hasURL) return validateWebhookURL(p.child('url'), cc?.url ?? '', true);
  const svc = cc?.service;
  if (svc === undefined) return [];
  // An unset port is defaulted to 443 before validation; 0 is checked as given. kube passes the
  // name where the namespace goes and the other way round, so a missing name is reported as
  // service.namespace (and vice versa).
  return validateWebhookService(p.child('service'), svc.name ?? '', svc.namespace ?? '', svc.path, svc.port ?? 443);
}
