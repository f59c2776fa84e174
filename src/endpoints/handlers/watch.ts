// WATCH: a chunked stream of events, one JSON document per line (or one WebSocket message per
// event, see websocket.ts), until the client leaves, the timeout passes or the server shuts down.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/watch.go.
import { newMethodNotSupported, StatusError, toStatus } from '../../apimachinery/errors/status-error.ts';
import type { Status } from '../../apimachinery/meta/types.ts';
import { assertNever, type Watch, type WatchEvent } from '../../apimachinery/watch/event.ts';
import { isWatcher } from '../../registry/rest/capabilities.ts';
import { isTooLargeResourceVersion } from '../../registry/generic/storage-errors.ts';
import { partialObjectMetadata, toTable } from '../table.ts';
import { encodeJSON } from '../../apimachinery/runtime/serializer/json.ts';
import { toEndpointVersion, negotiateFor } from './common.ts';
import { parseIncludeObject, parseListOptions } from './list.ts';
import { encode, setWarnings } from './response.ts';
import { cleanScope, recordWatchEvent, recordWatchListLatency } from '../metrics/metrics.ts';
import { encodeWatchEventFrame, PROTOBUF_WATCH_MEDIA_TYPE } from '../../apimachinery/runtime/serializer/protobuf/index.ts';
import type { Target } from '../negotiation.ts';
import { apiVersionOf } from '../../apimachinery/schema/group-version.ts';
import type { ResourceHandler } from './scope.ts';
import { acceptWebSocket, isWebSocketRequest } from './websocket.ts';

/** Protobuf's length prefix: a WebSocket message carries the WatchEvent bytes alone. */
const LENGTH_PREFIX_BYTES = 4;

/**
 * One event on the wire: a JSON line, a YAML document, or a length-prefixed protobuf WatchEvent;
 * over WebSocket the message is the framing, so YAML has no separator and protobuf no prefix.
 */
function encodeEvent(ev: { type: string; object: unknown }, target: Target, webSocket = false): string | Buffer {
  switch (target.format) {
    // The stream serializer: never indented, whatever ?pretty says.
    case 'json': return encodeJSON(ev);
    case 'protobuf': {
      const frame = encodeWatchEventFrame(ev.type, ev.object as Record<string, unknown>);
      return webSocket ? frame.subarray(LENGTH_PREFIX_BYTES) : frame;
    }
    default: return webSocket ? encode(ev, target) : `${encode(ev, target)}---\n`;
  }
}

/**
 * Encode once: the watch cache hands the same event object to every watcher of a change, so its
 * bytes for one endpoint, media type and shape are computed once and shared (kube encodes per
 * watcher). Keyed weakly: the bytes live as long as the event does.
 */
const encodedEvents = new WeakMap<WatchEvent, Map<string, string | Buffer>>();

function encodeShared(ev: WatchEvent, key: string, encode: () => string | Buffer): string | Buffer {
  let byKey = encodedEvents.get(ev);
  if (byKey === undefined) {
    byKey = new Map();
    encodedEvents.set(ev, byKey);
  }
  let bytes = byKey.get(key);
  if (bytes === undefined) {
    // Bytes, not a string: every watcher's write would convert the same string again.
    const encoded = encode();
    bytes = typeof encoded === 'string' ? Buffer.from(encoded, 'utf8') : encoded;
    byKey.set(key, bytes);
  }
  return bytes;
}

/** Where the events go: the chunked response, or WebSocket messages. */
interface EventSink {
  write(chunk: string | Buffer): boolean;
  drain(): Promise<void>;
  end(): void;
}

/** Node's timers overflow (and fire at once) beyond 2^31-1 ms; no watch outlives this anyway. */
const MAX_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** A watch that yields one ERROR event and ends. */
function errorWatch(status: Status): Watch {
  return {
    stop() {},
    async *[Symbol.asyncIterator]() { yield { type: 'ERROR' as const, object: status }; },
  };
}

export const handleWatch: ResourceHandler = async (ep, deps, req, res, state) => {
  if (!isWatcher(ep.storage)) throw newMethodNotSupported({ group: ep.groupVersion.group, resource: ep.resource }, 'watch');
  // As kube's ListResource, the Accept header must first name a type the resource is served in
  // (a custom resource has no protobuf: 406 listing the object media types); then a stream type,
  // and YAML has none: a watch asking only for it is a 406 listing the stream media types.
  negotiateFor(ep, deps, req.headers.accept, { allowTable: true, allowPartialMetadata: true });
  const target = negotiateFor(ep, deps, req.headers.accept, { allowTable: true, allowPartialMetadata: true, stream: true });
  const q = state.url.searchParams;
  const opts = parseListOptions(q, true);
  const include = target.shape === 'Table' ? parseIncludeObject(q) : 'Metadata';
  const ctx = state.context();
  // A single named object: `.../configmaps/x?watch=true` is watch with fieldSelector metadata.name=x.
  const named = ctx.info.name !== '' ? { fieldSelector: `metadata.name=${ctx.info.name}` } : {};
  let w: Watch;
  try {
    w = await ep.storage.watch(ctx, { ...opts, ...named });
  } catch (err) {
    // kube answers a watch from a compacted resourceVersion (410 Expired), or initial events at a
    // revision the store did not reach in time (504 Too large resource version), with a stream
    // holding one ERROR event (the cacher's error watcher), which informers treat as "re-list".
    if (!(err instanceof StatusError) || (err.status.code !== 410 && !isTooLargeResourceVersion(err))) throw err;
    w = errorWatch(err.status);
  }

  // timeoutSeconds=0 is unset, as in kube's handleWatch; a negative one ends the watch at once.
  const timeoutSeconds = opts.timeoutSeconds !== undefined && opts.timeoutSeconds !== 0
    ? Math.min(opts.timeoutSeconds, MAX_TIMER_SECONDS)
    : Math.floor(deps.minRequestTimeoutSeconds * (1 + Math.random()));
  // kube-apiserver upgrades only once the watch is established: earlier errors are plain answers.
  const webSocket = isWebSocketRequest(req);
  const ws = webSocket ? acceptWebSocket(req, target.format === 'protobuf') : undefined;
  if (webSocket && ws === undefined) {
    w.stop();
    return;
  }
  const sink: EventSink = ws !== undefined
    ? { write: (c) => ws.send(c), drain: () => ws.drain(), end: () => ws.close() }
    : {
      write: (c) => res.write(c),
      drain: () => new Promise<void>((resolve) => { res.once('drain', resolve); res.once('close', resolve); }),
      end: () => res.end(),
    };
  if (ws === undefined) {
    res.statusCode = 200;
    res.setHeader('Content-Type', target.format === 'protobuf' ? PROTOBUF_WATCH_MEDIA_TYPE : target.contentType);
    res.setHeader('Transfer-Encoding', 'chunked');
    // Warnings known before the stream starts (a deprecated kind's) go with its headers, as kube's.
    setWarnings(res, state);
    res.flushHeaders();
  }
  state.watchInitialized?.();
  let done = false;
  // The resourceVersion the client has seen up to: a bookmark may carry it.
  let progress = opts.resourceVersion !== undefined && opts.resourceVersion !== '0' ? opts.resourceVersion : '';
  const finish = (): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    clearTimeout(lastBookmark);
    deps.openWatches.delete(finish);
    w.stop();
    state.abort.abort();
    sink.end();
  };
  const timer = setTimeout(finish, Math.max(0, timeoutSeconds) * 1000);
  // As kube's watch cache: a bookmark shortly before the watch times out, so the client resumes
  // from a recent resourceVersion.
  const lastBookmark = opts.allowWatchBookmarks === true && timeoutSeconds > 2
    ? setTimeout(() => {
      if (done || progress === '') return;
      const bookmark = { apiVersion: apiVersionOf(ep.groupVersion), kind: ep.kind, metadata: { resourceVersion: progress } };
      sink.write(encodeEvent(frame({ type: 'BOOKMARK', object: bookmark }), target, webSocket));
    }, (timeoutSeconds - 2) * 1000)
    : undefined;
  deps.openWatches.add(finish);
  if (ws !== undefined) {
    ws.onClosed(finish);
  } else {
    req.on('close', finish);
    res.on('close', finish);
  }

  let first = true;
  const frame = (ev: WatchEvent): { type: string; object: unknown } => {
    switch (ev.type) {
      case 'ADDED': case 'MODIFIED': case 'DELETED': {
        if (target.shape === 'Table') {
          // Table columns read the hub shape.
          const t = toTable(ep.definition, [ev.object], { resourceVersion: ev.object.metadata.resourceVersion ?? '' },
            target.apiVersion, include, !first);
          first = false;
          return { type: ev.type, object: t };
        }
        const obj = toEndpointVersion(ep, deps, ev.object);
        if (target.shape === 'PartialObjectMetadata') return { type: ev.type, object: partialObjectMetadata(obj, target.apiVersion, ep.definition) };
        return { type: ev.type, object: obj };
      }
      // kube transforms every event's object, bookmarks too: a metadata informer's bookmark is a
      // PartialObjectMetadata (the resource's own kind may have no protobuf message, e.g. a custom resource).
      case 'BOOKMARK': return { type: ev.type, object: target.shape === 'PartialObjectMetadata' ? partialObjectMetadata(ev.object, target.apiVersion, ep.definition) : ev.object };
      case 'ERROR': return { type: ev.type, object: ev.object };
      default: return assertNever(ev);
    }
  };

  // What an event's bytes depend on besides the event. A Table depends on the stream's position
  // only through its first row, which carries the column definitions: later rows are shared.
  const shareKey = `${ep.groupVersion.group}/${ep.groupVersion.version}/${ep.resource}|${target.format}|${target.contentType}|${target.shape}|${target.apiVersion}|${String(webSocket)}${target.shape === 'Table' ? `|${include}` : ''}`;
  try {
    for await (const ev of w) {
      if (done) break;
      if (ev.type !== 'ERROR') progress = ev.object.metadata.resourceVersion ?? progress;
      const line = ev.type === 'ERROR' || (target.shape === 'Table' && first)
        ? encodeEvent(frame(ev), target, webSocket)
        : encodeShared(ev, shareKey, () => encodeEvent(frame(ev), target, webSocket));
      recordWatchEvent(ep.groupVersion.group, ep.groupVersion.version, ep.resource, line.length);
      if (!sink.write(line)) await sink.drain();
      // The end of a watch list's initial events: how long the list took (kube's watch_list_duration_seconds).
      if (ev.type === 'BOOKMARK' && ev.object.metadata.annotations?.['k8s.io/initial-events-end'] === 'true' && state.info !== undefined) {
        recordWatchListLatency(ep.groupVersion.group, ep.groupVersion.version, ep.resource, cleanScope(state.info), (Date.now() - state.startedAt) / 1000);
      }
      if (ev.type === 'ERROR') break;
    }
  } catch (err) {
    // An ERROR event in the stream's own framing (a JSON line in a protobuf stream is a broken
    // frame to the client: client-go re-watches at once, in a loop). If even that cannot be
    // encoded, the stream just ends, as kube's watch server does on an encoding error.
    if (!done) {
      try {
        sink.write(encodeEvent({ type: 'ERROR', object: toStatus(err) }, target, webSocket));
      } catch { /* end the stream */ }
    }
  } finally {
    finish();
  }
};
