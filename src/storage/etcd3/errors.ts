// How etcd's gRPC errors map onto storage errors. etcd reports MVCC errors as status details
// ("etcdserver: mvcc: required revision has been compacted"); transport failures as UNAVAILABLE
// or DEADLINE_EXCEEDED, and so do its own "request timed out" / "no leader" errors.
// Counterpart of go.etcd.io/etcd/api/v3/v3rpc/rpctypes and
// k8s.io/apiserver/pkg/storage/etcd3/errors.go.
import { status as GrpcStatus } from '@grpc/grpc-js';
import { StorageError } from '../interfaces.ts';
import { REQUEST_TOO_LARGE } from '../request-size.ts';

export type EtcdErrorKind = 'compacted' | 'future' | 'unreachable' | 'other';

interface GrpcLikeError { readonly code?: unknown; readonly details?: unknown; readonly message?: unknown }

export const COMPACTED_MESSAGE = 'mvcc: required revision has been compacted';
export const FUTURE_MESSAGE = 'mvcc: required revision is a future revision';

function detailsOf(err: unknown): string {
  const e = err as GrpcLikeError | null;
  if (typeof e?.details === 'string' && e.details !== '') return e.details;
  return typeof e?.message === 'string' ? e.message : String(err);
}

export function classifyEtcdError(err: unknown): EtcdErrorKind {
  if (err instanceof StorageError) return err.code === 'Unreachable' ? 'unreachable' : 'other';
  const details = detailsOf(err);
  if (details.includes('required revision has been compacted')) return 'compacted';
  if (details.includes('required revision is a future revision')) return 'future';
  const code = (err as GrpcLikeError | null)?.code;
  if (code === GrpcStatus.UNAVAILABLE || code === GrpcStatus.DEADLINE_EXCEEDED || code === GrpcStatus.CANCELLED) {
    return 'unreachable';
  }
  return 'other';
}

export function unreachable(key: string, err: unknown): StorageError {
  if (err instanceof StorageError && err.code === 'Unreachable') return err;
  return new StorageError('Unreachable', key, `etcd unreachable: ${detailsOf(err)}`);
}

/**
 * Maps an error that is neither compaction nor a future revision (the backend resolves those,
 * as they need a revision). Other etcd errors (permission denied, ...) pass
 * through as plain errors carrying etcd's text, which the API reports as an internal error, as
 * kube-apiserver does.
 */
export function mapEtcdError(key: string, err: unknown): Error {
  if (err instanceof StorageError) return err;
  if (classifyEtcdError(err) === 'unreachable') return unreachable(key, err);
  // An etcd run with a --max-request-bytes below kapi's check (or gRPC's own message limit)
  // refuses the write itself: the same error as the check, so the answer is kube's either way.
  const details = detailsOf(err);
  if (details.includes('request is too large') || details.includes('larger than max')) {
    return new StorageError('RequestTooLarge', key, REQUEST_TOO_LARGE);
  }
  return new Error(details);
}
