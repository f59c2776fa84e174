// etcd refuses a write whose request exceeds --max-request-bytes (1.5 MiB by default) with
// "etcdserver: request is too large", which kube-apiserver passes on as it is. Both backends
// check the same size before they write, so that an object SQLite would keep is refused exactly
// where etcd would refuse it, and etcd never answers with a gRPC message-size failure instead.
// Counterpart of etcd's --max-request-bytes check (go.etcd.io/etcd/server/v3/etcdserver).
import { StorageError } from './interfaces.ts';

/** etcd's default --max-request-bytes. */
export const MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;

/** etcd's own text (rpctypes.ErrRequestTooLarge). */
export const REQUEST_TOO_LARGE = 'etcdserver: request is too large';

// A write is one Txn naming the key three times (compare, put, read-back on failure) plus a
// few dozen bytes of framing; 512 bytes bound that framing with room to spare.
const FRAMING_BYTES = 512;

/** The bytes of the etcd request that writes `value` (a byte string, see backend.ts) at `key`. */
export function writeRequestBytes(key: string, value: string): number {
  return value.length + 3 * Buffer.byteLength(key) + FRAMING_BYTES;
}

/**
 * Rejects with RequestTooLarge when writing `value` exceeds the limit. `previous` is the value
 * being replaced: a write that does not grow the object passes (an object stored before the
 * limit applied can still lose its finalizers and be deleted).
 */
export function checkRequestSize(key: string, value: string, previous?: string, limit = MAX_REQUEST_BYTES): void {
  const size = writeRequestBytes(key, value);
  if (size <= limit) return;
  if (previous !== undefined && value.length <= previous.length) return;
  throw new StorageError('RequestTooLarge', key, REQUEST_TOO_LARGE);
}
