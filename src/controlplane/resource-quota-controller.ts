// The resource quota controller (kube-controller-manager's, pkg/controller/resourcequota): a
// quota's status.hard follows spec.hard and status.used is counted from the objects of its
// namespace, when the quota is created or its limits change, when objects it counts go away (or
// pods end), and on a periodic full resync.
import { isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import { Controller, type ControllerOptions } from '../client/controller.ts';
import { resourceName } from '../client/cache/informer-factory.ts';
import { ItemExponentialFailureRateLimiter } from '../client/workqueue/rate-limiter.ts';
import { podCountsTowardsQuota, type PodLike } from '../admission/plugins/resource-quota-pods.ts';
import { evaluatorsFor, quotaScopes } from '../admission/plugins/resource-quota.ts';
import type { GroupResource, QuotaObject } from '../admission/plugins/resource-quota-evaluators.ts';
import { addUsage, equalUsage, fromUsage, mask, toUsage, ZERO, type Usage } from '../admission/plugins/resource-quota-quantity.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

const RETRY_MS = 1000;
/** --resource-quota-sync-period's default. */
const DEFAULT_RESYNC_MS = 5 * 60 * 1000;

class Stale extends Error {}

export interface ResourceQuotaControllerOptions {
  readonly quotas: ResourceStore<KubeObject>;
  /** The store of a group/resource (custom resources too), undefined when not served. */
  readonly storeFor: (gr: GroupResource) => ResourceStore<KubeObject> | undefined;
  /** The namespaced stores whose changes can free quota. */
  readonly followed: readonly ResourceStore<KubeObject>[];
  readonly resyncMs?: number;
  readonly now?: () => number;
  /** The shared informers (absent: private ones). */
  readonly controller?: ControllerOptions;
}

export class ResourceQuotaController extends Controller {
  /** Namespace → names of its quotas. */
  private readonly quotasByNamespace = new Map<string, Set<string>>();
  private readonly now: () => number;
  private followingObjects: Promise<void> | undefined;

  constructor(private readonly opts: ResourceQuotaControllerOptions) {
    super('resource quota controller', {
      rateLimiter: new ItemExponentialFailureRateLimiter(RETRY_MS, 8 * RETRY_MS), quiet: (e) => e instanceof Stale, ...opts.controller,
    });
    this.now = opts.now ?? Date.now;
    this.follow(opts.quotas, 'resourcequotas', {
      onAdd: (q, initial) => { this.observeQuota(q as QuotaObject, initial); },
      // The periodic resync (onUpdate with the same object) recounts every namespace with a quota.
      onUpdate: (old, q) => { if (old === q) this.queue.add(q.metadata.namespace ?? ''); else this.observeQuota(q as QuotaObject, false); },
      onDelete: (q) => { this.quotasByNamespace.get(q.metadata.namespace ?? '')?.delete(q.metadata.name ?? ''); },
    }, { resyncMs: opts.resyncMs ?? DEFAULT_RESYNC_MS });
  }

  override async start(): Promise<void> {
    await super.start();
    if (this.quotasByNamespace.size > 0) await this.followObjects();
  }

  /**
   * Follows the changes of every other store, from when the first quota exists: until then no
   * write needs looking at, and a server without quotas pays nothing for this controller.
   */
  private followObjects(): Promise<void> {
    this.followingObjects ??= (async () => {
      const informers = this.opts.followed.filter((s) => s !== this.opts.quotas).map((store) => {
        const resource = store.definition.group === '' ? store.definition.resource : '';
        const changed = (old: KubeObject, obj: KubeObject): void => {
          // Pods that end free quota; so do services or claims that change size or type.
          if (old === obj || !this.quotasByNamespace.has(obj.metadata.namespace ?? '')) return;
          if (resource === 'services' || resource === 'persistentvolumeclaims' ||
            (resource === 'pods' && !podCountsTowardsQuota(obj as PodLike, this.now()))) this.queue.add(obj.metadata.namespace ?? '');
        };
        const deleted = (obj: KubeObject): void => {
          if (this.quotasByNamespace.has(obj.metadata.namespace ?? '')) this.queue.add(obj.metadata.namespace ?? '');
        };
        return this.follow(store, resourceName(store.definition), { onUpdate: changed, onDelete: deleted });
      });
      await Promise.all(informers.map((i) => i.start()));
      // What changed while the informers were starting is counted again.
      for (const ns of this.quotasByNamespace.keys()) this.queue.add(ns);
    })();
    return this.followingObjects;
  }

  /** Queues the namespace of a new quota, or of one whose limits are not yet its status's. */
  private observeQuota(q: QuotaObject, initial: boolean): void {
    const ns = q.metadata.namespace ?? '';
    let names = this.quotasByNamespace.get(ns);
    if (names === undefined) this.quotasByNamespace.set(ns, names = new Set());
    names.add(q.metadata.name ?? '');
    if (this.followingObjects === undefined && !initial) {
      this.followObjects().catch((err: unknown) => { console.error('resource quota controller:', err); });
    }
    const hard = toUsage(q.spec?.hard);
    const statusHard = toUsage(q.status?.hard);
    const used = q.status?.used ?? {};
    if (initial || !equalUsage(hard, statusHard) || [...hard.keys()].some((k) => !(k in used))) this.queue.add(ns);
  }

  protected async sync(ns: string): Promise<void> {
    await this.syncNamespace(ns);
  }

  private async syncNamespace(ns: string): Promise<void> {
    const ctx = systemContext(ns);
    const list = await this.opts.quotas.list(ctx, {});
    if (list.items.length === 0) { this.quotasByNamespace.delete(ns); return; }
    let stale = false;
    for (const item of list.items) {
      try {
        await this.syncQuota(item as QuotaObject);
      } catch (err) {
        if (isNotFound(err)) continue; // deleted meanwhile
        if (!(err instanceof Stale)) throw err;
        stale = true;
      }
    }
    if (stale) throw new Stale();
  }

  /** syncResourceQuota: counts usage and writes the status when it changed. */
  async syncQuota(q: QuotaObject): Promise<void> {
    const ns = q.metadata.namespace ?? '';
    const hard = toUsage(q.spec?.hard);
    const names = [...hard.keys()];
    let used: Usage = new Map();
    for (const e of evaluatorsFor(names)) {
      const store = this.opts.storeFor(e.groupResource);
      if (store === undefined) continue;
      const matched = e.matchingResources(names);
      let sum: Usage = new Map(matched.map((n) => [n, ZERO]));
      const scopes = quotaScopes(q);
      const items = (await store.list(systemContext(ns), {})).items;
      for (const obj of items) {
        if (scopes.every((s) => e.matchesScope(s, obj))) sum = addUsage(sum, mask(e.usage(obj, this.now()), matched));
      }
      used = addUsage(used, sum);
    }
    // Names no evaluator counts keep what was there.
    const prev = toUsage(q.status?.used);
    const next = mask(addUsage(mask(prev, names.filter((n) => !used.has(n))), used), names);
    if (equalUsage(hard, toUsage(q.status?.hard)) && equalUsage(next, prev) && Object.keys(q.status?.hard ?? {}).length === hard.size) return;
    const rv = q.metadata.resourceVersion;
    await this.opts.quotas.updateUnchecked(systemContext(ns), q.metadata.name ?? '', (cur) => {
      // Written against the version counted from, as kube's UpdateStatus does; a newer one is recounted.
      if (cur.metadata.resourceVersion !== rv) throw new Stale();
      const out = structuredClone(cur) as QuotaObject;
      out.status = { hard: { ...q.spec?.hard }, used: fromUsage(next) };
      return out;
    }, { dryRun: false });
  }
}
