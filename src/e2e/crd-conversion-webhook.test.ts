// CRD conversion webhooks end to end: a Widget CRD with v1 (spec.host, spec.port, stored) and v2
// (spec.address) converting through an HTTPS webhook of the test's own (own CA, loopback url),
// read and written in both versions with kubectl (get, list, watch, patch, apply, server-side
// apply, delete), then the webhook failing or answering wrongly, with kube-apiserver's texts
// (those kube v1.36.3 answered the same requests with; crd-conversion-webhook-oracle.test.ts asks it
// again when it is built). A second part reaches the webhook through a Service and its EndpointSlice.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { newTestPKI, type TestPKI } from '../webhook/testing.ts';
import { startConversionWebhook, GROUP, PLURAL, widgetCRD, type ConversionWebhook, type Mode } from './testing/conversion-webhook.ts';
import { asStatus } from './testing/https-client.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const V1 = `${PLURAL}.v1.${GROUP}`;
const V2 = `${PLURAL}.v2.${GROUP}`;
const CRD_NAME = `${PLURAL}.${GROUP}`;

const widgetV1 = (name: string, host: string, port: number): string =>
  JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name, labels: { app: 'w' } }, spec: { host, port } });
const widgetV2 = (name: string, address: string): string =>
  JSON.stringify({ apiVersion: `${GROUP}/v2`, kind: 'Widget', metadata: { name }, spec: { address } });

type Obj = { apiVersion: string; metadata: { name: string; labels?: Record<string, string> }; spec: Record<string, unknown> };

/** Random uids (the request's, the object's) as UID; the all-zero one the webhook sets stays. */
const withoutUIDs = (s: string): string =>
  s.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (u) => (/^[0-]+$/.test(u) ? u : 'UID'));

/** A non-loopback IPv4 address of this machine (EndpointSlices may not point at loopback), if any. */
function localAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

describe('CRD conversion webhook', () => {
  let s: Suite;
  let pki: TestPKI;
  let hook: ConversionWebhook;
  const get = async (resource: string, name: string): Promise<Obj> => {
    const r = await s.kubectl(['get', resource, name, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Obj;
  };

  before(async () => {
    pki = await newTestPKI(['hook.conv.svc'], ['127.0.0.1', ...(localAddress() === undefined ? [] : [localAddress() ?? ''])]);
    hook = await startConversionWebhook(pki);
    s = await startSuite();
    const crd = widgetCRD({ url: `${hook.server.url}/convert`, caBundle: pki.caBundle });
    const applied = await s.kubectl(['apply', '-f', '-'], JSON.stringify(crd));
    assert.equal(applied.code, 0, applied.stderr);
    const waited = await s.kubectl(['wait', '--for', 'condition=established', `crd/${CRD_NAME}`, '--timeout=30s']);
    assert.equal(waited.code, 0, waited.stderr);
  });
  after(async () => {
    await s.close();
    await hook.close();
  });

  it('creates in either version and reads each object in both', async () => {
    for (const [input, name] of [[widgetV1('a', 'h', 80), 'a'], [widgetV2('b', 'x:9'), 'b']] as const) {
      const r = await s.kubectl(['create', '-f', '-'], input);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`widget.conv.example.com/${name} created`));
    }
    const a2 = await get(V2, 'a');
    assert.equal(a2.apiVersion, `${GROUP}/v2`);
    assert.deepEqual(a2.spec, { address: 'h:80' });
    assert.deepEqual(a2.metadata.labels, { app: 'w' });
    const b1 = await get(V1, 'b');
    assert.equal(b1.apiVersion, `${GROUP}/v1`);
    assert.deepEqual(b1.spec, { host: 'x', port: 9 });
    // b was written in v2: stored converted to v1.
    assert.ok(hook.reviews.some((x) => x.apiVersion === 'apiextensions.k8s.io/v1' && x.desiredAPIVersion === `${GROUP}/v1` && x.count === 1));
  });

  it('lists in v2 with one ConversionReview for the objects stored in v1', async () => {
    hook.reviews.length = 0;
    const r = await s.kubectl(['get', V2, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const list = JSON.parse(r.stdout) as { items: Obj[] };
    assert.deepEqual(list.items.map((i) => [i.apiVersion, i.metadata.name, i.spec]),
      [[`${GROUP}/v2`, 'a', { address: 'h:80' }], [`${GROUP}/v2`, 'b', { address: 'x:9' }]]);
    assert.deepEqual(hook.reviews.map((x) => [x.desiredAPIVersion, x.count]), [[`${GROUP}/v2`, 2]]);
    const table = await s.kubectl(['get', V1]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^NAME\s+AGE\na\s+\S+\nb\s+\S+\n$/);
  });

  it('patches in v2 what is stored in v1, and in v1 what a v2 watch then sees', async () => {
    const p = await s.kubectl(['patch', V2, 'a', '--type', 'merge', '-p', '{"spec":{"address":"h:90"}}']);
    assert.equal(p.code, 0, p.stderr);
    assert.deepEqual((await get(V1, 'a')).spec, { host: 'h', port: 90 });
    const watch = s.kubectlStream(['get', V2, '--watch', '-o', 'custom-columns=NAME:.metadata.name,ADDRESS:.spec.address', '--no-headers']);
    try {
      await watch.waitFor((out) => /^a\s+h:90$/m.test(out), 'the watch to list a in v2');
      const p1 = await s.kubectl(['patch', V1, 'a', '--type', 'merge', '-p', '{"spec":{"port":91}}']);
      assert.equal(p1.code, 0, p1.stderr);
      await watch.waitFor((out) => /^a\s+h:91$/m.test(out), 'the v1 patch seen in v2');
    } finally {
      await watch.stop();
    }
  });

  it('applies (client-side and server-side) in both versions', async () => {
    const c = await s.kubectl(['apply', '-f', '-'], widgetV2('c', 'c.example:1'));
    assert.equal(c.code, 0, c.stderr);
    const c2 = await s.kubectl(['apply', '-f', '-'], widgetV2('c', 'c.example:2'));
    assert.equal(c2.code, 0, c2.stderr);
    assert.match(c2.stdout, /widget.conv.example.com\/c configured/);
    assert.deepEqual((await get(V1, 'c')).spec, { host: 'c.example', port: 2 });

    const d = await s.kubectl(['apply', '--server-side', '--field-manager', 'v2-applier', '-f', '-'], widgetV2('d', 'd.example:3'));
    assert.equal(d.code, 0, d.stderr);
    assert.match(d.stdout, /widget.conv.example.com\/d serverside-applied/);
    assert.deepEqual((await get(V1, 'd')).spec, { host: 'd.example', port: 3 });
    const d1 = await s.kubectl(['apply', '--server-side', '--field-manager', 'v1-applier', '-f', '-'], widgetV1('e', 'e.example', 4));
    assert.equal(d1.code, 0, d1.stderr);
    assert.deepEqual((await get(V2, 'e')).spec, { address: 'e.example:4' });
    const again = await s.kubectl(['apply', '--server-side', '--field-manager', 'v2-applier', '-f', '-'], widgetV2('d', 'd.example:5'));
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual((await get(V1, 'd')).spec, { host: 'd.example', port: 5 });
  });

  it('passes dry-run writes through the webhook without storing them', async () => {
    const r = await s.kubectl(['create', '--dry-run=server', '-o', 'json', '-f', '-'], widgetV2('dry', 'y:1'));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as Obj).spec, { address: 'y:1' });
    const after = await s.kubectl(['get', V1, 'dry']);
    assert.notEqual(after.code, 0);
    assert.match(after.stderr, /widgets.conv.example.com "dry" not found/);
  });

  it('deletes through either version', async () => {
    const r = await s.kubectl(['delete', V2, 'e']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /widget.conv.example.com "e" deleted/);
  });

  // kube-apiserver's answers to the same requests: a 500 of unknown reason naming the webhook's failure.
  const failures: { mode: Mode; message: string }[] = [
    { mode: 'failure', message: 'conversion webhook for conv.example.com/v1, Kind=Widget failed: widgets cannot be converted today' },
    { mode: 'failureNoMessage', message: "conversion webhook for conv.example.com/v1, Kind=Widget failed: response.result.status was 'Failure', not 'Success'" },
    { mode: 'status500', message: 'conversion webhook for conv.example.com/v1, Kind=Widget failed: an error on the server ("conversion exploded") has prevented the request from succeeding' },
    { mode: 'empty200', message: 'conversion webhook for conv.example.com/v1, Kind=Widget failed: 0-length response with status code: 200 and content type: application/json' },
    { mode: 'text200', message: 'conversion webhook for conv.example.com/v1, Kind=Widget failed: couldn\'t get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }' },
    { mode: 'wrongCount', message: 'conversion webhook for conv.example.com/v1, Kind=Widget returned 2 objects, expected 1' },
    { mode: 'uidMismatch', message: 'conversion webhook for conv.example.com/v1, Kind=Widget failed: expected response.uid="UID", got "not-the-uid"' },
    { mode: 'v1beta1Review', message: 'conversion webhook for conv.example.com/v1, Kind=Widget failed: converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion' },
    { mode: 'noKind', message: 'conversion webhook for conv.example.com/v1, Kind=Widget failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=' },
    { mode: 'noResponse', message: 'conversion webhook for conv.example.com/v1, Kind=Widget failed: no response provided' },
    { mode: 'changedName', message: 'conversion webhook for conv.example.com/v1, Kind=Widget returned invalid object: must have the same name: a != renamed' },
    { mode: 'changedUID', message: 'conversion webhook for conv.example.com/v1, Kind=Widget returned invalid object: must have the same UID: UID != 00000000-0000-0000-0000-000000000000' },
    { mode: 'invalidLabels', message: 'conversion webhook for conv.example.com/v1, Kind=Widget returned invalid metadata: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')' },
    { mode: 'wrongApiVersion', message: 'conversion webhook for conv.example.com/v1, Kind=Widget returned invalid object at index 0: invalid groupVersion (expected conv.example.com/v2, received conv.example.com/v9)' },
    { mode: 'wrongKind', message: 'conversion webhook for conv.example.com/v1, Kind=Widget returned invalid object at index 0: invalid kind (expected Widget, received Gadget)' },
    { mode: 'noMetadata', message: 'conversion webhook for conv.example.com/v1, Kind=Widget returned invalid object: must have the same name: a != ' },
  ];
  for (const tc of failures) {
    it(`fails reads in v2 when the webhook answers ${tc.mode}, and keeps serving v1`, async () => {
      hook.mode = tc.mode;
      try {
        const r = await s.request({ method: 'GET', path: `/apis/${GROUP}/v2/namespaces/default/${PLURAL}/a` });
        const st = asStatus(r.json());
        assert.equal(r.status, 500, r.text);
        assert.equal(st.reason, undefined);
        assert.equal(withoutUIDs(String(st.message)), tc.message);
        const k = await s.kubectl(['get', V2, 'a']);
        assert.notEqual(k.code, 0);
        assert.equal(withoutUIDs(k.stderr.replace(/\n$/, '')), `Error from server: ${tc.message}`);
        const v1 = await s.kubectl(['get', V1, 'a']);
        assert.equal(v1.code, 0, v1.stderr);
      } finally {
        hook.mode = 'ok';
      }
    });
  }

  it('lets the webhook change labels and annotations, and nothing else of the metadata', async () => {
    hook.mode = 'changedLabels';
    try {
      assert.deepEqual((await get(V2, 'a')).metadata.labels, { converted: 'yes' });
    } finally { hook.mode = 'ok'; }
    hook.mode = 'changedOtherMeta';
    try {
      const a = await get(V2, 'a') as Obj & { metadata: { finalizers?: string[]; generation?: number } };
      assert.equal(a.metadata.finalizers, undefined);
      assert.notEqual(a.metadata.generation, 99);
    } finally { hook.mode = 'ok'; }
  });

  it('refuses writes in v2 while the webhook fails, storing nothing', async () => {
    hook.mode = 'failure';
    try {
      const r = await s.kubectl(['create', '-f', '-'], widgetV2('never', 'n:1'));
      assert.notEqual(r.code, 0);
      assert.equal(r.stderr.trim(), 'Error from server: error when creating "STDIN": conversion webhook for conv.example.com/v2, Kind=Widget failed: widgets cannot be converted today');
    } finally { hook.mode = 'ok'; }
    const after = await s.kubectl(['get', V1, 'never']);
    assert.match(after.stderr, /widgets.conv.example.com "never" not found/);
  });

  it('fails v2 reads with the dial error while the webhook is down', async () => {
    const port = hook.server.port;
    await hook.close();
    const r = await s.kubectl(['get', V2, 'a']);
    assert.notEqual(r.code, 0);
    assert.equal(r.stderr.trim(), `Error from server: conversion webhook for conv.example.com/v1, Kind=Widget failed: Post "https://127.0.0.1:${String(port)}/convert?timeout=30s": dial tcp 127.0.0.1:${String(port)}: connect: connection refused`);
    const v1 = await s.kubectl(['get', V1, 'a', '-o', 'jsonpath={.spec.port}']);
    assert.equal(v1.stdout, '91', v1.stderr);
    const health = await s.request({ method: 'GET', path: '/readyz' });
    assert.equal(health.status, 200);
    hook = await startConversionWebhook(pki);
  });

  it('reaches the webhook through a Service and its EndpointSlice', async (t) => {
    const ip = localAddress();
    if (ip === undefined) {
      t.skip('this machine has no non-loopback IPv4 address (EndpointSlices may not point at loopback)');
      return;
    }
    const svcHook = await startConversionWebhook(pki, ip);
    try {
      const setup = [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'conv' } },
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'hook', namespace: 'conv' }, spec: { ports: [{ name: 'https', port: 443, targetPort: svcHook.server.port }] } },
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'empty', namespace: 'conv' }, spec: { ports: [{ port: 443 }] } },
        { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'hook-1', namespace: 'conv', labels: { 'kubernetes.io/service-name': 'hook' } },
          addressType: 'IPv4', ports: [{ name: 'https', port: svcHook.server.port }], endpoints: [{ addresses: [ip], conditions: { ready: true } }] },
      ];
      const created = await s.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: setup }));
      assert.equal(created.code, 0, created.stderr);
      const use = async (service: Record<string, unknown>): Promise<void> => {
        const patch = [{ op: 'replace', path: '/spec/conversion/webhook/clientConfig', value: { service, caBundle: pki.caBundle } }];
        const r = await s.kubectl(['patch', 'crd', CRD_NAME, '--type', 'json', '-p', JSON.stringify(patch)]);
        assert.equal(r.code, 0, r.stderr);
      };
      await use({ namespace: 'conv', name: 'hook', path: '/convert' });
      const a = await eventuallyGet(s, V2, 'a');
      assert.deepEqual(a.spec, { address: 'h:91' });
      assert.ok(svcHook.reviews.length > 0);

      const cases: { service: Record<string, unknown>; want: string }[] = [
        { service: { namespace: 'conv', name: 'nohook', path: '/convert' },
          want: 'Post "https://nohook.conv.svc:443/convert?timeout=30s": service "nohook" not found' },
        { service: { namespace: 'conv', name: 'hook', path: '/convert', port: 8443 },
          want: 'Post "https://hook.conv.svc:8443/convert?timeout=30s": no service port 8443 found for service "hook"' },
        { service: { namespace: 'conv', name: 'empty' },
          want: 'Post "https://empty.conv.svc:443/?timeout=30s": no endpoints available for service "empty"' },
      ];
      for (const tc of cases) {
        await use(tc.service);
        const want = `Error from server: conversion webhook for conv.example.com/v1, Kind=Widget failed: ${tc.want}`;
        await eventuallyFails(s, V2, 'a', want);
      }
    } finally {
      await svcHook.close();
    }
  });
});

/** Reads until the CRD's new conversion config is served (the CRD informer follows it). */
async function eventuallyGet(s: Suite, resource: string, name: string): Promise<Obj> {
  for (let i = 0; ; i++) {
    const r = await s.kubectl(['get', resource, name, '-o', 'json']);
    if (r.code === 0) return JSON.parse(r.stdout) as Obj;
    if (i > 100) assert.fail(r.stderr);
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function eventuallyFails(s: Suite, resource: string, name: string, want: string): Promise<void> {
  let last = '';
  for (let i = 0; i < 100; i++) {
    const r = await s.kubectl(['get', resource, name]);
    last = r.stderr.trim();
    if (last === want) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  assert.equal(last, want);
}
