// The watch cache behind the handler chain, socket-free: lists served from memory reuse each
// cached object's JSON (encode once) yet always show the newest write.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
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
