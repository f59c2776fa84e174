// Records every request a route took in the request metrics once its response is done:
// apiserver_request_total, _duration_seconds, _response_sizes, and the long-running gauge while a
// watch or connect request runs. The health endpoints and OpenAPI v3 are instrumented too, with
// their path in the subresource label, as kube's InstrumentHandlerFunc does for them.
// Counterpart of k8s.io/apiserver/pkg/endpoints/metrics (InstrumentRouteFunc, RecordLongRunning).
import type { ServerResponse } from 'node:http';
import {
  monitorRequest, nonResourceLabels, recordLongRunning, resourceLabels, type RequestLabels,
} from '../../endpoints/metrics/metrics.ts';
import type { RequestState } from '../../endpoints/request/state.ts';
import { isLongRunning } from './max-in-flight.ts';
import type { Filter } from './types.ts';

const CONNECT = new Set(['proxy', 'exec', 'attach', 'portforward']);

/** The label a non-resource path is instrumented under, or undefined when kube does not instrument it. */
function instrumentedPath(path: string): string | undefined {
  if (path === '/healthz' || path === '/livez' || path === '/readyz') return path;
  if (path === '/openapi/v3' || path.startsWith('/openapi/v3/')) return 'openapi/v3';
  return undefined;
}

function bytesOf(res: ServerResponse): number {
  const n = Number(res.getHeader('Content-Length') ?? 0);
  return Number.isFinite(n) ? n : 0;
}

function labelsOf(state: RequestState, req: Parameters<typeof resourceLabels>[1]): RequestLabels | undefined {
  const info = state.info;
  if (info === undefined) return undefined;
  if (info.isResourceRequest) {
    if (!state.routed) return undefined;
    return resourceLabels(info, req, state.url, CONNECT.has(info.subresource));
  }
  const sub = instrumentedPath(state.path);
  return sub === undefined ? undefined : nonResourceLabels(req.method ?? 'GET', sub);
}

export const withRequestMetrics = (): Filter => (next) => async (req, res, state) => {
  const start = process.hrtime.bigint();
  let endLongRunning: (() => void) | undefined;
  const info = state.info;
  if (info !== undefined && info.isResourceRequest && isLongRunning(info.verb, info.subresource)) {
    state.onRouted = () => {
      const l = labelsOf(state, req);
      if (l !== undefined) endLongRunning = recordLongRunning(l);
    };
  }
  let done = false;
  const record = (): void => {
    if (done) return;
    done = true;
    endLongRunning?.();
    const l = labelsOf(state, req);
    if (l === undefined) return;
    monitorRequest(l, res.statusCode, bytesOf(res), Number(process.hrtime.bigint() - start) / 1e9);
  };
  res.once('finish', record);
  res.once('close', record);
  await next(req, res, state);
};
