// The watch cache behind the handler chain, socket-free: lists served from memory reuse each
// cached object's JSON and protobuf (encode once) yet always show the newest write.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobuf, encodeProtobuf } from '../../apimachinery/runtime/serializer/protobuf/index.ts';
import { startInProcess, type InProcessServer } from './in-process.ts';

const NS = '/api/v1/namespaces/default';
const CMS = `${NS}/configmaps`;
const cm = (name: string, data: Record<string, string> = {}): object => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

interface CMList { metadata: { resourceVersion: string }; items: { metadata: { name: string; resourceVersion: string }; data?: Record<string, string> }[] }

describe('watch cache behind the API', () => {
  let server: InProcessServer;
  // More than one slice of a paced list (500 items): the path that reuses encoded items.
  const N = 520;
  before(async () => {
    server = await startInProcess({});
    for (let i = 0; i < N; i++) {
      const r = await server.request({ method: 'POST', url: CMS, body: cm(`c${String(i).padStart(3, '0')}`, { v: '1' }) });
      assert.equal(r.statusCode, 201, r.text);
    }
  });
  after(async () => { await server.close(); });

  const list = async (q: string): Promise<CMList> => {
    const r = await server.request({ method: 'GET', url: `${CMS}${q}` });
    assert.equal(r.statusCode, 200, r.text);
    return JSON.parse(r.text) as CMList;
  };

  for (const c of [{ name: 'a consistent list', q: '' }, { name: 'resourceVersion=0', q: '?resourceVersion=0' }]) {
    it(`${c.name} answers the same bytes twice, then the newest write`, async () => {
      const first = await list(c.q);
      const again = await list(c.q);
      assert.deepEqual(again.items, first.items);
      const own = first.items.filter((i) => i.metadata.name.startsWith('c'));
      assert.equal(own.length, N);
      const target = own[7]!.metadata.name;
      const v = String(Number(own[7]!.data?.['v'] ?? '0') + 1);
      const u = await server.request({ method: 'PUT', url: `${CMS}/${target}`, body: { ...cm(target, { v }), metadata: { name: target, resourceVersion: own[7]!.metadata.resourceVersion } } });
      assert.equal(u.statusCode, 200, u.text);
      const updated = (JSON.parse(u.text) as CMList['items'][number]).metadata.resourceVersion;
      const after = await list('');
      const item = after.items.find((i) => i.metadata.name === target);
      assert.deepEqual([item?.data?.['v'], item?.metadata.resourceVersion], [v, updated]);
      assert.equal(after.items.length, first.items.length);
    });
  }
});

describe('watch cache behind the API: protobuf lists and Table watches encoded once', () => {
  let server: InProcessServer;
  const N = 510;
  const PB = 'application/vnd.kubernetes.protobuf';
  before(async () => {
    server = await startInProcess({});
    for (let i = 0; i < N; i++) {
      const r = await server.request({ method: 'POST', url: CMS, body: cm(`p${String(i).padStart(3, '0')}`, { v: '1' }) });
      assert.equal(r.statusCode, 201, r.text);
    }
  });
  after(async () => { await server.close(); });

  for (const c of [{ name: 'a consistent list', q: '' }, { name: 'resourceVersion=0', q: '?resourceVersion=0' }]) {
    it(`${c.name} in protobuf: the bytes of a per-request encoding, twice, then the newest write`, async () => {
      const pb = async (): Promise<Buffer> => {
        const r = await server.request({ method: 'GET', url: `${CMS}${c.q}`, headers: { accept: PB } });
        assert.equal(r.statusCode, 200, r.text);
        assert.equal(r.headers['content-type'], PB);
        return r.body;
      };
      const first = await pb();
      const decoded = decodeProtobuf(first);
      const rv = (decoded.obj['metadata'] as { resourceVersion: string }).resourceVersion;
      // The same list in JSON at that revision, encoded whole: what a per-request encoding writes.
      const json = await server.request({ method: 'GET', url: `${CMS}?resourceVersion=${rv}&resourceVersionMatch=Exact` });
      assert.equal(json.statusCode, 200, json.text);
      assert.ok(first.equals(encodeProtobuf(json.json() as Record<string, unknown>)), 'the bytes of a whole-list encoding');
      assert.ok((await pb()).equals(first));
      const items = decoded.obj['items'] as CMList['items'];
      const target = items[3]!;
      const u = await server.request({ method: 'PUT', url: `${CMS}/${target.metadata.name}`,
        body: { ...cm(target.metadata.name, { v: `${c.name}-2` }), metadata: { name: target.metadata.name, resourceVersion: target.metadata.resourceVersion } } });
      assert.equal(u.statusCode, 200, u.text);
      const after = decodeProtobuf(await pb()).obj['items'] as CMList['items'];
      assert.deepEqual(after.find((i) => i.metadata.name === target.metadata.name)?.data, { v: `${c.name}-2` });
      assert.equal(after.length, items.length);
    });
  }

  it('two Table watches from one resourceVersion get the same bytes: column definitions first, then the rows', async () => {
    const start = (await server.request({ method: 'GET', url: `${CMS}?limit=1` })).json() as CMList;
    for (let i = 0; i < 3; i++) {
      const r = await server.request({ method: 'POST', url: CMS, body: cm(`tw${i}`) });
      assert.equal(r.statusCode, 201, r.text);
    }
    const watch = async (): Promise<string[]> => {
      const r = await server.request({ method: 'GET', url: `${CMS}?watch=1&timeoutSeconds=1&resourceVersion=${start.metadata.resourceVersion}`,
        headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
      assert.equal(r.statusCode, 200, r.text);
      return r.text.split('\n').filter((l) => l !== '');
    };
    const [a, b] = await Promise.all([watch(), watch()]);
    assert.deepEqual(b, a);
    assert.equal(a.length, 3);
    const tables = a.map((l) => (JSON.parse(l) as { type: string; object: { columnDefinitions?: unknown[] | null; rows: { cells: unknown[] }[] } }));
    assert.deepEqual(tables.map((t) => [t.type, (t.object.columnDefinitions ?? []).length > 0]),
      [['ADDED', true], ['ADDED', false], ['ADDED', false]]);
    assert.deepEqual(tables.map((t) => t.object.rows[0]?.cells[0]), ['tw0', 'tw1', 'tw2']);
  });
});
