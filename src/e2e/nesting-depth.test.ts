// Deeply nested objects over HTTPS (issue 9): an object nested exactly as deep as kapi stores
// (MAX_OBJECT_DEPTH) goes through every verb and encoding; deeper bodies and patch results are
// refused with 4xx (kube's encoding/json answer beyond 10000 levels), nothing is stored and the
// server stays healthy.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_OBJECT_DEPTH, valueDepth } from '../apimachinery/json-depth.ts';
import { encodeProtobuf } from '../apimachinery/runtime/serializer/protobuf/index.ts';
import { openWatch } from './testing/watch-stream.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const N = MAX_OBJECT_DEPTH;
const JSON_TYPE = 'application/json';
const GROUP = 'depth.example.com';
const BASE = `/apis/${GROUP}/v1/namespaces/default/deeps`;
const REVISIONS = '/apis/apps/v1/namespaces/default/controllerrevisions';
const TOO_DEEP = new RegExp(`nested more than ${N} levels deep`);

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `deeps.${GROUP}` },
  spec: {
    group: GROUP, scope: 'Namespaced', names: { plural: 'deeps', singular: 'deep', kind: 'Deep' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: {
      spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }],
  },
};

/** `levels` objects {"a":...} around leaf. */
const nest = (levels: number, leaf = '1'): string => '{"a":'.repeat(levels) + leaf + '}'.repeat(levels);
/** A Deep whose whole object nests `levels` deep (the object itself is level 1). */
const deep = (name: string, levels: number, leaf = '1'): string =>
  `{"apiVersion":"${GROUP}/v1","kind":"Deep","metadata":{"name":"${name}"},"spec":${nest(levels - 1, leaf)}}`;
/** How deep the spec of a Deep (JSON text) nests. */
const specDepth = (text: string): number => valueDepth((JSON.parse(text) as { spec: unknown }).spec);
/** The JSON pointer of the innermost "a" of a Deep's spec nested `levels` deep. */
const leafPath = (levels: number): string => `/spec${'/a'.repeat(levels - 1)}`;

describe('nesting depth', () => {
  let s: Suite;
  before(async () => {
    s = await startSuite();
    const r = await s.request({ method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: JSON.stringify(CRD), contentType: JSON_TYPE });
    assert.equal(r.status, 201, r.text);
    await eventually('the Deep resource is served', async () => ((await s.request({ method: 'GET', path: BASE })).status === 200 ? true : undefined));
  });
  after(async () => { await s?.close(); });

  const expectStatus = async (what: string, req: Parameters<Suite['request']>[0], want: number): Promise<string> => {
    const r = await s.request(req);
    assert.equal(r.status, want, `${what}: ${r.text.slice(0, 300)}`);
    return r.text;
  };

  it(`serves a custom resource nested ${N} deep through every verb and encoding`, async () => {
    const w = await openWatch(s.creds, `${BASE}?watch=1`);
    try {
      await expectStatus('create', { method: 'POST', path: BASE, body: deep('max', N), contentType: JSON_TYPE }, 201);
      const got = await expectStatus('get', { method: 'GET', path: `${BASE}/max` }, 200);
      assert.equal(specDepth(got), N - 1);
      // Deeper than the yaml package's block writer takes: a JSON (YAML flow) document.
      const yaml = await expectStatus('get yaml', { method: 'GET', path: `${BASE}/max`, headers: { Accept: 'application/yaml' } }, 200);
      assert.equal(specDepth(yaml), N - 1);
      await expectStatus('get table', { method: 'GET', path: `${BASE}/max`, headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }, 200);
      await expectStatus('get metadata', { method: 'GET', path: `${BASE}/max`, headers: { Accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' } }, 200);
      await expectStatus('list yaml', { method: 'GET', path: BASE, headers: { Accept: 'application/yaml' } }, 200);
      await expectStatus('put', { method: 'PUT', path: `${BASE}/max`, body: got, contentType: JSON_TYPE }, 200);
      await expectStatus('merge patch', { method: 'PATCH', path: `${BASE}/max`, body: `{"spec":${nest(N - 1, '2')}}`, contentType: 'application/merge-patch+json' }, 200);
      await expectStatus('json patch', { method: 'PATCH', path: `${BASE}/max`,
        body: JSON.stringify([{ op: 'replace', path: leafPath(N), value: 3 }]), contentType: 'application/json-patch+json' }, 200);
      await expectStatus('apply', { method: 'PATCH', path: `${BASE}/max?fieldManager=depth&force=true`, body: deep('max', N, '4'), contentType: 'application/apply-patch+yaml' }, 200);
      assert.equal(specDepth(await expectStatus('get', { method: 'GET', path: `${BASE}/max` }, 200)), N - 1);
      await expectStatus('delete', { method: 'DELETE', path: `${BASE}/max` }, 200);
      const events = await w.waitFor((evs) => evs.some((e) => e.type === 'DELETED'), 'the DELETED event');
      const types = events.map((e) => e.type);
      assert.equal(types[0], 'ADDED');
      assert.equal(types.at(-1), 'DELETED');
      assert.ok(types.slice(1, -1).every((t) => t === 'MODIFIED') && types.length >= 4, types.join(','));
    } finally {
      w.stop();
    }
  });

  it(`serves a built-in object with opaque data nested ${N} deep as protobuf and takes a strategic merge patch`, async () => {
    const body = `{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"max"},"revision":1,"data":${nest(N - 1)}}`;
    await expectStatus('create', { method: 'POST', path: REVISIONS, body, contentType: JSON_TYPE }, 201);
    await expectStatus('get protobuf', { method: 'GET', path: `${REVISIONS}/max`, headers: { Accept: 'application/vnd.kubernetes.protobuf' } }, 200);
    await expectStatus('strategic merge patch', { method: 'PATCH', path: `${REVISIONS}/max`,
      body: '{"metadata":{"labels":{"patched":"yes"}}}', contentType: 'application/strategic-merge-patch+json' }, 200);
    await expectStatus('put', { method: 'PUT', path: `${REVISIONS}/max`,
      body: await expectStatus('get', { method: 'GET', path: `${REVISIONS}/max` }, 200), contentType: JSON_TYPE }, 200);
    await expectStatus('strategic merge patch N+1', { method: 'PATCH', path: `${REVISIONS}/max`,
      body: `{"data":${nest(N, '2')}}`, contentType: 'application/strategic-merge-patch+json' }, 400);
    // A protobuf body carries opaque data as embedded JSON, decoded without a depth limit.
    const deeper = encodeProtobuf({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'deeper' }, revision: 1,
      data: JSON.parse(nest(N)) as unknown });
    const r = await s.request({ method: 'POST', path: REVISIONS, body: deeper, contentType: 'application/vnd.kubernetes.protobuf' });
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.match((r.json() as { message: string }).message, TOO_DEEP);
    await expectStatus('get refused', { method: 'GET', path: `${REVISIONS}/deeper` }, 404);
    await expectStatus('delete', { method: 'DELETE', path: `${REVISIONS}/max` }, 200);
  });

  it('refuses deeper bodies and patch results with 4xx, stores nothing and stays ready', async () => {
    await expectStatus('create base', { method: 'POST', path: BASE, body: deep('base', N), contentType: JSON_TYPE }, 201);
    const before = await expectStatus('get base', { method: 'GET', path: `${BASE}/base` }, 200);
    const goDepth = "invalid character '{' exceeded max depth";
    const cases = [
      { name: 'create N+1', method: 'POST', path: BASE, body: deep('n1', N + 1), type: JSON_TYPE, code: 400, message: TOO_DEEP },
      { name: 'create N+1 as YAML', method: 'POST', path: BASE, body: deep('n1y', N + 1), type: 'application/yaml', code: 400, message: TOO_DEEP },
      { name: 'create 10000 deep', method: 'POST', path: BASE, body: deep('k10', 10000), type: JSON_TYPE, code: 400, message: TOO_DEEP },
      { name: 'create 10001 deep', method: 'POST', path: BASE, body: deep('k10b', 10001), type: JSON_TYPE, code: 400,
        message: new RegExp(`^the object provided is unrecognized \\(must be of type Deep\\): couldn't get version/kind; json parse error: ${goDepth} \\(`) },
      { name: 'create 100k deep', method: 'POST', path: BASE, body: deep('k100', 100_000), type: JSON_TYPE, code: 400, message: new RegExp(goDepth) },
      { name: 'create 1M deep', method: 'POST', path: BASE, body: deep('m1', 1_000_000), type: JSON_TYPE, code: undefined, message: undefined },
      { name: 'put N+1', method: 'PUT', path: `${BASE}/base`, body: deep('base', N + 1), type: JSON_TYPE, code: 400, message: TOO_DEEP },
      { name: 'merge patch N+1', method: 'PATCH', path: `${BASE}/base`, body: `{"spec":${nest(N, '2')}}`, type: 'application/merge-patch+json', code: 400, message: TOO_DEEP },
      { name: 'merge patch 10k', method: 'PATCH', path: `${BASE}/base`, body: `{"spec":${nest(10_000, '2')}}`, type: 'application/merge-patch+json', code: 400,
        message: new RegExp(`^error decoding patch: ${goDepth}$`) },
      { name: 'json patch add deepens the result', method: 'PATCH', path: `${BASE}/base`, type: 'application/json-patch+json', code: 422, message: TOO_DEEP,
        body: JSON.stringify([{ op: 'replace', path: leafPath(N), value: { b: {} } }]) },
      { name: 'json patch copy doubles the depth', method: 'PATCH', path: `${BASE}/base`, type: 'application/json-patch+json', code: 422, message: TOO_DEEP,
        body: JSON.stringify([{ op: 'copy', from: '/spec', path: leafPath(N) }]) },
      { name: 'json patch 100k', method: 'PATCH', path: `${BASE}/base`, type: 'application/json-patch+json', code: 400, message: new RegExp(goDepth),
        body: `[{"op":"add","path":"/spec/b","value":${nest(100_000)}}]` },
      { name: 'apply N+1', method: 'PATCH', path: `${BASE}/base?fieldManager=depth&force=true`, body: deep('base', N + 1), type: 'application/apply-patch+yaml', code: 400, message: TOO_DEEP },
      { name: 'apply 100k', method: 'PATCH', path: `${BASE}/base?fieldManager=depth&force=true`, body: deep('base', 100_000), type: 'application/apply-patch+yaml', code: 400, message: TOO_DEEP },
      { name: 'delete options 100k', method: 'DELETE', path: `${BASE}/base`, body: `{"kind":"DeleteOptions","x":${nest(100_000)}}`, type: JSON_TYPE, code: 400, message: TOO_DEEP },
    ];
    for (const c of cases) {
      const r = await s.request({ method: c.method, path: c.path, body: c.body, contentType: c.type });
      if (c.code === undefined) assert.ok(r.status >= 400 && r.status < 500, `${c.name}: ${r.status} ${r.text.slice(0, 300)}`);
      else assert.equal(r.status, c.code, `${c.name}: ${r.text.slice(0, 300)}`);
      if (c.message !== undefined) assert.match((r.json() as { message: string }).message, c.message, c.name);
    }
    const names = (JSON.parse(await expectStatus('list', { method: 'GET', path: BASE }, 200)) as { items: { metadata: { name: string } }[] })
      .items.map((i) => i.metadata.name);
    assert.deepEqual(names.filter((n) => ['n1', 'n1y', 'k10', 'k10b', 'k100', 'm1'].includes(n)), [], 'nothing refused was stored');
    assert.equal(await expectStatus('get base', { method: 'GET', path: `${BASE}/base` }, 200), before, 'base is unchanged');
    assert.equal(await expectStatus('readyz', { method: 'GET', path: '/readyz' }, 200), 'ok');
  });
});
