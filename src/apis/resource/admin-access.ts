// DRA admin access: a ResourceClaim or ResourceClaimTemplate may ask for adminAccess to devices,
// and a claim's status may grant it, only in a namespace labelled
// `resource.kubernetes.io/admin-access: "true"`. kube's strategies read the namespace (a live GET)
// in Validate; kapi reads it in a write hook, before validation, and the strategy's validate adds
// the errors found to its own, so both come back in one Invalid as kube's do.
// Counterpart of pkg/registry/resource/utils.go (AuthorizedForAdmin, AuthorizedForAdminStatus).
import { fieldPath, forbidden, internalError, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { DeepReadonly, FinishFunc, ResourceDefinition, Strategy, WriteHooks } from '../../registry/rest/strategy.ts';
import type { DeviceRequest } from './v1/types.ts';

/** DRAAdminNamespaceLabelKey. */
export const ADMIN_ACCESS_LABEL = 'resource.kubernetes.io/admin-access';

/** The labels of a namespace; rejects (with the error kube would print) when it cannot be read. */
export type NamespaceLabels = (name: string) => Promise<Readonly<Record<string, string>>>;

/** The errors each request's hook found, for the strategy's validate of the same request. */
const found = new WeakMap<RequestContext, FieldError[]>();
const done: FinishFunc = () => Promise.resolve();

/** The first request asking for admin access: the path of its flag. */
function requestedAdmin(requests: readonly DeepReadonly<DeviceRequest>[] | undefined): FieldPath | undefined {
  const i = (requests ?? []).findIndex((r) => r.exactly?.adminAccess === true);
  return i < 0 ? undefined : fieldPath('spec', 'devices', 'requests').index(i).child('adminAccess');
}

/** The first allocation result granting admin access: the path of its flag. */
function grantedAdmin(claim: DeepReadonly<KubeObject> | undefined): FieldPath | undefined {
  const results = ((claim as { status?: { allocation?: { devices?: { results?: readonly { adminAccess?: boolean }[] } } } } | undefined)
    ?.status?.allocation?.devices?.results) ?? [];
  const i = results.findIndex((r) => r.adminAccess === true);
  return i < 0 ? undefined : fieldPath('status', 'allocation', 'devices', 'results').index(i).child('adminAccess');
}

async function namespaceAllows(labels: NamespaceLabels, namespace: string, p: FieldPath): Promise<FieldError[]> {
  let got: Readonly<Record<string, string>>;
  try {
    got = await labels(namespace);
  } catch (err) {
    return [internalError(p, `could not retrieve namespace to verify admin access: ${err instanceof Error ? err.message : String(err)}`)];
  }
  return got[ADMIN_ACCESS_LABEL] === 'true' ? []
    : [forbidden(p, `admin access to devices requires the \`${ADMIN_ACCESS_LABEL}: true\` label on the containing namespace`)];
}

/**
 * The definition with the admin-access checks: on create, of the requests `requestsOf` names; on
 * a status update, of an allocation that grants admin access where the old one did not (the spec
 * is immutable, so other updates are not checked).
 */
export function withAdminAccessCheck<T extends KubeObject>(def: ResourceDefinition<T>, labels: NamespaceLabels,
  requestsOf: (obj: DeepReadonly<T>) => readonly DeepReadonly<DeviceRequest>[] | undefined): ResourceDefinition<T> {
  const hooks: WriteHooks<T> = {
    ...def.hooks,
    async beginCreate(ctx, obj, dryRun) {
      const p = requestedAdmin(requestsOf(obj as DeepReadonly<T>));
      if (p !== undefined) found.set(ctx, await namespaceAllows(labels, obj.metadata.namespace ?? ctx.namespace, p));
      return await def.hooks?.beginCreate?.(ctx, obj, dryRun) ?? done;
    },
    async beginUpdate(ctx, obj, old, dryRun) {
      const p = grantedAdmin(obj as DeepReadonly<T>);
      if (ctx.info.subresource === 'status' && p !== undefined && grantedAdmin(old) === undefined) {
        found.set(ctx, await namespaceAllows(labels, obj.metadata.namespace ?? ctx.namespace, p));
      }
      return await def.hooks?.beginUpdate?.(ctx, obj, old, dryRun) ?? done;
    },
  };
  const withFound = (s: Strategy<T>): Strategy<T> => ({
    ...s,
    validate: (ctx, obj) => [...(found.get(ctx) ?? []), ...s.validate(ctx, obj)],
    validateUpdate: (ctx, obj, old) => [...(found.get(ctx) ?? []), ...s.validateUpdate(ctx, obj, old)],
  });
  return {
    ...def, hooks, strategy: withFound(def.strategy),
    ...(def.statusStrategy === undefined ? {} : { statusStrategy: withFound(def.statusStrategy) }),
  };
}
