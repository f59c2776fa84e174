// StatusError: an error that carries the metav1.Status kube-apiserver would send.
// Constructors mirror k8s.io/apimachinery/pkg/api/errors (NewNotFound -> newNotFound).
import type { Status, StatusCause } from '../meta/types.ts';
import { formatGroupResource, type GroupKind, type GroupResource } from '../schema/group-version.ts';
import { aggregateMessages, errorBody, formatFieldError, type FieldError } from './field-errors.ts';

export type StatusReason = '' | 'Unauthorized' | 'Forbidden' | 'NotFound' | 'AlreadyExists' | 'Conflict'
  | 'Gone' | 'Invalid' | 'ServerTimeout' | 'StoreReadError' | 'Timeout' | 'TooManyRequests' | 'BadRequest'
  | 'MethodNotAllowed' | 'NotAcceptable' | 'RequestEntityTooLarge' | 'UnsupportedMediaType' | 'InternalError'
  | 'Expired' | 'ServiceUnavailable';

export type FailureStatus = Status & { status: 'Failure'; code: number; reason: StatusReason; message: string };

export class StatusError extends Error {
  override readonly name = 'StatusError';
  readonly status: FailureStatus;
  constructor(status: FailureStatus) {
    super(status.message);
    this.status = status;
  }
  get code(): number { return this.status.code; }
  get reason(): StatusReason { return this.status.reason; }
}

/** StatusDetails as Go serializes them: empty strings are omitted. */
function details(gr: { group: string }, kind: string, name: string): NonNullable<Status['details']> {
  const d: NonNullable<Status['details']> = {};
  if (name !== '') d.name = name;
  if (gr.group !== '') d.group = gr.group;
  if (kind !== '') d.kind = kind;
  return d;
}

function failure(code: number, reason: StatusReason, message: string, details?: Status['details']): StatusError {
  const s: FailureStatus = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details !== undefined) s.details = details;
  return new StatusError(s);
}

/** "ConfigMap" for the core group, "Deployment.apps" otherwise (schema.GroupKind.String). */
export function formatGroupKind(gk: GroupKind): string {
  return gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;
}

export function newNotFound(gr: GroupResource, name: string): StatusError {
  return failure(404, 'NotFound', `${formatGroupResource(gr)} "${name}" not found`,
    details(gr, gr.resource, name));
}

export function newAlreadyExists(gr: GroupResource, name: string): StatusError {
  return failure(409, 'AlreadyExists', `${formatGroupResource(gr)} "${name}" already exists`,
    details(gr, gr.resource, name));
}

/** Names the resource and why the write could not be applied (stale resourceVersion, precondition). */
export function newConflict(gr: GroupResource, name: string, reason: string): StatusError {
  return failure(409, 'Conflict', `Operation cannot be fulfilled on ${formatGroupResource(gr)} "${name}": ${reason}`,
    details(gr, gr.resource, name));
}

/** The message kube sends when a write carries a stale resourceVersion. */
export const OPTIMISTIC_LOCK_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';

export function newInvalid(gk: GroupKind, name: string, errs: readonly FieldError[]): StatusError {
  const causes: StatusCause[] = errs.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
  const agg = errs.length === 0 ? '' : `: ${aggregateMessages(errs.map(formatFieldError))}`;
  return failure(422, 'Invalid', `${formatGroupKind(gk)} "${name}" is invalid${agg}`,
    { ...details(gk, gk.kind, name), causes });
}

export function newBadRequest(message: string): StatusError {
  return failure(400, 'BadRequest', message);
}

export function newUnauthorized(message = 'Unauthorized'): StatusError {
  return failure(401, 'Unauthorized', message);
}

export function newForbidden(gr: GroupResource, name: string, reason: string): StatusError {
  const what = name === '' ? formatGroupResource(gr) : `${formatGroupResource(gr)} "${name}"`;
  return failure(403, 'Forbidden', `${what} is forbidden: ${reason}`, details(gr, gr.resource, name));
}

export function newMethodNotSupported(gr: GroupResource, action: string): StatusError {
  return failure(405, 'MethodNotAllowed', `${action} is not supported on resources of kind "${formatGroupResource(gr)}"`,
    details(gr, gr.resource, ''));
}

export function newNotAcceptable(accepted: readonly string[]): StatusError {
  return failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

export function newUnsupportedMediaType(accepted: readonly string[]): StatusError {
  return failure(415, 'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
}

export function newRequestEntityTooLarge(message: string): StatusError {
  return failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

export function newGone(message: string): StatusError {
  return failure(410, 'Gone', message);
}

/** A resourceVersion or continue token older than the compacted revision. */
export function newResourceExpired(message: string): StatusError {
  return failure(410, 'Expired', message);
}

export function newTooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return failure(429, 'TooManyRequests', message, { retryAfterSeconds });
}

export function newTimeoutError(message: string, retryAfterSeconds: number): StatusError {
  return failure(504, 'Timeout', `Timeout: ${message}`, { retryAfterSeconds });
}

export function newServerTimeout(gr: GroupResource, operation: string, retryAfterSeconds: number): StatusError {
  return failure(500, 'ServerTimeout',
    `The ${operation} operation against ${formatGroupResource(gr)} could not be completed at this time, please try again.`,
    { ...details(gr, gr.resource, operation), retryAfterSeconds });
}

export function newServiceUnavailable(message: string): StatusError {
  return failure(503, 'ServiceUnavailable', message);
}

export function newInternalError(err: unknown): StatusError {
  const msg = err instanceof Error ? err.message : String(err);
  return failure(500, 'InternalError', `Internal error occurred: ${msg}`, { causes: [{ message: msg }] });
}

/** 404 for a path no route serves (as the NotFound handler's body). */
export function newPathNotFound(): StatusError {
  return failure(404, 'NotFound', 'the server could not find the requested resource', {});
}

export const isStatusError = (err: unknown): err is StatusError => err instanceof StatusError;
const hasReason = (reason: StatusReason) => (err: unknown): boolean => err instanceof StatusError && err.status.reason === reason;
export const isNotFound = hasReason('NotFound');
export const isAlreadyExists = hasReason('AlreadyExists');
export const isConflict = hasReason('Conflict');
export const isInvalid = hasReason('Invalid');
export const isBadRequest = hasReason('BadRequest');
export const isResourceExpired = hasReason('Expired');
export const isGone = hasReason('Gone');
export const isTooManyRequests = hasReason('TooManyRequests');

/** Counterpart of responsewriters.ErrorToAPIStatus: anything that is not a StatusError becomes a 500. */
export function toStatus(err: unknown): FailureStatus {
  if (err instanceof StatusError) return err.status;
  return newInternalError(err).status;
}
