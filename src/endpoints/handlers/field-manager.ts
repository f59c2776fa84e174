// managedFields on every write: the handlers record Update entries (and Apply for server-side
// apply) in the endpoint's version, before the object converts to the hub.
// Counterpart of k8s.io/apimachinery/pkg/util/managedfields (FieldManager) as
// k8s.io/apiserver/pkg/endpoints/handlers calls it.
import type { IncomingMessage } from 'node:http';
import { newInvalid } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import {
  apply, managerOrUserAgent, resetFieldsOf, updateManagedFields, validateFieldManager, validatePatchFieldManager, withConversions,
  type FieldManagerScope,
} from '../../apimachinery/managedfields/index.ts';
import type { FieldSet } from '../../apimachinery/managedfields/set.ts';
import { schemaForGVK } from '../../apimachinery/openapi/index.ts';
import { apiVersionOf } from '../../apimachinery/schema/group-version.ts';
import type { Unstructured } from '../../apimachinery/meta/types.ts';
import { endpointGVK } from './common.ts';
import { servesTypedObjects, type HandlerDeps, type ResourceEndpoint } from './scope.ts';

export type WriteOptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

/** The manager of a write: ?fieldManager, else the User-Agent's program name. 422 when invalid. */
export function fieldManagerOf(q: URLSearchParams, req: IncomingMessage, kind: WriteOptionsKind, isApply = false): string {
  const fm = q.get('fieldManager') ?? undefined;
  const errs = kind === 'PatchOptions' ? validatePatchFieldManager(fm, isApply) : validateFieldManager(fm);
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind }, '', errs);
  return managerOrUserAgent(fm, req.headers['user-agent']);
}

const scopes = new WeakMap<ResourceEndpoint, FieldManagerScope>();

/**
 * The endpoint's strategy's reset fields; by default the main resource does not own status when
 * a status subresource exists, and the status subresource does not own spec.
 */
function resetPathsOf(ep: ResourceEndpoint): FieldSet | undefined {
  const d = ep.definition;
  const strategy = ep.subresource === '' ? d.strategy : ep.subresource === 'status' ? d.statusStrategy : d.updateSubresources?.[ep.subresource];
  const paths = strategy?.resetFields
    ?? (ep.subresource === 'status' ? [['spec']] : ep.subresource === '' && d.statusStrategy !== undefined ? [['status']] : undefined);
  return paths === undefined || paths.length === 0 ? undefined : resetFieldsOf(...paths);
}

/** What the field manager needs to know about an endpoint; computed once per endpoint. */
function scopeOf(ep: ResourceEndpoint): FieldManagerScope {
  let s = scopes.get(ep);
  if (s === undefined) {
    const gvk = endpointGVK(ep);
    const resetFields = resetPathsOf(ep);
    s = {
      apiVersion: apiVersionOf(gvk), kind: gvk.kind, schema: ep.fieldsSchema ?? schemaForGVK(gvk),
      ...(ep.subresource !== '' ? { subresource: ep.subresource } : {}),
      ...(resetFields !== undefined ? { resetFields } : {}),
    };
    scopes.set(ep, s);
  }
  return s;
}

/** Records an Update by `manager`: `live` and `updated` are in the endpoint's version. */
export async function trackUpdate<T extends KubeObject>(ep: ResourceEndpoint, deps: HandlerDeps, live: KubeObject | undefined, updated: T,
  manager: string): Promise<T> {
  const args = { ...scopeOf(ep), typed: servesTypedObjects(deps), live, updated, manager, time: new Date() };
  const vc = ep.versionConverter;
  if (vc === undefined) return updateManagedFields(args);
  return await withConversions(vc, (converter) => updateManagedFields({ ...args, converter }));
}

/**
 * Server-side apply of `patch` onto `live` (undefined: the apply creates). Rejects with 409 on
 * conflicts, with a 500 when converting to a manager's version fails.
 */
export async function serverSideApply(ep: ResourceEndpoint, live: KubeObject | undefined, patch: Unstructured, manager: string,
  force: boolean): Promise<KubeObject> {
  const args = { ...scopeOf(ep), live, patch, manager, force, time: new Date() };
  const vc = ep.versionConverter;
  if (vc === undefined) return apply(args).object;
  return (await withConversions(vc, (converter) => apply({ ...args, converter }))).object;
}
