// One etcd watch on its own gRPC stream: created from a revision with prev_kv, fragments
// reassembled, compaction and stream failures turned into onError, progress into onProgress.
// Counterpart of k8s.io/apiserver/pkg/storage/etcd3/watcher.go.
import type { BackendEvent, BackendWatchHandler, BackendWatcher, KeyValue } from '../backend.ts';
import { StorageError } from '../interfaces.ts';
import type { EtcdClient } from './client.ts';
import { classifyEtcdError, COMPACTED_MESSAGE, mapEtcdError, unreachable } from './errors.ts';
import type { PbEvent, PbKeyValue, WatchResponse } from './messages.ts';

export interface EtcdWatchDeps {
  readonly client: EtcdClient;
  /** Decodes a kv, removing the backend's key prefix. */
  readonly toKv: (kv: PbKeyValue) => KeyValue;
  readonly requestTimeoutMs: number;
  /**
   * Whether etcd answers a progress request only once the watch has caught up (etcd >= 3.4.31,
   * 3.5.13). Older servers answer with their current revision even while events are pending.
   */
  readonly progressTrusted: boolean;
  /** Learns the compacted revision etcd reported. */
  readonly onCompacted: (revision: number) => void;
}

export interface EtcdWatchTarget {
  /** For error messages: the key as the caller named it. */
  readonly key: string;
  readonly start: Buffer;
  /** Absent: the single key `start`. */
  readonly end?: Buffer;
  /** Deliver events with a revision greater than this. */
  readonly fromRevision: number;
}

/** The watch of a closed backend, ended from outside. */
export interface ActiveWatch extends BackendWatcher {
  fail(err: Error): void;
}

type ProgressState =
  | { readonly phase: 'idle' }
  | { readonly phase: 'requested' }
  | { readonly phase: 'confirming'; readonly revision: number };

export const compactedError = (key: string, revision: number): StorageError =>
  new StorageError('Compacted', key, COMPACTED_MESSAGE, revision);

/** Resolves once etcd created the watch; rejects with Unreachable when it cannot within the request timeout. */
export function startEtcdWatch(deps: EtcdWatchDeps, target: EtcdWatchTarget, handler: BackendWatchHandler,
  onDone: (w: ActiveWatch) => void): Promise<ActiveWatch> {
  const { key } = target;
  return new Promise((resolve, reject) => {
    let stream: ReturnType<EtcdClient['openWatchStream']>;
    try {
      stream = deps.client.openWatchStream();
    } catch (err) {
      reject(mapEtcdError(key, err));
      return;
    }
    let state: 'creating' | 'live' | 'done' = 'creating';
    let createdRevision = 0;
    // Whether etcd has replayed history up to the present (a "synced" watcher in etcd's terms).
    let caughtUp = false;
    let lastRevision = target.fromRevision;
    let lastProgress = 0;
    let fragments: PbEvent[] = [];
    let progress: ProgressState = { phase: 'idle' };

    const finish = (): void => {
      state = 'done';
      clearTimeout(timer);
      stream.cancel();
      onDone(watcher);
    };
    const fail = (err: Error): void => {
      if (state === 'done') return;
      const wasCreating = state === 'creating';
      finish();
      if (wasCreating) reject(err);
      else handler.onError(err);
    };
    const timer = setTimeout(() => {
      if (state === 'creating') fail(unreachable(key, new Error(`watch not created within ${deps.requestTimeoutMs}ms`)));
    }, deps.requestTimeoutMs);

    const requestProgress = (): void => {
      if (state !== 'live' || progress.phase !== 'idle') return;
      progress = { phase: 'requested' };
      stream.write({ progress_request: {} });
    };
    const watcher: ActiveWatch = {
      requestProgress,
      cancel: () => { if (state !== 'done') finish(); },
      fail,
    };

    const emitProgress = (revision: number): void => {
      const rev = Math.max(revision, lastRevision, lastProgress);
      lastProgress = rev;
      handler.onProgress(rev);
    };
    // A response to requestProgress (watch_id -1: it answers the whole stream).
    const onRequestedProgress = (revision: number): void => {
      if (deps.progressTrusted) {
        progress = { phase: 'idle' };
        emitProgress(revision);
        return;
      }
      switch (progress.phase) {
        case 'idle':
          return;
        case 'requested':
          // Older etcd reports its head even for a watcher still replaying history: skip.
          if (!caughtUp) { progress = { phase: 'idle' }; return; }
          // It may also send the answer ahead of events already queued: a second round trip
          // lets those drain first.
          progress = { phase: 'confirming', revision };
          stream.write({ progress_request: {} });
          return;
        case 'confirming': {
          const confirmed = progress.revision;
          progress = { phase: 'idle' };
          emitProgress(confirmed);
        }
      }
    };

    const onResponse = (res: WatchResponse): void => {
      if (state === 'done') return;
      const headerRevision = Number(res.header?.revision ?? 0);
      const compacted = Number(res.compact_revision);
      if (res.canceled) {
        if (compacted > 0) {
          deps.onCompacted(compacted);
          fail(compactedError(key, compacted));
        } else {
          fail(unreachable(key, new Error(`watch canceled by etcd: ${res.cancel_reason || 'no reason given'}`)));
        }
        return;
      }
      if (res.created) {
        if (state !== 'creating') return;
        state = 'live';
        clearTimeout(timer);
        createdRevision = headerRevision;
        // A watch that starts past etcd's head has no history to replay.
        caughtUp = target.fromRevision >= createdRevision;
        resolve(watcher);
        return;
      }
      if (state !== 'live') return;
      if (res.fragment) {
        fragments.push(...res.events);
        return;
      }
      const events = fragments.length > 0 ? [...fragments, ...res.events] : res.events;
      fragments = [];
      if (events.length > 0) {
        let out: BackendEvent[];
        try {
          out = events.map((e) => toBackendEvent(deps, e));
        } catch (err) {
          fail(err as Error);
          return;
        }
        lastRevision = out[out.length - 1]!.kv.modRevision;
        handler.onEvents(out);
        return;
      }
      if (res.watch_id === '-1') {
        onRequestedProgress(headerRevision);
      } else {
        // etcd's periodic progress notification goes only to watchers that have caught up.
        caughtUp = true;
        emitProgress(headerRevision);
      }
    };

    stream.on('data', onResponse);
    stream.on('error', (err: unknown) => {
      if (state === 'done') return;
      if (classifyEtcdError(err) === 'unreachable') deps.client.reportUnreachable();
      fail(mapEtcdError(key, err));
    });
    stream.on('end', () => fail(unreachable(key, new Error('watch stream closed by etcd'))));
    stream.write({
      create_request: {
        key: target.start,
        ...(target.end !== undefined ? { range_end: target.end } : {}),
        start_revision: target.fromRevision + 1,
        progress_notify: true,
        prev_kv: true,
        fragment: true,
      },
    });
  });
}

function toBackendEvent(deps: EtcdWatchDeps, e: PbEvent): BackendEvent {
  if (e.kv === null) throw new Error('etcd watch event without kv');
  const kv = deps.toKv(e.kv);
  const prevKv = e.prev_kv === null ? undefined : deps.toKv(e.prev_kv);
  if (e.type === 1) return { type: 'delete', kv: { ...kv, value: '', createRevision: 0, lease: 0, expiresAt: 0 }, prevKv };
  return { type: 'put', kv, prevKv };
}
