// The request metrics of kube-apiserver: names, types, labels and buckets as v1.36 exposes them.
// A request is counted when its route is found (the installer's routes, and the few non-resource
// handlers kube instruments), so a client cannot grow the label sets with made-up paths: kube gets
// the same bound by instrumenting go-restful routes only.
// Counterpart of k8s.io/apiserver/pkg/endpoints/metrics/metrics.go.
import type { IncomingMessage } from 'node:http';
import type { RequestInfo } from '../../apimachinery/request/context.ts';
import { exponentialBuckets, newCounter, newGauge, newHistogram, REQUEST_DURATION_BUCKETS } from '../../apimachinery/metrics/registry.ts';

export const APISERVER_COMPONENT = 'apiserver';

const requestCounter = newCounter({
  name: 'apiserver_request_total', stability: 'STABLE',
  help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
  labelNames: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
});
const requestLatencies = newHistogram({
  name: 'apiserver_request_duration_seconds', stability: 'STABLE',
  help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
  labelNames: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
  buckets: REQUEST_DURATION_BUCKETS,
});
const responseSizes = newHistogram({
  name: 'apiserver_response_sizes', stability: 'STABLE',
  help: 'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
  labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
  buckets: exponentialBuckets(1000, 10, 7),
});
const longRunning = newGauge({
  name: 'apiserver_longrunning_requests', stability: 'STABLE',
  help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
  labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
});
const watchEvents = newCounter({
  name: 'apiserver_watch_events_total', stability: 'ALPHA', help: 'Number of events sent in watch clients',
  labelNames: ['group', 'version', 'resource'],
});
const watchEventsSizes = newHistogram({
  name: 'apiserver_watch_events_sizes', stability: 'ALPHA', help: 'Watch event size distribution in bytes',
  labelNames: ['group', 'version', 'resource'], buckets: exponentialBuckets(1024, 2, 8),
});

/**
 * apiserver_current_inflight_requests: the highest number in flight during the last second (a
 * watermark, as kube's), per request kind.
 */
const inflight = { readOnly: 0, mutating: 0, maxReadOnly: 0, maxMutating: 0, windowStart: 0, lastReadOnly: 0, lastMutating: 0 };
function rollWindow(now: number): void {
  if (now - inflight.windowStart < 1000) return;
  inflight.lastReadOnly = inflight.maxReadOnly;
  inflight.lastMutating = inflight.maxMutating;
  inflight.maxReadOnly = inflight.readOnly;
  inflight.maxMutating = inflight.mutating;
  inflight.windowStart = now;
}
newGauge({
  name: 'apiserver_current_inflight_requests', stability: 'STABLE',
  help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
  labelNames: ['request_kind'],
  collect() {
    rollWindow(Date.now());
    this.set({ request_kind: 'mutating' }, Math.max(inflight.lastMutating, inflight.mutating));
    this.set({ request_kind: 'readOnly' }, Math.max(inflight.lastReadOnly, inflight.readOnly));
  },
});

/** The in-flight filter's counts, after each change. */
export function updateInflightRequests(readOnly: number, mutating: number): void {
  inflight.readOnly = readOnly;
  inflight.mutating = mutating;
  if (readOnly > inflight.maxReadOnly) inflight.maxReadOnly = readOnly;
  if (mutating > inflight.maxMutating) inflight.maxMutating = mutating;
}

/** The scope label: one object, a namespace, the cluster, or '' for non-resource requests. */
export function cleanScope(info: RequestInfo): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  if (info.isResourceRequest) return 'cluster';
  return '';
}

const VERBS: Readonly<Record<string, string>> = {
  get: 'GET', list: 'LIST', watch: 'WATCH', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE',
};

/** The verb label: the route's HTTP verb, LIST and WATCH for collections, APPLY for server-side apply, CONNECT for connect subresources. */
export function reportedVerb(info: RequestInfo, req: IncomingMessage, connect: boolean): string {
  if (connect) return 'CONNECT';
  const v = VERBS[info.verb];
  if (v === 'PATCH' && req.headers['content-type'] === 'application/apply-patch+yaml') return 'APPLY';
  return v ?? 'other';
}

/** The dry_run label: '' without one, the sorted distinct values when valid ("All"), else "invalid". */
export function cleanDryRun(url: URL): string {
  if (!url.search.includes('dryRun')) return '';
  const values = url.searchParams.getAll('dryRun');
  if (values.some((v) => v !== 'All')) return 'invalid';
  return values.length === 0 ? '' : 'All';
}

/** The labels shared by the request metrics, in kube's (sorted) order. */
export interface RequestLabels {
  readonly component: string;
  readonly dry_run: string;
  readonly group: string;
  readonly resource: string;
  readonly scope: string;
  readonly subresource: string;
  readonly verb: string;
  readonly version: string;
}

export function resourceLabels(info: RequestInfo, req: IncomingMessage, url: URL, connect: boolean, component = APISERVER_COMPONENT): RequestLabels {
  return {
    component, dry_run: cleanDryRun(url), group: info.apiGroup, resource: info.resource, scope: cleanScope(info),
    subresource: info.subresource, verb: reportedVerb(info, req, connect), version: info.apiVersion,
  };
}

/** A non-resource handler kube instruments (health checks, OpenAPI v3): the path stands in the subresource label. */
export function nonResourceLabels(method: string, subresource: string): RequestLabels {
  return { component: '', dry_run: '', group: '', resource: '', scope: '', subresource, verb: method === 'HEAD' ? 'GET' : method, version: '' };
}

/** Records one finished request (MonitorRequest). */
export function monitorRequest(l: RequestLabels, code: number, respSize: number, elapsedSeconds: number): void {
  requestCounter.inc({ code: String(code), component: l.component, dry_run: l.dry_run, group: l.group, resource: l.resource,
    scope: l.scope, subresource: l.subresource, verb: l.verb, version: l.version });
  requestLatencies.observe(l, elapsedSeconds);
  // Only reads are sized, as kube.
  if (l.verb === 'GET' || l.verb === 'LIST') {
    responseSizes.observe({ component: l.component, group: l.group, resource: l.resource, scope: l.scope, subresource: l.subresource,
      verb: l.verb, version: l.version }, respSize);
  }
}

/** Counts a long-running request while it runs; returns what ends it. */
export function recordLongRunning(l: RequestLabels): () => void {
  const labels = { component: l.component, group: l.group, resource: l.resource, scope: l.scope, subresource: l.subresource, verb: l.verb, version: l.version };
  longRunning.inc(labels);
  return () => longRunning.dec(labels);
}

const watchListLatencies = newHistogram({
  name: 'apiserver_watch_list_duration_seconds', stability: 'BETA',
  help: 'Response latency distribution in seconds for watch list requests broken by group, version, resource and scope.',
  labelNames: ['group', 'version', 'resource', 'scope'], buckets: [0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 2, 4, 6, 8, 10, 15, 20, 30, 45, 60],
});

/** A watch list sent its initial events, `seconds` after the request arrived. */
export function recordWatchListLatency(group: string, version: string, resource: string, scope: string, seconds: number): void {
  watchListLatencies.observe({ group, resource, scope, version }, seconds);
}

/** One event written to a watch stream of `group/version` `resource`. */
export function recordWatchEvent(group: string, version: string, resource: string, bytes: number): void {
  const labels = { group, resource, version };
  watchEvents.inc(labels);
  watchEventsSizes.observe(labels, bytes);
}
