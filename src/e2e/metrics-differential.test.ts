// kapi's /metrics against kube-apiserver v1.36's (the oracle) after the same requests: every
// family both expose has the same type and label names, and every family kube exposes that kapi
// does not is listed below with the reason it is left out (so a new gap fails this test).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RawRequest, RawResponse } from './testing/https-client.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { parsePrometheusText, type Family } from './testing/prometheus.ts';
import { backendFromEnv, startSuite, type Suite } from './testing/suite.ts';

const skip = oracleUnavailable() ?? (backendFromEnv() === 'etcd3' ? 'run on the sqlite pass only' : undefined);

/** Families of kube that kapi does not expose, by name prefix, and why. */
const LEFT_OUT_PREFIXES: readonly [string, string][] = [
  ['go_', 'Go runtime; kapi exports the Node.js runtime (nodejs_*, process_*) instead'],
  ['grpc_client_', 'the etcd client\'s gRPC interceptors; kapi\'s etcd client is not instrumented per RPC'],
  ['rest_client_', 'client-go\'s loopback and webhook clients; kapi calls itself in-process'],
  ['workqueue_', 'client-go work queues; kapi\'s controllers have none'],
  ['aggregator_discovery_', 'peer-aggregated discovery between servers (UnknownVersionInteroperabilityProxy)'],
  ['kube_apiserver_clusterip_allocator_', 'the ClusterIP allocator metrics: not done yet'],
  ['kube_apiserver_nodeport_allocator_', 'the NodePort allocator metrics: not done yet'],
  ['serviceaccount_', 'service account token use metrics: not done yet'],
  ['authentication_token_cache_', 'kapi caches no webhook token answers by this cache'],
  ['apiserver_validation_', 'declarative validation (kapi validates in one way only)'],
  ['apiserver_storage_data_key_', 'KMS v1 data key generation (kapi has KMS v2 only)'],
  ['apiserver_envelope_encryption_', 'KMS v1 DEK cache'],
  ['apiserver_storage_envelope_', 'KMS v1 transformation cache'],
  ['pod_security_', 'Pod Security admission metrics: not done yet'],
];
const LEFT_OUT: Readonly<Record<string, string>> = {
  apiextensions_apiserver_validation_ratcheting_seconds: 'CRD validation ratcheting timing: not done yet',
  apiserver_admission_step_admission_duration_seconds_summary: 'a deprecated summary duplicating the step histogram',
  apiserver_cel_compilation_duration_seconds: 'CEL timing: not done yet',
  apiserver_cel_evaluation_duration_seconds: 'CEL timing: not done yet',
  apiserver_client_certificate_expiration_seconds: 'client certificate expiry histogram: not done yet',
  apiserver_flowcontrol_current_r: 'fair queuing virtual time: kapi\'s queues keep their own, in seats',
  apiserver_flowcontrol_demand_seats: 'timing-ratio histogram: not done yet (demand_seats_* gauges are)',
  apiserver_flowcontrol_priority_level_request_utilization: 'timing-ratio histogram: not done yet',
  apiserver_flowcontrol_priority_level_seat_utilization: 'timing-ratio histogram: not done yet',
  apiserver_flowcontrol_read_vs_write_current_requests: 'timing-ratio histogram: not done yet',
  apiserver_kube_aggregator_x509_insecure_sha1_total: 'Go crypto/x509 SHA-1 fallback, which Node does not have',
  apiserver_kube_aggregator_x509_missing_san_total: 'Go crypto/x509 CN fallback, which Node does not have',
  apiserver_webhooks_x509_insecure_sha1_total: 'Go crypto/x509 SHA-1 fallback, which Node does not have',
  apiserver_webhooks_x509_missing_san_total: 'Go crypto/x509 CN fallback, which Node does not have',
  apiserver_nodeport_repair_reconcile_errors_total: 'the NodePort repair loop: not done yet',
  apiserver_request_body_size_bytes: 'not done yet',
  apiserver_request_filter_duration_seconds: 'per-filter latency: not done yet',
  apiserver_request_sli_duration_seconds: 'request SLI latency (less webhook time): not done yet',
  apiserver_request_timestamp_comparison_time: 'managedFields timestamp comparison timing: not done yet',
  apiserver_requested_deprecated_apis: 'not done yet',
  apiserver_selfrequest_total: 'loopback requests: kapi\'s own controllers call the stores in-process',
  apiserver_storage_events_received_total: 'not done yet',
  apiserver_storage_size_bytes: 'etcd database size: not done yet',
  apiserver_tls_handshake_errors_total: 'not done yet',
  cardinality_enforcement_unexpected_categorizations_total: 'component-base metrics registry internals',
  disabled_metrics_total: 'component-base metrics registry internals (--disabled-metrics)',
  hidden_metrics_total: 'component-base metrics registry internals (--show-hidden-metrics-for-version)',
  registered_metrics_total: 'component-base metrics registry internals',
  etcd_bookmark_total: 'not done yet',
  etcd_lease_object_counts: 'not done yet',
  field_validation_request_duration_seconds: 'not done yet',
  kubernetes_feature_enabled: 'kapi has no feature gates',
  watch_cache_capacity: 'the watch cache\'s capacity: not done yet',
  process_network_receive_bytes_total: 'prom-client\'s process metrics do not include the network',
  process_network_transmit_bytes_total: 'prom-client\'s process metrics do not include the network',
  process_virtual_memory_max_bytes: 'prom-client\'s process metrics do not include it',
};

function leftOut(name: string): string | undefined {
  return LEFT_OUT[name] ?? LEFT_OUT_PREFIXES.find(([p]) => name.startsWith(p))?.[1];
}

/** Type and label names (le and quantile aside) of each family that has samples. */
function shapes(families: Map<string, Family>): Map<string, { type: string; labels: string }> {
  const out = new Map<string, { type: string; labels: string }>();
  for (const f of families.values()) {
    if (f.samples.length === 0) continue;
    const labels = new Set(f.samples.flatMap((x) => Object.keys(x.labels)).filter((l) => l !== 'le' && l !== 'quantile'));
    out.set(f.name, { type: f.type, labels: [...labels].sort().join(',') });
  }
  return out;
}

/** The same requests on either server: writes, reads, a failed authentication, anonymous, watches. */
async function traffic(request: (r: RawRequest) => Promise<RawResponse>): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `metrics-diff-${i}` }, data: { a: 'x' } }) });
  }
  await request({ method: 'GET', path: '/api/v1/configmaps' });
  await request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps?limit=2' });
  await request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/metrics-diff-1' });
  await request({ method: 'GET', path: '/api/v1/namespaces/default/pods', auth: false });
  await request({ method: 'GET', path: '/api/v1/namespaces/default/pods', auth: false, headers: { Authorization: 'Bearer wrong' } });
  // A watch that sends events, and a watch list (initial events, then the bookmark ending them).
  await request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1' });
  await request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1' });
}

describe('/metrics families of kapi and kube-apiserver', { skip: skip ?? false }, () => {
  let s: Suite | undefined;
  let o: Oracle | undefined;
  const seen = new Map<string, Map<string, { type: string; labels: string }>>();

  before(async () => {
    [s, o] = await Promise.all([startSuite(), startOracle()]);
    for (const [name, request] of [['kapi', (r: RawRequest) => (s as Suite).request(r)], ['kube', (r: RawRequest) => (o as Oracle).request(r)]] as const) {
      await traffic(request);
      const m = await request({ method: 'GET', path: '/metrics' });
      assert.equal(m.status, 200);
      seen.set(name, shapes(parsePrometheusText(m.text)));
    }
  });
  after(async () => {
    await s?.close();
    await o?.stop();
  });

  it('has kube\'s type and label names for every family both expose', () => {
    const kapi = seen.get('kapi') ?? new Map();
    const kube = seen.get('kube') ?? new Map();
    const differ = [...kube].filter(([n, k]) => {
      const a = kapi.get(n);
      return a !== undefined && (a.type !== k.type || a.labels !== k.labels);
    }).map(([n, k]) => `${n}: kube ${k.type} {${k.labels}}, kapi ${kapi.get(n)?.type} {${kapi.get(n)?.labels}}`);
    assert.deepEqual(differ, []);
  });

  it('exposes every family kube does, but those listed as left out', () => {
    const kapi = seen.get('kapi') ?? new Map();
    const missing = [...(seen.get('kube') ?? new Map()).keys()].filter((n) => !kapi.has(n) && leftOut(n) === undefined);
    assert.deepEqual(missing, []);
  });
});
