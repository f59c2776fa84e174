// Fills a namespace on kapi-on-etcd by writing, straight into etcd, copies of a ConfigMap kapi
// itself stored (new name, namespace and uid), as kapi's create would have. Filling is not measured,
// and through kapi on a loaded 2-core machine it alone took about a minute of the bench's budget;
// kapi sees the objects exactly as if it had created them (same keys, same stored bytes).
// No Go counterpart: the bench.
import { randomUUID } from 'node:crypto';
import type { Backend } from '../storage/backend.ts';
import { configMapPrefix } from './etcd-baseline.ts';
import { runLoad } from './load.ts';
import type { Filler } from './measure.ts';

/** A stored ConfigMap with another identity; every other byte as kapi wrote it. */
export function renamedCopy(stored: string, ns: string, name: string, uid: string): string {
  const obj: unknown = JSON.parse(stored);
  if (typeof obj !== 'object' || obj === null || !('metadata' in obj) || typeof obj.metadata !== 'object' || obj.metadata === null) {
    throw new Error('stored ConfigMap without metadata');
  }
  return JSON.stringify({ ...obj, metadata: { ...obj.metadata, name, namespace: ns, uid } });
}

/**
 * Copies the stored `templateName` of namespace `templateNs` (it must not have been updated yet);
 * each object's resourceVersion is the revision of its write.
 */
export function etcdFiller(raw: Backend, etcdPrefix: string, workers: number, templateNs: string, templateName: string): Filler {
  return async (set, prefix, count, timeoutMs) => {
    const templateKey = configMapPrefix(etcdPrefix, templateNs) + templateName;
    const template = (await raw.range(templateKey)).kvs[0];
    if (template === undefined) throw new Error(`fill: ${templateKey} not found in etcd`);
    const missing = count - set.rv.size;
    if (missing <= 0) return;
    const result = await runLoad({
      workers, durationMs: timeoutMs, maxOps: missing,
      op: async () => {
        const name = `${prefix}${set.next++}`;
        const key = configMapPrefix(etcdPrefix, set.ns) + name;
        const res = await raw.create(key, renamedCopy(template.value, set.ns, name, randomUUID()));
        if (!res.succeeded) throw new Error(`fill: ${key} exists`);
        set.rv.set(name, String(res.revision));
      },
    });
    if (result.ops !== missing) throw new Error(`fill: wrote ${result.ops} of ${missing} objects within ${timeoutMs} ms`);
  };
}
