// k8s.io/apiserver/pkg/util/webhook ValidateWebhookURL and ValidateWebhookService.
import { invalid, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isDNS1123Subdomain, isValidPortNum } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { WebhookClientConfig } from '../v1/types.ts';

export function validateWebhookURL(p: FieldPath, raw: string): FieldError[] {
  let u: URL;
  try { u = new URL(raw); } catch { return [invalid(p, raw, 'host must be specified')]; }
  const errs: FieldError[] = [];
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https') errs.push(invalid(p, scheme, "'https' is the only allowed URL scheme"));
  if (u.host === '') errs.push(invalid(p, u.host, 'host must be specified'));
  if (u.username !== '' || u.password !== '') errs.push(invalid(p, u.password === '' ? u.username : `${u.username}:***`, 'user information is not permitted in the URL'));
  if (u.hash !== '') errs.push(invalid(p, u.hash.slice(1), 'fragments are not permitted in the URL'));
  if (u.search !== '') errs.push(invalid(p, u.search.slice(1), 'query parameters are not permitted in the URL'));
  return errs;
}

export function validateWebhookService(p: FieldPath, svc: DeepReadonly<NonNullable<WebhookClientConfig['service']>>): FieldError[] {
  const errs: FieldError[] = [];
  if ((svc.name ?? '') === '') errs.push(required(p.child('name'), 'service name is required'));
  if ((svc.namespace ?? '') === '') errs.push(required(p.child('namespace'), 'service namespace is required'));
  if (svc.port !== undefined) for (const m of isValidPortNum(svc.port)) errs.push(invalid(p.child('port'), svc.port, `port is not valid: ${m}`));
  const path = svc.path;
  if (path === undefined || path === '/') return errs;
  if (!path.startsWith('/')) { errs.push(invalid(p.child('path'), path, "must start with a '/'")); return errs; }
  const steps = path.slice(1).split('/');
  steps.forEach((step, i) => {
    if (step === '' && i !== steps.length - 1) errs.push(invalid(p.child('path'), path, `segment[${i}] may not be empty`));
    else if (step !== '') for (const m of isDNS1123Subdomain(step)) errs.push(invalid(p.child('path'), path, `segment[${i}]: ${m}`));
  });
  return errs;
}

/** Exactly one of url and service; then each is checked. */
export function validateClientConfig(cc: DeepReadonly<WebhookClientConfig> | undefined, p: FieldPath): FieldError[] {
  const hasURL = cc?.url !== undefined;
  const hasService = cc?.service !== undefined;
  if (hasURL === hasService) return [required(p, 'exactly one of url or service is required')];
  if (hasURL) return validateWebhookURL(p.child('url'), cc?.url ?? '');
  return cc?.service === undefined ? [] : validateWebhookService(p.child('service'), cc.service);
}
