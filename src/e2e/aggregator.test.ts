// The aggregator end to end: an APIService whose Service's EndpointSlice points at an HTTPS
// backend of the test's own (on a network namespace address, as EndpointSlices may not hold
// loopback addresses), reached through kapi with kubectl and raw requests: lists, a streamed
// watch, an upgraded connection, the caller's identity in the front-proxy headers over kapi's
// proxy client certificate, and the Available condition with kube's reasons and messages as it
// goes False when the backend stops and True when it is back. Texts are those kube-apiserver
// v1.36.3 answered the same steps with (asked with the oracle).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import { newSelfSignedCACert } from '../apimachinery/util/cert.ts';
import { GROUP, startAggregatedBackend, VERSION, type AggregatedBackend } from './testing/aggregated-backend.ts';
import {
  apiService, AVAILABILITY_CASES, create, createBackendObjects, newFrontProxy, NS, editThenDeleteAuthConfigMap, publishedRequestHeaderData, SERVICE, waitReason as waitFor,
  wantRequestHeaderData, type FrontProxy,
} from './testing/aggregator-scenario.ts';
import { createTestAddress, testAddressUnavailable, type TestAddress } from './testing/netns.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const APISERVICE = `${VERSION}.${GROUP}`;
const BASE = `/apis/${GROUP}/${VERSION}`;

const why = await testAddressUnavailable();
describe('aggregator: a remote APIService reached through its EndpointSlice', { skip: why }, () => {
  let s: Suite;
  let addr: TestAddress;
  let backend: AggregatedBackend;
  let dir: string;
  let frontProxy: FrontProxy;

  const post = (path: string, body: unknown): Promise<void> => create((r) => s.request(r), path, body);
  const waitReason = (name: string, reason: string) => waitFor((r) => s.request(r), name, reason);
  /** Touches the Service: the controller rechecks its APIServices at once (as on any Service change). */
  const touchService = async (): Promise<void> => {
    const r = await s.request({ method: 'PATCH', path: `/api/v1/namespaces/${NS}/services/${SERVICE}`,
      body: JSON.stringify({ metadata: { labels: { touched: String(Date.now()) } } }), contentType: 'application/merge-patch+json' });
    assert.equal(r.status, 200, r.text);
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-agg-'));
    frontProxy = await newFrontProxy(dir);
    addr = await createTestAddress();
    backend = await startAggregatedBackend(addr.address, `${SERVICE}.${NS}.svc`, frontProxy.ca.cert);
    s = await startSuite({ flags: frontProxy.flags });
    await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    await post('/apis/apiregistration.k8s.io/v1/apiservices', apiService(VERSION, {
      service: { namespace: NS, name: SERVICE, port: 443 }, caBundle: backend.caBundle,
    }));
  });
  after(async () => {
    await s?.close();
    await backend?.close();
    await addr?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('is unavailable with kube\'s reason at each missing piece, and proxies nothing meanwhile', async () => {
    const notFound = await waitReason(APISERVICE, 'ServiceNotFound');
    assert.deepEqual([notFound.status, notFound.message], ['False', 'service/api in "wardle" is not present']);
    const unavailable = await s.request({ method: 'GET', path: `${BASE}/namespaces/default/flunders` });
    assert.deepEqual([unavailable.status, unavailable.headers['content-type'], unavailable.text], [503, 'text/plain; charset=utf-8', 'service unavailable\n']);
    await post(`/api/v1/namespaces/${NS}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: SERVICE }, spec: { ports: [{ port: 443, targetPort: backend.port }] } });
    assert.equal((await waitReason(APISERVICE, 'EndpointsNotFound')).message, 'cannot find endpointslices for service/api in "wardle"');
    await post(`/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices`, {
      apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'api-1', labels: { 'kubernetes.io/service-name': SERVICE } },
      addressType: 'IPv4', endpoints: [{ addresses: [backend.host], conditions: { ready: false } }], ports: [{ name: '', port: backend.port }],
    });
    assert.equal((await waitReason(APISERVICE, 'MissingEndpoints')).message, 'endpointslices for service/api in "wardle" have no addresses with port name ""');
    const ready = await s.request({ method: 'PATCH', path: `/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices/api-1`,
      body: JSON.stringify({ endpoints: [{ addresses: [backend.host], conditions: { ready: true } }] }), contentType: 'application/merge-patch+json' });
    assert.equal(ready.status, 200, ready.text);
    const passed = await waitReason(APISERVICE, 'Passed');
    assert.deepEqual([passed.status, passed.message], ['True', 'all checks passed']);
  });

  it('lists through the aggregator with kubectl, as the caller, over the proxy client certificate', async () => {
    backend.seen.length = 0;
    const r = await s.kubectl(['get', '--raw', `${BASE}/namespaces/default/flunders`]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name), ['alpha', 'beta']);
    const call = backend.seen.find((x) => x.url === `${BASE}/namespaces/default/flunders`);
    assert.ok(call !== undefined, JSON.stringify(backend.seen));
    assert.equal(call.clientCN, 'front-proxy-client');
    assert.equal(call.headers['x-remote-user'], 'kapi-admin');
    assert.deepEqual(String(call.headers['x-remote-group']).split(', '), ['system:masters', 'system:authenticated']);
    assert.equal(call.headers['authorization'], undefined, 'credentials are not forwarded');
    assert.equal(call.headers['x-forwarded-uri'], `${BASE}/namespaces/default/flunders`);
    assert.equal(call.headers['x-forwarded-proto'], 'https');
  });

  it('names an impersonated caller\'s uid, groups and extras, and drops X-Remote-* the client sent', async () => {
    backend.seen.length = 0;
    const r = await s.request({ method: 'GET', path: `${BASE}/namespaces/default/flunders`, headers: {
      'Impersonate-User': 'alice', 'Impersonate-Uid': 'u-1', 'Impersonate-Group': 'devs', 'Impersonate-Extra-Scopes.example.com%2fteam': 'blue',
      'X-Remote-User': 'mallory', 'X-Remote-Extra-Evil': 'yes',
    } });
    assert.equal(r.status, 200, r.text);
    const h = backend.seen.find((x) => x.headers['x-remote-user'] === 'alice')?.headers ?? {};
    assert.deepEqual([h['x-remote-user'], h['x-remote-uid'], h['x-remote-group'], h['x-remote-extra-scopes.example.com%2fteam'], h['x-remote-extra-evil']],
      ['alice', 'u-1', 'devs, system:authenticated', 'blue', undefined]);
  });

  it('streams a watch: kubectl get --raw ?watch=true prints each event as the backend sends it', async () => {
    const w = s.kubectlStream(['get', '--raw', `${BASE}/namespaces/default/flunders?watch=true`]);
    try {
      for (let i = 0; i < 50 && !backend.seen.some((x) => x.url.includes('watch=true')); i++) await sleep(100);
      backend.emit('ADDED', 'gamma');
      await w.waitFor((o) => o.includes('"gamma"'), 'the ADDED event');
      backend.emit('DELETED', 'gamma');
      const out = await w.waitFor((o) => o.includes('"DELETED"'), 'the DELETED event');
      assert.match(out, /"type":"ADDED"[\s\S]*"type":"DELETED"/);
    } finally {
      await w.stop();
    }
  });

  it('kubectl get and get -w read and watch the aggregated resource by name, once discovery has it', async () => {
    // The backend is in discovery (merged by the aggregator) within a few refreshes.
    let listed = '';
    for (let i = 0; i < 50; i++) {
      const r = await s.kubectl(['get', 'flunders', '-n', 'default', '-o', 'name']);
      if (r.code === 0) { listed = r.stdout; break; }
      await sleep(200);
    }
    assert.deepEqual(listed.trim().split('\n'), ['flunder.wardle.example.com/alpha', 'flunder.wardle.example.com/beta']);
    backend.seen.length = 0;
    const w = s.kubectlStream(['get', 'flunders', '-n', 'default', '-w', '-o', 'name']);
    try {
      await w.waitFor((o) => o.includes('/beta'), 'the initial list');
      for (let i = 0; i < 50 && !backend.seen.some((x) => x.url.includes('watch=true')); i++) await sleep(100);
      backend.emit('ADDED', 'delta');
      await w.waitFor((o) => o.includes('flunder.wardle.example.com/delta'), 'the watched ADDED event');
    } finally {
      await w.stop();
    }
  });

  it('passes an upgrade through, then bytes both ways', async () => {
    const creds = s.creds;
    const u = new URL(creds.server);
    const sock = connect({ host: u.hostname, port: Number(u.port), ca: creds.ca, servername: 'localhost' });
    await new Promise<void>((resolve, reject) => { sock.once('secureConnect', resolve); sock.once('error', reject); });
    let got = '';
    sock.setEncoding('utf8').on('data', (d: string) => { got += d; });
    sock.write(`GET ${BASE}/namespaces/default/flunders/alpha/exec HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: Bearer ${creds.token}\r\n` +
      'Connection: Upgrade\r\nUpgrade: test-echo\r\n\r\n');
    for (let i = 0; i < 100 && !got.includes('\r\n\r\n'); i++) await sleep(50);
    assert.match(got, /^HTTP\/1\.1 101 Switching Protocols\r\n/);
    sock.write('ping');
    for (let i = 0; i < 100 && !got.includes('echo:ping'); i++) await sleep(50);
    assert.ok(got.endsWith('echo:ping'), got);
    sock.destroy();
    assert.equal(backend.seen.find((x) => x.url.endsWith('/exec'))?.headers['x-remote-user'], 'kapi-admin');
  });

  it('answers a backend redirect with kube\'s 502', async () => {
    const r = await s.request({ method: 'GET', path: `${BASE}/redirect` });
    assert.deepEqual([r.status, r.text], [502, 'the backend attempted to redirect this request, which is not permitted']);
  });

  it('goes False with FailedDiscoveryCheck when the backend stops, answers 503, and True when it is back', async () => {
    await backend.stop();
    const direct = await s.request({ method: 'GET', path: `${BASE}/namespaces/default/flunders` });
    // Until the controller notices, the proxy itself reports the failed dial.
    assert.ok(direct.status === 503, direct.text);
    assert.match(direct.text, /^(service unavailable|error trying to reach service: dial tcp 10\.[\d.]+:\d+: connect: connection refused)\n$/);
    await touchService();
    const failed = await waitReason(APISERVICE, 'FailedDiscoveryCheck');
    const url = `https://${backend.host}:${String(backend.port)}${BASE}`;
    assert.deepEqual([failed.status, failed.message],
      ['False', `failing or missing response from ${url}: Get "${url}": dial tcp ${backend.host}:${String(backend.port)}: connect: connection refused`]);
    const down = await s.request({ method: 'GET', path: `${BASE}/namespaces/default/flunders` });
    assert.deepEqual([down.status, down.text], [503, 'service unavailable\n']);
    await backend.start();
    await touchService();
    assert.equal((await waitReason(APISERVICE, 'Passed')).status, 'True');
    const back = await s.request({ method: 'GET', path: `${BASE}/namespaces/default/flunders` });
    assert.equal(back.status, 200, back.text);
  });

  it('writes kube\'s condition for each way the availability check ends', async () => {
    await createBackendObjects((r) => s.request(r), backend);
    const other = Buffer.from((await newSelfSignedCACert({ commonName: 'other', validityDays: 1 })).cert).toString('base64');
    for (const c of AVAILABILITY_CASES) await post('/apis/apiregistration.k8s.io/v1/apiservices', apiService(c.version, c.spec(backend, other)));
    for (const c of AVAILABILITY_CASES) {
      const want = c.want(backend);
      const got = await waitReason(`${c.version}.${GROUP}`, want.reason);
      assert.deepEqual({ status: got.status, reason: got.reason, message: got.message }, want, c.name);
    }
  });

  it('publishes extension-apiserver-authentication as kube, and puts it back when deleted', async () => {
    const send = (r: Parameters<Suite['request']>[0]): ReturnType<Suite['request']> => s.request(r);
    const want = wantRequestHeaderData(frontProxy);
    assert.deepEqual(await publishedRequestHeaderData(send), want);
    assert.deepEqual(await editThenDeleteAuthConfigMap(send), want);
  });

  it('proxies a group served here when its APIService names a service (the aggregator comes first), and serves it again once that is undone', async () => {
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'foos.local.example.com' },
      spec: { group: 'local.example.com', scope: 'Namespaced', names: { plural: 'foos', singular: 'foo', kind: 'Foo' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] } };
    await post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    const path = '/apis/local.example.com/v1/namespaces/default/foos';
    const apiservice = '/apis/apiregistration.k8s.io/v1/apiservices/v1.local.example.com';
    let r = await s.request({ method: 'GET', path });
    for (let i = 0; i < 50 && r.status !== 200; i++) { await sleep(100); r = await s.request({ method: 'GET', path }); }
    assert.equal(r.status, 200, r.text);
    // The CRD's APIService (made by the CRD registration) taken over by a remote service, as kube allows.
    for (let i = 0; i < 50 && (await s.request({ method: 'GET', path: apiservice })).status !== 200; i++) await sleep(100);
    const taken = await s.request({ method: 'PATCH', path: apiservice, contentType: 'application/merge-patch+json', body: JSON.stringify({
      metadata: { labels: { 'kube-aggregator.kubernetes.io/automanaged': null } },
      spec: { service: { namespace: NS, name: 'nosuch', port: 443 }, insecureSkipTLSVerify: true } }) });
    assert.equal(taken.status, 200, taken.text);
    for (let i = 0; i < 50 && r.status === 200; i++) { await sleep(100); r = await s.request({ method: 'GET', path }); }
    assert.deepEqual([r.status, r.text], [503, 'service unavailable\n']);
    const deleted = await s.request({ method: 'DELETE', path: apiservice });
    assert.equal(deleted.status, 200, deleted.text);
    for (let i = 0; i < 50 && r.status !== 200; i++) { await sleep(100); r = await s.request({ method: 'GET', path }); }
    assert.equal(r.status, 200, r.text);
  });

  it('leaves groups without a remote APIService to the built-in routes and 404', async () => {
    const pods = await s.request({ method: 'GET', path: '/api/v1/namespaces/default/pods' });
    assert.equal(pods.status, 200, pods.text);
    const none = await s.request({ method: 'GET', path: '/apis/nothing.example.com/v1/things' });
    assert.equal(none.status, 404, none.text);
  });
});
if (why !== undefined) console.log(`aggregator e2e: skipped: ${why}`);
