// client-go's tools/cache thread-safe store with indexers (store.go, index.go,
// thread_safe_store.go): objects by `namespace/name` key, plus named indexes from an index value
// (a namespace, a subject, an owner's uid) to the keys of the objects that yield it.
// Counterpart of k8s.io/client-go/tools/cache/{thread_safe_store.go,index.go,store.go}.
import type { KubeObject } from '../../apimachinery/meta/types.ts';

/** Maps an object to the values it is indexed under (IndexFunc). */
export type IndexFunc<T extends KubeObject = KubeObject> = (obj: T) => readonly string[];

/** The namespace index every informer has (cache.NamespaceIndex). */
const NAMESPACE_INDEX = 'namespace';

/** MetaNamespaceKeyFunc: `namespace/name`, or `name` for a cluster-scoped object. */
export function metaNamespaceKey(obj: KubeObject): string {
  const ns = obj.metadata.namespace ?? '';
  return ns === '' ? obj.metadata.name ?? '' : `${ns}/${obj.metadata.name ?? ''}`;
}

/** SplitMetaNamespaceKey: the inverse of metaNamespaceKey. */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

export class Indexer<T extends KubeObject = KubeObject> {
  private readonly items = new Map<string, T>();
  /** index name → index value → keys. */
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  private readonly indexers = new Map<string, IndexFunc<T>>();

  constructor(indexers: Readonly<Record<string, IndexFunc<T>>> = {}) {
    this.indexers.set(NAMESPACE_INDEX, (o) => [o.metadata.namespace ?? '']);
    for (const [name, fn] of Object.entries(indexers)) this.indexers.set(name, fn);
    for (const name of this.indexers.keys()) this.indices.set(name, new Map());
  }

  get size(): number { return this.items.size; }

  /** AddIndexers: more named indexes, built over what is stored already; a taken name throws. */
  addIndexers(indexers: Readonly<Record<string, IndexFunc<T>>>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (this.indexers.has(name)) throw new Error(`indexer conflict: ${name}`);
      this.indexers.set(name, fn);
      this.indices.set(name, new Map());
    }
    for (const [key, obj] of this.items) this.index(key, obj);
  }

  /** Adds or replaces the object under its key; returns the one it replaced. */
  set(obj: T): T | undefined {
    const key = metaNamespaceKey(obj);
    const old = this.items.get(key);
    if (old !== undefined) this.unindex(key, old);
    this.items.set(key, obj);
    this.index(key, obj);
    return old;
  }

  /** Removes the object of the key; returns it, or undefined when there was none. */
  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (old === undefined) return undefined;
    this.items.delete(key);
    this.unindex(key, old);
    return old;
  }

  /** Empties the store and fills it with `objs` (Replace). */
  replace(objs: Iterable<T>): void {
    this.items.clear();
    for (const m of this.indices.values()) m.clear();
    for (const o of objs) this.set(o);
  }

  getByKey(key: string): T | undefined {
    return this.items.get(key);
  }

  get(namespace: string, name: string): T | undefined {
    return this.items.get(namespace === '' ? name : `${namespace}/${name}`);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  listKeys(): string[] {
    return [...this.items.keys()];
  }

  /** The objects of a namespace ('' for cluster-scoped objects). */
  byNamespace(namespace: string): T[] {
    return this.byIndex(NAMESPACE_INDEX, namespace);
  }

  /** ByIndex: the objects indexed under `value`; throws when no index of that name exists. */
  byIndex(indexName: string, value: string): T[] {
    const index = this.indices.get(indexName);
    if (index === undefined) throw new Error(`index with name ${indexName} does not exist`);
    const out: T[] = [];
    for (const k of index.get(value) ?? []) {
      const o = this.items.get(k);
      if (o !== undefined) out.push(o);
    }
    return out;
  }

  private index(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indices.get(name);
      if (index === undefined) continue;
      for (const v of new Set(fn(obj))) {
        let keys = index.get(v);
        if (keys === undefined) index.set(v, keys = new Set());
        keys.add(key);
      }
    }
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indices.get(name);
      if (index === undefined) continue;
      for (const v of fn(obj)) {
        const keys = index.get(v);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(v);
      }
    }
  }
}
