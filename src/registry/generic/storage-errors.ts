// Translates storage errors into API errors (storeerr in Go): storage knows keys, the registry
// knows which resource and name a key stands for.
import {
  newAlreadyExists, newBadRequest, newConflict, newInternalError, newNotFound, newResourceExpired, newServerTimeout,
  StatusError,
} from '../../apimachinery/errors/status-error.ts';
import type { GroupResource } from '../../apimachinery/schema/group-version.ts';
import { StorageError } from '../../storage/interfaces.ts';

export function newTooLargeResourceVersion(requested: number, current: number): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 504, reason: 'Timeout',
    message: `Too large resource version: ${requested}, current: ${current}`,
    details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
  });
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
    case 'InvalidContinue': case 'InvalidError': return newBadRequest(err.message);
    case 'Compacted': {
      const expired = newResourceExpired(err.message);
      if (err.continueToken !== '') expired.status.metadata = { continue: err.continueToken };
      return expired;
    }
    case 'TooLargeResourceVersion':
      return newTooLargeResourceVersion(Number(requestedRV ?? 0), err.revision);
    case 'InvalidObj':
      return newInternalError(err);
  }
}

export function interpretListError(err: unknown, gr: GroupResource, requestedRV?: string): unknown {
  return interpretStorageError(err, gr, '', 'list', requestedRV);
}
