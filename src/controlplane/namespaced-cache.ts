// A watch-fed cache of one namespaced resource by namespace (an informer's lister in kube), for
// admission plugins that read it on every request of a kind (ResourceQuota on every create,
// LimitRanger on pods): a storage list each time would cost more than the request itself. Until
// the cache is synced, and after its watch ends, lists are answered from storage.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { Store } from '../registry/generic/store.ts';

export class NamespacedCache {
  private readonly byNamespace = new Map<string, Map<string, KubeObject>>();
  private readonly abort = new AbortController();
  private synced = false;

  constructor(private readonly store: Store<KubeObject>) {}

  async start(): Promise<void> {
    // From resourceVersion "": the current objects come first as ADDED, then every change.
    const w = await this.store.watch(systemContext('', this.abort.signal), {});
    this.abort.signal.addEventListener('abort', () => w.stop());
    const list = await this.store.list(systemContext(''), {});
    for (const o of list.items) this.put(o);
    this.synced = true;
    void (async () => {
      try {
        for await (const ev of w) {
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.put(ev.object);
          else if (ev.type === 'DELETED') this.byNamespace.get(ev.object.metadata.namespace ?? '')?.delete(ev.object.metadata.name ?? '');
        }
      } catch {
        // storage closed: the server is stopping
      } finally {
        this.synced = false;
      }
    })();
  }

  stop(): void {
    this.abort.abort();
  }

  /** The objects of a namespace. */
  async list(namespace: string): Promise<KubeObject[]> {
    if (!this.synced) return (await this.store.list(systemContext(namespace), {})).items;
    return [...this.byNamespace.get(namespace)?.values() ?? []];
  }

  private put(o: KubeObject): void {
    const ns = o.metadata.namespace ?? '';
    let m = this.byNamespace.get(ns);
    if (m === undefined) this.byNamespace.set(ns, m = new Map());
    // A watch can deliver an object older than the list's copy: keep the newer.
    const cur = m.get(o.metadata.name ?? '');
    if (cur !== undefined && Number(cur.metadata.resourceVersion ?? 0) > Number(o.metadata.resourceVersion ?? 0)) return;
    m.set(o.metadata.name ?? '', o);
  }
}
