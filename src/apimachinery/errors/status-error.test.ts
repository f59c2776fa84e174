// The catalogue of error constructors (k8s.io/apimachinery/pkg/api/errors, errors_test.go): each
// maps to kube's HTTP code, reason, message and details, and every reason a client can switch
// on has a constructor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Status } from '../meta/types.ts';
import { required } from './field-errors.ts';
import {
  isAlreadyExists, isBadRequest, isConflict, isGone, isInvalid, isNotFound, isResourceExpired, isTooManyRequests,
  newAlreadyExists, newBadRequest, newConflict, newForbidden, newGenericServerResponse, newGone, newInternalError,
  newInvalid, newMethodNotSupported, newNotAcceptable, newNotFound, newPathNotFound, newRequestEntityTooLarge,
  newResourceExpired, newServerTimeout, newServiceUnavailable, newTimeoutError, newTooManyRequests, newUnauthorized,
  newUnsupportedMediaType, OPTIMISTIC_LOCK_MESSAGE, StatusError, toStatus, type StatusReason,
} from './status-error.ts';

const pods = { group: '', resource: 'pods' };
const deployments = { group: 'apps', resource: 'deployments' };

interface Case {
  readonly name: string;
  readonly err: StatusError;
  readonly code: number;
  readonly reason: StatusReason;
  readonly message: string;
  readonly details?: Status['details'];
}

const cases: readonly Case[] = [
  { name: 'NotFound, core group', err: newNotFound(pods, 'p'), code: 404, reason: 'NotFound', message: 'pods "p" not found',
    details: { name: 'p', kind: 'pods' } },
  { name: 'NotFound, named group', err: newNotFound(deployments, 'd'), code: 404, reason: 'NotFound', message: 'deployments.apps "d" not found',
    details: { name: 'd', group: 'apps', kind: 'deployments' } },
  { name: 'AlreadyExists', err: newAlreadyExists(deployments, 'd'), code: 409, reason: 'AlreadyExists',
    message: 'deployments.apps "d" already exists', details: { name: 'd', group: 'apps', kind: 'deployments' } },
  { name: 'Conflict', err: newConflict(pods, 'p', OPTIMISTIC_LOCK_MESSAGE), code: 409, reason: 'Conflict',
    message: `Operation cannot be fulfilled on pods "p": ${OPTIMISTIC_LOCK_MESSAGE}`, details: { name: 'p', kind: 'pods' } },
  { name: 'Invalid', err: newInvalid({ group: 'apps', kind: 'Deployment' }, 'd', [required('spec.selector', '')]), code: 422, reason: 'Invalid',
    message: 'Deployment.apps "d" is invalid: spec.selector: Required value',
    details: { name: 'd', group: 'apps', kind: 'Deployment', causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' }] } },
  { name: 'Invalid without causes', err: newInvalid({ group: '', kind: 'Pod' }, 'p', []), code: 422, reason: 'Invalid',
    message: 'Pod "p" is invalid', details: { name: 'p', kind: 'Pod', causes: [] } },
  { name: 'BadRequest', err: newBadRequest('bad'), code: 400, reason: 'BadRequest', message: 'bad' },
  { name: 'Unauthorized', err: newUnauthorized(), code: 401, reason: 'Unauthorized', message: 'Unauthorized' },
  { name: 'Forbidden, named', err: newForbidden(pods, 'p', 'no'), code: 403, reason: 'Forbidden', message: 'pods "p" is forbidden: no',
    details: { name: 'p', kind: 'pods' } },
  { name: 'Forbidden, unnamed', err: newForbidden(deployments, '', 'no'), code: 403, reason: 'Forbidden',
    message: 'deployments.apps is forbidden: no', details: { group: 'apps', kind: 'deployments' } },
  { name: 'MethodNotAllowed', err: newMethodNotSupported(pods, 'deletecollection'), code: 405, reason: 'MethodNotAllowed',
    message: 'deletecollection is not supported on resources of kind "pods"', details: { kind: 'pods' } },
  { name: 'NotAcceptable', err: newNotAcceptable(['application/json', 'application/yaml']), code: 406, reason: 'NotAcceptable',
    message: 'only the following media types are accepted: application/json, application/yaml' },
  { name: 'UnsupportedMediaType', err: newUnsupportedMediaType(['application/json']), code: 415, reason: 'UnsupportedMediaType',
    message: 'the body of the request was in an unknown format - accepted media types include: application/json' },
  { name: 'RequestEntityTooLarge', err: newRequestEntityTooLarge('limit is 3145728'), code: 413, reason: 'RequestEntityTooLarge',
    message: 'Request entity too large: limit is 3145728' },
  { name: 'Gone', err: newGone('gone'), code: 410, reason: 'Gone', message: 'gone' },
  { name: 'Expired', err: newResourceExpired('too old resource version: 1 (5)'), code: 410, reason: 'Expired', message: 'too old resource version: 1 (5)' },
  { name: 'TooManyRequests', err: newTooManyRequests('slow down', 3), code: 429, reason: 'TooManyRequests', message: 'slow down',
    details: { retryAfterSeconds: 3 } },
  { name: 'Timeout', err: newTimeoutError('request did not complete', 2), code: 504, reason: 'Timeout',
    message: 'Timeout: request did not complete', details: { retryAfterSeconds: 2 } },
  { name: 'ServerTimeout', err: newServerTimeout(deployments, 'get', 2), code: 500, reason: 'ServerTimeout',
    message: 'The get operation against deployments.apps could not be completed at this time, please try again.',
    details: { name: 'get', group: 'apps', kind: 'deployments', retryAfterSeconds: 2 } },
  { name: 'ServiceUnavailable', err: newServiceUnavailable('later'), code: 503, reason: 'ServiceUnavailable', message: 'later' },
  { name: 'InternalError', err: newInternalError(new Error('boom')), code: 500, reason: 'InternalError',
    message: 'Internal error occurred: boom', details: { causes: [{ message: 'boom' }] } },
  { name: 'path not found', err: newPathNotFound(), code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} },
  { name: 'generic 405', err: newGenericServerResponse(405, ''), code: 405, reason: 'MethodNotAllowed',
    message: 'the server does not allow this method on the requested resource', details: {} },
  { name: 'generic 406 with no message', err: newGenericServerResponse(406, ''), code: 406, reason: 'NotAcceptable',
    message: 'the server was unable to respond with a content type that the client supports', details: {} },
  { name: 'generic 415', err: newGenericServerResponse(415, 'unsupported'), code: 415, reason: 'UnsupportedMediaType', message: 'unsupported', details: {} },
  { name: 'generic 422', err: newGenericServerResponse(422, 'x'), code: 422, reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request', details: {} },
  { name: 'generic 502', err: newGenericServerResponse(502, 'bad "gw"'), code: 502, reason: 'InternalError',
    message: 'an error on the server ("bad \\"gw\\"") has prevented the request from succeeding', details: {} },
  { name: 'generic 418', err: newGenericServerResponse(418, ''), code: 418, reason: '',
    message: 'the server responded with the status code 418 but did not return more information', details: {} },
];

test('every error constructor maps to kube\'s code, reason, message and details', () => {
  for (const c of cases) {
    const want: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: c.message, reason: c.reason, code: c.code };
    if (c.details !== undefined) want.details = c.details;
    assert.deepEqual(c.err.status, want, c.name);
    assert.equal(c.err.message, c.message, c.name);
    assert.equal(c.err.code, c.code, c.name);
    assert.equal(c.err.reason, c.reason, c.name);
  }
});

test('every StatusReason a client can act on has a constructor', () => {
  // StoreReadError is only sent by kube for objects that fail to decode, which kapi never stores.
  const reasons: readonly StatusReason[] = ['', 'Unauthorized', 'Forbidden', 'NotFound', 'AlreadyExists', 'Conflict', 'Gone',
    'Invalid', 'ServerTimeout', 'Timeout', 'TooManyRequests', 'BadRequest', 'MethodNotAllowed', 'NotAcceptable',
    'RequestEntityTooLarge', 'UnsupportedMediaType', 'InternalError', 'Expired', 'ServiceUnavailable'];
  const covered = new Set(cases.map((c) => c.reason));
  assert.deepEqual(reasons.filter((r) => !covered.has(r)), []);
});

test('the predicates recognize their reason and nothing else', () => {
  const preds: { name: string; is: (e: unknown) => boolean; err: StatusError }[] = [
    { name: 'isNotFound', is: isNotFound, err: newNotFound(pods, 'p') },
    { name: 'isAlreadyExists', is: isAlreadyExists, err: newAlreadyExists(pods, 'p') },
    { name: 'isConflict', is: isConflict, err: newConflict(pods, 'p', 'x') },
    { name: 'isInvalid', is: isInvalid, err: newInvalid({ group: '', kind: 'Pod' }, 'p', []) },
    { name: 'isBadRequest', is: isBadRequest, err: newBadRequest('x') },
    { name: 'isResourceExpired', is: isResourceExpired, err: newResourceExpired('x') },
    { name: 'isGone', is: isGone, err: newGone('x') },
    { name: 'isTooManyRequests', is: isTooManyRequests, err: newTooManyRequests('x', 1) },
  ];
  for (const p of preds) {
    assert.equal(p.is(p.err), true, p.name);
    for (const other of preds) if (other !== p) assert.equal(p.is(other.err), false, `${p.name} of ${other.name}`);
    assert.equal(p.is(new Error(p.err.message)), false, `${p.name} of a plain Error`);
  }
});

test('toStatus passes a StatusError through and makes anything else a 500 InternalError', () => {
  const nf = newNotFound(pods, 'p');
  assert.equal(toStatus(nf), nf.status);
  assert.deepEqual(toStatus(new Error('disk')), newInternalError(new Error('disk')).status);
  assert.equal(toStatus('text').message, 'Internal error occurred: text');
});
