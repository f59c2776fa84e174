// A watch-fed cache of one resource by namespace (an informer's lister in kube), for admission,
// which reads namespaces on every request, quotas on every create and limit ranges on every pod:
// a storage read each time would cost more than the request itself. Until the cache is synced,
// and after its watch ends, reads go to storage; so does a get that misses, since the cache may
// lag behind an object created a moment ago.
// Counterpart of k8s.io/client-go/tools/cache (an informer's indexer and lister).
import { isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { Store } from '../registry/generic/store.ts';

export class ObjectCache {
  /** Namespace ('' for cluster-scoped objects) → name → object. */
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

  /** The object, or undefined when it does not exist. */
  async get(namespace: string, name: string): Promise<KubeObject | undefined> {
    const cached = this.synced ? this.byNamespace.get(namespace)?.get(name) : undefined;
    if (cached !== undefined) return cached;
    try {
      return await this.store.get(systemContext(namespace), name, {});
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
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
