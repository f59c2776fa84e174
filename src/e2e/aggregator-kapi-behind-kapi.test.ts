// kapi behind kapi: server B authenticates front proxies with request-header authentication
// (--requestheader-client-ca-file and friends) and authorizes with RBAC; server A aggregates B's
// CRD group through an APIService whose Service's EndpointSlice points at B. Requests to A for
// that group reach B as A's caller (B's RBAC decides), lists and watches included, and A's
// availability check passes as system:kube-aggregator.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSelfSignedCACert, newSignedCert } from '../apimachinery/util/cert.ts';
import { startServer, type RunningServer } from '../cli/serve.ts';
import { create, newFrontProxy, NS, SERVICE, waitReason, type Send } from './testing/aggregator-scenario.ts';
import { loadAdminCredentials, rawRequest } from './testing/https-client.ts';
import { createTestAddress, testAddressUnavailable, type TestAddress } from './testing/netns.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const GROUP = 'b.example.com';
const BASE = `/apis/${GROUP}/v1/namespaces/default/widgets`;

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `widgets.${GROUP}` },
  spec: {
    group: GROUP, scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};
const widget = (name: string): Record<string, unknown> => ({ apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name } });

const why = await testAddressUnavailable();
describe('kapi aggregating another kapi', { skip: why }, () => {
  let a: Suite;
  let b: RunningServer;
  let sendB: Send;
  let addr: TestAddress;
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-behind-kapi-'));
    const frontProxy = await newFrontProxy(dir);
    addr = await createTestAddress();
    // B's serving certificate: for the Service name A verifies, and the address kubectl dials.
    const servingCA = await newSelfSignedCACert({ commonName: 'b-serving-ca', validityDays: 1 });
    const serving = await newSignedCert(servingCA, { commonName: 'b', hosts: [`${SERVICE}.${NS}.svc`], ips: [addr.address], usages: ['serverAuth'], validityDays: 1 });
    await writeFile(join(dir, 'b.crt'), `${serving.cert}${servingCA.cert}`);
    await writeFile(join(dir, 'b.key'), serving.key);
    b = await startServer({ flags: [
      '--bind-address', addr.address, '--tls-cert-file', join(dir, 'b.crt'), '--tls-private-key-file', join(dir, 'b.key'),
      '--authorization-mode', 'RBAC', ...frontProxy.requestHeaderFlags,
    ] });
    const credsB = await loadAdminCredentials(b.kubeconfigPath);
    sendB = (r) => rawRequest({ ...credsB, ca: servingCA.cert }, r);
    await create(sendB, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', CRD);
    await eventually('the CRD served on B', async () => ((await sendB({ method: 'GET', path: BASE })).status === 200 ? true : undefined));
    await create(sendB, BASE, widget('w1'));

    a = await startSuite({ flags: frontProxy.flags });
    const sendA: Send = (r) => a.request(r);
    await create(sendA, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    await create(sendA, `/api/v1/namespaces/${NS}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: SERVICE }, spec: { ports: [{ port: 443, targetPort: b.port }] } });
    await create(sendA, `/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices`, {
      apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'b-1', labels: { 'kubernetes.io/service-name': SERVICE } },
      addressType: 'IPv4', endpoints: [{ addresses: [addr.address] }], ports: [{ name: '', port: b.port }],
    });
    await create(sendA, '/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: `v1.${GROUP}` },
      spec: { group: GROUP, version: 'v1', service: { namespace: NS, name: SERVICE, port: 443 },
        caBundle: Buffer.from(servingCA.cert).toString('base64'), groupPriorityMinimum: 1000, versionPriority: 15 },
    });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await addr?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('passes A\'s availability check, made as system:kube-aggregator through B\'s request-header authentication', async () => {
    const c = await waitReason((r) => a.request(r), `v1.${GROUP}`, 'Passed');
    assert.equal(c.status, 'True');
  });

  it('lists B\'s widgets through A with kubectl', async () => {
    const r = await a.kubectl(['get', '--raw', BASE]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name), ['w1']);
  });

  it('lets B\'s RBAC judge A\'s caller, whom B knows from the front-proxy headers', async () => {
    const r = await a.request({ method: 'GET', path: BASE, headers: { 'Impersonate-User': 'alice', 'Impersonate-Group': 'devs' } });
    assert.equal(r.status, 403, r.text);
    const status = r.json() as { reason: string; message: string };
    assert.deepEqual([status.reason, status.message],
      ['Forbidden', `widgets.${GROUP} is forbidden: User "alice" cannot list resource "widgets" in API group "${GROUP}" in the namespace "default"`]);
  });

  it('streams a watch of B\'s widgets through A', async () => {
    const w = a.kubectlStream(['get', '--raw', `${BASE}?watch=true&resourceVersion=0`]);
    try {
      await w.waitFor((o) => o.includes('"w1"'), 'the initial ADDED event of w1');
      await create(sendB, BASE, widget('w2'));
      await w.waitFor((o) => o.includes('"w2"'), 'the ADDED event of w2');
    } finally {
      await w.stop();
    }
  });
});
if (why !== undefined) console.log(`kapi aggregating another kapi: skipped: ${why}`);
