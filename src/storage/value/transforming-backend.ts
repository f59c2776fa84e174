// The one place values are transformed: a Backend decorator between a resource's store (whose codec
// makes the bytes) and the real backend, as kube's etcd3 store calls its value.Transformer around
// every etcd read and write. The etcd key is the authenticated data. A value that does not
// transform fails only the request that reads it, with kube's messages (get: the transformer's
// error; list: "unable to transform key ..."). Reads through an old key mark the kv stale, so an
// update that changes nothing still rewrites it (what storage version migration relies on).
// Counterpart of the transformer calls in k8s.io/apiserver/pkg/storage/etcd3/store.go.
import { newInternalError } from '../../apimachinery/errors/status-error.ts';
import type { Backend, BackendEvent, KeyValue, TxnResult } from '../backend.ts';
import { bytesToValue, valueToBytes } from './bytes.ts';
import type { Transformer } from './transformer.ts';

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export function transformingBackend(inner: Backend, t: Transformer | undefined): Backend {
  if (t === undefined) return inner;
  const read = async (kv: KeyValue, inList: boolean): Promise<KeyValue> => {
    try {
      const out = await t.fromStorage(valueToBytes(kv.value), kv.key);
      return { ...kv, value: bytesToValue(out.data), ...(out.stale ? { stale: true } : {}) };
    } catch (err) {
      throw newInternalError(new Error(inList ? `unable to transform key ${JSON.stringify(kv.key)}: ${message(err)}` : message(err)));
    }
  };
  const readOpt = async (kv: KeyValue | undefined): Promise<KeyValue | undefined> => (kv === undefined ? undefined : read(kv, false));
  const write = async (key: string, value: string): Promise<string> => bytesToValue(await t.toStorage(valueToBytes(value), key));
  const txn = async (res: TxnResult, plain?: string): Promise<TxnResult> => {
    // A successful write returns what the caller wrote; a failed one the current (stored) kv.
    if (res.succeeded && res.kv !== undefined && plain !== undefined) return { ...res, kv: { ...res.kv, value: plain } };
    return { ...res, kv: await readOpt(res.kv) };
  };
  // Backends are class instances: every method not transformed is delegated explicitly.
  return {
    compact: (rev) => inner.compact(rev),
    compactedRevision: () => inner.compactedRevision(),
    currentRevision: () => inner.currentRevision(),
    count: (prefix) => inner.count(prefix),
    close: () => inner.close(),
    range: async (key, opts) => {
      const res = await inner.range(key, opts);
      if (res.kvs.length === 0) return res;
      const many = opts?.prefix === true;
      return { ...res, kvs: await Promise.all(res.kvs.map((kv) => read(kv, many))) };
    },
    create: async (key, value, ttl) => txn(await inner.create(key, await write(key, value), ttl), value),
    update: async (key, value, rev, ttl) => txn(await inner.update(key, await write(key, value), rev, ttl), value),
    delete: async (key, rev) => {
      const res = await inner.delete(key, rev);
      if (res.succeeded) return { ...res, kv: res.kv === undefined ? undefined : { ...res.kv, value: await read(res.kv, false).then((k) => k.value, () => '') } };
      return txn(res);
    },
    watch: (key, opts, handler) => {
      // Events are transformed in order: each batch waits for the previous one.
      let chain = Promise.resolve();
      let failed = false;
      const ev = async (e: BackendEvent): Promise<BackendEvent> => ({
        type: e.type,
        kv: e.type === 'put' ? await read(e.kv, true) : e.kv,
        prevKv: e.prevKv === undefined ? undefined : await read(e.prevKv, true),
      });
      return inner.watch(key, opts, {
        onEvents: (events) => {
          chain = chain.then(async () => {
            if (failed) return;
            try {
              handler.onEvents(await Promise.all(events.map(ev)));
            } catch (err) {
              failed = true;
              handler.onError(err instanceof Error ? err : new Error(String(err)));
            }
          });
        },
        onProgress: (rev) => { chain = chain.then(() => { if (!failed) handler.onProgress(rev); }); },
        onError: (err) => { chain = chain.then(() => { if (!failed) handler.onError(err); }); },
      });
    },
  };
}
