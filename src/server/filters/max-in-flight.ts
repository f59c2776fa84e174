// --max-requests-inflight / --max-mutating-requests-inflight: beyond the limit a request
// is refused with 429 at once. Long-running requests (watch) are not counted, as in kube.
// Counterpart of k8s.io/apiserver/pkg/server/filters/maxinflight.go.
import { newTooManyRequests } from '../../apimachinery/errors/status-error.ts';
import { updateInflightRequests } from '../../endpoints/metrics/metrics.ts';
import type { Filter } from './types.ts';

const MUTATING = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export function isLongRunning(verb: string, subresource: string): boolean {
  return verb === 'watch' || ['proxy', 'log', 'exec', 'attach', 'portforward'].includes(subresource);
}

export const withMaxInFlight = (maxReadOnly: number, maxMutating: number): Filter => {
  let readOnly = 0;
  let mutating = 0;
  return (next) => async (req, res, state) => {
    const info = state.info;
    if (info === undefined || isLongRunning(info.verb, info.subresource)) return next(req, res, state);
    const isMutating = MUTATING.has(info.verb);
    const limit = isMutating ? maxMutating : maxReadOnly;
    if (limit > 0 && (isMutating ? mutating : readOnly) >= limit) {
      throw newTooManyRequests('Too many requests, please try again later.', 1);
    }
    if (isMutating) mutating++; else readOnly++;
    updateInflightRequests(readOnly, mutating);
    try {
      await next(req, res, state);
    } finally {
      if (isMutating) mutating--; else readOnly--;
      updateInflightRequests(readOnly, mutating);
    }
  };
};
