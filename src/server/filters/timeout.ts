// A deadline for requests that are not long-running (--request-timeout, default 60s, or less with
// ?timeout=): the client gets 504 Timeout and the request's AbortSignal fires. A handler busy
// computing cannot be interrupted on one event loop; it meets its deadline at its next
// checkDeadline/yieldPoint (apimachinery/request/deadline.ts), which all storage writes pass, so
// nothing is written after the 504.
// Counterpart of k8s.io/apiserver/pkg/server/filters/timeout.go.
import { DeadlineExceededError } from '../../apimachinery/request/deadline.ts';
import { writeError } from '../../endpoints/handlers/response.ts';
import { isLongRunning } from './max-in-flight.ts';
import type { Filter } from './types.ts';

export const withTimeout = (defaultSeconds: number): Filter => (next) => async (req, res, state) => {
  const info = state.info;
  if (info === undefined || isLongRunning(info.verb, info.subresource)) return next(req, res, state);
  // A client may ask for less with ?timeout=.
  const asked = parseDuration(state.url.searchParams.get('timeout'));
  const seconds = asked !== undefined && asked > 0 && asked < defaultSeconds ? asked : defaultSeconds;
  const ms = seconds * 1000;
  state.deadline = Date.now() + ms;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), ms); });
  // The handler's own DeadlineExceededError (from a checkpoint) counts as the timeout too: the
  // timer may not have had a turn yet.
  const work = next(req, res, state).then(() => 'done' as const,
    (err: unknown) => { if (err instanceof DeadlineExceededError) return 'timeout' as const; throw err; });
  try {
    const outcome = await Promise.race([work, timedOut]);
    if (outcome === 'timeout') {
      state.abort.abort();
      work.catch(() => undefined);
      // writeRaw leaves a response the handler already started alone (kube resets it instead).
      writeError(res, new DeadlineExceededError(), undefined, state);
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
