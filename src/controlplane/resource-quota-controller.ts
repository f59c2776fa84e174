// The resource quota controller (kube-controller-manager's, pkg/controller/resourcequota): a
// quota's status.hard follows spec.hard and status.used is counted from the objects of its
// namespace, when the quota is created or its limits change, when objects it counts go away (or
// pods end), and on a periodic full resync.
import { isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { Watch } from '../apimachinery/watch/event.ts';
import { podCountsTowardsQuota, type PodLike } from '../admission/plugins/resource-quota-pods.ts';
import { evaluatorsFor, quotaScopes } from '../admission/plugins/resource-quota.ts';
import type { GroupResource, QuotaObject } from '../admission/plugins/resource-quota-evaluators.ts';
import { addUsage, equalUsage, fromUsage, mask, toUsage, ZERO, type Usage } from '../admission/plugins/resource-quota-quantity.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

const RETRY_MS = 1000;
/** --resource-quota-sync-period's default. */
export const DEFAULT_RESYNC_MS = 5 * 60 * 1000;

class Stale extends Error {}

export interface ResourceQuotaControllerOptions {
  readonly quotas: ResourceStore<KubeObject>;
  /** The store of a group/resource (custom resources too), undefined when not served. */
  readonly storeFor: (gr: GroupResource) => ResourceStore<KubeObject> | undefined;
  /** The namespaced stores whose changes can free quota. */
  readonly followed: readonly ResourceStore<KubeObject>[];
  readonly resyncMs?: number;
  readonly now?: () => number;
}

export class ResourceQuotaController {
  private readonly abort = new AbortController();
  private readonly watches: Watch[] = [];
  /** Namespace → names of its quotas. */
  private readonly quotasByNamespace = new Map<string, Set<string>>();
  private readonly queue = new Set<string>();
  private running = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly now: () => number;
  private followingObjects = false;

  constructor(private readonly opts: ResourceQuotaControllerOptions) {
    this.now = opts.now ?? Date.now;
  }

  async start(): Promise<void> {
    const existing = await this.opts.quotas.list(systemContext(''), {});
    for (const q of existing.items) this.observeQuota(q as QuotaObject, true);
    this.follow(this.opts.quotas, await this.opts.quotas.watch(systemContext(''), { resourceVersion: existing.metadata.resourceVersion ?? '' }));
    if (this.quotasByNamespace.size > 0) await this.followObjects();
    const resync = setInterval(() => { for (const ns of this.quotasByNamespace.keys()) this.enqueue(ns); }, this.opts.resyncMs ?? DEFAULT_RESYNC_MS);
    resync.unref();
    this.timers.add(resync);
  }

  /**
   * Follows the changes of every other store, from when the first quota exists: until then no
   * write needs looking at, and a server without quotas pays nothing for this controller.
   */
  private async followObjects(): Promise<void> {
    if (this.followingObjects) return;
    this.followingObjects = true;
    for (const store of this.opts.followed) {
      if (store === this.opts.quotas) continue;
      this.follow(store, await store.watch(systemContext(''), {}));
    }
    // What changed while the watches were starting is counted again.
    for (const ns of this.quotasByNamespace.keys()) this.enqueue(ns);
  }

  stop(): void {
    this.abort.abort();
    for (const w of this.watches) w.stop();
    for (const t of this.timers) clearTimeout(t);
  }

  private follow(store: ResourceStore<KubeObject>, w: Watch): void {
    if (this.abort.signal.aborted) { w.stop(); return; }
    this.watches.push(w);
    const isQuota = store === this.opts.quotas;
    const resource = store.definition.group === '' ? store.definition.resource : '';
    void (async () => {
      try {
        for await (const ev of w) {
          if (ev.type !== 'ADDED' && ev.type !== 'MODIFIED' && ev.type !== 'DELETED') continue;
          const ns = ev.object.metadata.namespace ?? '';
          if (isQuota) {
            if (ev.type === 'DELETED') this.quotasByNamespace.get(ns)?.delete(ev.object.metadata.name ?? '');
            else this.observeQuota(ev.object as QuotaObject, false);
            continue;
          }
          if (!this.quotasByNamespace.has(ns)) continue;
          // Deletions free quota; so do pods that end, and services or claims that change size or type.
          if (ev.type === 'DELETED' || (ev.type === 'MODIFIED' && (resource === 'services' || resource === 'persistentvolumeclaims' ||
              (resource === 'pods' && !podCountsTowardsQuota(ev.object as PodLike, this.now()))))) this.enqueue(ns);
        }
      } catch {
        // storage closed: stopping
      }
    })();
  }

  /** Queues the namespace of a new quota, or of one whose limits are not yet its status's. */
  private observeQuota(q: QuotaObject, initial: boolean): void {
    const ns = q.metadata.namespace ?? '';
    let names = this.quotasByNamespace.get(ns);
    if (names === undefined) this.quotasByNamespace.set(ns, names = new Set());
    names.add(q.metadata.name ?? '');
    if (!this.followingObjects && !initial) {
      this.followObjects().catch((err: unknown) => { console.error('resource quota controller:', err); });
    }
    const hard = toUsage(q.spec?.hard);
    const statusHard = toUsage(q.status?.hard);
    const used = q.status?.used ?? {};
    if (initial || !equalUsage(hard, statusHard) || [...hard.keys()].some((k) => !(k in used))) this.enqueue(ns);
  }

  private enqueue(ns: string): void {
    this.queue.add(ns);
    if (!this.running && !this.abort.signal.aborted) { this.running = true; setImmediate(() => void this.drain()); }
  }

  private async drain(): Promise<void> {
    const failed: string[] = [];
    while (this.queue.size > 0 && !this.abort.signal.aborted) {
      const ns = this.queue.values().next().value as string;
      this.queue.delete(ns);
      try {
        await this.syncNamespace(ns);
      } catch (err) {
        if (!(err instanceof Stale)) console.error(`resource quota controller: ${ns}:`, err);
        failed.push(ns);
      }
    }
    this.running = false;
    if (failed.length > 0 && !this.abort.signal.aborted) {
      const t = setTimeout(() => { this.timers.delete(t); for (const f of failed) this.enqueue(f); }, RETRY_MS);
      this.timers.add(t);
    }
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
