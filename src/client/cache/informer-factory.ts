// client-go's SharedInformerFactory (informers/factory.go): one informer per followed resource,
// however many controllers follow it, so that a resource is listed and watched once.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { ListWatcher } from './list-watch.ts';
import { SharedInformer, type SharedInformerOptions } from './shared-informer.ts';

export class SharedInformerFactory {
  private readonly informers = new Map<ListWatcher, SharedInformer>();
  private started = false;

  constructor(private readonly defaults: Omit<SharedInformerOptions, 'indexers' | 'name'> = {}) {}

  /**
   * The informer of a resource, made on first use. Informers asked for after start() start at
   * once (custom resources, followed from when their CRD is served).
   */
  informerFor(lw: ListWatcher, name = ''): SharedInformer {
    let inf = this.informers.get(lw);
    if (inf === undefined) {
      inf = new SharedInformer<KubeObject>(lw, { ...this.defaults, name });
      this.informers.set(lw, inf);
      if (this.started) inf.start().catch((err: unknown) => { console.error(`informer ${name}: ${String(err)}`); });
    }
    return inf;
  }

  /** Stops and forgets the informer of a resource no longer served. */
  forget(lw: ListWatcher): void {
    this.informers.get(lw)?.stop();
    this.informers.delete(lw);
  }

  /** Starts every informer made so far (and those made later); resolves when all have synced (WaitForCacheSync). */
  async start(): Promise<void> {
    this.started = true;
    await Promise.all([...this.informers.values()].map((i) => i.start()));
  }

  stop(): void {
    for (const i of this.informers.values()) i.stop();
  }
}
