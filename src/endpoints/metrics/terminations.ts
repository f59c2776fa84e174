// The request metrics of the filters that end requests themselves: terminations in self-defense
// (429 from priority and fairness or the in-flight limit, 504 from the timeout filter), aborts (an
// answer cut off after it had begun), what handlers did after their request timed out, and the
// requests waiting in priority and fairness queues (the highest count in the last second).
// Counterpart of k8s.io/apiserver/pkg/endpoints/metrics/metrics.go (RecordRequestTermination,
// RecordRequestAbort, RecordRequestPostTimeout, the current_inqueue_requests watermark).
import type { IncomingMessage } from 'node:http';
import type { RequestInfo } from '../../apimachinery/request/context.ts';
import { newCounter, newGauge } from '../../apimachinery/metrics/registry.ts';
import { APISERVER_COMPONENT, cleanScope, reportedVerb } from './metrics.ts';

const terminations = newCounter({
  name: 'apiserver_request_terminations_total', stability: 'ALPHA', help: 'Number of requests which apiserver terminated in self-defense.',
  labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
});
const aborts = newCounter({
  name: 'apiserver_request_aborts_total', stability: 'ALPHA',
  help: 'Number of requests which apiserver aborted possibly due to a timeout, for each group, version, verb, resource, subresource and scope',
  labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope'],
});
const postTimeout = newCounter({
  name: 'apiserver_request_post_timeout_total', stability: 'ALPHA',
  help: 'Tracks the activity of the request handlers after the associated requests have been timed out by the apiserver',
  labelNames: ['source', 'status'],
});

/** The labels naming what was asked: a non-resource request's path stands in the subresource label. */
function what(info: RequestInfo, req: IncomingMessage): { verb: string; group: string; version: string; resource: string; subresource: string; scope: string } {
  const verb = reportedVerb(info, req, false);
  const scope = cleanScope(info);
  if (!info.isResourceRequest) return { verb: (req.method ?? '').toUpperCase(), group: '', version: '', resource: '', subresource: info.path, scope };
  return { verb, group: info.apiGroup, version: info.apiVersion, resource: info.resource, subresource: info.subresource, scope };
}

/** A request the server ended itself with `code` (429 or 504). */
export function recordRequestTermination(info: RequestInfo, req: IncomingMessage, code: number): void {
  terminations.inc({ ...what(info, req), component: APISERVER_COMPONENT, code: String(code) });
}

/** A request whose answer was cut off (it had begun when the request timed out). */
export function recordRequestAbort(info: RequestInfo, req: IncomingMessage): void {
  aborts.inc(what(info, req));
}

/** How a handler ended after its request timed out: 'ok', or 'panic' when it threw. */
export function recordRequestPostTimeout(status: 'ok' | 'panic'): void {
  postTimeout.inc({ source: 'timeout-handler', status });
}

/** Requests waiting in priority and fairness queues, with the highest counts of the current and last second. */
const inqueue = { readOnly: 0, mutating: 0, maxReadOnly: 0, maxMutating: 0, lastReadOnly: 0, lastMutating: 0, windowStart: 0 };
function roll(now: number): void {
  if (now - inqueue.windowStart < 1000) return;
  inqueue.lastReadOnly = inqueue.maxReadOnly;
  inqueue.lastMutating = inqueue.maxMutating;
  inqueue.maxReadOnly = inqueue.readOnly;
  inqueue.maxMutating = inqueue.mutating;
  inqueue.windowStart = now;
}
newGauge({
  name: 'apiserver_current_inqueue_requests', stability: 'ALPHA',
  help: 'Maximal number of queued requests in this apiserver per request kind in last second.', labelNames: ['request_kind'],
  collect() {
    roll(Date.now());
    this.set({ request_kind: 'mutating' }, Math.max(inqueue.lastMutating, inqueue.mutating));
    this.set({ request_kind: 'readOnly' }, Math.max(inqueue.lastReadOnly, inqueue.readOnly));
  },
});

/** A request starts (+1) or stops (-1) waiting in a queue. */
export function noteInqueue(mutating: boolean, delta: 1 | -1): void {
  roll(Date.now());
  if (mutating) {
    inqueue.mutating += delta;
    inqueue.maxMutating = Math.max(inqueue.maxMutating, inqueue.mutating);
  } else {
    inqueue.readOnly += delta;
    inqueue.maxReadOnly = Math.max(inqueue.maxReadOnly, inqueue.readOnly);
  }
}
