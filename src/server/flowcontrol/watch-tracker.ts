// The watches open on this server, counted by what they watch (group, resource, namespace, name),
// so that the work estimator can tell how many watchers a write will wake. A pod watch limited to
// one node (fieldSelector spec.nodeName=X, kube's one built-in watch cache index) is not counted:
// the cache sends such a watch only its node's pods.
// Counterpart of k8s.io/apiserver/pkg/util/flowcontrol/watch_tracker.go.
import type { RequestInfo } from '../../apimachinery/request/context.ts';
import { exactFieldMatch, requestedName } from './work-estimator.ts';

const INDEXED: Readonly<Record<string, string>> = { pods: 'spec.nodeName' };

function id(group: string, resource: string, namespace: string, name: string): string {
  return `${group}\0${resource}\0${namespace}\0${name}`;
}

export class WatchTracker {
  private readonly counts = new Map<string, number>();

  /** Counts a watch; returns the function that forgets it (once), or undefined for a watch that is not counted. */
  register(info: RequestInfo, query: URLSearchParams): (() => void) | undefined {
    if (info.verb !== 'watch') return undefined;
    const field = INDEXED[info.resource];
    if (field !== undefined && exactFieldMatch(query.get('fieldSelector') ?? '', field) !== '') return undefined;
    const key = id(info.apiGroup, info.resource, info.namespace, requestedName(info, query));
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    let forgotten = false;
    return () => {
      if (forgotten) return;
      forgotten = true;
      const n = (this.counts.get(key) ?? 1) - 1;
      if (n <= 0) this.counts.delete(key); else this.counts.set(key, n);
    };
  }

  /** Watches a write of this request would notify: those of its resource, its namespace, and its object. */
  interestedWatchCount(info: RequestInfo): number {
    if (['get', 'list', 'watch', 'proxy'].includes(info.verb)) return 0;
    let n = this.counts.get(id(info.apiGroup, info.resource, '', '')) ?? 0;
    if (info.namespace !== '') n += this.counts.get(id(info.apiGroup, info.resource, info.namespace, '')) ?? 0;
    if (info.name !== '') n += this.counts.get(id(info.apiGroup, info.resource, info.namespace, info.name)) ?? 0;
    return n;
  }
}
