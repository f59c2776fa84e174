// kubectl's read-only view of a fresh server: version, bootstrap namespaces and service, discovery, explain.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { columns, lines } from './testing/kubectl.ts';
import { startSuite, type Suite } from './testing/suite.ts';

describe('kubectl against a fresh kapi server', () => {
  let s: Suite;
  before(async () => { s = await startSuite(); });
  after(async () => { await s?.close(); });

  it('kubectl version shows the server version v1.36.0', async () => {
    const r = await s.kubectl(['version']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Client Version: v\d+\.\d+\.\d+/m);
    assert.match(r.stdout, /^Server Version: v1\.36\.0$/m);
  });

  it('kubectl version -o json carries the server /version document', async () => {
    const r = await s.kubectl(['version', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as { serverVersion?: Record<string, unknown> };
    assert.equal(doc.serverVersion?.['major'], '1');
    assert.equal(doc.serverVersion?.['minor'], '36');
    assert.equal(doc.serverVersion?.['gitVersion'], 'v1.36.0');
  });

  it('get ns lists the four bootstrap namespaces, all Active', async () => {
    const r = await s.kubectl(['get', 'ns']);
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = lines(r.stdout);
    assert.deepEqual(columns(header ?? ''), ['NAME', 'STATUS', 'AGE']);
    const byName = new Map(rows.map((row) => { const c = columns(row); return [c[0], c[1]]; }));
    for (const ns of ['default', 'kube-node-lease', 'kube-public', 'kube-system']) {
      assert.equal(byName.get(ns), 'Active', `namespace ${ns} in:\n${r.stdout}`);
    }
  });

  it('kube-system holds the legacy token tracking ConfigMap, since today (UTC)', async () => {
    // kube-apiserver's legacy-token-tracking controller writes it; kube-controller-manager's
    // legacy-service-account-token-cleaner reads it.
    const r = await s.kubectl(['get', 'configmap', 'kube-apiserver-legacy-service-account-token-tracking', '-n', 'kube-system', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const cm = JSON.parse(r.stdout) as { data?: Record<string, string> };
    assert.deepEqual(Object.keys(cm.data ?? {}), ['since']);
    assert.match(cm.data?.['since'] ?? '', /^\d{4}-\d{2}-\d{2}$/);
    assert.ok((cm.data?.['since'] ?? '') <= new Date().toISOString().slice(0, 10));
  });

  it('the kubernetes service in default has ClusterIP 10.0.0.1 and port 443', async () => {
    const r = await s.kubectl(['get', 'svc', 'kubernetes', '-n', 'default']);
    assert.equal(r.code, 0, r.stderr);
    const [header, row] = lines(r.stdout);
    assert.deepEqual(columns(header ?? ''), ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
    assert.deepEqual(columns(row ?? '').slice(0, 5), ['kubernetes', 'ClusterIP', '10.0.0.1', '<none>', '443/TCP']);

    const j = await s.kubectl(['get', 'svc', 'kubernetes', '-n', 'default', '-o', 'json']);
    assert.equal(j.code, 0, j.stderr);
    const svc = JSON.parse(j.stdout) as { spec: { clusterIP: string; ports: { name?: string; port: number; protocol: string; targetPort: unknown }[] } };
    assert.equal(svc.spec.clusterIP, '10.0.0.1');
    assert.equal(svc.spec.ports.length, 1);
    assert.equal(svc.spec.ports[0]?.name, 'https');
    assert.equal(svc.spec.ports[0]?.port, 443);
    assert.equal(svc.spec.ports[0]?.protocol, 'TCP');
  });

  it('the kubernetes endpoints and endpoint slice in default carry the same address, as kube\'s reconciler writes them', async () => {
    const ep = await s.request({ method: 'GET', path: '/api/v1/namespaces/default/endpoints/kubernetes' });
    const slice = await s.request({ method: 'GET', path: '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes' });
    // Both exist when the host has an address other than loopback to advertise, else neither.
    assert.equal(slice.status, ep.status, slice.text);
    if (ep.status === 404) return;
    const endpoints = ep.json() as { subsets: { addresses: { ip: string }[]; ports: { port: number }[] }[] };
    const ip = endpoints.subsets[0]?.addresses[0]?.ip ?? '';
    assert.deepEqual(slice.json(), {
      ...(slice.json() as object),
      addressType: ip.includes(':') ? 'IPv6' : 'IPv4',
      endpoints: [{ addresses: [ip], conditions: { ready: true } }],
      ports: [{ name: 'https', port: endpoints.subsets[0]?.ports[0]?.port, protocol: 'TCP' }],
    });
    assert.deepEqual((slice.json() as { metadata: { labels: unknown } }).metadata.labels, { 'kubernetes.io/service-name': 'kubernetes' });
  });

  it('api-resources lists the core resources with their short names', async () => {
    const r = await s.kubectl(['api-resources']);
    assert.equal(r.code, 0, r.stderr);
    const [header] = lines(r.stdout);
    assert.deepEqual(columns(header ?? ''), ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
    const want = [
      /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m,
      /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m,
      /^pods\s+po\s+v1\s+true\s+Pod$/m,
      /^secrets\s+v1\s+true\s+Secret$/m,
      /^services\s+svc\s+v1\s+true\s+Service$/m,
    ];
    for (const re of want) assert.match(r.stdout, re);
  });

  it('api-resources --api-group="" -o name lists core resources by plural name', async () => {
    const r = await s.kubectl(['api-resources', '--api-group=', '-o', 'name']);
    assert.equal(r.code, 0, r.stderr);
    const names = lines(r.stdout);
    for (const n of ['configmaps', 'namespaces', 'pods', 'secrets', 'services']) assert.ok(names.includes(n), `${n} in:\n${r.stdout}`);
  });

  it('api-versions includes v1', async () => {
    const r = await s.kubectl(['api-versions']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(lines(r.stdout).includes('v1'), r.stdout);
  });

  it('explain configmaps shows the ConfigMap schema from OpenAPI v3', async () => {
    const r = await s.kubectl(['explain', 'configmaps']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^KIND:\s+ConfigMap$/m);
    assert.match(r.stdout, /^VERSION:\s+v1$/m);
    assert.match(r.stdout, /^FIELDS:$/m);
    for (const re of [/^\s+apiVersion\t<string>$/m, /^\s+binaryData\t<map\[string\]string>$/m, /^\s+data\t<map\[string\]string>$/m,
      /^\s+immutable\t<boolean>$/m, /^\s+kind\t<string>$/m, /^\s+metadata\t<ObjectMeta>$/m]) {
      assert.match(r.stdout, re);
    }
  });

  it('explain configmaps.metadata.name descends into ObjectMeta', async () => {
    const r = await s.kubectl(['explain', 'configmaps.metadata.name']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^FIELD:\s+name <string>$/m);
  });

  it('get of an unknown resource type fails the way kubectl reports it', async () => {
    const r = await s.kubectl(['get', 'nosuchthings']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /error: the server doesn't have a resource type "nosuchthings"/);
  });
});
