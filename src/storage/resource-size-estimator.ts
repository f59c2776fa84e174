// The average stored size of a resource's objects, from the values this server saw: those it read
// (get and list) and those its watches delivered (every write, once the watch cache watches).
// The work estimator multiplies it by the object count to tell what a list holds in memory.
// Counterpart of k8s.io/apiserver/pkg/storage/etcd3/stats.go (resourceSizeEstimator).
import type { BackendEvent, KeyValue } from './backend.ts';

export class ResourceSizeEstimator {
  private readonly sizes = new Map<string, { size: number; revision: number }>();
  private total = 0;

  /** Notes the size of each kv, unless an as new or newer version of its key was seen. */
  update(kvs: readonly KeyValue[]): void {
    for (const kv of kvs) {
      const known = this.sizes.get(kv.key);
      if (known !== undefined && known.revision >= kv.modRevision) continue;
      this.total += kv.value.length - (known?.size ?? 0);
      this.sizes.set(kv.key, { size: kv.value.length, revision: kv.modRevision });
    }
  }

  onEvents(events: readonly BackendEvent[]): void {
    for (const e of events) {
      if (e.type === 'put') { this.update([e.kv]); continue; }
      const known = this.sizes.get(e.kv.key);
      if (known === undefined || known.revision >= e.kv.modRevision) continue;
      this.total -= known.size;
      this.sizes.delete(e.kv.key);
    }
  }

  /** Bytes per object seen, 0 when none was. */
  averageSize(): number {
    return this.sizes.size === 0 ? 0 : Math.floor(this.total / this.sizes.size);
  }
}
