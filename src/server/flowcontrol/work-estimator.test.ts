import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from '../../endpoints/request/request-info.ts';
import { WatchTracker } from './watch-tracker.ts';
import { newWorkEstimator, type StatsLookup, type WorkEstimate } from './work-estimator.ts';

// kube's rules (k8s.io/apiserver/pkg/util/flowcontrol/request, v1.36 defaults): a list costs one
// seat per 100 kB it holds at once (objects × average size; at most 1 MB from the watch cache),
// between 1 and 100 seats (or the level's own maximum); a write one seat, then ceil(watchers/10)
// seats (at most 10) for seats × latency = watchers/10 × 5 ms.
const STATS: Record<string, StatsLookup> = {
  configmaps: { objectCount: 5, averageObjectSizeBytes: 1000 },
  pods: { objectCount: 10_000, averageObjectSizeBytes: 5000 },
  secrets: { objectCount: 3, averageObjectSizeBytes: 0 },
  'deployments.apps': { objectCount: 0, averageObjectSizeBytes: 0 },
  events: 'stale',
};

const one = (seats: number): WorkEstimate => ({ initialSeats: seats, finalSeats: 0, additionalLatencyMs: 0 });

function estimate(method: string, url: string, opts: { watchers?: number; levelMax?: number } = {}): WorkEstimate {
  const u = new URL(url, 'https://x');
  const info = parseRequestInfo(method, u.pathname, u.searchParams);
  const e = newWorkEstimator({
    stats: (gr) => STATS[gr] ?? 'not-found',
    watchCount: () => opts.watchers ?? 0,
    maxSeats: () => opts.levelMax ?? 0,
  });
  return e(info, u.searchParams, 'fs', 'pl');
}

describe('work estimator', () => {
  const cases: { name: string; method?: string; url: string; watchers?: number; levelMax?: number; want: WorkEstimate }[] = [
    { name: 'small list from the cache', url: '/api/v1/configmaps', want: one(1) },
    { name: 'large list from the cache: 1 MB at most', url: '/api/v1/pods', want: one(10) },
    { name: 'limit from the cache (no resourceVersion)', url: '/api/v1/pods?limit=500', want: one(10) },
    { name: 'resourceVersion=0 reads the cache', url: '/api/v1/pods?resourceVersion=0', want: one(10) },
    { name: 'NotOlderThan reads the cache', url: '/api/v1/pods?resourceVersion=5&resourceVersionMatch=NotOlderThan', want: one(10) },
    { name: 'limit at a resourceVersion goes to storage: limit × size', url: '/api/v1/pods?limit=50&resourceVersion=123', want: one(3) },
    { name: 'continue goes to storage', url: '/api/v1/pods?continue=abc', want: one(100) },
    { name: 'Exact goes to storage', url: '/api/v1/pods?resourceVersion=5&resourceVersionMatch=Exact', want: one(100) },
    { name: 'a selector in storage reads half the objects at least', url: '/api/v1/pods?limit=10&resourceVersion=9&labelSelector=a%3Db', want: one(100) },
    { name: 'the level caps the seats', url: '/api/v1/pods?continue=abc', levelMax: 7, want: one(7) },
    { name: 'a level cap above the limit does not raise it', url: '/api/v1/pods?continue=abc', levelMax: 500, want: one(100) },
    { name: 'one object named by the field selector', url: '/api/v1/pods?continue=a&fieldSelector=metadata.name%3Dp1', want: one(1) },
    { name: 'unknown average size counts 1.5 MB each', url: '/api/v1/secrets?resourceVersionMatch=Exact&resourceVersion=1', want: one(45) },
    { name: 'no objects: the minimum', url: '/apis/apps/v1/deployments', want: one(1) },
    { name: 'stale count: as good as infinite', url: '/api/v1/events?continue=x', want: one(100) },
    { name: 'stale count from the cache', url: '/api/v1/events', want: one(10) },
    { name: 'untracked resource (aggregated): the minimum', url: '/apis/metrics.k8s.io/v1beta1/pods', want: one(1) },
    { name: 'limit that is no number: the maximum', url: '/api/v1/configmaps?limit=x', want: one(100) },
    { name: 'watch from now: the minimum', url: '/api/v1/pods?watch=1&resourceVersion=77', want: one(1) },
    { name: 'watch with initial events costs the list', url: '/api/v1/pods?watch=1&resourceVersion=77&sendInitialEvents=true', want: one(10) },
    { name: 'legacy watch (no resourceVersion) lists first', url: '/api/v1/pods?watch=1', want: one(10) },
    { name: 'get: the minimum', url: '/api/v1/namespaces/a/pods/p', want: one(1) },
    { name: 'non-resource: the minimum', url: '/healthz', want: one(1) },
    { name: 'create without watchers', method: 'POST', url: '/api/v1/namespaces/a/pods', watchers: 9, want: one(1) },
    { name: 'create with 25 watchers: 3 seats for 5 ms', method: 'POST', url: '/api/v1/namespaces/a/pods', watchers: 25,
      want: { initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5 } },
    { name: 'patch with 250 watchers: 10 seats for 12.5 ms', method: 'PATCH', url: '/api/v1/namespaces/a/pods/p', watchers: 250,
      want: { initialSeats: 1, finalSeats: 10, additionalLatencyMs: 12.5 } },
    { name: 'delete, capped by the level', method: 'DELETE', url: '/api/v1/namespaces/a/pods/p', watchers: 40, levelMax: 2,
      want: { initialSeats: 1, finalSeats: 2, additionalLatencyMs: 10 } },
    { name: 'service account token: no event', method: 'POST', url: '/api/v1/namespaces/a/serviceaccounts/s/token', watchers: 99, want: one(1) },
    { name: 'deletecollection: the minimum', method: 'DELETE', url: '/api/v1/namespaces/a/pods', watchers: 99, want: one(1) },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(estimate(c.method ?? 'GET', c.url, { ...(c.watchers === undefined ? {} : { watchers: c.watchers }),
        ...(c.levelMax === undefined ? {} : { levelMax: c.levelMax }) }), c.want);
    });
  }
});

describe('watch tracker', () => {
  const info = (method: string, url: string): [ReturnType<typeof parseRequestInfo>, URLSearchParams] => {
    const u = new URL(url, 'https://x');
    return [parseRequestInfo(method, u.pathname, u.searchParams), u.searchParams];
  };
  it('counts the watches a write would wake: its resource, namespace and object', () => {
    const t = new WatchTracker();
    const forget = [
      '/api/v1/configmaps?watch=1', '/api/v1/namespaces/a/configmaps?watch=1', '/api/v1/namespaces/b/configmaps?watch=1',
      '/api/v1/namespaces/a/configmaps?watch=1&fieldSelector=metadata.name%3Dc', '/api/v1/namespaces/a/configmaps?watch=1&fieldSelector=metadata.name%3Dd',
      '/api/v1/pods?watch=1&fieldSelector=spec.nodeName%3Dn1', '/api/v1/pods?watch=1', '/api/v1/namespaces/a/configmaps',
    ].map((u) => t.register(...info('GET', u)));
    assert.equal(forget[5], undefined, 'a pod watch of one node is not counted');
    assert.equal(forget[7], undefined, 'a list is no watch');
    assert.equal(t.interestedWatchCount(info('PUT', '/api/v1/namespaces/a/configmaps/c')[0]), 3);
    assert.equal(t.interestedWatchCount(info('POST', '/api/v1/namespaces/b/configmaps')[0]), 2);
    assert.equal(t.interestedWatchCount(info('DELETE', '/api/v1/namespaces/x/pods/p')[0]), 1);
    assert.equal(t.interestedWatchCount(info('GET', '/api/v1/namespaces/a/configmaps/c')[0]), 0, 'reads wake nobody');
    forget[0]?.();
    forget[0]?.();
    assert.equal(t.interestedWatchCount(info('PUT', '/api/v1/namespaces/a/configmaps/c')[0]), 2, 'a forgotten watch counts no more (once)');
  });
});
