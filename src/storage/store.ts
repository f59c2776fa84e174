// The object store (kube's etcd3 store) over any Backend: encodes objects, maps revisions to
// resourceVersions, and implements kube's rules for lists, updates, deletes and watches.
// Counterpart of k8s.io/apiserver/pkg/storage/etcd3/store.go.
import type { KubeObject, Preconditions } from '../apimachinery/meta/types.ts';
import type { Watch } from '../apimachinery/watch/event.ts';
import type { Backend, KeyValue } from './backend.ts';
import { FRESHNESS_WAIT_MS, waitForRevision } from './freshness.ts';
import { checkRequestSize, MAX_REQUEST_BYTES } from './request-size.ts';
import { instrumentBackend, recordStorageList, type GroupResource, type ListStats } from './metrics.ts';
import { getList } from './store-list.ts';
import { startWatch, type WatchConfig } from './store-watch.ts';
import { decodeAt, forStorage, parseResourceVersion, setResourceVersion } from './versioner.ts';
import {
  StorageError, type Codec, type GetOptions, type Interface, type ListOptions, type ListResult,
  isStorageError, type ValidateDeletion, type WatchOptions,
} from './interfaces.ts';

export interface StoreOptions {
  /** Largest page read from the backend while filling a list with a selector (kube: 10000). */
  readonly pagingLimit?: number;
  /** Builds BOOKMARK objects; the store does not know the kind. Default: {metadata: {resourceVersion}}. */
  readonly newBookmark?: (resourceVersion: string) => KubeObject;
  /** How often watches that allow bookmarks get one. Default 1 minute (kube's cacher). */
  readonly bookmarkIntervalMs?: number;
  /** Events a watch buffers for a slow consumer before it is ended. Default 10000. */
  readonly watchBufferSize?: number;
  /** Largest write request, as etcd's --max-request-bytes. Default 1.5 MiB. */
  readonly maxRequestBytes?: number;
  /** How long a read at a future resourceVersion waits for the store to reach it. Default 3 s (kube's watch cache). */
  readonly freshnessWaitMs?: number;
  /** The resource stored: its requests are then in the storage metrics (etcd_request_duration_seconds, ...). */
  readonly groupResource?: GroupResource;
}

/** kube's storage.Preconditions.Check, with kube's messages. */
export function checkPreconditions(key: string, pre: Preconditions | undefined, obj: KubeObject | undefined): void {
  if (pre === undefined) return;
  const meta = obj?.metadata ?? {};
  if (pre.uid !== undefined && pre.uid !== (meta.uid ?? '')) {
    throw new StorageError('ResourceVersionConflicts', key,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`);
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== (meta.resourceVersion ?? '')) {
    throw new StorageError('ResourceVersionConflicts', key,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`);
  }
}

export function newStore(base: Backend, codec: Codec, opts: StoreOptions = {}): Interface {
  const gr = opts.groupResource;
  const backend = gr === undefined ? base : instrumentBackend(base, gr);
  const pagingLimit = opts.pagingLimit ?? 10000;
  const freshnessWaitMs = opts.freshnessWaitMs ?? FRESHNESS_WAIT_MS;
  const maxRequestBytes = opts.maxRequestBytes ?? MAX_REQUEST_BYTES;
  const watchConfig: WatchConfig = {
    backend, codec,
    newBookmark: opts.newBookmark ?? ((resourceVersion) => ({ metadata: { resourceVersion } })),
    bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000,
    bufferSize: opts.watchBufferSize ?? 10000,
    pageSize: 1000,
  };
  const decodeKv = (kv: KeyValue): KubeObject => decodeAt(codec, kv.value, kv.modRevision);
  const readKv = async (key: string): Promise<KeyValue | undefined> => (await backend.range(key)).kvs[0];
  const notFound = (key: string): StorageError => new StorageError('KeyNotFound', key, `key not found: ${key}`);

  return {
    async create(key, obj, ttlSeconds) {
      if (parseResourceVersion(key, obj.metadata.resourceVersion) !== 0) {
        throw new StorageError('InvalidObj', key, 'resourceVersion should not be set on objects to be created');
      }
      const stored = forStorage(obj);
      const data = codec.encode(stored);
      checkRequestSize(key, data, undefined, maxRequestBytes);
      const res = await backend.create(key, data, ttlSeconds);
      if (!res.succeeded) throw new StorageError('KeyExists', key, `key exists: ${key}`, res.kv?.modRevision ?? 0);
      // kube answers with the stored bytes decoded, so the answer shows what storage keeps: Go's
      // zero values (nil lists as null), empty collections dropped, as every later read does.
      return decodeAt(codec, data, res.revision);
    },

    // A dry run answers as the write would (kube's DryRunnableStorage.copyInto): through the codec.
    roundTrip(obj: KubeObject): Promise<KubeObject> {
      const out = codec.decode(codec.encode(forStorage(obj)));
      if (obj.metadata.resourceVersion !== undefined) setResourceVersion(out, obj.metadata.resourceVersion, codec.unstructured === true);
      else delete out.metadata.resourceVersion;
      return Promise.resolve(out);
    },

    async get(key: string, getOpts: GetOptions) {
      const minimum = parseResourceVersion(key, getOpts.resourceVersion);
      let res = await backend.range(key);
      if (minimum > res.revision) {
        await waitForRevision(backend, minimum, freshnessWaitMs);
        res = await backend.range(key);
      }
      if (minimum > res.revision) {
        throw new StorageError('TooLargeResourceVersion', key,
          `Too large resource version: ${minimum}, current: ${res.revision}`, res.revision);
      }
      const kv = res.kvs[0];
      if (kv === undefined) {
        if (getOpts.ignoreNotFound === true) return undefined;
        throw notFound(key);
      }
      return getOpts.decoded?.(kv.modRevision) ?? decodeKv(kv);
    },

    async getList(key: string, listOpts: ListOptions): Promise<ListResult> {
      const stats: ListStats = { fetched: 0, evaluated: 0 };
      let out: ListResult;
      try {
        out = await getList(backend, codec, pagingLimit, key, listOpts, stats);
      } catch (err) {
        if (!isStorageError(err, 'TooLargeResourceVersion')) throw err;
        // The resourceVersion parsed, or the error would be InvalidError.
        await waitForRevision(backend, parseResourceVersion(key, listOpts.resourceVersion), freshnessWaitMs);
        out = await getList(backend, codec, pagingLimit, key, listOpts, stats);
      }
      if (gr !== undefined) recordStorageList(gr, stats, out.items.length);
      return out;
    },

    async guaranteedUpdate(key, upd) {
      let kv = await readKv(key);
      for (;;) {
        if (kv === undefined && !upd.ignoreNotFound) throw notFound(key);
        const current = kv === undefined ? undefined : upd.decoded?.(kv.modRevision) ?? decodeKv(kv);
        checkPreconditions(key, upd.preconditions, current);
        const next = await upd.tryUpdate(current);
        const stored = forStorage(next);
        const data = codec.encode(stored);
        // Nothing changed: no write, no new revision (kube skips byte-identical updates).
        if (kv !== undefined && data === kv.value && kv.stale !== true) return decodeKv(kv);
        checkRequestSize(key, data, kv?.value, maxRequestBytes);
        const res = kv === undefined
          ? await backend.create(key, data, upd.ttlSeconds)
          : await backend.update(key, data, kv.modRevision, upd.ttlSeconds);
        if (res.succeeded) return decodeAt(codec, data, res.revision);
        // Lost a race: retry against the state the failed write reported.
        kv = res.kv;
      }
    },

    async delete(key, del: { readonly preconditions?: Preconditions; readonly validateDeletion?: ValidateDeletion }) {
      let kv = await readKv(key);
      for (;;) {
        if (kv === undefined) throw notFound(key);
        const current = decodeKv(kv);
        checkPreconditions(key, del.preconditions, current);
        if (del.validateDeletion !== undefined) await del.validateDeletion(decodeKv(kv));
        const res = await backend.delete(key, kv.modRevision);
        // The deleted object keeps the resourceVersion of its last write.
        if (res.succeeded) return current;
        kv = res.kv;
      }
    },

    async watch(key: string, watchOpts: WatchOptions): Promise<Watch> {
      const rv = parseResourceVersion(key, watchOpts.resourceVersion);
      const prefix = watchOpts.recursive;
      const watchKey = prefix && !key.endsWith('/') ? `${key}/` : key;
      // Without sendInitialEvents, '' and '0' mean "current state, then changes" (legacy rule).
      const initial = watchOpts.sendInitialEvents ?? rv === 0;
      // Initial events "not older than" a revision the store has not reached: wait for it, as
      // kube's watch cache does, then give up with TooLargeResourceVersion.
      if (watchOpts.sendInitialEvents === true && rv > 0) {
        const current = await waitForRevision(backend, rv, freshnessWaitMs);
        if (rv > current) {
          throw new StorageError('TooLargeResourceVersion', key, `Too large resource version: ${rv}, current: ${current}`, current);
        }
      }
      const from = initial ? 0 : rv === 0 ? await backend.currentRevision() : rv;
      try {
        return await startWatch(watchConfig, watchKey, prefix, watchOpts, { revision: from, initial });
      } catch (err) {
        if (!isStorageError(err, 'Compacted')) throw err;
        throw new StorageError('Compacted', key, `too old resource version: ${rv} (${err.revision})`, err.revision);
      }
    },

    async count(key: string) {
      return backend.count(key.endsWith('/') ? key : `${key}/`);
    },

    currentRevision: () => backend.currentRevision(),
  };
}
