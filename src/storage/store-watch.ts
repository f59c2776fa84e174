// Watch of the object store (kube's etcd3 watcher): turns a backend's raw put/delete stream into
// ADDED / MODIFIED / DELETED events filtered by a predicate, with initial state and bookmarks.
// Counterpart of k8s.io/apiserver/pkg/storage/etcd3/watcher.go.
import type { KubeObject, Status } from '../apimachinery/meta/types.ts';
import type { Watch, WatchEvent } from '../apimachinery/watch/event.ts';
import type { Backend, BackendEvent, BackendWatcher, KeyValue } from './backend.ts';
import { EventQueue } from './event-queue.ts';
import { isStorageError, type Codec, type WatchOptions } from './interfaces.ts';
import { decodeAt } from './versioner.ts';

const INITIAL_EVENTS_ANNOTATION = 'k8s.io/initial-events-end';

export interface WatchConfig {
  readonly backend: Backend;
  readonly codec: Codec;
  /** Builds the object of a BOOKMARK event ({kind, apiVersion, metadata: {resourceVersion}}). */
  readonly newBookmark: (resourceVersion: string) => KubeObject;
  readonly bookmarkIntervalMs: number;
  readonly bufferSize: number;
  /** Page size of the initial-state read. */
  readonly pageSize: number;
}

function errorStatus(code: number, reason: string, message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

/**
 * Starts a watch on `key` (a prefix when `from.prefix`) delivering changes after `from.revision`,
 * or the current state first when `from.initial`. Rejects with Compacted when history is gone.
 */
export async function startWatch(cfg: WatchConfig, key: string, prefix: boolean, opts: WatchOptions,
  from: { readonly revision: number; readonly initial: boolean }): Promise<Watch> {
  const { backend, codec } = cfg;
  const predicate = opts.predicate;
  // The backend watch starts after the queue exists (its close handler cancels it).
  const started: { watcher?: BackendWatcher } = {};
  let timer: NodeJS.Timeout | undefined;
  const abort = (): void => queue.clear();
  const queue = new EventQueue<WatchEvent>(cfg.bufferSize, () => {
    started.watcher?.cancel();
    if (timer !== undefined) clearInterval(timer);
    opts.signal?.removeEventListener('abort', abort);
  });
  const matches = (obj: KubeObject): boolean => predicate.empty || predicate.matches(obj);
  const bookmark = (rev: number, initialEnd: boolean): WatchEvent => {
    const obj = cfg.newBookmark(String(rev));
    if (initialEnd) obj.metadata.annotations = { ...obj.metadata.annotations, [INITIAL_EVENTS_ANNOTATION]: 'true' };
    return { type: 'BOOKMARK', object: obj };
  };

  const transform = (ev: BackendEvent): WatchEvent | undefined => {
    const rev = ev.kv.modRevision;
    if (ev.type === 'delete') {
      // The deleted object, stamped with the revision of its deletion.
      if (ev.prevKv === undefined) return undefined;
      const old = decodeAt(codec, ev.prevKv.value, rev);
      return matches(old) ? { type: 'DELETED', object: old } : undefined;
    }
    const cur = decodeAt(codec, ev.kv.value, rev);
    const created = ev.kv.createRevision === ev.kv.modRevision;
    if (created || ev.prevKv === undefined || predicate.empty) {
      if (!matches(cur)) return undefined;
      // Without the previous version a selector cannot tell a transition: kube reports ADDED.
      return { type: created || (ev.prevKv === undefined && !predicate.empty) ? 'ADDED' : 'MODIFIED', object: cur };
    }
    const curPasses = predicate.matches(cur);
    const old = decodeAt(codec, ev.prevKv.value, rev);
    const oldPasses = predicate.matches(old);
    if (curPasses && oldPasses) return { type: 'MODIFIED', object: cur };
    if (curPasses) return { type: 'ADDED', object: cur };
    if (oldPasses) return { type: 'DELETED', object: old };
    return undefined;
  };

  const fail = (status: Status): void => {
    queue.push({ type: 'ERROR', object: status });
    queue.end();
  };

  let revision = from.revision;
  if (from.initial) revision = await pushInitialState(cfg, key, prefix, queue, matches);
  if (from.initial && opts.sendInitialEvents === true && opts.allowBookmarks === true) {
    queue.push(bookmark(revision, true));
  }
  const watcher = await backend.watch(key, { prefix, fromRevision: revision }, {
    onEvents: (events) => {
      for (const ev of events) {
        let out: WatchEvent | undefined;
        try {
          out = transform(ev);
        } catch (err) {
          fail(errorStatus(500, 'InternalError', `unable to decode an event from the watch stream: ${(err as Error).message}`));
          return;
        }
        if (out !== undefined && !queue.push(out)) return;
      }
    },
    onProgress: (rev) => { if (opts.allowBookmarks === true) queue.push(bookmark(rev, false)); },
    onError: (err) => {
      if (isStorageError(err, 'Compacted')) fail(errorStatus(410, 'Expired', 'The resourceVersion for the provided watch is too old.'));
      else queue.end();
    },
  });
  started.watcher = watcher;
  if (queue.done) watcher.cancel();
  if (opts.allowBookmarks === true && !queue.done) {
    const w = watcher;
    timer = setInterval(() => w.requestProgress(), cfg.bookmarkIntervalMs);
    timer.unref();
  }
  if (opts.signal?.aborted === true) queue.clear();
  else opts.signal?.addEventListener('abort', abort, { once: true });
  return {
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
    stop: () => queue.clear(),
  };
}

/** Queues the current state as ADDED events; returns the revision it was read at. */
async function pushInitialState(cfg: WatchConfig, key: string, prefix: boolean, queue: EventQueue<WatchEvent>,
  matches: (obj: KubeObject) => boolean): Promise<number> {
  let revision = 0;
  let startKey = key;
  for (;;) {
    const res = await cfg.backend.range(key, {
      prefix, startKey, limit: prefix ? cfg.pageSize : 0, ...(revision > 0 ? { revision } : {}),
    });
    if (revision === 0) revision = res.revision;
    for (const kv of res.kvs) pushAdded(cfg.codec, kv, queue, matches);
    const last = res.kvs[res.kvs.length - 1];
    if (!res.more || last === undefined) return revision;
    startKey = `${last.key}\u0000`;
  }
}

function pushAdded(codec: Codec, kv: KeyValue, queue: EventQueue<WatchEvent>, matches: (obj: KubeObject) => boolean): void {
  const obj = decodeAt(codec, kv.value, kv.modRevision);
  // The initial state is never dropped: the buffer bounds only what arrives afterwards.
  if (matches(obj)) queue.pushUnbounded({ type: 'ADDED', object: obj });
}
