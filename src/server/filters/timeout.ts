// A deadline for requests that are not long-running (--request-timeout, default 60s): the
// client gets 504 Timeout and the request's AbortSignal fires.
import { newTimeoutError } from '../../apimachinery/errors/status-error.ts';
import { writeError } from '../../endpoints/handlers/response.ts';
import { isLongRunning } from './max-in-flight.ts';
import type { Filter } from './types.ts';

export const withTimeout = (defaultSeconds: number): Filter => (next) => async (req, res, state) => {
  const info = state.info;
  if (info === undefined || isLongRunning(info.verb, info.subresource)) return next(req, res, state);
  // A client may ask for less with ?timeout=.
  const asked = parseDuration(state.url.searchParams.get('timeout'));
  const seconds = asked !== undefined && asked > 0 && asked < defaultSeconds ? asked : defaultSeconds;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), seconds * 1000); });
  const work = next(req, res, state).then(() => 'done' as const);
  try {
    const outcome = await Promise.race([work, timedOut]);
    if (outcome === 'timeout') {
      state.abort.abort();
      work.catch(() => undefined);
      writeError(res, newTimeoutError(`request did not complete within requested timeout - context deadline exceeded`, 0), undefined, state);
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
