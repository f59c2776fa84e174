// /metrics and /metrics/slis: the registries in Prometheus' text format. Both are non-resource
// URLs, authorized as any other (kube's bootstrap role system:monitoring grants them). GET only,
// as kube's mux routes; a HEAD gets the headers.
// Counterpart of k8s.io/apiserver/pkg/server/routes/metrics.go and
// k8s.io/component-base/metrics/prometheus/slis.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { legacyRegistry, METRICS_CONTENT_TYPE, newCounter, newGauge, registerProcessMetrics, slisRegistry } from '../apimachinery/metrics/registry.ts';

const healthcheck = newGauge({
  name: 'kubernetes_healthcheck', stability: 'STABLE', help: 'This metric records the result of a single healthcheck.',
  labelNames: ['name', 'type'], registry: slisRegistry,
});
const healthchecks = newCounter({
  name: 'kubernetes_healthchecks_total', stability: 'STABLE', help: 'This metric records the results of all healthcheck.',
  labelNames: ['name', 'status', 'type'], registry: slisRegistry,
});

newGauge({
  name: 'process_start_time_seconds', stability: 'ALPHA', help: 'Start time of the process since unix epoch in seconds.', registry: slisRegistry,
  collect() { this.set((Date.now() - process.uptime() * 1000) / 1000); },
});

/** One health check's outcome in a /healthz, /livez or /readyz request. */
export function recordHealthcheck(name: string, type: string, ok: boolean): void {
  healthcheck.set({ name, type }, ok ? 1 : 0);
  healthchecks.inc({ name, status: ok ? 'success' : 'error', type });
}

function serve(registry: Registry): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const body = await registry.metrics();
    res.statusCode = 200;
    res.setHeader('Content-Type', METRICS_CONTENT_TYPE);
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

/** The handlers, by path (the process metrics are registered when a server first wants them). */
export function metricsHandlers(): [string, (req: IncomingMessage, res: ServerResponse) => Promise<void>][] {
  registerProcessMetrics();
  return [['/metrics', serve(legacyRegistry)], ['/metrics/slis', serve(slisRegistry)]];
}
