// Whether a body names the object its URL names (checkName and
// EnsureObjectNamespaceMatchesRequestNamespace of k8s.io/apiserver's handlers and rest packages):
// the update handler checks before storage sees the body, the store again for bodies it builds itself.
import { newBadRequest, type StatusError } from '../../apimachinery/errors/status-error.ts';

export const namespaceMismatch = (): StatusError =>
  newBadRequest('the namespace of the provided object does not match the namespace sent on the request');

export const nameMismatch = (bodyName: string, urlName: string): StatusError =>
  newBadRequest(`the name of the object (${bodyName}) does not match the name on the URL (${urlName})`);

/**
 * A PUT body against its URL, in kube's order: a namespace other than the request's, then a missing
 * name, then another name. All are 400s, before preconditions or the stored object are looked at.
 */
export function checkUpdateTarget(meta: { readonly name?: string; readonly namespace?: string }, name: string, namespace: string | undefined): void {
  if (namespace !== undefined && namespace !== '' && meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== namespace) {
    throw namespaceMismatch();
  }
  const bodyName = meta.name ?? '';
  if (bodyName === '') throw newBadRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  if (bodyName !== name) throw nameMismatch(bodyName, name);
}
