// Which resources get a watch cache, and building the storage of one resource: the object store,
// decorated by a Cacher unless the watch cache is off (--watch-cache=false) or sized 0 for it
// (--watch-cache-sizes resource[.group]#0; events are not cached by default, as in kube).
// Counterpart of k8s.io/apiserver/pkg/server/options/etcd.go (ParseWatchCacheSizes) and
// k8s.io/kubernetes/pkg/kubeapiserver/default_storage_factory_builder.go (DefaultWatchCacheSizes).
import { CacherMetrics } from './metrics.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { Backend } from '../backend.ts';
import type { Codec, Interface } from '../interfaces.ts';
import { newStore, type StoreOptions } from '../store.ts';
import { Cacher } from './cacher.ts';
import type { Transformer } from '../value/transformer.ts';
import { transformingBackend } from '../value/transforming-backend.ts';

export interface ResourceStorageSpec {
  readonly backend: Backend;
  readonly codec: Codec;
  /** The resource's key prefix, e.g. /registry/pods. */
  readonly resourcePrefix: string;
  /** "pods" for the core group, "deployments.apps" otherwise (kube's GroupResource.String()). */
  readonly groupResource: string;
  readonly options?: StoreOptions;
  /** Fields the watch cache indexes, by name. */
  readonly indexes?: ReadonlyMap<string, (obj: KubeObject) => string>;
  /** The Go type kube lists the resource into, for the cache's errors ("*core.ConfigMap"). */
  readonly objectType?: string;
}

export type StorageFor = (spec: ResourceStorageSpec) => Interface;

/** A resource's storage whose owner ends it when the resource goes (a CRD's: its cache stops). */
export interface OwnedStorage {
  readonly storage: Interface;
  release(): void;
}

export type OwnedStorageFor = (spec: ResourceStorageSpec) => OwnedStorage;

/** Owned storage without a watch cache. */
export const plainOwnedStorage: OwnedStorageFor = (spec) => ({ storage: plainStorage(spec), release: () => {} });

/** Storage without a watch cache. */
export const plainStorage: StorageFor = (spec) => newStore(spec.backend, spec.codec, spec.options);

/** kube's DefaultWatchCacheSizes: events are written often and read rarely. */
const DEFAULT_SIZES: ReadonlyMap<string, number> = new Map([['events', 0], ['events.events.k8s.io', 0]]);

/**
 * --watch-cache-sizes: resource[.group]#size, with kube's start-up errors. Only 0 means anything
 * (no cache for that resource); kube sizes every other cache itself.
 */
export function parseWatchCacheSizes(values: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of values) {
    const tokens = c.split('#');
    if (tokens.length !== 2) throw new Error(`invalid value of watch cache size: ${c}`);
    const sizeText = tokens[1] ?? '';
    // strconv.Atoi: an optional sign and decimal digits, within int64.
    if (!/^[+-]?\d+$/.test(sizeText) || !Number.isSafeInteger(Number(sizeText))) throw new Error(`invalid size of watch cache size: ${c}`);
    const size = Number(sizeText);
    if (size < 0) throw new Error(`watch cache size cannot be negative: ${c}`);
    out.set(tokens[0] ?? '', size);
  }
  return out;
}

export interface WatchCacheConfig {
  /** --watch-cache (default true). */
  readonly enabled: boolean;
  /** --watch-cache-sizes, parsed. */
  readonly sizes?: ReadonlyMap<string, number>;
  /** The value transformer (encryption at rest) of a resource ("secrets", "deployments.apps"), if any. */
  readonly transformerFor?: (groupResource: string) => Transformer | undefined;
}

/** Builds each resource's storage, cached as configured, and stops every cache at shutdown. */
export class WatchCacheFactory {
  private readonly cachers = new Set<Cacher>();
  private readonly sizes: ReadonlyMap<string, number>;

  constructor(private readonly cfg: WatchCacheConfig) {
    this.sizes = new Map([...DEFAULT_SIZES, ...(cfg.sizes ?? [])]);
  }

  /** Built-in resources' storage: values transformed (encryption at rest) under the store and the cache alike. */
  readonly storageFor: StorageFor = (given) => {
    const t = this.cfg.transformerFor?.(given.groupResource);
    return this.build(t === undefined ? given : { ...given, backend: transformingBackend(given.backend, t) }).storage;
  };

  /**
   * Storage with a cache of its own lifetime: release() stops the cache (and ends its watches),
   * as kube's crdHandler destroys a CRD's storage when the CRD goes or changes. The custom
   * resource server gives it an already transforming backend (its uncached stores need one too).
   */
  readonly ownedStorageFor: OwnedStorageFor = (spec) => this.build(spec);

  private build(spec: ResourceStorageSpec): OwnedStorage {
    const storage = plainStorage(spec);
    if (!this.cfg.enabled || this.sizes.get(spec.groupResource) === 0) return { storage, release: () => {} };
    const o = spec.options ?? {};
    const cacher = new Cacher({
      storage, backend: spec.backend, codec: spec.codec, resourcePrefix: spec.resourcePrefix,
      ...(o.newBookmark !== undefined ? { newBookmark: o.newBookmark } : {}),
      ...(o.bookmarkIntervalMs !== undefined ? { bookmarkIntervalMs: o.bookmarkIntervalMs } : {}),
      ...(o.watchBufferSize !== undefined ? { watchBufferSize: o.watchBufferSize } : {}),
      ...(o.freshnessWaitMs !== undefined ? { freshnessWaitMs: o.freshnessWaitMs } : {}),
      ...(spec.indexes !== undefined ? { indexes: spec.indexes } : {}),
      ...(spec.objectType !== undefined ? { objectType: spec.objectType } : {}),
      metrics: new CacherMetrics(spec.groupResource),
    });
    this.cachers.add(cacher);
    return { storage: cacher, release: () => { if (this.cachers.delete(cacher)) cacher.stop(); } };
  }

  /** The caches running (for tests and the bench). */
  get size(): number { return this.cachers.size; }

  /** Stops every cache built (their watches end; reads and writes go on against storage). */
  stop(): void {
    for (const c of this.cachers) c.stop();
    this.cachers.clear();
  }
}
