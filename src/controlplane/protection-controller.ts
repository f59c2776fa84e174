// What the pvc-protection and pv-protection controllers share: they follow one store, and when
// an object marked for deletion still carries their finalizer and is no longer in use, they
// remove the finalizer (and the store then deletes the object).
// Counterpart of pkg/controller/volume/pvcprotection and pkg/controller/volume/pvprotection.
import { isConflict, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import { Controller, type ControllerOptions } from '../client/controller.ts';
import { metaNamespaceKey, splitMetaNamespaceKey } from '../client/cache/indexer.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import { ItemExponentialFailureRateLimiter } from '../client/workqueue/rate-limiter.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

const RETRY_MS = 500;

export abstract class ProtectionController extends Controller {
  protected readonly objects: SharedInformer;

  constructor(protected readonly store: ResourceStore<KubeObject>, resource: string, private readonly finalizer: string, label: string,
    opts: ControllerOptions = {}) {
    super(label, { rateLimiter: new ItemExponentialFailureRateLimiter(RETRY_MS, 8 * RETRY_MS), quiet: isConflict, ...opts });
    const enqueue = (obj: KubeObject): void => { if (this.pending(obj)) this.queue.add(metaNamespaceKey(obj)); };
    this.objects = this.follow(store, resource, { onAdd: enqueue, onUpdate: (_old, obj) => enqueue(obj) });
  }

  /** Whether the object is still in use, so its finalizer must stay. */
  protected abstract inUse(obj: KubeObject): Promise<boolean>;

  /** The keys of the objects of a namespace that wait for their finalizer to go. */
  protected terminatingIn(namespace: string): string[] {
    return this.objects.byNamespace(namespace).filter((o) => this.pending(o)).map(metaNamespaceKey);
  }

  private pending(obj: KubeObject): boolean {
    return obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).includes(this.finalizer);
  }

  protected async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const ctx = systemContext(namespace);
    let obj: KubeObject;
    try {
      obj = await this.store.get(ctx, name, {});
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (!this.pending(obj) || await this.inUse(obj)) return; // an event of what uses it brings it back
    try {
      await this.store.update(ctx, name, {
        preconditions: { uid: obj.metadata.uid ?? '' },
        updatedObject: (_c, cur) => {
          if (cur === undefined) return obj;
          const next = structuredClone(cur);
          const rest = (cur.metadata.finalizers ?? []).filter((f) => f !== this.finalizer);
          if (rest.length > 0) next.metadata.finalizers = rest;
          else delete next.metadata.finalizers;
          return next;
        },
      }, undefined, undefined, false, { dryRun: false });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
