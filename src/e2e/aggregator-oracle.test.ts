// The aggregator tests' expectations asked of the reference kube-apiserver: the same backend,
// Service, EndpointSlice and APIServices, and kube writes the conditions aggregator.test.ts wants
// from kapi, answers the same 503 while unavailable, and sends the backend the same identity.
// Needs the oracle and a network namespace; skips with the reason otherwise.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSelfSignedCACert } from '../apimachinery/util/cert.ts';
import { GROUP, startAggregatedBackend, VERSION, type AggregatedBackend } from './testing/aggregated-backend.ts';
import {
  apiService, AVAILABILITY_CASES, create, createBackendObjects, editThenDeleteAuthConfigMap, newFrontProxy, NS, publishedRequestHeaderData, SERVICE, waitReason,
  wantRequestHeaderData, type FrontProxy, type Send,
} from './testing/aggregator-scenario.ts';
import { createTestAddress, testAddressUnavailable, type TestAddress } from './testing/netns.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';

const why = oracleUnavailable() ?? await testAddressUnavailable();
describe('aggregator against the reference kube-apiserver', { skip: why }, () => {
  let oracle: Oracle;
  let addr: TestAddress;
  let backend: AggregatedBackend;
  let dir: string;
  let send: Send;
  let frontProxy: FrontProxy;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-agg-oracle-'));
    frontProxy = await newFrontProxy(dir);
    addr = await createTestAddress();
    backend = await startAggregatedBackend(addr.address, `${SERVICE}.${NS}.svc`, frontProxy.ca.cert);
    oracle = await startOracle({ flags: frontProxy.flags });
    send = (r) => oracle.request(r);
  });
  after(async () => {
    await oracle?.stop();
    await backend?.close();
    await addr?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('publishes the request-header keys of extension-apiserver-authentication as aggregator.test.ts wants, and keeps them current', async () => {
    const want = wantRequestHeaderData(frontProxy);
    assert.deepEqual(await publishedRequestHeaderData(send), want);
    assert.deepEqual(await editThenDeleteAuthConfigMap(send), want);
  });

  it('answers 503 "service unavailable" while the APIService is not available', async () => {
    await create(send, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    await create(send, '/apis/apiregistration.k8s.io/v1/apiservices', apiService(VERSION, {
      service: { namespace: NS, name: SERVICE, port: 443 }, caBundle: backend.caBundle,
    }));
    const c = await waitReason(send, `${VERSION}.${GROUP}`, 'ServiceNotFound');
    assert.deepEqual([c.status, c.message], ['False', 'service/api in "wardle" is not present']);
    const r = await send({ method: 'GET', path: `/apis/${GROUP}/${VERSION}/namespaces/default/flunders` });
    assert.deepEqual([r.status, r.headers['content-type'], r.text], [503, 'text/plain; charset=utf-8', 'service unavailable\n']);
  });

  it('writes the condition aggregator.test.ts wants for each way the check ends', async () => {
    await createBackendObjects(send, backend);
    const other = Buffer.from((await newSelfSignedCACert({ commonName: 'other', validityDays: 1 })).cert).toString('base64');
    for (const c of AVAILABILITY_CASES) await create(send, '/apis/apiregistration.k8s.io/v1/apiservices', apiService(c.version, c.spec(backend, other)));
    for (const c of AVAILABILITY_CASES) {
      const want = c.want(backend);
      const got = await waitReason(send, `${c.version}.${GROUP}`, want.reason);
      assert.deepEqual({ status: got.status, reason: got.reason, message: got.message }, want, c.name);
    }
  });

  it('sends the backend the caller in the front-proxy headers over the proxy client certificate', async () => {
    await waitReason(send, `${VERSION}.${GROUP}`, 'Passed');
    backend.seen.length = 0;
    const r = await send({ method: 'GET', path: `/apis/${GROUP}/${VERSION}/namespaces/default/flunders`, headers: {
      'Impersonate-User': 'alice', 'Impersonate-Uid': 'u-1', 'Impersonate-Group': 'devs', 'Impersonate-Extra-Scopes.example.com%2fteam': 'blue',
      'X-Remote-User': 'mallory', 'X-Remote-Extra-Evil': 'yes',
    } });
    assert.equal(r.status, 200, r.text);
    const call = backend.seen.find((x) => x.headers['x-remote-user'] === 'alice');
    const h = call?.headers ?? {};
    assert.deepEqual([call?.clientCN, h['x-remote-user'], h['x-remote-uid'], h['x-remote-group'], h['x-remote-extra-scopes.example.com%2fteam'], h['x-remote-extra-evil']],
      ['front-proxy-client', 'alice', 'u-1', 'devs, system:authenticated', 'blue', undefined]);
    const redirect = await send({ method: 'GET', path: `/apis/${GROUP}/${VERSION}/redirect` });
    assert.deepEqual([redirect.status, redirect.text], [502, 'the backend attempted to redirect this request, which is not permitted']);
  });
});
if (why !== undefined) console.log(`aggregator against the reference kube-apiserver: skipped: ${why}`);
