// client-go's SharedInformerFactory (informers/factory.go): one informer per resource, however
// many controllers follow it, so that a resource is listed and watched once. Informers are keyed
// by the resource's name ("pods", "clusterroles.rbac.authorization.k8s.io"), as client-go keys
// them by type: whoever asks first supplies the ListWatcher.
// Counterpart of k8s.io/client-go/informers/factory.go.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { ListWatcher } from './list-watch.ts';
import { SharedInformer, type SharedInformerOptions } from './shared-informer.ts';

/** The informer name of a resource: "pods" for the core group, "resource.group" otherwise. */
export const resourceName = (gr: { readonly group: string; readonly resource: string }): string =>
  gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;

export class SharedInformerFactory {
  private readonly informers = new Map<string, SharedInformer>();
  private started = false;

  constructor(private readonly defaults: Omit<SharedInformerOptions, 'indexers' | 'name'> = {}) {}

  /**
   * The informer of a resource, made on first use. Informers asked for after start() start at
   * once (custom resources, followed from when their CRD is served).
   */
  informerFor(lw: ListWatcher, name: string): SharedInformer {
    let inf = this.informers.get(name);
    if (inf === undefined) {
      inf = new SharedInformer<KubeObject>(lw, { ...this.defaults, name });
      this.informers.set(name, inf);
      if (this.started) inf.start().catch((err: unknown) => { console.error(`informer ${name}: ${String(err)}`); });
    }
    return inf;
  }

  /** Stops and forgets the informer of a resource no longer served (or whose storage changed). */
  forget(name: string): void {
    this.informers.get(name)?.stop();
    this.informers.delete(name);
  }

  /**
   * Starts every informer made so far (and those made later); resolves when all have synced, or
   * their first lists failed (then they retry: see unsynced).
   */
  async start(): Promise<void> {
    this.started = true;
    await Promise.all([...this.informers.values()].map((i) => i.start()));
  }

  stop(): void {
    for (const i of this.informers.values()) i.stop();
  }

  /** The started informers that have not synced yet (whose first list keeps failing), by name. */
  unsynced(): string[] {
    if (!this.started) return [];
    return [...this.informers].filter(([, i]) => !i.hasSynced() && !i.stopped).map(([name]) => name).sort();
  }
}
