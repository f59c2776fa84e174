// Writes answered as Table, PartialObjectMetadata or PartialObjectMetadataList, as kube-apiserver
// answers them (every handler runs transformResponseObject on its result), and the 406 kube gives
// when the asked shape does not fit the result (a list's metadata as one object, or the reverse),
// on reads and writes. Checked against kapi alone; the differential corpus checks it against kube.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespace } from './testing/objects.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-write-transforms';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
/** The test's own ConfigMaps (the namespace also holds kube-root-ca.crt). */
const MINE = `${CMS}?labelSelector=app%3Dwt`;
const TABLE = 'application/json;as=Table;g=meta.k8s.io;v=v1';
const POM = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const POML = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const cm = (name: string, data: Record<string, string> = {}): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'wt' } }, data });

interface Case {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly accept: string;
  readonly body?: string;
  readonly contentType?: string;
  readonly want: { readonly status: number; readonly kind: string; readonly check?: (b: Record<string, unknown>) => void };
}

describe('writes answer in the negotiated Table and PartialObjectMetadata shapes', () => {
  let s: Suite;
  before(async () => {
    s = await startSuite();
    await createNamespace(s, NS);
  });
  after(async () => { await s?.close(); });

  const rowObject = (b: Record<string, unknown>): Record<string, unknown> =>
    ((b['rows'] as { object: Record<string, unknown> }[])[0] as { object: Record<string, unknown> }).object;

  it('answers each write in the asked shape, and the write happens', async () => {
    const cases: Case[] = [
      { name: 'create as Table', method: 'POST', path: CMS, accept: TABLE, body: cm('t1'),
        want: { status: 201, kind: 'Table', check: (b) => assert.equal(rowObject(b)['kind'], 'PartialObjectMetadata') } },
      { name: 'create as Table with the whole object', method: 'POST', path: `${CMS}?includeObject=Object`, accept: TABLE, body: cm('t2'),
        want: { status: 201, kind: 'Table', check: (b) => assert.equal(rowObject(b)['kind'], 'ConfigMap') } },
      { name: 'create as PartialObjectMetadata', method: 'POST', path: CMS, accept: POM, body: cm('p1'),
        want: { status: 201, kind: 'PartialObjectMetadata', check: (b) => assert.equal((b['metadata'] as { name: string }).name, 'p1') } },
      { name: 'update as PartialObjectMetadata', method: 'PUT', path: `${CMS}/p1`, accept: POM, body: cm('p1', { a: '1' }),
        want: { status: 200, kind: 'PartialObjectMetadata' } },
      { name: 'merge patch as Table', method: 'PATCH', path: `${CMS}/p1`, accept: TABLE, body: '{"data":{"b":"2"}}',
        contentType: 'application/merge-patch+json', want: { status: 200, kind: 'Table' } },
      { name: 'dry-run deletecollection as Table', method: 'DELETE', path: `${MINE}&dryRun=All`, accept: TABLE,
        want: { status: 200, kind: 'Table', check: (b) => assert.equal((b['rows'] as unknown[]).length, 3) } },
      { name: 'dry-run deletecollection as PartialObjectMetadataList', method: 'DELETE', path: `${MINE}&dryRun=All`, accept: POML,
        want: { status: 200, kind: 'PartialObjectMetadataList' } },
      // A Status result is never transformed.
      { name: 'delete as Table', method: 'DELETE', path: `${CMS}/t2`, accept: TABLE, want: { status: 200, kind: 'Status' } },
    ];
    for (const c of cases) {
      const r = await s.request({ method: c.method, path: c.path, headers: { Accept: c.accept },
        ...(c.contentType !== undefined ? { contentType: c.contentType } : {}),
        ...(c.body !== undefined ? { body: c.body } : {}) });
      assert.equal(r.status, c.want.status, `${c.name}: ${r.text}`);
      const b = r.json() as Record<string, unknown>;
      assert.equal(b['kind'], c.want.kind, c.name);
      c.want.check?.(b);
    }
    const p1 = await s.request({ method: 'GET', path: `${CMS}/p1` });
    assert.deepEqual((p1.json() as { data: unknown }).data, { a: '1', b: '2' });
    const list = await s.request({ method: 'GET', path: MINE });
    assert.deepEqual((list.json() as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name), ['p1', 't1']);
  });

  it('refuses a shape that does not fit the result with kube\'s 406, naming the Go type', async () => {
    const cases = [
      { name: 'list as PartialObjectMetadata', method: 'GET', path: CMS, accept: POM,
        want: 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)' },
      { name: 'get as PartialObjectMetadataList', method: 'GET', path: `${CMS}/p1`, accept: POML,
        want: 'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)' },
      { name: 'dry-run deletecollection as PartialObjectMetadata', method: 'DELETE', path: `${MINE}&dryRun=All`, accept: POM,
        want: 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)' },
      { name: 'list of another group as PartialObjectMetadata', method: 'GET', path: '/apis/apps/v1/deployments', accept: POM,
        want: 'you requested PartialObjectMetadata, but the requested object is a list (*apps.DeploymentList)' },
    ];
    for (const c of cases) {
      const r = await s.request({ method: c.method, path: c.path, headers: { Accept: c.accept } });
      assert.equal(r.status, 406, `${c.name}: ${r.text}`);
      assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: c.want, reason: 'NotAcceptable', code: 406 }, c.name);
    }
    // Nothing was deleted, and the server still answers.
    const list = await s.request({ method: 'GET', path: MINE });
    assert.equal(list.status, 200);
    assert.equal((list.json() as { items: unknown[] }).items.length, 2);
  });
});

describe('an empty Table', () => {
  let s: Suite;
  before(async () => { s = await startSuite(); });
  after(async () => { await s?.close(); });

  it('has null rows under the default convertor (kinds without a printer), [] under a printer', async () => {
    const cases = [
      { name: 'clusterroles (no printer)', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles?labelSelector=none%3Dhere', want: null },
      { name: 'configmaps (printer)', path: '/api/v1/namespaces/default/configmaps?labelSelector=none%3Dhere', want: [] },
    ];
    for (const c of cases) {
      for (const method of ['GET', 'DELETE']) {
        const r = await s.request({ method, path: `${c.path}${method === 'DELETE' ? '&dryRun=All' : ''}`, headers: { Accept: TABLE } });
        assert.equal(r.status, 200, `${c.name} ${method}: ${r.text}`);
        assert.deepEqual((r.json() as { rows: unknown }).rows, c.want, `${c.name} ${method}`);
      }
    }
  });
});
