// kube-controller-manager's clusterrole-aggregation controller (pkg/controller/clusterroleaggregation):
// a ClusterRole with an aggregationRule gets as rules the union of the rules of every other
// ClusterRole its selectors match, in a deterministic order (selectors in order, matching roles by
// name, rules in order, duplicates dropped), and keeps it so as ClusterRoles change.
import { isNotFound } from '../../apimachinery/errors/status-error.ts';
import { labelSelectorAsSelector } from '../../apimachinery/labels/label-selector.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { Watch } from '../../apimachinery/watch/event.ts';
import type { ClusterRole, PolicyRule } from '../../apis/rbac/v1/types.ts';
import type { ResourceStore } from '../../registry/rest/strategy.ts';
import { semanticEqual } from './reconcile.ts';

const RETRY_MS = 500;
const RELIST_MS = 1000;

/** Go's string order (byte-wise for the ASCII names ClusterRoles have). */
const byName = (a: ClusterRole, b: ClusterRole): number => {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * The rules `role` aggregates from `all` (which may include `role` itself, skipped). Throws a
 * LabelSelectorError for an invalid selector.
 */
export function aggregateRules(role: ClusterRole, all: Iterable<ClusterRole>): PolicyRule[] {
  const out: PolicyRule[] = [];
  const roles = [...all];
  for (const sel of role.aggregationRule?.clusterRoleSelectors ?? []) {
    const selector = labelSelectorAsSelector(sel);
    const matching = roles.filter((r) => selector.matches(r.metadata.labels)).sort(byName);
    for (const r of matching) {
      if (r.metadata.name === role.metadata.name) continue;
      for (const rule of r.rules ?? []) {
        if (!out.some((have) => semanticEqual(have, rule))) out.push(structuredClone(rule));
      }
    }
  }
  return out;
}

const SKIP = new Error('no longer aggregated');

export interface AggregationControllerOptions {
  /** Where sync failures go. Default: console.error. */
  readonly warn?: (message: string) => void;
}

export class ClusterRoleAggregationController {
  /** The ClusterRoles as last seen, by name (the informer's cache). */
  private readonly cache = new Map<string, ClusterRole>();
  private readonly queue = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly abort = new AbortController();
  private readonly warn: (message: string) => void;
  private watch: Watch | undefined;
  private draining: Promise<void> | undefined;

  constructor(private readonly clusterRoles: ResourceStore<KubeObject>, opts: AggregationControllerOptions = {}) {
    this.warn = opts.warn ?? ((m) => console.error(m));
  }

  /** Lists the ClusterRoles, follows their changes and aggregates every aggregated role once. */
  async start(): Promise<void> {
    await this.listAndWatch();
  }

  stop(): void {
    this.abort.abort();
    this.watch?.stop();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.queue.clear();
  }

  /** Resolves when no sync is queued or running (for tests and orderly shutdown). */
  async idle(): Promise<void> {
    while (this.draining !== undefined) await this.draining;
  }

  private async listAndWatch(): Promise<void> {
    const ctx = systemContext('', this.abort.signal);
    const list = await this.clusterRoles.list(ctx, {});
    this.cache.clear();
    for (const item of list.items) this.cache.set(item.metadata.name ?? '', item as ClusterRole);
    const w = await this.clusterRoles.watch(ctx, { resourceVersion: list.metadata.resourceVersion ?? '', allowWatchBookmarks: true });
    if (this.abort.signal.aborted) { w.stop(); return; }
    this.watch = w;
    this.enqueueAggregated();
    void this.follow(w);
  }

  private async follow(w: Watch): Promise<void> {
    try {
      for await (const ev of w) {
        switch (ev.type) {
          case 'ADDED': case 'MODIFIED':
            this.cache.set(ev.object.metadata.name ?? '', ev.object as ClusterRole);
            this.enqueueAggregated();
            break;
          case 'DELETED':
            this.cache.delete(ev.object.metadata.name ?? '');
            this.enqueueAggregated();
            break;
          case 'BOOKMARK':
            break;
          case 'ERROR':
            w.stop();
            break;
        }
      }
    } catch {
      // the store closed
    }
    // The watch ended (expired or closed under us): list again and resume.
    this.relist();
  }

  private relist(): void {
    this.later(RELIST_MS, () => {
      this.listAndWatch().catch((err: unknown) => {
        if (this.abort.signal.aborted) return;
        this.warn(`clusterrole aggregation: relist: ${String(err)}`);
        this.relist();
      });
    });
  }

  private later(ms: number, fn: () => void): void {
    if (this.abort.signal.aborted) return;
    const t = setTimeout(() => { this.timers.delete(t); fn(); }, ms);
    this.timers.add(t);
  }

  /**
   * Which aggregated role depends on which is not tracked: any change queues every aggregated
   * role, as kube's controller does (the set of ClusterRoles is small).
   */
  private enqueueAggregated(): void {
    for (const [name, role] of this.cache) if (role.aggregationRule !== undefined) this.enqueue(name);
  }

  private enqueue(name: string): void {
    if (this.abort.signal.aborted) return;
    this.queue.add(name);
    if (this.draining === undefined) {
      this.draining = (async () => {
        await Promise.resolve();
        while (this.queue.size > 0 && !this.abort.signal.aborted) {
          const next = this.queue.values().next().value as string;
          this.queue.delete(next);
          try {
            await this.sync(next);
          } catch (err) {
            if (this.abort.signal.aborted) break;
            if (!isNotFound(err)) this.warn(`clusterrole aggregation: ${next}: ${String(err)}`);
            this.later(RETRY_MS, () => this.enqueue(next));
          }
        }
      })().finally(() => { this.draining = undefined; });
    }
  }

  private async sync(name: string): Promise<void> {
    const role = this.cache.get(name);
    if (role?.aggregationRule === undefined) return;
    const rules = aggregateRules(role, this.cache.values());
    if (semanticEqual(rules, role.rules ?? [])) return;
    const ctx = systemContext('', this.abort.signal);
    try {
      await this.clusterRoles.update(ctx, name, {
        updatedObject: (_c, cur) => {
          if (cur === undefined || (cur as ClusterRole).aggregationRule === undefined) throw SKIP;
          const next = structuredClone(cur) as ClusterRole;
          if (rules.length > 0) next.rules = rules; else delete next.rules;
          return next as KubeObject;
        },
      }, undefined, undefined, false, { dryRun: false, fieldManager: 'clusterrole-aggregation-controller' });
    } catch (err) {
      if (err === SKIP) return;
      throw err;
    }
  }
}
