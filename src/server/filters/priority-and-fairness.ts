// API priority and fairness: each request (after authentication, so the user is known) is
// classified to a FlowSchema and priority level, waits for a seat of that level, and runs; the
// answer names both by UID (X-Kubernetes-PF-FlowSchema-UID, -PriorityLevel-UID). A request that
// finds its queue full, or waits past its limit (a quarter of its deadline, at most a minute),
// gets kube's plain-text 429 with Retry-After. A request takes the seats kube's work estimator
// gives it (lists and watches by the memory they hold, writes one, plus a while after for their
// watchers). A watch holds its seats until it is established, and counts as a watcher until it
// ends; other long-running requests (exec, logs, proxy) are not limited.
// Counterpart of k8s.io/apiserver/pkg/server/filters/priority-and-fairness.go.
import type { ServerResponse } from 'node:http';
import type { APFController, Classification } from '../flowcontrol/controller.ts';
import { observeAdmission, observeExecution, observeWorkEstimate } from '../flowcontrol/metrics.ts';
import { nowNanos, type RequestDigest } from '../flowcontrol/queue-set.ts';
import { updateInflightRequests } from '../../endpoints/metrics/metrics.ts';
import { noteInqueue, recordRequestTermination } from '../../endpoints/metrics/terminations.ts';
import { isLongRunning } from './max-in-flight.ts';
import { parseDuration } from './timeout.ts';
import { writeTooManyRequests } from './too-many-requests.ts';
import type { Filter } from './types.ts';

const MAX_WAIT_MS = 60_000;
const READ_ONLY = new Set(['get', 'list', 'watch']);

/** Requests executing under priority and fairness, for apiserver_current_inflight_requests (as kube's watermarks). */
const executing = { readOnly: 0, mutating: 0 };

function setResponseHeaders(res: ServerResponse, c: Classification): void {
  if (res.headersSent) return;
  res.setHeader('X-Kubernetes-PF-PriorityLevel-UID', c.level.pl.metadata.uid ?? '');
  res.setHeader('X-Kubernetes-PF-FlowSchema-UID', c.flowSchema.metadata.uid ?? '');
}

/** `requestTimeoutMs`: --request-timeout, whose quarter bounds the wait of a request without its own deadline. */
export const withPriorityAndFairness = (ctl: APFController, requestTimeoutMs: number): Filter => (next) => async (req, res, state) => {
  const info = state.info;
  const user = state.user;
  if (info === undefined || user === undefined) return next(req, res, state);
  const isWatch = info.verb === 'watch';
  if (!isWatch && isLongRunning(info.verb, info.subresource)) return next(req, res, state);
  const c = ctl.classify(info, user);
  const level = c.level.pl.metadata.name ?? '';
  const flowSchema = c.flowSchema.metadata.name ?? '';
  const work = ctl.estimateWork(info, state.url.searchParams, flowSchema, level);
  observeWorkEstimate(flowSchema, level, work);
  const digest: RequestDigest = {
    flowSchema, distinguisher: c.distinguisher, arrived: nowNanos(), started: undefined,
    seats: work.initialSeats, finalSeats: work.finalSeats, additionalLatencyMs: work.additionalLatencyMs, user: user.name, info,
  };
  // The request's deadline: --request-timeout, or less with ?timeout= (as the timeout filter sets it).
  const asked = parseDuration(state.url.searchParams.get('timeout'));
  const deadlineMs = asked !== undefined && asked > 0 && asked * 1000 < requestTimeoutMs ? asked * 1000 : requestTimeoutMs;
  const waitMs = Math.min(MAX_WAIT_MS, deadlineMs / 4);
  // A client that goes away while its request waits cancels the wait.
  const onGone = (cancel: () => void): (() => void) => {
    const onClose = (): void => { if (!res.writableFinished) cancel(); };
    res.once('close', onClose);
    return () => res.off('close', onClose);
  };
  const waitStart = process.hrtime.bigint();
  const mutating = !READ_ONLY.has(info.verb);
  const admitted = ctl.admit(c, digest, state.startedAt + waitMs, onGone);
  let outcome: Awaited<typeof admitted>;
  if (typeof admitted === 'string') outcome = admitted;
  else {
    noteInqueue(mutating, 1);
    try { outcome = await admitted; } finally { noteInqueue(mutating, -1); }
  }
  observeAdmission(digest.flowSchema, level, outcome, Number(process.hrtime.bigint() - waitStart) / 1e9, c.level.queues.config.queues > 0);
  setResponseHeaders(res, c);
  if (outcome !== 'dispatched') {
    // kube counts a request cancelled while it waited as terminated too (it was not served).
    recordRequestTermination(info, req, 429);
    if (outcome !== 'cancelled') writeTooManyRequests(res, ctl.dropped.retryAfter(c.level.pl.metadata.name ?? ''));
    return;
  }
  let released = false;
  executing[mutating ? 'mutating' : 'readOnly']++;
  updateInflightRequests(executing.readOnly, executing.mutating);
  const started = process.hrtime.bigint();
  const release = (): void => {
    if (released) return;
    released = true;
    ctl.finish(c, digest);
    executing[mutating ? 'mutating' : 'readOnly']--;
    updateInflightRequests(executing.readOnly, executing.mutating);
    observeExecution(digest.flowSchema, level, isWatch, Number(process.hrtime.bigint() - started) / 1e9);
  };
  if (isWatch) state.watchInitialized = release;
  const forgetWatch = ctl.watches.register(info, state.url.searchParams);
  try {
    await next(req, res, state);
  } finally {
    release();
    forgetWatch?.();
  }
};
