// The namespace controller: empties a Terminating namespace of every namespaced resource,
// then clears its `kubernetes` finalizer and deletes it.
import { isConflict, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { Namespace } from '../apis/core/v1/types.ts';
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
      let remaining = 0;
      for (const store of this.contents()) {
        const ctx = systemContext(name);
        await store.deleteCollection(ctx, undefined, { propagationPolicy: 'Background' }, {});
        remaining += (await store.list(ctx, { limit: 1 })).items.length;
      }
      if (remaining > 0) return false;
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
}
