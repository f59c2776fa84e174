// Deletes of the in-process controllers through the admission chain. kube's garbage collector and
// namespace controller run in kube-controller-manager and delete through the API, each under its
// own service account (--use-service-account-credentials), so admission webhooks and policies
// see those deletes with that identity. kapi runs them in process; this gives their store calls
// the validate callback a DELETE request of that user at the resource's preferred version gets.
// No Go counterpart as such: kube's controllers are API clients.
import type { DeleteOptions, KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext, type RequestContext, type UserInfo } from '../apimachinery/request/context.ts';
import { validateDelete } from '../endpoints/handlers/admission.ts';
import type { HandlerDeps, ResourceEndpoint } from '../endpoints/handlers/scope.ts';
import type { ValidateObjectFunc } from '../registry/rest/capabilities.ts';
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
