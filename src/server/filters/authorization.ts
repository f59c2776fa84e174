// Authorization (k8s.io/apiserver/pkg/endpoints/filters/authorization.go): the request's user and
// RequestInfo become authorizer attributes; anything but Allow is a 403 Forbidden Status with
// kube's message, or a 500 when the authorizers failed to evaluate.
import { parseFieldSelector } from '../../apimachinery/fields/selector.ts';
import { goQuote } from '../../apimachinery/goformat/index.ts';
import { validatePathSegmentName } from '../../apimachinery/validation/object-meta.ts';
import type { Attributes, Authorizer } from '../../authz/authorizer.ts';
import { forbiddenStatusError } from '../../authz/forbidden.ts';
import { writeRaw } from '../../endpoints/handlers/response.ts';
import type { RequestState } from '../../endpoints/request/state.ts';
import { recordAuthorization } from './auth-metrics.ts';
import type { Filter } from './types.ts';

/**
 * The name of a list or watch narrowed to one object with `fieldSelector=metadata.name=<name>`,
 * as kube's RequestInfo records it (so resourceNames rules apply to `kubectl get <kind> <name> -w`).
 */
function singleObjectName(state: RequestState): string {
  const info = state.info;
  if (info === undefined || info.name !== '' || (info.verb !== 'list' && info.verb !== 'watch')) return info?.name ?? '';
  const text = state.url.searchParams.get('fieldSelector');
  if (text === null || text === '') return '';
  try {
    const name = parseFieldSelector(text).requiresExactMatch('metadata.name');
    return name !== undefined && validatePathSegmentName(name, false).length === 0 ? name : '';
  } catch {
    return '';
  }
}

/** GetAuthorizerAttributes: who (state.user) asks for what (state.info). */
export function requestAttributes(state: RequestState): Attributes {
  const info = state.info;
  if (info === undefined) throw new Error('no RequestInfo found in the context');
  return {
    user: state.user, verb: info.verb, resourceRequest: info.isResourceRequest, path: info.path,
    apiGroup: info.apiGroup, apiVersion: info.apiVersion, resource: info.resource, subresource: info.subresource,
    namespace: info.namespace, name: singleObjectName(state),
    ...(info.verb === 'list' || info.verb === 'watch' || info.verb === 'deletecollection'
      ? { fieldSelector: state.url.searchParams.get('fieldSelector') ?? '', labelSelector: state.url.searchParams.get('labelSelector') ?? '' } : {}),
  };
}

/** responsewriters.InternalError: a text/plain 500 naming the request URI and the error. */
function writeInternalError(res: Parameters<typeof writeRaw>[0], uri: string, err: Error): void {
  const text = `Internal Server Error: ${goQuote(uri)}: ${err.message}`
    .replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  writeRaw(res, 500, 'text/plain; charset=utf-8', `${text}\n`);
}

export const withAuthorization = (authorizer: Authorizer): Filter => (next) => async (req, res, state) => {
  const attributes = requestAttributes(state);
  const start = process.hrtime.bigint();
  const result = await authorizer.authorize(attributes);
  recordAuthorization(result.decision, result.error !== undefined, Number(process.hrtime.bigint() - start) / 1e9);
  // The decision's audit annotations (only recorded for an audited request).
  if (state.audit !== undefined) {
    state.addAuditAnnotation('authorization.k8s.io/decision', result.decision === 'Allow' ? 'allow' : 'forbid');
    state.addAuditAnnotation('authorization.k8s.io/reason', result.reason ?? '');
  }
  if (result.decision === 'Allow') {
    await next(req, res, state);
    return;
  }
  if (result.error !== undefined) {
    console.error(`authorization of ${req.method ?? ''} ${req.url ?? ''} failed:`, result.error.message);
    writeInternalError(res, req.url ?? '', result.error);
    return;
  }
  throw forbiddenStatusError(attributes, result.reason);
};
