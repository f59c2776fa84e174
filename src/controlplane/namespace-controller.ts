// The namespace controller: empties a Terminating namespace of every namespaced resource, pods
// first (nothing else goes while a pod remains), reports what remains in kube's conditions, then
// clears its `kubernetes` finalizer and deletes it. Its deletes, its status updates and the
// finalize are admitted as kube's (an API client as its service account); the delete once the
// finalizers are gone is the registry's own, as kube's finalize update deletes the namespace.
// Counterpart of pkg/controller/namespace.
import { isConflict, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { DeleteOptions, KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { Namespace, NamespaceCondition } from '../apis/core/v1/types.ts';
import { nowRFC3339 } from '../registry/generic/names.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import type { GracefulDeleter, Updater } from '../registry/rest/capabilities.ts';
import { Controller, type ControllerOptions } from '../client/controller.ts';
import { unadmittedDeletes, unadmittedUpdates, type ControllerDeletes, type ControllerUpdates } from './controller-admission.ts';
import { ItemExponentialFailureRateLimiter } from '../client/workqueue/rate-limiter.ts';
import type { SyncResult } from '../client/workqueue/worker.ts';

const FINALIZER = 'kubernetes';
/** While content remains, the namespace is looked at again after this long. */
const RETRY_MS = 1000;

export class NamespaceController extends Controller {
  constructor(
    private readonly namespaces: ResourceStore<KubeObject> & GracefulDeleter,
    /** The finalize subresource: the only way to change spec.finalizers. */
    private readonly finalize: Updater,
    /** Every namespaced store whose objects must go with their namespace, custom resources too. */
    private readonly contents: () => Iterable<ResourceStore<KubeObject>>,
    opts: ControllerOptions = {},
    /** How its deletes are admitted (kube's namespace controller deletes through the API as its service account). */
    private readonly deletes: ControllerDeletes = unadmittedDeletes,
    /** How its updates (namespaces/status, namespaces/finalize) are admitted. */
    private readonly updates: ControllerUpdates = unadmittedUpdates,
  ) {
    super('namespace controller', { rateLimiter: new ItemExponentialFailureRateLimiter(RETRY_MS, 8 * RETRY_MS), quiet: isConflict, ...opts });
    const enqueue = (ns: KubeObject): void => { if (ns.metadata.deletionTimestamp !== undefined) this.queue.add(ns.metadata.name ?? ''); };
    this.follow(namespaces, 'namespaces', { onAdd: enqueue, onUpdate: (_old, ns) => enqueue(ns) });
  }

  /** Empties a terminating namespace; asks to come back while content remains. */
  protected async sync(name: string): Promise<SyncResult> {
    let ns: Namespace;
    try {
      ns = await this.namespaces.get(systemContext(name), name, {}) as Namespace;
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (ns.metadata.deletionTimestamp === undefined) return;
    const deletedAt = Date.parse(ns.metadata.deletionTimestamp);
    const stores = [...this.contents()];
    const isPods = (s: ResourceStore<KubeObject>): boolean => s.definition.group === '' && s.definition.resource === 'pods';
    // OrderedNamespaceDeletion (GA): pods go first; nothing else is deleted while one remains
    const pods = stores.find(isPods);
    if (pods !== undefined) {
      const estimate = await this.podGraceEstimate(pods, name, deletedAt);
      const left = await this.emptyStore(pods, name);
      if (left.length > 0) {
        const errors = estimate === 0 && !left.some((o) => (o.metadata.finalizers ?? []).length > 0)
          ? [`unexpected items still remain in namespace: ${name} for gvr: /v1, Resource=pods`] : [];
        await this.writeConditions(name, new Map(), new Map(), errors);
        return { requeueAfterMs: estimate > 0 ? (Math.floor(estimate / 2) + 1) * 1000 : RETRY_MS };
      }
    }
    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    for (const store of stores) {
      if (isPods(store)) continue;
      const left = await this.emptyStore(store, name);
      if (left.length === 0) continue;
      remaining.set(`${store.definition.resource}.${store.definition.group}`, left.length);
      for (const o of left) for (const f of o.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    }
    if (remaining.size > 0) {
      await this.writeConditions(name, remaining, finalizers, []);
      return { requeueAfterMs: RETRY_MS };
    }
    // All content gone: kube's conditions say so (written once) before the finalizer goes.
    await this.writeConditions(name, remaining, finalizers, []);
    const u = this.updates(this.namespaces, name, name, 'finalize');
    try {
      await this.finalize.update(u.ctx, name, {
        updatedObject: async (_c, cur) => {
          const old = cur as KubeObject;
          const next = structuredClone(old) as Namespace;
          if (next.spec !== undefined) next.spec.finalizers = (next.spec.finalizers ?? []).filter((f) => f !== FINALIZER);
          return await u.admit(next, old);
        },
      }, undefined, u.validate, false, { dryRun: false });
      await this.namespaces.delete(systemContext(name), name, undefined, {});
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** deleteCollection of a store in the namespace; what is left of it. */
  private async emptyStore(store: ResourceStore<KubeObject>, namespace: string): Promise<KubeObject[]> {
    const opts: DeleteOptions = { propagationPolicy: 'Background' };
    const d = this.deletes(store, namespace, opts, '');
    await store.deleteCollection(d.ctx, d.validate, opts, {});
    return (await store.list(systemContext(namespace), {})).items;
  }

  /**
   * estimateGracefulTermination for pods: the longest grace period of a pod not yet finished,
   * 0 once that long has passed since the namespace's deletion.
   */
  private async podGraceEstimate(pods: ResourceStore<KubeObject>, namespace: string, deletedAt: number): Promise<number> {
    let estimate = 0;
    for (const o of (await pods.list(systemContext(namespace), {})).items) {
      const pod = o as KubeObject & { spec?: { terminationGracePeriodSeconds?: number }; status?: { phase?: string } };
      if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') continue;
      estimate = Math.max(estimate, pod.spec?.terminationGracePeriodSeconds ?? 0);
    }
    return Date.now() - deletedAt >= estimate * 1000 ? 0 : estimate;
  }

  /** Writes kube's deletion conditions on a namespace whose content is not gone yet. */
  private async writeConditions(name: string, remaining: ReadonlyMap<string, number>, finalizers: ReadonlyMap<string, number>,
    errors: readonly string[]): Promise<void> {
    const want = deletionConditions(remaining, finalizers, errors);
    const changed = (ns: Namespace): Namespace | undefined => {
      const conditions = mergeConditions(ns.status?.conditions ?? [], want, nowRFC3339());
      return JSON.stringify(conditions) === JSON.stringify(ns.status?.conditions ?? []) ? undefined : { ...ns, status: { ...ns.status, conditions } };
    };
    // kube's controller sends UpdateStatus only when the conditions change.
    let current: Namespace;
    try {
      current = await this.namespaces.get(systemContext(name), name, {}) as Namespace;
    } catch (err) {
      if (isNotFound(err)) return; // finalized and gone meanwhile
      throw err;
    }
    if (changed(current) === undefined) return;
    const statusStrategy = this.namespaces.definition.statusStrategy;
    const status = statusStrategy === undefined ? this.namespaces : this.namespaces.withStrategy(statusStrategy);
    const u = this.updates(this.namespaces, name, name, 'status');
    await status.update(u.ctx, name, {
      updatedObject: async (_c, cur) => {
        const old = cur as KubeObject;
        const next = changed(structuredClone(old) as Namespace);
        return next === undefined ? old : await u.admit(next, old);
      },
    }, undefined, u.validate, false, { dryRun: false });
  }
}

type WantedCondition = Omit<NamespaceCondition, 'lastTransitionTime'>;

/**
 * The namespace controller's five deletion conditions, in kube's order: deletions that failed,
 * content still there ("configmaps. has 1 resource instances") and the finalizers holding it, the
 * others as succeeded.
 */
export function deletionConditions(remaining: ReadonlyMap<string, number>, finalizers: ReadonlyMap<string, number>,
  errors: readonly string[] = []): WantedCondition[] {
  const resources = [...remaining].map(([gr, n]) => `${gr} has ${n} resource instances`).sort();
  const held = [...finalizers].map(([f, n]) => `${f} in ${n} resource instances`).sort();
  return [
    { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
    { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
    errors.length > 0
      ? { type: 'NamespaceDeletionContentFailure', status: 'True', reason: 'ContentDeletionFailed',
        message: `Failed to delete all resource types, ${errors.length} remaining: ${[...errors].sort().join(', ')}` }
      : { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
    resources.length > 0
      ? { type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${resources.join(', ')}` }
      : { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
    held.length > 0
      ? { type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizersRemain',
        message: `Some content in the namespace has finalizers remaining: ${held.join(', ')}` }
      : { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
  ];
}

/** The wanted conditions; a condition whose status did not change keeps its lastTransitionTime. */
function mergeConditions(current: readonly NamespaceCondition[], want: readonly WantedCondition[], now: string): NamespaceCondition[] {
  return want.map((w) => {
    const cur = current.find((c) => c.type === w.type);
    const lastTransitionTime = cur !== undefined && cur.status === w.status ? cur.lastTransitionTime ?? now : now;
    return { type: w.type, status: w.status, lastTransitionTime, reason: w.reason ?? '', message: w.message ?? '' };
  });
}
