// Small Status values the pod subresources answer with.
// Counterpart of the Status values pkg/registry/core/pod/rest answers with.
import { StatusError } from '../../../../apimachinery/errors/status-error.ts';
import type { Status } from '../../../../apimachinery/meta/types.ts';

/** What a subresource create answers on success (metav1.Status{Status: Success}, 201 Created). */
export function statusSuccess(code = 201): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code };
}

/**
 * An error kube-apiserver did not turn into an API status itself: ErrorToAPIStatus answers it
 * with 500, an empty (Unknown) reason and the error's text.
 */
export function unknownError(message: string, code = 500): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason: '', message });
}
