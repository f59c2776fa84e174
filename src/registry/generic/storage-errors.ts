// Translates storage errors into API errors (storeerr in Go): storage knows keys, the registry
// knows which resource and name a key stands for.
// Counterpart of k8s.io/apiserver/pkg/registry/generic/registry (storeerr:
// k8s.io/apiserver/pkg/storage/errors).
import {
  newAlreadyExists, newBadRequest, newConflict, newInternalError, newNotFound, newResourceExpired, newServerTimeout,
  StatusError,
} from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { GroupResource } from '../../apimachinery/schema/group-version.ts';
import { StorageError } from '../../storage/interfaces.ts';
import { REQUEST_TOO_LARGE } from '../../storage/request-size.ts';

/** storage.NewTooLargeResourceVersionError as the watch cache sends it: NewTimeoutError, retry after 1 s. */
function newTooLargeResourceVersion(requested: string, current: number): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 504, reason: 'Timeout',
    message: `Timeout: Too large resource version: ${requested}, current: ${current}`,
    details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
  });
}

/** storage.IsTooLargeResourceVersion: a Timeout whose causes name ResourceVersionTooLarge. */
export function isTooLargeResourceVersion(err: unknown): boolean {
  return err instanceof StatusError && err.status.reason === 'Timeout'
    && (err.status.details?.causes ?? []).some((c) => c.reason === 'ResourceVersionTooLarge');
}

/** The answer to a write beyond etcd's request limit (isTooLargeError in kube's handlers). */
export function isRequestTooLarge(err: unknown): boolean {
  return err instanceof StatusError && err.status.code === 500 && err.status.message === REQUEST_TOO_LARGE;
}

/** ErrorToAPIStatus of an error that is no API status: 500, empty reason, the error's text. */
export function unknownError(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, reason: '', message });
}

/** Maps a storage error of an operation on one object to the StatusError kube-apiserver sends. */
export function interpretStorageError(err: unknown, gr: GroupResource, name: string, operation: string,
  requestedRV?: string): unknown {
  if (err instanceof StatusError || !(err instanceof StorageError)) return err;
  switch (err.code) {
    case 'KeyNotFound': return newNotFound(gr, name);
    case 'KeyExists': return newAlreadyExists(gr, name);
    case 'ResourceVersionConflicts': return newConflict(gr, name, err.message);
    case 'Unreachable': return newServerTimeout(gr, operation, 2);
    case 'InvalidContinue': return newBadRequest(err.message);
    // A list validates its options into a 400 (storage.ValidateListOptions); get and watch hand
    // the versioner's error up unwrapped, which kube answers as a 500 of unknown reason.
    case 'InvalidError': return operation === 'list' ? newBadRequest(err.message) : unknownError(err.message);
    case 'Compacted': {
      const expired = newResourceExpired(err.message);
      if (err.continueToken !== '') expired.status.metadata = { continue: err.continueToken };
      return expired;
    }
    case 'TooLargeResourceVersion':
      // The requested version as sent: it parsed as a uint64, which a JS number may round.
      return newTooLargeResourceVersion(/^\d+$/.test(requestedRV ?? '') ? BigInt(requestedRV ?? '0').toString() : '0', err.revision);
    case 'InvalidObj':
      return newInternalError(err);
    // kube-apiserver hands etcd's error up unmapped (kubernetes/kubernetes#112152): a 500 of
    // unknown reason whose message is etcd's text.
    case 'RequestTooLarge':
      return unknownError(err.message);
  }
}

export function interpretListError(err: unknown, gr: GroupResource, requestedRV?: string): unknown {
  return interpretStorageError(err, gr, '', 'list', requestedRV);
}

/**
 * storage.Preconditions.Check on an update (etcd3 GuaranteedUpdate), as InterpretUpdateError
 * reports it: a 409 wrapping the StorageError text of ErrCodeInvalidObj. A missing object is
 * checked as an empty one (its UID is ""), before the update learns that it is missing.
 */
export function checkUIDPrecondition(key: string, pre: { readonly uid: string } | undefined, existing: KubeObject | undefined,
  gr: GroupResource, name: string): void {
  if (pre === undefined) return;
  const uid = existing?.metadata.uid ?? '';
  if (pre.uid === uid) return;
  throw newConflict(gr, name, `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, `
    + `AdditionalErrorMsg: Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid}`);
}
