// k8s.io/apiserver/pkg/util/webhook ValidateWebhookURL and ValidateWebhookService.
import { invalid, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isDNS1123Subdomain, isValidPortNum } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { WebhookClientConfig } from '../v1/types.ts';
import { parseGoURL } from './go-url.ts';

const FORM = '; desired format: https://host[/path]';

function validateWebhookURL(p: FieldPath, raw: string): FieldError[] {
  const u = parseGoURL(raw);
  if (typeof u === 'string') return [required(p, `url must be a valid URL: ${u}${FORM}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(invalid(p, u.scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (u.host === '') errs.push(invalid(p, u.host, `host must be specified${FORM}`));
  if (u.user !== undefined) errs.push(invalid(p, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '') errs.push(invalid(p, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery !== '') errs.push(invalid(p, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

function validateWebhookService(p: FieldPath, svc: DeepReadonly<NonNullable<WebhookClientConfig['service']>>): FieldError[] {
  const errs: FieldError[] = [];
  if ((svc.name ?? '') === '') errs.push(required(p.child('name'), ''));
  if ((svc.namespace ?? '') === '') errs.push(required(p.child('namespace'), ''));
  if (svc.port !== undefined) for (const m of isValidPortNum(svc.port)) errs.push(invalid(p.child('port'), svc.port, `port is not valid: ${m}`));
  const path = svc.path ?? '';
  if (path === '' || path === '/') return errs;
  if (path === '//') return [...errs, invalid(p.child('path'), path, 'segment[0] may not be empty')];
  if (!path.startsWith('/')) errs.push(invalid(p.child('path'), path, "must start with a '/'"));
  // kube drops the first character whatever it is, and one trailing slash
  let rest = path.slice(1);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  rest.split('/').forEach((step, i) => {
    if (step === '') errs.push(invalid(p.child('path'), path, `segment[${i}] may not be empty`));
    else for (const m of isDNS1123Subdomain(step)) errs.push(invalid(p.child('path'), path, `segment[${i}]: ${m}`));
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
