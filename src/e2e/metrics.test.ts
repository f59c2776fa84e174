// /metrics and /metrics/slis as kube-apiserver v1.36 serves them: the families, types, labels and
// buckets of kube, read by a Prometheus text parser, counters moving with the requests made, label
// sets bounded (a made-up path adds no series), and the URLs authorized as non-resource URLs
// (system:monitoring may read them, another user may not).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REQUEST_DURATION_BUCKETS } from '../apimachinery/metrics/registry.ts';
import { configMap, createNamespace } from './testing/objects.ts';
import { parsePrometheusText, sampleValue, type Family } from './testing/prometheus.ts';
import { startSuite, type Suite } from './testing/suite.ts';
import { openWatch } from './testing/watch-stream.ts';

const NS = 'e2e-metrics';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const REQUEST_LABELS = ['code', 'component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'];

async function scrape(s: Suite, path = '/metrics'): Promise<Map<string, Family>> {
  const r = await s.request({ method: 'GET', path });
  assert.equal(r.status, 200, r.text.slice(0, 300));
  assert.equal(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8; escaping=underscores');
  return parsePrometheusText(r.text);
}

const bucketsOf = (f: Family | undefined): number[] =>
  [...new Set((f?.samples ?? []).filter((x) => x.name.endsWith('_bucket')).map((x) => Number(x.labels['le'])))].filter(Number.isFinite);

describe('/metrics', () => {
  let s: Suite;
  before(async () => {
    s = await startSuite();
    await createNamespace(s, NS);
  });
  after(async () => { await s?.close(); });

  it('has kube\'s families with their types and help texts', async () => {
    const m = await scrape(s);
    const cases = [
      { name: 'apiserver_request_total', type: 'counter', help: '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.' },
      { name: 'apiserver_request_duration_seconds', type: 'histogram' },
      { name: 'apiserver_response_sizes', type: 'histogram' },
      { name: 'apiserver_current_inflight_requests', type: 'gauge' },
      { name: 'apiserver_longrunning_requests', type: 'gauge' },
      { name: 'apiserver_watch_events_total', type: 'counter' },
      { name: 'apiserver_watch_events_sizes', type: 'histogram' },
      { name: 'apiserver_storage_objects', type: 'gauge' },
      { name: 'apiserver_resource_objects', type: 'gauge' },
      { name: 'apiserver_storage_list_total', type: 'counter' },
      { name: 'apiserver_storage_list_fetched_objects_total', type: 'counter' },
      { name: 'apiserver_storage_list_evaluated_objects_total', type: 'counter' },
      { name: 'apiserver_storage_list_returned_objects_total', type: 'counter' },
      { name: 'etcd_request_duration_seconds', type: 'histogram' },
      { name: 'etcd_requests_total', type: 'counter' },
      { name: 'apiserver_admission_step_admission_duration_seconds', type: 'histogram' },
      { name: 'apiserver_admission_controller_admission_duration_seconds', type: 'histogram' },
      { name: 'apiserver_admission_webhook_admission_duration_seconds', type: 'histogram' },
      { name: 'apiserver_audit_event_total', type: 'counter' },
      { name: 'apiserver_audit_level_total', type: 'counter' },
      { name: 'apiserver_audit_requests_rejected_total', type: 'counter' },
      { name: 'process_cpu_seconds_total', type: 'counter' },
      { name: 'process_resident_memory_bytes', type: 'gauge' },
      { name: 'process_start_time_seconds', type: 'gauge' },
      { name: 'nodejs_eventloop_lag_seconds', type: 'gauge' },
    ];
    for (const c of cases) {
      const f = m.get(c.name);
      assert.ok(f !== undefined, `${c.name} is exposed`);
      assert.equal(f.type, c.type, c.name);
      if (c.help !== undefined) assert.equal(f.help, c.help, c.name);
    }
  });

  it('counts requests by kube\'s labels, with kube\'s buckets', async () => {
    const before = await scrape(s);
    const created = { code: '201', verb: 'POST', resource: 'configmaps', scope: 'resource', group: '', version: 'v1', component: 'apiserver', dry_run: '', subresource: '' };
    const got = { ...created, code: '200', verb: 'GET' };
    const listed = { ...created, code: '200', verb: 'LIST', scope: 'namespace' };
    const dryRun = { ...created, dry_run: 'All' };
    const value = (m: Map<string, Family>, l: Record<string, string>): number => sampleValue(m, 'apiserver_request_total', l) ?? 0;
    assert.equal((await s.request({ method: 'POST', path: CM, body: configMap('moving', { a: 'b' }) })).status, 201);
    assert.equal((await s.request({ method: 'POST', path: `${CM}?dryRun=All`, body: configMap('dry', { a: 'b' }) })).status, 201);
    assert.equal((await s.request({ method: 'GET', path: `${CM}/moving` })).status, 200);
    assert.equal((await s.request({ method: 'GET', path: CM })).status, 200);
    const after = await scrape(s);
    for (const [name, l] of [['create', created], ['get', got], ['list', listed], ['dry run', dryRun]] as const) {
      assert.equal(value(after, l) - value(before, l), 1, `${name}: apiserver_request_total moved by one`);
    }
    const series = after.get('apiserver_request_total')?.samples ?? [];
    for (const x of series) assert.deepEqual(Object.keys(x.labels).sort(), REQUEST_LABELS);
    assert.deepEqual(bucketsOf(after.get('apiserver_request_duration_seconds')), [...REQUEST_DURATION_BUCKETS]);
    assert.deepEqual(bucketsOf(after.get('apiserver_response_sizes')), [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]);
    assert.deepEqual(bucketsOf(after.get('etcd_request_duration_seconds')), [...REQUEST_DURATION_BUCKETS]);
    const etcd = (m: Map<string, Family>): number => sampleValue(m, 'etcd_requests_total', { operation: 'create', group: '', resource: 'configmaps' }) ?? 0;
    assert.equal(etcd(after) - etcd(before), 1, 'one storage create (the dry run writes nothing)');
    // A list the watch cache serves reads no storage (kube's cacher too); events are not cached, as kube's defaults.
    const lists = (m: Map<string, Family>, resource: string): number => sampleValue(m, 'apiserver_storage_list_total', { group: '', resource }) ?? 0;
    assert.equal(lists(after, 'configmaps') - lists(before, 'configmaps'), 0, 'the configmap list came from the watch cache');
    assert.equal((await s.request({ method: 'GET', path: '/api/v1/namespaces/default/events' })).status, 200);
    assert.ok(lists(await scrape(s), 'events') > lists(before, 'events'), 'the event list read storage');
  });

  it('instruments /readyz under its path and records the health checks in /metrics/slis', async () => {
    const before = sampleValue(await scrape(s), 'apiserver_request_total', { subresource: '/readyz', code: '200' }) ?? 0;
    assert.equal((await s.request({ method: 'GET', path: '/readyz' })).status, 200);
    const after = await scrape(s);
    assert.equal((sampleValue(after, 'apiserver_request_total', { subresource: '/readyz', code: '200', verb: 'GET', component: '' }) ?? 0) - before, 1);
    const slis = await scrape(s, '/metrics/slis');
    assert.equal(sampleValue(slis, 'kubernetes_healthcheck', { name: 'etcd', type: 'readyz' }), 1);
    assert.ok((sampleValue(slis, 'kubernetes_healthchecks_total', { name: 'etcd', status: 'success', type: 'readyz' }) ?? 0) >= 1);
  });

  it('adds no series for paths no route serves', async () => {
    const cases = [
      { name: 'an unknown resource', path: '/api/v1/namespaces/default/made-up-things' },
      { name: 'an unknown group', path: '/apis/made.up.example/v1/things' },
      { name: 'an unknown non-resource path', path: '/made-up-path' },
    ];
    for (const c of cases) assert.equal((await s.request({ method: 'GET', path: c.path })).status, 404, c.name);
    const text = (await s.request({ method: 'GET', path: '/metrics' })).text;
    assert.ok(!text.includes('made-up') && !text.includes('made.up'), 'no label carries a made-up name');
  });

  it('counts a watch as long-running while it runs and its events', async () => {
    const w = await openWatch(s.creds, `${CM}?watch=1&resourceVersion=0`);
    try {
      const labels = { verb: 'WATCH', resource: 'configmaps', scope: 'namespace', component: 'apiserver' };
      assert.equal(sampleValue(await scrape(s), 'apiserver_longrunning_requests', labels), 1);
      const events = (m: Map<string, Family>): number => sampleValue(m, 'apiserver_watch_events_total', { group: '', version: 'v1', resource: 'configmaps' }) ?? 0;
      const before = events(await scrape(s));
      assert.equal((await s.request({ method: 'POST', path: CM, body: configMap('watched', {}) })).status, 201);
      await w.waitFor((evs) => evs.some((e) => e.object.metadata?.name === 'watched'), 'the ADDED event');
      assert.ok(events(await scrape(s)) > before, 'apiserver_watch_events_total moved');
    } finally {
      w.stop();
    }
  });

  it('counts the watch cache\'s events, lists, consistent reads and initial events as kube', async () => {
    const cm = { group: '', resource: 'configmaps' };
    const value = (m: Map<string, Family>, name: string, labels: Record<string, string> = {}): number => sampleValue(m, name, { ...cm, ...labels }) ?? 0;
    const before = await scrape(s);
    assert.ok(value(before, 'apiserver_watch_cache_initializations_total') >= 1);
    assert.equal(value(before, 'apiserver_watch_cache_capacity'), 100);
    assert.equal((await s.request({ method: 'POST', path: CM, body: configMap('cached', {}) })).status, 201);
    assert.equal((await s.request({ method: 'GET', path: `${CM}?resourceVersion=0` })).status, 200);
    assert.equal((await s.request({ method: 'GET', path: CM })).status, 200);
    const w = await openWatch(s.creds, `${CM}?watch=1&resourceVersion=0`);
    await w.waitFor((evs) => evs.some((e) => e.object.metadata?.name === 'cached'), 'the initial ADDED event');
    w.stop();
    const after = await scrape(s);
    assert.ok(value(after, 'apiserver_watch_cache_events_received_total') > value(before, 'apiserver_watch_cache_events_received_total'));
    assert.ok(value(after, 'apiserver_watch_cache_events_dispatched_total') > value(before, 'apiserver_watch_cache_events_dispatched_total'));
    assert.ok(value(after, 'apiserver_watch_cache_resource_version') > value(before, 'apiserver_watch_cache_resource_version'));
    assert.equal(value(after, 'apiserver_cache_list_total', { index: '' }) - value(before, 'apiserver_cache_list_total', { index: '' }), 2);
    assert.ok(value(after, 'apiserver_cache_list_returned_objects_total') - value(before, 'apiserver_cache_list_returned_objects_total') >= 2);
    assert.equal(value(after, 'apiserver_watch_cache_consistent_read_total', { success: 'true', fallback: 'false' })
      - value(before, 'apiserver_watch_cache_consistent_read_total', { success: 'true', fallback: 'false' }), 1);
    assert.ok(value(after, 'apiserver_init_events_total') - value(before, 'apiserver_init_events_total') >= 1);
    assert.equal(after.get('apiserver_watch_cache_read_wait_seconds')?.type, 'histogram');
  });
});

describe('/metrics authorization', () => {
  let s: Suite;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-metrics-'));
    await writeFile(join(dir, 'tokens.csv'), 'monitor-token,prometheus,u1,system:monitoring\nalice-token,alice,u2\n');
    s = await startSuite({ flags: ['--authorization-mode=RBAC', '--token-auth-file', join(dir, 'tokens.csv')] });
  });
  after(async () => {
    await s?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  const cases = [
    { name: 'system:monitoring reads /metrics', token: 'monitor-token', path: '/metrics', want: 200 },
    { name: 'system:monitoring reads /metrics/slis', token: 'monitor-token', path: '/metrics/slis', want: 200 },
    { name: 'another user may not read /metrics', token: 'alice-token', path: '/metrics', want: 403 },
    { name: 'no credentials', token: undefined, path: '/metrics', want: 403 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await s.request({ method: 'GET', path: c.path, auth: false, ...(c.token !== undefined ? { headers: { authorization: `Bearer ${c.token}` } } : {}) });
      assert.equal(r.status, c.want, r.text.slice(0, 300));
      if (c.want === 403) assert.match((r.json() as { message: string }).message, /^forbidden: User ".*" cannot get path "\/metrics"$/);
    });
  }
});
