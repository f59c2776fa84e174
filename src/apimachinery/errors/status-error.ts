// StatusError: an error that carries the metav1.Status kube-apiserver would send.
// Constructors mirror k8s.io/apimachinery/pkg/api/errors (NewNotFound -> newNotFound).
import type { Status, StatusCause } from '../meta/types.ts';
import { formatGroupResource, type GroupKind, type GroupResource } from '../schema/group-version.ts';
import { aggregateMessages, errorBody, formatFieldError, type FieldError } from './field-errors.ts';
import { goQuote } from '../goformat/index.ts';

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
function formatGroupKind(gk: GroupKind): string {
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

/** The handlers' errNotAcceptable (endpoints/handlers/rest.go): a 406 with its own message. */
export function newNotAcceptableMessage(message: string): StatusError {
  return failure(406, 'NotAcceptable', message);
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

/**
 * What ErrorToAPIStatus makes of a Go error that is not a status (plain errors admission plugins
 * return): 500, no reason, the error's text as the message.
 */
export function newUnknownError(message: string): StatusError {
  return failure(500, '', message);
}

export function newInternalError(err: unknown): StatusError {
  const msg = err instanceof Error ? err.message : String(err);
  return failure(500, 'InternalError', `Internal error occurred: ${msg}`, { causes: [{ message: msg }] });
}

/** The reason and message NewGenericServerResponse gives a bare HTTP status code. */
function genericReason(code: number, serverMessage: string): { reason: StatusReason; message: string } {
  switch (code) {
    case 400: return { reason: 'BadRequest', message: 'the server rejected our request for an unknown reason' };
    case 401: return { reason: 'Unauthorized', message: 'the server has asked for the client to provide credentials' };
    case 403: return { reason: 'Forbidden', message: serverMessage };
    case 404: return { reason: 'NotFound', message: 'the server could not find the requested resource' };
    case 405: return { reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' };
    case 406: return { reason: 'NotAcceptable', message: serverMessage === '' || serverMessage === 'unknown'
      ? 'the server was unable to respond with a content type that the client supports' : serverMessage };
    case 409: return { reason: 'Conflict', message: 'the server reported a conflict' };
    case 415: return { reason: 'UnsupportedMediaType', message: serverMessage };
    case 422: return { reason: 'Invalid', message: 'the server rejected our request due to an error in our request' };
    case 429: return { reason: 'TooManyRequests', message: 'the server has received too many requests and has asked us to try again later' };
    case 503: return { reason: 'ServiceUnavailable', message: 'the server is currently unable to handle the request' };
    case 504: return { reason: 'Timeout', message: 'the server was unable to return a response in the time allotted, but may still be processing the request' };
    default: return code >= 500
      ? { reason: 'InternalError', message: `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding` }
      : { reason: '', message: `the server responded with the status code ${code} but did not return more information` };
  }
}

/**
 * NewGenericServerResponse(code, "", GroupResource{}, "", serverMessage, 0, false): what kube
 * sends for errors that come from go-restful's router (405 for a method no route has, 406 for
 * an Accept no route produces, 415 for a Content-Type no route consumes) and for failed JSON
 * patches (422). No causes; details is present and empty.
 */
export function newGenericServerResponse(code: number, serverMessage: string): StatusError {
  const { reason, message } = genericReason(code, serverMessage);
  return failure(code, reason, message, {});
}

/**
 * What client-go's REST client makes of a non-2xx answer that is no Status
 * (NewGenericServerResponse(code, verb, GroupResource{}, "", serverMessage, retryAfter, true)):
 * the generic reason and message, the server's text as an UnexpectedServerResponse cause.
 */
export function newUnexpectedServerResponse(code: number, verb: string, serverMessage: string, retryAfterSeconds: number): StatusError {
  const generic = genericReason(code, serverMessage);
  const reason: StatusReason = code === 409 && verb === 'POST' ? 'AlreadyExists' : generic.reason;
  const d: NonNullable<Status['details']> = { causes: [{ reason: 'UnexpectedServerResponse', message: serverMessage }] };
  if (retryAfterSeconds > 0) d.retryAfterSeconds = retryAfterSeconds;
  return failure(code, reason, generic.message, d);
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
