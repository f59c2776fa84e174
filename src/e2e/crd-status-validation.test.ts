// A custom resource's status write (PUT .../status) is checked only against the status part of the
// schema, as kube's apiextensions status strategy does: an invalid value already stored in .spec (left
// there by a tightened CRD schema), or a changed spec that the status write drops anyway, does not
// fail it. Runs against kapi and, where built, against the kube-apiserver oracle with the same answers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RawRequest, RawResponse } from './testing/https-client.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

interface Target { readonly name: string; request(req: RawRequest): Promise<RawResponse> }

const GROUP = 'statusval.example.com';
const CRD_NAME = `widgets.${GROUP}`;
const BASE = `/apis/${GROUP}/v1/namespaces/default/widgets`;

function crd(maxSize: number, resourceVersion?: string): object {
  const prop = (max: number): object => ({ type: 'object', properties: { size: { type: 'integer', maximum: max } } });
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: CRD_NAME, ...(resourceVersion !== undefined ? { resourceVersion } : {}) },
    spec: {
      group: GROUP, scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{
        name: 'v1', served: true, storage: true, subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: prop(maxSize), status: prop(5) } } },
      }],
    },
  };
}

const json = (method: string, path: string, body: unknown): RawRequest =>
  ({ method, path, body: JSON.stringify(body), contentType: 'application/json' });

/** Creates the CRD allowing spec.size up to 10 and a CR with size 8, then tightens spec.size to 5. */
async function setUp(t: Target): Promise<void> {
  const created = await t.request(json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd(10)));
  assert.equal(created.status, 201, created.text);
  const cr = { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { size: 8 } };
  await eventually(`${t.name}: CR created`, async () => {
    const r = await t.request(json('POST', BASE, cr));
    return r.status === 201 ? r : undefined;
  });
  // The CRD's status changed since its creation (Established): replace its latest version.
  const latest = await t.request({ method: 'GET', path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CRD_NAME}` });
  const rv = (latest.json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const tightened = await t.request(json('PUT', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CRD_NAME}`, crd(5, rv)));
  assert.equal(tightened.status, 200, tightened.text);
  // Once the new schema serves, a main-resource write of a changed too-large spec fails (kube
  // ratchets an unchanged one).
  await eventually(`${t.name}: tightened schema served`, async () => {
    const r = await t.request(json('PUT', `${BASE}/w`, { ...await current(t), spec: { size: 7 } }));
    return r.status === 422 ? r : undefined;
  });
}

async function current(t: Target): Promise<Record<string, unknown>> {
  const r = await t.request({ method: 'GET', path: `${BASE}/w` });
  assert.equal(r.status, 200, r.text);
  return r.json() as Record<string, unknown>;
}

const CASES: readonly { name: string; change: (o: Record<string, unknown>) => void; code: number; causes?: string[] }[] = [
  { name: 'invalid stored spec, valid status', change: (o) => { o['status'] = { size: 1 }; }, code: 200 },
  { name: 'changed invalid spec is dropped', change: (o) => { o['spec'] = { size: 99 }; o['status'] = { size: 2 }; }, code: 200 },
  { name: 'invalid status still fails', change: (o) => { o['status'] = { size: 6 }; }, code: 422,
    causes: ['status.size: Invalid value: 6: size in body should be less than or equal to 5'] },
];

async function runCases(t: Target): Promise<void> {
  for (const c of CASES) {
    const obj = await current(t);
    c.change(obj);
    const r = await t.request(json('PUT', `${BASE}/w/status`, obj));
    assert.equal(r.status, c.code, `${t.name} ${c.name}: ${r.text}`);
    if (c.causes !== undefined) {
      const st = r.json() as { details?: { causes?: { field: string; message: string }[] } };
      assert.deepEqual(st.details?.causes?.map((x) => `${x.field}: ${x.message}`), c.causes, `${t.name} ${c.name}`);
    } else {
      assert.equal((r.json() as { spec: { size: number } }).spec.size, 8, `${t.name} ${c.name}: spec kept`);
    }
  }
}

describe('custom resource status update validates only the status schema', () => {
  let suite: Suite | undefined;
  let oracle: Oracle | undefined;
  const skipOracle = oracleUnavailable();
  before(async () => {
    suite = await startSuite();
    if (skipOracle === undefined) oracle = await startOracle();
  });
  after(async () => { await oracle?.stop(); await suite?.close(); });

  it('kapi', async () => {
    assert.ok(suite !== undefined);
    const s = suite;
    await setUp({ name: 'kapi', request: (r) => s.request(r) });
    await runCases({ name: 'kapi', request: (r) => s.request(r) });
  });

  it('kube-apiserver (oracle)', { skip: skipOracle }, async () => {
    assert.ok(oracle !== undefined);
    const o = oracle;
    await setUp({ name: 'kube', request: (r) => o.request(r) });
    await runCases({ name: 'kube', request: (r) => o.request(r) });
  });
});
