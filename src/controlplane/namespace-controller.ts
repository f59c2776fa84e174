// The namespace controller: empties a Terminating namespace of every namespaced resource,
// then clears its `kubernetes` finalizer and deletes it.
// Counterpart of pkg/controller/namespace.
import { isConflict, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { Namespace, NamespaceCondition } from '../apis/core/v1/types.ts';
import { nowRFC3339 } from '../registry/generic/names.ts';
import type { Store } from '../registry/generic/store.ts';
import type { GracefulDeleter, Updater } from '../registry/rest/capabilities.ts';

const FINALIZER = 'kubernetes';
const RETRY_MS = 1000;

export class NamespaceController {
  private readonly working = new Set<string>();
  private readonly abort = new AbortController();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly namespaces: Store<KubeObject> & GracefulDeleter,
    /** The finalize subresource: the only way to change spec.finalizers. */
    private readonly finalize: Updater,
    /** Every namespaced store whose objects must go with their namespace, custom resources too. */
    private readonly contents: () => Iterable<Store<KubeObject>>,
  ) {}

  async start(): Promise<void> {
    const w = await this.namespaces.watch(systemContext('', this.abort.signal), {});
    void (async () => {
      try {
        for await (const ev of w) {
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.enqueue(ev.object as Namespace);
        }
      } catch {
        // the store closed: the server is stopping
      }
    })();
    this.abort.signal.addEventListener('abort', () => w.stop());
  }

  stop(): void {
    this.abort.abort();
    for (const t of this.timers) clearTimeout(t);
  }

  private enqueue(ns: Namespace): void {
    const name = ns.metadata.name ?? '';
    if (ns.metadata.deletionTimestamp === undefined || this.working.has(name) || this.abort.signal.aborted) return;
    this.working.add(name);
    void this.sync(name).then((done) => {
      this.working.delete(name);
      if (!done && !this.abort.signal.aborted) {
        const t = setTimeout(() => {
          this.timers.delete(t);
          void this.namespaces.get(systemContext(name), name, {}).then((n) => this.enqueue(n as Namespace), () => undefined);
        }, RETRY_MS);
        this.timers.add(t);
      }
    });
  }

  /** Resolves true when the namespace is gone or no longer ours to finish. */
  private async sync(name: string): Promise<boolean> {
    try {
      const remaining = new Map<string, number>();
      const finalizers = new Map<string, number>();
      for (const store of this.contents()) {
        const ctx = systemContext(name);
        await store.deleteCollection(ctx, undefined, { propagationPolicy: 'Background' }, {});
        const left = (await store.list(ctx, {})).items;
        if (left.length === 0) continue;
        remaining.set(`${store.definition.resource}.${store.definition.group}`, left.length);
        for (const o of left) for (const f of o.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
      }
      if (remaining.size > 0) {
        await this.reportRemaining(name, remaining, finalizers);
        return false;
      }
      const ctx = systemContext(name);
      await this.finalize.update(ctx, name, {
        updatedObject: (_c, cur) => {
          const ns = structuredClone(cur) as Namespace;
          if (ns.spec !== undefined) ns.spec.finalizers = (ns.spec.finalizers ?? []).filter((f) => f !== FINALIZER);
          return ns;
        },
      }, undefined, undefined, false, { dryRun: false });
      await this.namespaces.delete(ctx, name, undefined, {});
      return true;
    } catch (err) {
      if (isNotFound(err)) return true;
      if (!isConflict(err)) console.error(`namespace controller: ${name}:`, err);
      return false;
    }
  }

  /** Writes kube's deletion conditions on a namespace whose content is not gone yet. */
  private async reportRemaining(name: string, remaining: ReadonlyMap<string, number>, finalizers: ReadonlyMap<string, number>): Promise<void> {
    const want = deletionConditions(remaining, finalizers);
    await this.namespaces.updateUnchecked(systemContext(name), name, (cur) => {
      const ns = structuredClone(cur) as Namespace;
      const conditions = mergeConditions(ns.status?.conditions ?? [], want, nowRFC3339());
      if (JSON.stringify(conditions) === JSON.stringify(ns.status?.conditions ?? [])) return cur;
      ns.status = { ...ns.status, conditions };
      return ns;
    }, { dryRun: false });
  }
}

type WantedCondition = Omit<NamespaceCondition, 'lastTransitionTime'>;

/**
 * The namespace controller's five deletion conditions, in kube's order: content still there
 * ("pods. has 1 resource instances") and the finalizers holding it, the others as succeeded.
 */
export function deletionConditions(remaining: ReadonlyMap<string, number>, finalizers: ReadonlyMap<string, number>): WantedCondition[] {
  const resources = [...remaining].map(([gr, n]) => `${gr} has ${n} resource instances`).sort();
  const held = [...finalizers].map(([f, n]) => `${f} in ${n} resource instances`).sort();
  return [
    { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
    { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
    { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
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
