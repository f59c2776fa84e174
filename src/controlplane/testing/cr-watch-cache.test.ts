// The watch cache of custom resources: one per CRD (uid and spec), serving lists from memory,
// kept across status updates of the CRD, rebuilt when its spec changes (new defaults show) and
// stopped when the CRD goes (its watches end, a CRD of the same name starts empty), as kube's
// crdHandler builds and destroys a CRD's storage with its cacher.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInProcess, type InProcessServer } from './in-process.ts';

const GROUP = 'cache.example.com';
const CRD_URL = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = `/apis/${GROUP}/v1/namespaces/default/widgets`;

/** With `shape`, a new field with a default: stored objects show it once read with the new schema. */
function crd(shape?: string): object {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `widgets.${GROUP}` },
    spec: {
      group: GROUP, scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
          size: { type: 'integer' }, ...(shape === undefined ? {} : { shape: { type: 'string', default: shape } }),
        } } } } },
      }],
    },
  };
}

interface WidgetList { metadata: { resourceVersion: string }; items: { metadata: { name: string }; spec?: { shape?: string } }[] }

describe('watch cache of custom resources', () => {
  let server: InProcessServer;
  before(async () => { server = await startInProcess({}); });
  after(async () => { await server.close(); });

  const send = async (method: string, url: string, body?: object): Promise<{ statusCode: number; text: string }> =>
    await server.request({ method, url, ...(body === undefined ? {} : { body }) });

  async function until<T>(what: string, fn: () => Promise<T | undefined>): Promise<T> {
    for (let i = 0; i < 200; i++) {
      const v = await fn();
      if (v !== undefined) return v;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`never: ${what}`);
  }

  const list = async (q = ''): Promise<WidgetList> => {
    const r = await send('GET', `${WIDGETS}${q}`);
    assert.equal(r.statusCode, 200, r.text);
    return JSON.parse(r.text) as WidgetList;
  };

  /** Storage range reads of widgets so far (etcd_requests_total, operation list). */
  const rangeReads = async (): Promise<number> => {
    const r = await send('GET', '/metrics');
    const line = r.text.split('\n').find((l) => l.startsWith('etcd_requests_total{') && l.includes('operation="list"') && l.includes('resource="widgets"'));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };

  async function createCRD(): Promise<void> {
    const r = await send('POST', CRD_URL, crd());
    assert.equal(r.statusCode, 201, r.text);
    await until('widgets served', async () => ((await send('GET', WIDGETS)).statusCode === 200 ? true : undefined));
  }

  async function deleteCRD(): Promise<void> {
    const r = await send('DELETE', `${CRD_URL}/widgets.${GROUP}`);
    assert.ok([200, 202].includes(r.statusCode), r.text);
    await until('CRD gone', async () => ((await send('GET', `${CRD_URL}/widgets.${GROUP}`)).statusCode === 404 ? true : undefined));
  }

  it('serves lists from memory, follows spec changes, and ends with its CRD', async () => {
    await createCRD();
    for (const name of ['a', 'b', 'c']) {
      const r = await send('POST', WIDGETS, { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name }, spec: { size: 1 } });
      assert.equal(r.statusCode, 201, r.text);
    }
    await until('cache holds the widgets', async () => ((await list('?resourceVersion=0')).items.length === 3 ? true : undefined));

    // Lists from the cache: no storage range read, whichever resourceVersion semantics.
    const before = await rangeReads();
    for (const q of ['?resourceVersion=0', '', '?resourceVersionMatch=NotOlderThan&resourceVersion=1', '?limit=2']) {
      const l = await list(q);
      assert.ok(l.items.length >= 2, q);
    }
    assert.equal(await rangeReads(), before, 'lists read storage');

    // A spec change builds the storage anew: the new schema's default shows on stored objects.
    const got = JSON.parse((await send('GET', `${CRD_URL}/widgets.${GROUP}`)).text) as { metadata: { resourceVersion: string }; spec: object };
    const blue = crd('round') as { metadata: object; spec: object };
    const u = await send('PUT', `${CRD_URL}/widgets.${GROUP}`, { ...blue, metadata: { ...blue.metadata, resourceVersion: got.metadata.resourceVersion } });
    assert.equal(u.statusCode, 200, u.text);
    const shapes = await until('the new default', async () => {
      const l = await list('?resourceVersion=0');
      return l.items.every((i) => i.spec?.shape === 'round') ? l.items.map((i) => i.spec?.shape) : undefined;
    });
    assert.deepEqual(shapes, ['round', 'round', 'round']);

    // A watch ends when its CRD goes (kube destroys the CRD's cacher); a CRD of the same name starts empty.
    const watching = send('GET', `${WIDGETS}?watch=1&resourceVersion=0&timeoutSeconds=600`);
    await new Promise((r) => setTimeout(r, 100));
    await deleteCRD();
    const w = await watching;
    assert.equal(w.statusCode, 200);
    assert.equal(w.text.split('\n').filter((l) => l.includes('"ADDED"')).length, 3);
    await createCRD();
    assert.deepEqual((await list('?resourceVersion=0')).items, []);
    assert.deepEqual((await list()).items, []);
  });
});
