// The 403 a denied request gets (k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go
// ForbiddenStatusError): `<resource>[.<group>] ["<name>"] is forbidden: User "<name>" cannot <verb>
// resource "<resource>[/<subresource>]" in API group "<group>" in the namespace "<ns>"` (or `at the
// cluster scope`), `forbidden: User "<name>" cannot <verb> path "<path>"` for non-resource requests,
// and `: <reason>` when the authorizers gave one.
import { StatusError } from '../apimachinery/errors/status-error.ts';
import { goQuote } from '../apimachinery/goformat/index.ts';
import type { Attributes } from './authorizer.ts';

/** Avoids error messages that look like HTML (quotes stay). */
const sanitize = (s: string): string => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export function forbiddenMessage(a: Attributes): string {
  const user = goQuote(a.user?.name ?? '');
  if (!a.resourceRequest) return `User ${user} cannot ${a.verb} path ${goQuote(a.path)}`;
  const resource = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  const scope = a.namespace === '' ? 'at the cluster scope' : `in the namespace ${goQuote(a.namespace)}`;
  return `User ${user} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup)} ${scope}`;
}

/** apierrors.NewForbidden(GroupResource{group, resource}, name, err) with the message above. */
export function forbiddenStatusError(a: Attributes, reason: string): StatusError {
  const msg = sanitize(forbiddenMessage(a));
  return newForbiddenError(a.apiGroup, a.resource, a.name, reason === '' ? msg : `${msg}: ${reason}`);
}

/**
 * apierrors.NewForbidden: `forbidden: <err>` when there is no resource, else `<resource>.<group>
 * ["<name>"] is forbidden: <err>`; details carry the group, the resource (as kind) and the name.
 */
export function newForbiddenError(group: string, resource: string, name: string, err: string): StatusError {
  const gr = group === '' ? resource : `${resource}.${group}`;
  let message: string;
  if (group === '' && resource === '') message = `forbidden: ${err}`;
  else if (name === '') message = `${gr} is forbidden: ${err}`;
  else message = `${gr} ${goQuote(name)} is forbidden: ${err}`;
  const details: { name?: string; group?: string; kind?: string } = {};
  if (name !== '') details.name = name;
  if (group !== '') details.group = group;
  if (resource !== '') details.kind = resource;
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details, code: 403,
  });
}
