// --max-requests-inflight / --max-mutating-requests-inflight (with priority and fairness off):
// beyond the limit a request gets kube's plain-text 429 with Retry-After: 1 at once, unless its
// user is in system:masters. Long-running requests (watch) are not counted, as in kube. It runs
// after authentication and impersonation, where kube's does.
// Counterpart of k8s.io/apiserver/pkg/server/filters/maxinflight.go.
import { updateInflightRequests } from '../../endpoints/metrics/metrics.ts';
import { recordRequestTermination } from '../../endpoints/metrics/terminations.ts';
import { writeTooManyRequests } from './too-many-requests.ts';
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
      // A system:master always gets an answer.
      if (state.user?.groups.includes('system:masters') === true) return next(req, res, state);
      recordRequestTermination(info, req, 429);
      writeTooManyRequests(res, 1);
      return;
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
