// The watch cache's metrics, with kube's names, labels and help texts: initializations, events
// received and dispatched, the cache's resourceVersion and capacity, lists served from memory
// (objects read and returned, by the index used) and consistent reads (served or fallen back).
// Counterpart of k8s.io/apiserver/pkg/storage/cacher/metrics.
import { newCounter, newGauge, newHistogram } from '../../apimachinery/metrics/registry.ts';

type GR = 'group' | 'resource';
const ALPHA = 'ALPHA' as const;
const gr: GR[] = ['group', 'resource'];

const listTotal = newCounter<GR | 'index'>({ name: 'apiserver_cache_list_total', stability: ALPHA, labelNames: [...gr, 'index'], help: 'Number of LIST requests served from watch cache' });
const listFetched = newCounter<GR | 'index'>({ name: 'apiserver_cache_list_fetched_objects_total', stability: ALPHA, labelNames: [...gr, 'index'], help: 'Number of objects read from watch cache in the course of serving a LIST request' });
const listReturned = newCounter<GR>({ name: 'apiserver_cache_list_returned_objects_total', stability: ALPHA, labelNames: gr, help: 'Number of objects returned for a LIST request from watch cache' });
const initEvents = newCounter<GR>({ name: 'apiserver_init_events_total', stability: ALPHA, labelNames: gr, help: 'Counter of init events processed in watch cache broken by resource type.' });
const received = newCounter<GR>({ name: 'apiserver_watch_cache_events_received_total', stability: ALPHA, labelNames: gr, help: 'Counter of events received in watch cache broken by resource type.' });
const dispatched = newCounter<GR>({ name: 'apiserver_watch_cache_events_dispatched_total', stability: ALPHA, labelNames: gr, help: 'Counter of events dispatched in watch cache broken by resource type.' });
const resourceVersion = newGauge<GR>({ name: 'apiserver_watch_cache_resource_version', stability: ALPHA, labelNames: gr, help: 'Current resource version of watch cache broken by resource type. This is truncated to the 15 least significant digits.' });
const capacityIncrease = newCounter<GR>({ name: 'apiserver_watch_cache_capacity_increase_total', stability: ALPHA, labelNames: gr, help: 'Total number of watch cache capacity increase events broken by resource type.' });
const capacityDecrease = newCounter<GR>({ name: 'apiserver_watch_cache_capacity_decrease_total', stability: ALPHA, labelNames: gr, help: 'Total number of watch cache capacity decrease events broken by resource type.' });
const capacity = newGauge<GR>({ name: 'apiserver_watch_cache_capacity', stability: ALPHA, labelNames: gr, help: 'Total capacity of watch cache broken by resource type.' });
const initializations = newCounter<GR>({ name: 'apiserver_watch_cache_initializations_total', stability: ALPHA, labelNames: gr, help: 'Counter of watch cache initializations broken by resource type.' });
const readWait = newHistogram<GR>({
  name: 'apiserver_watch_cache_read_wait_seconds', stability: ALPHA, labelNames: gr, help: 'Histogram of time spent waiting for a watch cache to become fresh.',
  buckets: [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3],
});
const consistentRead = newCounter<GR | 'success' | 'fallback'>({
  name: 'apiserver_watch_cache_consistent_read_total', stability: ALPHA, labelNames: [...gr, 'success', 'fallback'], help: 'Counter for consistent reads from cache.',
});

/** The metrics of one resource's cache ("configmaps", "deployments.apps"). */
export class CacherMetrics {
  private readonly labels: { group: string; resource: string };

  constructor(groupResource: string) {
    const dot = groupResource.indexOf('.');
    this.labels = dot < 0 ? { group: '', resource: groupResource } : { group: groupResource.slice(dot + 1), resource: groupResource.slice(0, dot) };
  }

  /** The cache listed its resource at `rev` (again). */
  initialized(rev: number): void {
    initializations.inc(this.labels);
    this.revision(rev);
  }

  /** An event entered the cache and went to the watchers. */
  event(rev: number): void {
    received.inc(this.labels);
    dispatched.inc(this.labels);
    this.revision(rev);
  }

  revision(rev: number): void { resourceVersion.set(this.labels, rev % 1e15); }

  capacityChanged(from: number, to: number): void {
    capacity.set(this.labels, to);
    if (from === to) return;
    (from < to ? capacityIncrease : capacityDecrease).inc(this.labels);
  }

  /** A list served from memory: `index` is the index used ('' for none). */
  list(index: string, fetched: number, returned: number): void {
    listTotal.inc({ ...this.labels, index });
    listFetched.inc({ ...this.labels, index }, fetched);
    listReturned.inc(this.labels, returned);
  }

  initEvents(n: number): void { if (n > 0) initEvents.inc(this.labels, n); }

  waited(seconds: number): void { readWait.observe(this.labels, seconds); }

  consistentRead(success: boolean, fallback: boolean): void {
    consistentRead.inc({ ...this.labels, success: String(success), fallback: String(fallback) });
  }
}
