// A watch-fed cache of namespaces (kube's namespace informer), so that admission does not read
// storage on every create. A name missing from the cache is looked up live: the cache may lag
// behind a namespace created a moment ago.
import { isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { Store } from '../registry/generic/store.ts';

export class NamespaceCache {
  private readonly items = new Map<string, KubeObject>();
  private readonly abort = new AbortController();
  private synced = false;

  constructor(private readonly namespaces: Store<KubeObject>) {}

  async start(): Promise<void> {
    const w = await this.namespaces.watch(systemContext('', this.abort.signal), {});
    this.abort.signal.addEventListener('abort', () => w.stop());
    const list = await this.namespaces.list(systemContext(''), {});
    for (const ns of list.items) this.items.set(ns.metadata.name ?? '', ns);
    this.synced = true;
    void (async () => {
      try {
        for await (const ev of w) {
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.items.set(ev.object.metadata.name ?? '', ev.object);
          else if (ev.type === 'DELETED') this.items.delete(ev.object.metadata.name ?? '');
        }
      } catch {
        // storage closed: the server is stopping
      } finally {
        // Without updates the cache may be stale: answer live from now on.
        this.synced = false;
      }
    })();
  }

  stop(): void {
    this.abort.abort();
  }

  /** The namespace, or undefined when it does not exist. */
  async get(name: string): Promise<KubeObject | undefined> {
    const cached = this.synced ? this.items.get(name) : undefined;
    if (cached !== undefined) return cached;
    try {
      return await this.namespaces.get(systemContext(name), name, {});
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}
