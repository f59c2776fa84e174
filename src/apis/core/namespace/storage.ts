// Namespace deletion (pkg/registry/core/namespace/storage): deleting a namespace first marks
// it Terminating; the namespace controller empties it and clears spec.finalizers through the
// finalize subresource; only then does a delete remove it.
import { newConflict } from '../../../apimachinery/errors/status-error.ts';
import type { DeleteOptions, KubeObject, Status } from '../../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../../apimachinery/request/context.ts';
import { nowRFC3339 } from '../../../registry/generic/names.ts';
import type { ResourceStore } from '../../../registry/rest/strategy.ts';
import type { GracefulDeleter, ValidateObjectFunc } from '../../../registry/rest/capabilities.ts';
import type { Namespace } from '../v1/types.ts';

/** The namespaces store with kube's two-phase delete; every other verb is the generic ResourceStore's. */
export function namespaceStorage(store: ResourceStore<Namespace>): ResourceStore<Namespace> & GracefulDeleter {
  const twoPhaseDelete = async (ctx: RequestContext, name: string, validate: ValidateObjectFunc | undefined,
    opts: DeleteOptions): Promise<{ object: KubeObject | Status; deletedImmediately: boolean }> => {
    const ns = await store.get(ctx, name, {}) as Namespace;
    // kube makes sure of a uid precondition; admission (which shares the options) sees it.
    if (opts.preconditions?.uid === undefined && ns.metadata.uid !== undefined) {
      opts.preconditions = { ...opts.preconditions, uid: ns.metadata.uid };
    }
    const p = opts.preconditions;
    if (p?.uid !== undefined && p.uid !== ns.metadata.uid) {
      throw newConflict(store.qualifiedResource, name,
        `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${ns.metadata.uid ?? ''}`);
    }
    if (p?.resourceVersion !== undefined && p.resourceVersion !== ns.metadata.resourceVersion) {
      throw newConflict(store.qualifiedResource, name,
        `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${ns.metadata.resourceVersion ?? ''}`);
    }
    const finalizers = ns.spec?.finalizers ?? [];
    if (ns.metadata.deletionTimestamp !== undefined && finalizers.length === 0 && (ns.metadata.finalizers ?? []).length === 0) {
      return store.delete(ctx, name, validate, opts);
    }
    if (validate !== undefined) await validate(ns);
    if (ns.metadata.deletionTimestamp !== undefined) return { object: ns, deletedImmediately: false };
    const dryRun = (opts.dryRun ?? []).includes('All');
    const object = await store.updateUnchecked(ctx, name, (cur) => {
      const next = structuredClone(cur) as Namespace;
      next.metadata.deletionTimestamp ??= nowRFC3339();
      next.status = { ...next.status, phase: 'Terminating' };
      return next;
    }, { dryRun });
    return { object, deletedImmediately: false };
  };
  return Object.assign(Object.create(store) as ResourceStore<Namespace>, { delete: twoPhaseDelete });
}
