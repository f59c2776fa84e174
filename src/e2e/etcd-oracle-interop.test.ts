// kapi and the reference kube-apiserver on ONE etcd with the same --etcd-prefix: what either writes
// (protobuf for built-ins, JSON for custom resources) the other reads, lists, watches, updates and
// deletes; the raw etcd values carry the same envelope; a value nobody can decode fails the same way.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openEtcdBackend, type EtcdBackend } from '../storage/etcd3/etcd3-backend.ts';
import { decodeValue } from '../storage/value-codec.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startKapiOnEtcd, type EtcdKapi } from './testing/etcd-kapi.ts';
import { expectStatus, guard } from './testing/etcd-e2e.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';
import { openWatch } from './testing/watch-stream.ts';
import type { AdminCredentials } from './testing/https-client.ts';

const skip = oracleUnavailable();
if (skip !== undefined) console.log(`# skipping the etcd interop test: ${skip}`);

interface Side {
  readonly name: string;
  readonly creds: AdminCredentials;
  request(req: RawRequest): Promise<RawResponse>;
}

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.interop.example.com' },
  spec: {
    group: 'interop.example.com', scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{ name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }],
  },
};

/** The objects each side writes into its namespace, with the path of their collection and the etcd key prefix. */
function objects(ns: string): { path: string; key: string; body: Record<string, unknown>; json?: boolean }[] {
  const labels = { app: 'interop' };
  return [
    { path: `/api/v1/namespaces/${ns}/configmaps`, key: `/registry/configmaps/${ns}/cm`,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels }, data: { greeting: 'grüße ✓' }, binaryData: { bin: 'AAEC' } } },
    { path: `/api/v1/namespaces/${ns}/secrets`, key: `/registry/secrets/${ns}/secret`,
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'secret', labels }, type: 'Opaque', stringData: { password: 'hunter2' } } },
    { path: `/apis/apps/v1/namespaces/${ns}/deployments`, key: `/registry/deployments/${ns}/web`,
      body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels },
        spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] } } } } },
    { path: `/api/v1/namespaces/${ns}/services`, key: `/registry/services/specs/${ns}/svc`,
      body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc', labels }, spec: { selector: labels, ports: [{ port: 80, targetPort: 8080 }] } } },
    // Served at v1, stored as v1beta1 by v1.36 (its StorageFactory's overrides).
    { path: '/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies', key: `/registry/mutatingadmissionpolicies/map-${ns}`,
      body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicy', metadata: { name: `map-${ns}`, labels },
        spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
          mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"a": "b"}}}' } }],
          reinvocationPolicy: 'Never' } } },
    { path: '/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings', key: `/registry/mutatingadmissionpolicybindings/mapb-${ns}`,
      body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: `mapb-${ns}`, labels }, spec: { policyName: 'none' } } },
    { path: `/apis/interop.example.com/v1/namespaces/${ns}/widgets`, key: `/registry/interop.example.com/widgets/${ns}/w`, json: true,
      body: { apiVersion: 'interop.example.com/v1', kind: 'Widget', metadata: { name: 'w', labels }, spec: { size: 3 } } },
  ];
}

const get = async (s: Side, path: string): Promise<Record<string, unknown>> =>
  expectStatus(await s.request({ method: 'GET', path }), 200, `${s.name} GET ${path}`) as Record<string, unknown>;

/** What must be equal between the two servers' views of one object. */
function essence(o: Record<string, unknown>): unknown {
  // Items of a list carry no apiVersion and kind; status is the servers' controllers' business.
  const { metadata, status: _status, apiVersion: _a, kind: _k, ...rest } = o as { metadata: Record<string, unknown>; status?: unknown; apiVersion?: string; kind?: string };
  return { ...rest, name: metadata['name'], uid: metadata['uid'], labels: metadata['labels'], resourceVersion: metadata['resourceVersion'] };
}

describe('kapi and kube-apiserver on one etcd', { skip: skip !== undefined }, () => {
  let oracle: Oracle;
  let kapi: EtcdKapi;
  let raw: EtcdBackend;
  let kube: Side;
  let mine: Side;

  before(async () => {
    oracle = await startOracle();
    kapi = await startKapiOnEtcd(oracle.etcd.endpoint, { flags: ['--etcd-prefix', '/registry'] });
    raw = await openEtcdBackend({ endpoints: [oracle.etcd.endpoint], compactionIntervalMs: 0 });
    kube = { name: 'kube', creds: oracle.creds, request: (r) => oracle.request(r) };
    mine = { name: 'kapi', creds: kapi.creds, request: (r) => kapi.request(r) };
    expectStatus(await oracle.request({ method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: JSON.stringify(CRD) }), 201, 'create CRD');
    for (const s of [kube, mine]) {
      // Both must serve the CRD before a custom resource can be written through either.
      for (;;) {
        const r = await s.request({ method: 'GET', path: '/apis/interop.example.com/v1/widgets' });
        if (r.status === 200) break;
        await new Promise((res) => setTimeout(res, 200));
      }
    }
  });
  after(async () => {
    await raw?.close();
    await kapi?.dispose();
    await oracle?.stop();
  });

  for (const [writerName, readerName] of [['kube', 'kapi'], ['kapi', 'kube']] as const) {
    it(`${writerName} writes; ${readerName} reads, lists, watches, updates and deletes`, async () => {
      const writer = writerName === 'kube' ? kube : mine;
      const reader = writerName === 'kube' ? mine : kube;
      const ns = `by-${writerName}`;
      expectStatus(await writer.request({ method: 'POST', path: '/api/v1/namespaces',
        body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }) }), 201, 'create namespace');
      const watch = await openWatch(reader.creds, `/api/v1/namespaces/${ns}/configmaps?watch=1`);
      try {
        for (const o of objects(ns)) {
          const created = expectStatus(await writer.request({ method: 'POST', path: o.path, body: JSON.stringify(o.body) }), 201, `${writer.name} create ${o.key}`) as Record<string, unknown>;
          const name = (o.body['metadata'] as { name: string }).name;
          const read = await get(reader, `${o.path}/${name}`);
          assert.deepEqual(essence(read), essence(created), `${reader.name} reads ${o.key} as ${writer.name} wrote it`);
          const list = await get(reader, `${o.path}?labelSelector=app%3Dinterop`) as { items: Record<string, unknown>[] };
          assert.deepEqual(list.items.map(essence), [essence(created)], `${reader.name} lists ${o.path}`);
          const kv = (await raw.range(o.key)).kvs[0];
          assert.ok(kv !== undefined, `${o.key} is in etcd`);
          assert.equal(kv.value.slice(0, 4) === 'k8s\u0000' ? 'protobuf' : kv.value[0] === '{' ? 'json' : 'other', o.json === true ? 'json' : 'protobuf', `${writer.name}'s value of ${o.key}`);
        }
        await guard('ADDED event', 30_000, watch.waitFor((evs) => evs.some((e) => e.type === 'ADDED' && e.object.metadata?.name === 'cm'), 'ADDED cm'));

        // The reader updates what the writer wrote; the writer sees it; the value is the reader's encoding.
        const cmPath = `/api/v1/namespaces/${ns}/configmaps/cm`;
        const cm = await get(reader, cmPath);
        const updated = expectStatus(await reader.request({ method: 'PUT', path: cmPath, body: JSON.stringify({ ...cm, data: { greeting: 'updated' } }) }), 200, `${reader.name} update`) as Record<string, unknown>;
        assert.deepEqual(essence(await get(writer, cmPath)), essence(updated));
        await guard('MODIFIED event', 30_000, watch.waitFor((evs) => evs.some((e) => e.type === 'MODIFIED' && e.object.data?.['greeting'] === 'updated'), 'MODIFIED cm'));
        const w = `/apis/interop.example.com/v1/namespaces/${ns}/widgets/w`;
        const widget = await get(reader, w);
        expectStatus(await reader.request({ method: 'PUT', path: w, body: JSON.stringify({ ...widget, spec: { size: 4 } }) }), 200, `${reader.name} update widget`);
        assert.deepEqual((await get(writer, w))['spec'], { size: 4 });

        // Deletes through the reader are gone for the writer.
        for (const o of objects(ns)) {
          const name = (o.body['metadata'] as { name: string }).name;
          expectStatus(await reader.request({ method: 'DELETE', path: `${o.path}/${name}` }), 200, `${reader.name} delete ${o.key}`);
          for (;;) {
            const r = await writer.request({ method: 'GET', path: `${o.path}/${name}` });
            if (r.status === 404) break;
            // A Deployment or Service may linger briefly for its finalizers: wait for it.
            assert.equal(r.status, 200, r.text);
            await new Promise((res) => setTimeout(res, 200));
          }
        }
        await guard('DELETED event', 30_000, watch.waitFor((evs) => evs.some((e) => e.type === 'DELETED' && e.object.metadata?.name === 'cm'), 'DELETED cm'));
      } finally {
        watch.stop();
      }
    });
  }

  it('the raw values of the same object written by each carry the same envelope and decode the same', async () => {
    const ns = 'raw';
    expectStatus(await kube.request({ method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }) }), 201, 'namespace');
    for (const o of objects(ns)) {
      const name = (o.body['metadata'] as { name: string }).name;
      const values: string[] = [];
      for (const s of [kube, mine]) {
        expectStatus(await s.request({ method: 'POST', path: o.path, body: JSON.stringify(o.body) }), 201, `${s.name} create ${o.key}`);
        const kv = (await raw.range(o.key)).kvs[0];
        assert.ok(kv !== undefined);
        values.push(kv.value);
        expectStatus(await s.request({ method: 'DELETE', path: `${o.path}/${name}?gracePeriodSeconds=0` }), 200, `${s.name} delete ${o.key}`);
        for (;;) {
          if ((await raw.range(o.key)).kvs.length === 0) break;
          await new Promise((res) => setTimeout(res, 200));
        }
      }
      const [k, m] = values.map((v) => Buffer.from(v ?? '', 'latin1'));
      assert.ok(k !== undefined && m !== undefined);
      // Envelope: `k8s\0`, then runtime.Unknown's typeMeta (apiVersion, kind) byte for byte.
      const header = (b: Buffer): string => b.subarray(0, 4 + 2 + (b[5] ?? 0)).toString('latin1');
      if (o.json !== true) assert.equal(header(m), header(k), `${o.key}: envelope`);
      const strip = (v: string): unknown => {
        const obj = decodeValue(v) as unknown as { metadata: Record<string, unknown>; spec?: Record<string, unknown> };
        const { uid: _u, creationTimestamp: _c, managedFields: _f, ...meta } = obj.metadata;
        // A Service's allocated cluster IPs and a Secret's data are the same shape, not the same values.
        const spec = obj.spec === undefined ? undefined : { ...obj.spec, clusterIP: undefined, clusterIPs: undefined };
        return { ...obj, metadata: meta, spec };
      };
      assert.deepEqual(strip(values[1] ?? ''), strip(values[0] ?? ''), `${o.key}: kapi's value decodes as kube's`);
    }
  });

  it('a value nobody can decode fails as kube fails it', async () => {
    const ns = 'corrupt';
    expectStatus(await kube.request({ method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }) }), 201, 'namespace');
    expectStatus(await kube.request({ method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'good' } }) }), 201, 'good');
    await raw.create(`/registry/configmaps/${ns}/bad`, 'k8s\u0000\u00ff\u00fe garbage');
    await raw.create(`/registry/configmaps/${ns}/bad-json`, '{"not json');
    // Both watch caches stop before the first value they cannot decode (kube's reflector watches
    // again from there): a list from the cache is the state before it, a consistent or paginated
    // list is read from etcd and fails with the value's error, as the get does.
    const paths = [`/api/v1/namespaces/${ns}/configmaps/bad`, `/api/v1/namespaces/${ns}/configmaps/bad-json`,
      `/api/v1/namespaces/${ns}/configmaps?resourceVersion=0`, `/api/v1/namespaces/${ns}/configmaps`,
      `/api/v1/namespaces/${ns}/configmaps?limit=1`, '/api/v1/configmaps', `/api/v1/namespaces/${ns}/configmaps/good`];
    const got: unknown[] = [];
    const want: unknown[] = [];
    for (const path of paths) {
      const k = await kube.request({ method: 'GET', path });
      const m = await kapi.request({ method: 'GET', path });
      const items = (r: RawResponse): unknown => (r.json() as { items?: { metadata: { name: string } }[] }).items?.map((o) => o.metadata.name);
      want.push({ path, status: k.status, body: k.status === 200 ? items(k) : k.json() });
      got.push({ path, status: m.status, body: m.status === 200 ? items(m) : m.json() });
    }
    assert.deepEqual(got, want);
  });
});
