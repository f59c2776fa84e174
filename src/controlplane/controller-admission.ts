// Writes of the in-process controllers through the admission chain. kube's garbage collector and
// namespace controller run in kube-controller-manager and write through the API, each under its
// own service account (--use-service-account-credentials), so admission webhooks and policies
// see those deletes and updates with that identity. kapi runs them in process; this gives their
// store calls what a DELETE, or an UPDATE (their patches), of that user at the resource's
// preferred version gets: the admission callbacks and, for updates, managedFields tracked for
// the manager kube records (kube-controller-manager, its user agent's program name).
// No Go counterpart as such: kube's controllers are API clients.
import type { DeleteOptions, KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext, type RequestContext, type UserInfo } from '../apimachinery/request/context.ts';
import { attributes, validateDelete, validateUpdate, type WriteOptions } from '../endpoints/handlers/admission.ts';
import { toEndpointVersion, toHub } from '../endpoints/handlers/common.ts';
import { trackUpdate } from '../endpoints/handlers/field-manager.ts';
import type { HandlerDeps, ResourceEndpoint } from '../endpoints/handlers/scope.ts';
import type { ValidateObjectFunc, ValidateObjectUpdateFunc } from '../registry/rest/capabilities.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

/** The user kube-controller-manager's controller `name` acts as: its service account in kube-system. */
export function controllerUser(name: string): UserInfo {
  return {
    name: `system:serviceaccount:kube-system:${name}`,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
  };
}

export const GARBAGE_COLLECTOR_USER = controllerUser('generic-garbage-collector');
export const NAMESPACE_CONTROLLER_USER = controllerUser('namespace-controller');

/** A controller's delete: the context to call the store with and the admission callback. */
export interface AdmittedDelete {
  readonly ctx: RequestContext;
  readonly validate: ValidateObjectFunc | undefined;
}

/** Builds a controller's deletes; `name` '' for a deletecollection (kube's attributes then name nothing). */
export type ControllerDeletes = (store: ResourceStore<KubeObject>, namespace: string, opts: DeleteOptions, name: string) => AdmittedDelete;

/** Deletes without admission, as the system (controllers built without a server: unit tests). */
export const unadmittedDeletes: ControllerDeletes = (_store, namespace) => ({ ctx: systemContext(namespace), validate: undefined });

/**
 * Deletes admitted as `user`'s DELETE of the store's resource at the preferred version `endpointFor`
 * finds; a store without an endpoint (not served) is deleted without admission.
 */
export function admittedDeletes(user: UserInfo, deps: HandlerDeps,
  endpointFor: (group: string, resource: string) => ResourceEndpoint | undefined): ControllerDeletes {
  return (store, namespace, opts, name) => {
    const ctx: RequestContext = { ...systemContext(namespace), user };
    const ep = endpointFor(store.definition.group, store.definition.resource);
    return { ctx, validate: ep === undefined ? undefined : validateDelete(ep, deps, ctx, (opts.dryRun ?? []).includes('All'), opts, name) };
  };
}

/** The field manager of kube-controller-manager's writes: the program name of its user agent. */
export const CONTROLLER_MANAGER = 'kube-controller-manager';

/** A controller's update of one object (kube's controllers patch or update through the API). */
export interface AdmittedUpdate {
  readonly ctx: RequestContext;
  /**
   * The object the controller computed from the stored `old`, with its managedFields tracked
   * and through mutating admission: what to store. Rejects with the denial of a plugin or webhook.
   */
  admit(next: KubeObject, old: KubeObject): Promise<KubeObject>;
  readonly validate: ValidateObjectUpdateFunc | undefined;
}

/** Builds a controller's updates of `name` (`subresource` '' for the object itself: status, finalize). */
export type ControllerUpdates = (store: ResourceStore<KubeObject>, namespace: string, name: string, subresource?: string) => AdmittedUpdate;

/** Updates without admission or tracking, as the system (controllers built without a server). */
export const unadmittedUpdates: ControllerUpdates = (_store, namespace) =>
  ({ ctx: systemContext(namespace), admit: (next) => Promise.resolve(next), validate: undefined });

/** UpdateOptions as a patch without options has them before admission. */
const UPDATE_OPTIONS: WriteOptions = { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' };

/**
 * Updates admitted as `user`'s UPDATE of the store's resource (or subresource) at the preferred
 * version `endpointFor` finds; a store without an endpoint (not served) is updated without admission.
 */
export function admittedUpdates(user: UserInfo, deps: HandlerDeps,
  endpointFor: (group: string, resource: string, subresource: string) => ResourceEndpoint | undefined): ControllerUpdates {
  return (store, namespace, name, subresource = '') => {
    const ctx: RequestContext = { ...systemContext(namespace), user };
    const ep = endpointFor(store.definition.group, store.definition.resource, subresource);
    if (ep === undefined) return { ctx, admit: (next) => Promise.resolve(next), validate: undefined };
    return {
      ctx,
      admit: async (next, old) => {
        const live = toEndpointVersion(ep, deps, old);
        const obj = toHub(ep, deps, await trackUpdate(ep, deps, live, toEndpointVersion(ep, deps, next), CONTROLLER_MANAGER));
        await deps.admission.admit(ctx, attributes(ep, ctx, 'UPDATE', name, obj, old, false, deps, UPDATE_OPTIONS));
        return obj;
      },
      validate: validateUpdate(ep, deps, ctx, false, UPDATE_OPTIONS),
    };
  };
}
