// The storage metrics of kube-apiserver, for whichever backend serves (etcd or the embedded
// SQLite store: kube's etcd_* names and labels are kept for both, so dashboards work unchanged;
// apiserver_storage_backend_info names the backend). A Backend wrapped by instrumentBackend times
// every request by operation and resource, and notes the size of the values it reads or watches;
// object counts are read at most once a minute, as kube's store polls them, and with the average
// size they are the stats the priority and fairness work estimator reads (objectStats).
// Counterpart of k8s.io/apiserver/pkg/storage/etcd3/metrics/metrics.go.
import { newCounter, newGauge, newHistogram, REQUEST_DURATION_BUCKETS } from '../apimachinery/metrics/registry.ts';
import type { Backend, TxnResult } from './backend.ts';
import { ResourceSizeEstimator } from './resource-size-estimator.ts';

export interface GroupResource { readonly group: string; readonly resource: string }

const etcdRequestLatency = newHistogram({
  name: 'etcd_request_duration_seconds', stability: 'ALPHA', help: 'Etcd request latency in seconds for each operation and object type.',
  labelNames: ['operation', 'group', 'resource'], buckets: REQUEST_DURATION_BUCKETS,
});
const etcdRequestCounts = newCounter({
  name: 'etcd_requests_total', stability: 'ALPHA', help: 'Etcd request counts for each operation and object type.',
  labelNames: ['operation', 'group', 'resource'],
});
const etcdRequestErrors = newCounter({
  name: 'etcd_request_errors_total', stability: 'ALPHA', help: 'Etcd failed request counts for each operation and object type.',
  labelNames: ['operation', 'group', 'resource'],
});
const listTotal = newCounter({
  name: 'apiserver_storage_list_total', stability: 'ALPHA', help: 'Number of LIST requests served from storage', labelNames: ['group', 'resource'],
});
const listFetched = newCounter({
  name: 'apiserver_storage_list_fetched_objects_total', stability: 'ALPHA',
  help: 'Number of objects read from storage in the course of serving a LIST request', labelNames: ['group', 'resource'],
});
const listEvaluated = newCounter({
  name: 'apiserver_storage_list_evaluated_objects_total', stability: 'ALPHA',
  help: 'Number of objects tested in the course of serving a LIST request from storage', labelNames: ['group', 'resource'],
});
const listReturned = newCounter({
  name: 'apiserver_storage_list_returned_objects_total', stability: 'ALPHA',
  help: 'Number of objects returned for a LIST request from storage', labelNames: ['group', 'resource'],
});
const backendInfo = newGauge({
  name: 'apiserver_storage_backend_info', stability: 'ALPHA',
  help: 'kapi: the storage backend behind the etcd_* metrics (etcd3 or sqlite), as a constant 1.', labelNames: ['backend'],
});

/** Records one storage request (RecordEtcdRequest). */
export function recordStorageRequest(operation: string, gr: GroupResource, failed: boolean, startNs: bigint): void {
  const labels = { group: gr.group, operation, resource: gr.resource };
  etcdRequestLatency.observe(labels, Number(process.hrtime.bigint() - startNs) / 1e9);
  etcdRequestCounts.inc(labels);
  if (failed) etcdRequestErrors.inc(labels);
}

/** What one LIST read from storage: objects fetched, tested against the selector, and returned. */
export interface ListStats { fetched: number; evaluated: number }

export function recordStorageList(gr: GroupResource, stats: ListStats, returned: number): void {
  const labels = { group: gr.group, resource: gr.resource };
  listTotal.inc(labels);
  listFetched.inc(labels, stats.fetched);
  listEvaluated.inc(labels, stats.evaluated);
  listReturned.inc(labels, returned);
}

export function recordStorageBackend(name: 'etcd3' | 'sqlite'): void {
  backendInfo.set({ backend: name }, 1);
}

async function timed<T>(operation: string, gr: GroupResource, fn: () => Promise<T>): Promise<T> {
  const start = process.hrtime.bigint();
  try {
    const out = await fn();
    recordStorageRequest(operation, gr, false, start);
    return out;
  } catch (err) {
    recordStorageRequest(operation, gr, true, start);
    throw err;
  }
}

/** The size estimators by kube's group-resource string ("pods", "deployments.apps"). */
const sizeEstimators = new Map<string, ResourceSizeEstimator>();

function grString(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

/** The backend of one resource's store, timed by kube's operation names, its values' sizes noted. */
export function instrumentBackend(b: Backend, gr: GroupResource): Backend {
  const sizes = sizeEstimators.get(grString(gr)) ?? new ResourceSizeEstimator();
  sizeEstimators.set(grString(gr), sizes);
  const written = (r: TxnResult): TxnResult => {
    if (r.succeeded && r.kv !== undefined) sizes.update([r.kv]);
    return r;
  };
  return {
    range: async (key, opts) => {
      const r = await timed(opts?.prefix === true ? 'list' : 'get', gr, () => b.range(key, opts));
      sizes.update(r.kvs);
      return r;
    },
    create: async (key, value, ttl) => written(await timed('create', gr, () => b.create(key, value, ttl))),
    update: async (key, value, rev, ttl) => written(await timed('update', gr, () => b.update(key, value, rev, ttl))),
    delete: (key, rev) => timed('delete', gr, () => b.delete(key, rev)),
    count: (prefix) => timed('listWithCount', gr, () => b.count(prefix)),
    watch: (key, opts, handler) => b.watch(key, opts, {
      onEvents: (events) => { sizes.onEvents(events); handler.onEvents(events); },
      onProgress: (rev) => handler.onProgress(rev),
      onError: (err) => handler.onError(err),
    }),
    compact: (rev) => b.compact(rev),
    compactedRevision: () => b.compactedRevision(),
    ...(b.knownCompactedRevision === undefined ? {} : { knownCompactedRevision: () => b.knownCompactedRevision?.() ?? 0 }),
    currentRevision: () => b.currentRevision(),
    close: () => b.close(),
  };
}

/**
 * apiserver_storage_objects (group.resource) and apiserver_resource_objects (group, resource):
 * the number of stored objects of each tracked resource, -1 when counting failed. Counted when
 * scraped, at most once a minute per resource.
 */
interface Tracked { gr: GroupResource; count: () => Promise<number>; value: number; at: number; pending: Promise<void> | undefined }
const counted = new Map<string, Tracked>();
const COUNT_INTERVAL_MS = 60_000;

/** Counts what is due; both gauges of one scrape wait for the same count. */
async function refreshCounts(): Promise<void> {
  const now = Date.now();
  await Promise.all([...counted.values()].map((t) => {
    if (t.pending !== undefined) return t.pending;
    if (t.at !== 0 && now - t.at < COUNT_INTERVAL_MS) return undefined;
    t.at = now;
    t.pending = t.count().catch(() => -1).then((n) => { t.value = n; t.pending = undefined; });
    return t.pending;
  }));
}

newGauge({
  name: 'apiserver_storage_objects', stability: 'STABLE',
  help: '(Deprecated since 1.34.0) [DEPRECATED, consider using apiserver_resource_objects instead] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
  labelNames: ['resource'],
  async collect() {
    await refreshCounts();
    for (const t of counted.values()) this.set({ resource: t.gr.group === '' ? t.gr.resource : `${t.gr.resource}.${t.gr.group}` }, t.value);
  },
});
newGauge({
  name: 'apiserver_resource_objects', stability: 'ALPHA',
  help: 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
  labelNames: ['group', 'resource'],
  async collect() {
    await refreshCounts();
    for (const t of counted.values()) this.set({ group: t.gr.group, resource: t.gr.resource }, t.value);
  },
});

newGauge({
  name: 'apiserver_resource_size_estimate_bytes', stability: 'ALPHA',
  help: 'Estimated size of stored objects in database. Estimate is based on sum of last observed sizes of serialized objects. In case of a fetching error, the value will be -1.',
  labelNames: ['group', 'resource'],
  async collect() {
    await refreshCounts();
    for (const t of counted.values()) {
      const avg = sizeEstimators.get(grString(t.gr))?.averageSize() ?? 0;
      // Objects, none of whose sizes this server saw yet: unknown, as a failed count.
      this.set({ group: t.gr.group, resource: t.gr.resource }, t.value < 0 || (t.value > 0 && avg === 0) ? -1 : avg * t.value);
    }
  },
});

/** Counts older than this are stale: the work estimator then assumes the worst. */
const STALE_AFTER_MS = 3 * 60_000;

/**
 * What the storage last reported for a resource (kube's object count tracker): its object count
 * and average stored size, 'not-found' when it is not tracked or never counted, 'stale' when its
 * count is over three minutes old.
 */
export function objectStats(groupResource: string, now = Date.now()): { objectCount: number; averageObjectSizeBytes: number } | 'not-found' | 'stale' {
  const dot = groupResource.indexOf('.');
  const t = counted.get(dot < 0 ? `${groupResource}.` : groupResource);
  if (t === undefined || t.at === 0 || t.value < 0) return 'not-found';
  if (now - t.at > STALE_AFTER_MS) return 'stale';
  return { objectCount: t.value, averageObjectSizeBytes: sizeEstimators.get(groupResource)?.averageSize() ?? 0 };
}

/** Counts every tracked resource now and then about each minute (kube's --etcd-count-metric-poll-period); returns the stop. */
export function pollObjectCounts(periodMs = COUNT_INTERVAL_MS / 2): () => void {
  const poll = (): void => { refreshCounts().catch(() => {}); };
  poll();
  const timer = setInterval(poll, periodMs).unref();
  return () => clearInterval(timer);
}

/** Tracks the object count of a resource (its store's count of its key prefix). A later store of the same resource replaces it. */
export function trackObjectCount(gr: GroupResource, count: () => Promise<number>): void {
  counted.set(`${gr.resource}.${gr.group}`, { gr, count, value: -1, at: 0, pending: undefined });
}
