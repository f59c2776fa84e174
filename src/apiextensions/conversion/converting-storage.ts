// The storage of one served version of a CRD whose conversion strategy is Webhook: objects are
// read in the version they were stored in and converted to the served version, and written
// converted to the storage version, as kube's per-version storage codec does (decoderVersion the
// served version, encoderVersion the storage version). Lists convert in one batch; a watch
// converts each event and ends with an ERROR event when a conversion fails. CRDs with strategy
// None never come here.
// Counterpart of crdConversionRESTOptionsGetter and the conversion codec in
// k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { newInternalError } from '../../apimachinery/errors/status-error.ts';
import type { Watch, WatchEvent } from '../../apimachinery/watch/event.ts';
import type { Interface as Storage } from '../../storage/interfaces.ts';

/** Converts objects to an apiVersion (objects already in it unchanged); rejects with a StatusError. */
export type ConvertFunc = (objs: readonly KubeObject[], apiVersion: string) => Promise<KubeObject[]>;

async function one(convert: ConvertFunc, obj: KubeObject, apiVersion: string): Promise<KubeObject> {
  if (obj.apiVersion === apiVersion) return obj;
  const [out] = await convert([obj], apiVersion);
  if (out === undefined) throw new Error('conversion returned no object');
  return out;
}

/** A watch whose object events are converted in order; a failed conversion ends it with ERROR. */
function convertingWatch(inner: Watch, convert: ConvertFunc, apiVersion: string): Watch {
  async function* events(): AsyncGenerator<WatchEvent> {
    try {
      for await (const ev of inner) {
        switch (ev.type) {
          case 'ADDED': case 'MODIFIED': case 'DELETED': {
            let object: KubeObject;
            try {
              object = await one(convert, ev.object, apiVersion);
            } catch (err) {
              // The etcd3 watcher's transformErrorToEvent: an error that is no API status becomes an InternalError.
              yield { type: 'ERROR', object: newInternalError(err).status };
              return;
            }
            yield { type: ev.type, object };
            break;
          }
          case 'BOOKMARK':
            yield { type: 'BOOKMARK', object: { ...ev.object, apiVersion } };
            break;
          case 'ERROR':
            yield ev;
            break;
        }
      }
    } finally {
      inner.stop();
    }
  }
  const gen = events();
  return {
    [Symbol.asyncIterator]: () => gen,
    stop: () => { inner.stop(); },
  };
}

/**
 * `inner` (a CRD's storage, objects in the versions they were written in) seen in `servedApiVersion`,
 * writing in `storageApiVersion`.
 */
export function newConvertingStorage(inner: Storage, convert: ConvertFunc, servedApiVersion: string, storageApiVersion: string): Storage {
  const toServed = (o: KubeObject): Promise<KubeObject> => one(convert, o, servedApiVersion);
  const toStorage = (o: KubeObject): Promise<KubeObject> => one(convert, o, storageApiVersion);
  return {
    async create(key, obj, ttlSeconds) {
      return await toServed(await inner.create(key, await toStorage(obj), ttlSeconds));
    },
    async get(key, opts) {
      const obj = await inner.get(key, opts);
      return obj === undefined ? undefined : await toServed(obj);
    },
    async getList(key, opts) {
      const res = await inner.getList(key, opts);
      return { ...res, items: await convert(res.items, servedApiVersion) };
    },
    async guaranteedUpdate(key, opts) {
      const out = await inner.guaranteedUpdate(key, {
        ...opts,
        tryUpdate: async (current) => toStorage(await opts.tryUpdate(current === undefined ? undefined : await toServed(current))),
      });
      return await toServed(out);
    },
    async delete(key, opts) {
      const validate = opts.validateDeletion;
      const out = await inner.delete(key, {
        ...opts,
        ...(validate !== undefined ? { validateDeletion: async (current: KubeObject) => { await validate(await toServed(current)); } } : {}),
      });
      return await toServed(out);
    },
    async watch(key, opts) {
      return convertingWatch(await inner.watch(key, opts), convert, servedApiVersion);
    },
    count: (key) => inner.count(key),
    currentRevision: () => inner.currentRevision(),
    async roundTrip(obj) {
      return await toServed(await toStorage(obj));
    },
  };
}
