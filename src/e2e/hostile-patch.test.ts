// Hostile writes over raw HTTPS (issue 9): a JSON patch copy bomb is refused as kube-apiserver
// refuses it (JSONPatchMaxCopyBytes), deep managedFields and very large maps are written and read
// back intact, and keys named like Object.prototype members are stored as plain data by every
// write path (create, JSON, merge, strategic merge and apply patches) and found by selectors.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { asStatus } from './testing/https-client.ts';
import { createNamespace } from './testing/objects.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-hostile';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;
// Label and annotation keys must begin and end with an alphanumeric character.
const LABEL_NAMES = PROTO_NAMES.filter((n) => n !== '__proto__');

interface Obj {
  metadata: { name: string; resourceVersion: string; labels?: Record<string, string>; annotations?: Record<string, string>;
    managedFields?: { manager?: string; fieldsV1?: unknown }[] };
  data?: Record<string, unknown>;
  spec?: Record<string, unknown>;
}

/** JSON.parse keeps "__proto__" as an own key; read members only through own properties. */
const own = (o: Record<string, unknown> | undefined, k: string): unknown => (o !== undefined && Object.hasOwn(o, k) ? o[k] : undefined);
const protoData = (): Record<string, string> => Object.fromEntries(PROTO_NAMES.map((n) => [n, `v-${n}`]));
const protoLabels = (): Record<string, string> => Object.fromEntries(LABEL_NAMES.map((n) => [n, `l-${n}`]));

function nested(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) v = { '.': {}, 'f:a': v };
  return v;
}

function depthOf(v: unknown): number {
  let d = 0;
  let cur = v;
  while (typeof cur === 'object' && cur !== null && Object.hasOwn(cur, 'f:a')) {
    cur = (cur as Record<string, unknown>)['f:a'];
    d++;
  }
  return d;
}

describe('hostile writes', () => {
  let s: Suite;
  const get = async (path: string): Promise<Obj> => {
    const r = await s.request({ method: 'GET', path });
    assert.equal(r.status, 200, r.text);
    return r.json() as Obj;
  };
  const healthy = async (): Promise<void> => {
    const r = await s.request({ method: 'GET', path: '/readyz' });
    assert.equal(r.status, 200, r.text);
  };

  before(async () => {
    s = await startSuite();
    await createNamespace(s, NS);
  });
  after(async () => { await s?.close(); });

  it('refuses a JSON patch copy bomb with 422 as kube does and stores nothing', async () => {
    const created = await s.request({ method: 'POST', path: CM, body: JSON.stringify({
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bomb' }, data: { big: 'x'.repeat(1_000_000) } }) });
    assert.equal(created.status, 201, created.text);
    const before = created.json() as Obj;
    const ops = Array.from({ length: 16 }, (_, i) => ({ op: 'copy', from: '/data', path: `/data/c${i}` }));
    const r = await s.request({ method: 'PATCH', path: `${CM}/bomb`, contentType: 'application/json-patch+json', body: JSON.stringify(ops) });
    assert.equal(r.status, 422, r.text);
    const st = asStatus(r.json());
    assert.equal(st.reason, 'Invalid');
    assert.equal(st.message, 'the server rejected our request due to an error in our request');
    const after = await get(`${CM}/bomb`);
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
    assert.deepEqual(Object.keys(after.data ?? {}), ['big']);
    // Copies under the limit still apply.
    const ok = await s.request({ method: 'PATCH', path: `${CM}/bomb`, contentType: 'application/json-patch+json',
      body: JSON.stringify([{ op: 'copy', from: '/metadata/name', path: '/data/c0' }]) });
    assert.equal(ok.status, 200, ok.text);
    await healthy();
  });

  it('creates an object whose managedFields nest 400 deep and reads them back', async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'deep-mf', managedFields: [
      { manager: 'deep', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': nested(400) } }] } };
    const r = await s.request({ method: 'POST', path: CM, body: JSON.stringify(body) });
    assert.equal(r.status, 201, r.text);
    const got = await get(`${CM}/deep-mf`);
    const entry = got.metadata.managedFields?.find((e) => e.manager === 'deep');
    assert.equal(depthOf((entry?.fieldsV1 as Record<string, unknown>)['f:data']), 400);
    const patched = await s.request({ method: 'PATCH', path: `${CM}/deep-mf`, contentType: 'application/merge-patch+json',
      body: JSON.stringify({ data: { a: 'b' } }) });
    assert.equal(patched.status, 200, patched.text);
    await healthy();
  });

  it('refuses a ConfigMap of 100k keys as kube on etcd does, and patches one of 25k keys with every patch type', async () => {
    // 100k keys store more than etcd's 1.5 MiB request limit once managedFields list every key:
    // kube-apiserver v1.36 answers etcd's own 500 (its create retry without managedFields is still too large).
    const huge: Record<string, string> = {};
    for (let i = 0; i < 100_000; i++) huge[`key-${i}`] = 'v';
    const refused = await s.request({ method: 'POST', path: CM, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'huge' }, data: huge }) });
    assert.equal(refused.status, 500, refused.text);
    assert.equal((refused.json() as { message?: string }).message, 'etcdserver: request is too large');
    assert.equal((await s.request({ method: 'GET', path: `${CM}/huge` })).status, 404);
    const data: Record<string, string> = {};
    for (let i = 0; i < 25_000; i++) data[`key-${i}`] = 'v';
    const r = await s.request({ method: 'POST', path: CM, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'wide' }, data }) });
    assert.equal(r.status, 201, r.text);
    const patches = [
      { name: 'merge', contentType: 'application/merge-patch+json', body: { data: { m: '1' } } },
      { name: 'strategic', contentType: 'application/strategic-merge-patch+json', body: { data: { s: '1' } } },
      { name: 'json', contentType: 'application/json-patch+json', body: [{ op: 'add', path: '/data/j', value: '1' }] },
      { name: 'apply', contentType: 'application/apply-patch+yaml', query: '?fieldManager=wide',
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'wide' }, data: { ...data, a: '1' } } },
    ];
    for (const p of patches) {
      const pr = await s.request({ method: 'PATCH', path: `${CM}/wide${p.query ?? ''}`, contentType: p.contentType, body: JSON.stringify(p.body) });
      assert.equal(pr.status, 200, `${p.name}: ${pr.text}`);
    }
    const got = await get(`${CM}/wide`);
    assert.equal(Object.keys(got.data ?? {}).length, 25_004);
    assert.equal(own(got.data, 'key-24999'), 'v');
    await healthy();
  });

  describe('keys named like Object.prototype members are data', () => {
    it('in ConfigMap data, labels and annotations, through create and every patch type', async () => {
      const r = await s.request({ method: 'POST', path: CM, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap',
        metadata: { name: 'proto', labels: protoLabels(), annotations: protoLabels() }, data: protoData() }) });
      assert.equal(r.status, 201, r.text);
      const created = await get(`${CM}/proto`);
      for (const n of PROTO_NAMES) assert.equal(own(created.data, n), `v-${n}`, n);
      for (const n of LABEL_NAMES) {
        assert.equal(own(created.metadata.labels, n), `l-${n}`, n);
        assert.equal(own(created.metadata.annotations, n), `l-${n}`, n);
      }
      const cases = PROTO_NAMES.flatMap((n) => [
        { name: `merge ${n}`, contentType: 'application/merge-patch+json', body: { data: { [n]: 'merge' } }, want: 'merge' },
        { name: `strategic ${n}`, contentType: 'application/strategic-merge-patch+json', body: { data: { [n]: 'smp' } }, want: 'smp' },
        { name: `json ${n}`, contentType: 'application/json-patch+json', body: [{ op: 'replace', path: `/data/${n}`, value: 'json' }], want: 'json' },
        { name: `apply ${n}`, contentType: 'application/apply-patch+yaml', query: '?fieldManager=proto&force=true',
          // Each apply sends every key: a key it stops applying would be pruned.
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'proto' }, data: Object.fromEntries(PROTO_NAMES.map((k) => [k, 'apply'])) },
          want: 'apply' },
      ]);
      for (const c of cases) {
        // JSON.stringify of a computed "__proto__" key writes it as a member.
        const pr = await s.request({ method: 'PATCH', path: `${CM}/proto${c.query ?? ''}`, contentType: c.contentType, body: JSON.stringify(c.body) });
        assert.equal(pr.status, 200, `${c.name}: ${pr.text}`);
        assert.equal(own((pr.json() as Obj).data, PROTO_NAMES.find((n) => c.name.endsWith(` ${n}`)) ?? ''), c.want, c.name);
      }
      const after = await get(`${CM}/proto`);
      assert.deepEqual(Object.keys(after.data ?? {}).sort(), [...PROTO_NAMES].sort());
      // A merge patch null removes such a key like any other.
      const removed = await s.request({ method: 'PATCH', path: `${CM}/proto`, contentType: 'application/merge-patch+json',
        body: '{"data":{"__proto__":null,"constructor":null}}' });
      assert.equal(removed.status, 200, removed.text);
      assert.deepEqual(Object.keys((removed.json() as Obj).data ?? {}).sort(), ['hasOwnProperty', 'toString', 'valueOf']);
    });

    it('in label selectors', async () => {
      const other = await s.request({ method: 'POST', path: CM, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain' } }) });
      assert.equal(other.status, 201, other.text);
      const cases = [
        { name: 'equality', selector: 'constructor=l-constructor', want: ['proto'] },
        { name: 'exists', selector: 'toString', want: ['proto'] },
        { name: 'does not exist', selector: '!hasOwnProperty', want: ['bomb', 'deep-mf', 'kube-root-ca.crt', 'plain', 'wide'] },
        { name: 'inequality', selector: 'valueOf!=l-valueOf', want: ['bomb', 'deep-mf', 'kube-root-ca.crt', 'plain', 'wide'] },
      ];
      for (const c of cases) {
        const r = await s.request({ method: 'GET', path: `${CM}?labelSelector=${encodeURIComponent(c.selector)}` });
        assert.equal(r.status, 200, `${c.name}: ${r.text}`);
        const names = (r.json() as { items: Obj[] }).items.map((i) => i.metadata.name).sort();
        assert.deepEqual(names.filter((n) => n !== 'kube-root-ca.crt'), c.want.filter((n) => n !== 'kube-root-ca.crt'), c.name);
      }
    });

    it('in custom resource fields', async () => {
      const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.hostile.example.com' },
        spec: { group: 'hostile.example.com', scope: 'Namespaced', names: { plural: 'things', singular: 'thing', kind: 'Thing' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: {
            spec: { type: 'object', properties: { constructor: { type: 'string', default: 'defaulted' } }, 'x-kubernetes-preserve-unknown-fields': true },
            counts: { type: 'object', additionalProperties: { type: 'integer' } },
            free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }] } };
      const c = await s.request({ method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: JSON.stringify(crd) });
      assert.equal(c.status, 201, c.text);
      const path = `/apis/hostile.example.com/v1/namespaces/${NS}/things`;
      await eventually('the Thing resource is served', async () => {
        const r = await s.request({ method: 'GET', path });
        return r.status === 200 ? true : undefined;
      });
      // Written as text: a "__proto__" member in an object literal would set its prototype. The
      // create has no "__proto__" keys; the patches add them (an assignment would drop them).
      const spec = Object.fromEntries(PROTO_NAMES.slice(2).map((n) => [n, `v-${n}`]));
      const r = await s.request({ method: 'POST', path, body: JSON.stringify({ apiVersion: 'hostile.example.com/v1', kind: 'Thing',
        metadata: { name: 'proto' }, spec, free: { constructor: { prototype: { polluted: 'yes' } } } }) });
      assert.equal(r.status, 201, r.text);
      const patches = [
        { name: 'merge', contentType: 'application/merge-patch+json', body: '{"spec":{"__proto__":"merged"},"free":{"__proto__":{"polluted":"yes"}}}' },
        { name: 'json', contentType: 'application/json-patch+json', body: '[{"op":"add","path":"/free/__proto__/more","value":"x"}]' },
        { name: 'apply', contentType: 'application/apply-patch+yaml', query: '?fieldManager=proto&force=true',
          body: '{"apiVersion":"hostile.example.com/v1","kind":"Thing","metadata":{"name":"proto"},"free":{"__proto__":{"applied":"z"}}}' },
      ];
      for (const p of patches) {
        const pr = await s.request({ method: 'PATCH', path: `${path}/proto${p.query ?? ''}`, contentType: p.contentType, body: p.body });
        assert.equal(pr.status, 200, `${p.name}: ${pr.text}`);
      }
      const got = await get(`${path}/proto`);
      assert.equal(own(got.spec, '__proto__'), 'merged');
      // A schema default for a property named "constructor" is applied.
      assert.equal(own(got.spec, 'constructor'), 'defaulted');
      for (const n of PROTO_NAMES.slice(2)) assert.equal(own(got.spec, n), `v-${n}`, n);
      const stored = (got as unknown as { free: Record<string, unknown> }).free;
      // A custom resource's maps are written with sorted keys, as kube's unstructured encoding.
      assert.equal(JSON.stringify(own(stored, '__proto__')), '{"applied":"z","more":"x","polluted":"yes"}');
      assert.deepEqual(own(stored, 'constructor'), { prototype: { polluted: 'yes' } });
    });

    it('in custom resource validation: additionalProperties apply to every key', async () => {
      const path = `/apis/hostile.example.com/v1/namespaces/${NS}/things`;
      const r = await s.request({ method: 'POST', path, body: JSON.stringify({ apiVersion: 'hostile.example.com/v1', kind: 'Thing',
        metadata: { name: 'bad' }, counts: { toString: 'not a number' } }) });
      assert.equal(r.status, 422, r.text);
      const st = asStatus(r.json());
      assert.equal(st.reason, 'Invalid');
      assert.match(String(st.message), /toString.* in body must be of type integer/);
      const gone = await s.request({ method: 'GET', path: `${path}/bad` });
      assert.equal(gone.status, 404, gone.text);
    });

    it('in Secret stringData and YAML bodies', async () => {
      const secret = await s.request({ method: 'POST', path: `/api/v1/namespaces/${NS}/secrets`,
        body: '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"proto"},"stringData":{"__proto__":"a","constructor":"b"}}' });
      assert.equal(secret.status, 201, secret.text);
      const data = (secret.json() as { data?: Record<string, string> }).data;
      assert.equal(own(data, '__proto__'), Buffer.from('a').toString('base64'));
      assert.equal(own(data, 'constructor'), Buffer.from('b').toString('base64'));
      const yaml = await s.request({ method: 'POST', path: CM, contentType: 'application/yaml',
        body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: proto-yaml\ndata:\n  __proto__: a\n  toString: b\n' });
      assert.equal(yaml.status, 201, yaml.text);
      const got = await get(`${CM}/proto-yaml`);
      assert.deepEqual(Object.keys(got.data ?? {}), ['__proto__', 'toString']);
    });

    it('never change Object.prototype', () => {
      assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).filter((n) => n === 'polluted' || n === 'more'), []);
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    });
  });
});
