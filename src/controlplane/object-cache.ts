// An informer's lister for admission, which reads namespaces on every request, quotas on every
// create and limit ranges on every pod: a storage read each time would cost more than the
// request itself. Until the informer has synced, and after it stops, reads go to storage; so does
// a get that misses, since the cache may lag behind an object created a moment ago.
// Counterpart of the cached lookups of k8s.io/apiserver/pkg/admission/plugin/resourcequota/resource_access.go
// and plugin/pkg/admission/limitranger.
import { isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

export class ObjectCache {
  constructor(private readonly store: ResourceStore<KubeObject>, private readonly informer: SharedInformer) {}

  private get synced(): boolean { return this.informer.hasSynced() && !this.informer.stopped; }

  /** The objects of a namespace. */
  async list(namespace: string): Promise<KubeObject[]> {
    if (!this.synced) return (await this.store.list(systemContext(namespace), {})).items;
    return this.informer.byNamespace(namespace);
  }

  /** The objects of every namespace. */
  async all(): Promise<KubeObject[]> {
    if (!this.synced) return (await this.store.list(systemContext(''), {})).items;
    return this.informer.list();
  }

  /** The object, or undefined when it does not exist. */
  async get(namespace: string, name: string): Promise<KubeObject | undefined> {
    const cached = this.synced ? this.informer.get(namespace, name) : undefined;
    if (cached !== undefined) return cached;
    try {
      return await this.store.get(systemContext(namespace), name, {});
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}
