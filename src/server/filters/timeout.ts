// A deadline for requests that are not long-running (--request-timeout, default 60s, or less with
// ?timeout=): the request's AbortSignal fires and the client gets the timeout filter's 504, as
// kube's WithTimeoutForNonLongRunningRequests writes it: the Status JSON-encoded without kind and
// apiVersion, sniffed as text/plain, and without the headers the inner filters and handler set
// (their Warning, CORS and X-Kubernetes-PF-* headers). That holds whatever the request was doing:
// reading a body still on its way, waiting on storage, or computing (a handler busy on one event
// loop cannot be interrupted; it meets its deadline at its next checkDeadline/yieldPoint in
// apimachinery/request/deadline.ts, which all storage writes pass, so nothing is written after the
// 504). An answer the handler had already begun is cut off (kube aborts the connection).
// Counterpart of k8s.io/apiserver/pkg/server/filters/timeout.go.
import type { ServerResponse } from 'node:http';
import { DeadlineExceededError } from '../../apimachinery/request/deadline.ts';
import { recordRequestAbort, recordRequestPostTimeout, recordRequestTermination } from '../../endpoints/metrics/terminations.ts';
import { isLongRunning } from './max-in-flight.ts';
import type { Filter } from './types.ts';

/** kube's timeout filter body: json.Encoder output of the Status (no TypeMeta), newline-terminated. */
const TIMEOUT_BODY = `${JSON.stringify({
  metadata: {}, status: 'Failure', message: 'Timeout: request did not complete within the allotted timeout', reason: 'Timeout',
  details: {}, code: 504,
})}\n`;

/** Headers set inside kube's timeout filter although kapi's filters set them further out. */
const INNER_HEADER = /^(x-kubernetes-pf-|access-control-)/;

function writeTimeout(res: ServerResponse, outer: ReadonlySet<string>): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const h of res.getHeaderNames()) if (!outer.has(h) || INNER_HEADER.test(h)) res.removeHeader(h);
  res.statusCode = 504;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(TIMEOUT_BODY));
  res.end(TIMEOUT_BODY);
}

export const withTimeout = (defaultSeconds: number): Filter => (next) => async (req, res, state) => {
  const info = state.info;
  if (info === undefined || isLongRunning(info.verb, info.subresource)) return next(req, res, state);
  // A client may ask for less with ?timeout=.
  const asked = parseDuration(state.url.searchParams.get('timeout'));
  const seconds = asked !== undefined && asked > 0 && asked < defaultSeconds ? asked : defaultSeconds;
  const ms = seconds * 1000;
  state.deadline = Date.now() + ms;
  const outer = new Set(res.getHeaderNames());
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), ms); });
  // The handler's own DeadlineExceededError (from a checkpoint) counts as the timeout too: the
  // timer may not have had a turn yet.
  let settled = false;
  const work = next(req, res, state).then(() => 'done' as const,
    (err: unknown) => { if (err instanceof DeadlineExceededError) return 'timeout' as const; throw err; })
    .finally(() => { settled = true; });
  try {
    const outcome = await Promise.race([work, timedOut]);
    if (outcome === 'timeout') {
      state.abort.abort();
      // How a handler still running ends after the timeout (kube's request_post_timeout_total).
      if (!settled) work.then(() => recordRequestPostTimeout('ok'), () => recordRequestPostTimeout('panic'));
      else work.catch(() => undefined);
      recordRequestTermination(info, req, 504);
      if (res.headersSent) recordRequestAbort(info, req);
      writeTimeout(res, outer);
    }
  } finally {
    clearTimeout(timer);
  }
};

/** Go duration strings as clients send them: "32s", "1m0s", "500ms". */
export function parseDuration(v: string | null): number | undefined {
  if (v === null || v === '') return undefined;
  const re = /(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g;
  let total = 0;
  let matched = '';
  for (const m of v.matchAll(re)) {
    const n = Number(m[1]);
    const unit = m[2];
    total += unit === 'h' ? n * 3600 : unit === 'm' ? n * 60 : unit === 's' ? n : unit === 'ms' ? n / 1000 : n / 1e6;
    matched += m[0];
  }
  return matched === v ? total : undefined;
}
