// kube-apiserver's watch semantics over raw HTTPS: bookmarks, initial events, timeouts, field
// selectors, event order under concurrent writers, and what history compaction does to continue
// tokens and watches.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ownConfigMaps, configMap, expectJSON, type Obj, type ObjList } from './testing/objects.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import { decodeWatchEvent } from '../apimachinery/runtime/serializer/protobuf/index.ts';
import { openWatch, type WatchEventJSON, type WatchStream } from './testing/watch-stream.ts';

const NS = 'e2e-watch';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const MERGE = 'application/merge-patch+json';

interface FullEvent { type: string; object: Obj & { code?: number; reason?: string; message?: string } }
const full = (e: WatchEventJSON): FullEvent => e as unknown as FullEvent;
const rvOf = (e: WatchEventJSON): number => Number(e.object.metadata?.resourceVersion);

async function setupNamespace(s: Suite, ns: string): Promise<void> {
  expectJSON(await s.request({ method: 'POST', path: '/api/v1/namespaces',
    body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }) }), 201, `namespace ${ns}`);
}

describe('kube-apiserver watch semantics', () => {
  let s: Suite;
  const post = async (path: string, body: string): Promise<Obj> =>
    expectJSON<Obj>(await s.request({ method: 'POST', path, body }), 201, `POST ${path}`);
  const watch = (query: string, path = CMS): Promise<WatchStream> => openWatch(s.creds, `${path}?watch=1&${query}`);

  before(async () => {
    s = await startSuite();
    await setupNamespace(s, NS);
  });
  after(async () => { await s?.close(); });

  it('sendInitialEvents streams ADDED for what exists, then a BOOKMARK marked initial-events-end', async () => {
    for (const n of ['i1', 'i2', 'i3']) await post(CMS, configMap(n, {}, { labels: { grp: 'init' } }));
    const w = await watch('labelSelector=grp%3Dinit&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true');
    try {
      assert.equal(w.status, 200);
      const evs = await w.waitFor((e) => e.some((x) => x.type === 'BOOKMARK'), 'the initial-events-end bookmark');
      assert.deepEqual(evs.slice(0, 3).map((e) => e.type), ['ADDED', 'ADDED', 'ADDED']);
      assert.deepEqual(evs.slice(0, 3).map((e) => e.object.metadata?.name).sort(), ['i1', 'i2', 'i3']);
      const bm = full(evs[3]!);
      assert.equal(bm.type, 'BOOKMARK');
      assert.equal(bm.object.kind, 'ConfigMap');
      assert.equal(bm.object.apiVersion, 'v1');
      assert.deepEqual(bm.object.metadata.annotations, { 'k8s.io/initial-events-end': 'true' });
      assert.ok(rvOf(evs[3]!) >= Math.max(...evs.slice(0, 3).map(rvOf)));
      await post(CMS, configMap('i4', {}, { labels: { grp: 'init' } }));
      const after4 = await w.waitFor((e) => e.some((x) => x.object.metadata?.name === 'i4'), 'i4 ADDED');
      assert.equal(after4.at(-1)?.type, 'ADDED');
    } finally { w.stop(); }
  });

  it('with allowWatchBookmarks a watch gets a BOOKMARK (only kind, apiVersion and resourceVersion) before its timeout', async () => {
    // kube's watch cache sends a bookmark ~2s before a watch's deadline (else every minute),
    // so a watch with timeoutSeconds=5 sees one before it ends.
    const list = expectJSON<ObjList>(await s.request({ method: 'GET', path: CMS }), 200, 'list');
    const w = await watch(`resourceVersion=${list.metadata.resourceVersion ?? ''}&allowWatchBookmarks=true&timeoutSeconds=5`);
    await w.waitEnded('the watch to time out');
    const bookmarks = w.events().filter((e) => e.type === 'BOOKMARK').map(full);
    assert.ok(bookmarks.length > 0, `no BOOKMARK before the timeout; events: ${JSON.stringify(w.events())}`);
    for (const b of bookmarks) {
      assert.deepEqual(Object.keys(b.object).sort(), ['apiVersion', 'kind', 'metadata']);
      assert.equal(b.object.kind, 'ConfigMap');
      const metaKeys = Object.keys(b.object.metadata).filter((k) => !(k === 'creationTimestamp' && (b.object.metadata as unknown as Record<string, unknown>)[k] === null));
      assert.deepEqual(metaKeys, ['resourceVersion']);
      assert.ok(Number(b.object.metadata.resourceVersion) >= Number(list.metadata.resourceVersion));
    }
  });

  it('a metadata watch (PartialObjectMetadata) gets its bookmarks as PartialObjectMetadata too, in the stream\'s framing', async () => {
    // client-go's metadata informers (kube-controller-manager's garbage collector) watch every
    // resource so. A bookmark left in the resource's own kind could not be encoded when that kind
    // had no protobuf message (APIService had none in kapi once), and a JSON error line inside a
    // protobuf stream broke its framing.
    const as = 'as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
    const query = 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=4';
    const cases = [
      { name: 'apiservices, protobuf', path: '/apis/apiregistration.k8s.io/v1/apiservices', accept: `application/vnd.kubernetes.protobuf;${as}` },
      { name: 'apiservices, JSON', path: '/apis/apiregistration.k8s.io/v1/apiservices', accept: `application/json;${as}` },
      { name: 'configmaps, protobuf', path: CMS, accept: `application/vnd.kubernetes.protobuf;${as}` },
    ];
    for (const c of cases) {
      const r = await s.request({ method: 'GET', path: `${c.path}?${query}`, headers: { accept: c.accept } });
      assert.equal(r.status, 200, `${c.name}: ${r.text}`);
      const events: { type: string; kind: string; annotations: Record<string, string> }[] = [];
      if (c.accept.startsWith('application/json')) {
        for (const line of r.text.split('\n').filter((l) => l !== '')) {
          const ev = JSON.parse(line) as { type: string; object: { kind: string; metadata: { annotations?: Record<string, string> } } };
          events.push({ type: ev.type, kind: ev.object.kind, annotations: ev.object.metadata.annotations ?? {} });
        }
      } else {
        for (let pos = 0; pos < r.body.length;) {
          assert.ok(pos + 4 <= r.body.length, `${c.name}: a truncated frame at ${pos}`);
          const len = r.body.readUInt32BE(pos);
          assert.ok(pos + 4 + len <= r.body.length, `${c.name}: frame at ${pos} of ${len} bytes runs past the body`);
          const ev = decodeWatchEvent(r.body.subarray(pos + 4, pos + 4 + len));
          const obj = ev.object as { kind: string; metadata?: { annotations?: Record<string, string> } };
          events.push({ type: ev.type, kind: obj.kind, annotations: obj.metadata?.annotations ?? {} });
          pos += 4 + len;
        }
      }
      assert.ok(events.length > 0, c.name);
      assert.deepEqual([...new Set(events.map((e) => e.kind))], ['PartialObjectMetadata'], `${c.name}: ${JSON.stringify(events)}`);
      assert.ok(!events.some((e) => e.type === 'ERROR'), `${c.name}: ${JSON.stringify(events)}`);
      const bookmarks = events.filter((e) => e.type === 'BOOKMARK');
      assert.equal(bookmarks[0]?.annotations['k8s.io/initial-events-end'], 'true', `${c.name}: ${JSON.stringify(events)}`);
      // The one shortly before the timeout too.
      assert.ok(bookmarks.length >= 2, `${c.name}: ${JSON.stringify(events)}`);
    }
  });

  it('timeoutSeconds ends the stream; a fieldSelector on metadata.name watches one object', async () => {
    const short = await watch('timeoutSeconds=1');
    await short.waitEnded('timeoutSeconds=1 to end the watch');

    await post(CMS, configMap('one', { v: '0' }));
    await post(CMS, configMap('other', { v: '0' }));
    const w = await watch('fieldSelector=metadata.name%3Done&resourceVersion=0');
    try {
      for (const n of ['other', 'one']) {
        expectJSON(await s.request({ method: 'PATCH', path: `${CMS}/${n}`, body: '{"data":{"v":"1"}}', contentType: MERGE }), 200, `patch ${n}`);
      }
      for (const n of ['other', 'one']) expectJSON(await s.request({ method: 'DELETE', path: `${CMS}/${n}` }), 200, `delete ${n}`);
      const evs = await w.waitFor((e) => e.some((x) => x.type === 'DELETED'), 'DELETED of one');
      assert.deepEqual(evs.map((e) => `${e.type} ${e.object.metadata?.name}`), ['ADDED one', 'MODIFIED one', 'DELETED one']);
    } finally { w.stop(); }
  });

  it('concurrent writers: every watcher replays to the final LIST, resourceVersions strictly increasing', async () => {
    const ns = 'e2e-watch-conc';
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    await setupNamespace(s, ns);
    const start = expectJSON<ObjList>(await s.request({ method: 'GET', path }), 200, 'start list');
    const watchers = await Promise.all([0, 1, 2].map(() => openWatch(s.creds, `${path}?watch=1&resourceVersion=${start.metadata.resourceVersion ?? ''}`)));
    try {
      const writer = async (k: number): Promise<void> => {
        for (let i = 0; i < 24; i++) {
          const name = `o${(k * 5 + i) % 7}`;
          const op = (k + i) % 3;
          const r = op === 0 ? await s.request({ method: 'POST', path, body: configMap(name, { w: `${k}-${i}` }) })
            : op === 1 ? await s.request({ method: 'PATCH', path: `${path}/${name}`, body: JSON.stringify({ data: { w: `${k}-${i}` } }), contentType: MERGE })
              : await s.request({ method: 'DELETE', path: `${path}/${name}` });
          assert.ok([200, 201, 404, 409].includes(r.status), `writer ${k} op ${i}: ${r.status} ${r.text}`);
        }
      };
      await Promise.all([0, 1, 2, 3, 4].map(writer));
      await post(path, configMap('marker', {}));
      const final = expectJSON<ObjList>(await s.request({ method: 'GET', path }), 200, 'final list');
      // kube-root-ca.crt may be written before the watches start: it is not the writers'.
      const want = new Map(final.items.filter((i) => i.metadata.name !== 'kube-root-ca.crt').map((i) => [i.metadata.name, i.metadata.resourceVersion]));
      for (const [idx, w] of watchers.entries()) {
        const evs = await w.waitFor((e) => e.some((x) => x.object.metadata?.name === 'marker'), `watcher ${idx} to see the marker`);
        const state = new Map<string, string | undefined>();
        let last = Number(start.metadata.resourceVersion);
        for (const e of evs) {
          assert.ok(rvOf(e) > last, `watcher ${idx}: resourceVersion ${rvOf(e)} after ${last}`);
          last = rvOf(e);
          const name = e.object.metadata?.name ?? '';
          if (name === 'kube-root-ca.crt') continue;
          if (e.type === 'ADDED') assert.ok(!state.has(name), `watcher ${idx}: ADDED ${name} twice`);
          else assert.ok(state.has(name), `watcher ${idx}: ${e.type} of unknown ${name}`);
          if (e.type === 'DELETED') state.delete(name); else state.set(name, e.object.metadata?.resourceVersion);
        }
        assert.deepEqual(new Map([...state].sort()), new Map([...want].sort()), `watcher ${idx}`);
      }
    } finally { for (const w of watchers) w.stop(); }
  });
});

describe('history compaction (--etcd-compaction-interval 1s)', () => {
  let s: Suite;
  const ns = 'e2e-compact';
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  before(async () => {
    s = await startSuite({ flags: ['--etcd-compaction-interval', '1s'] });
    await setupNamespace(s, ns);
  });
  after(async () => { await s?.close(); });

  it('a continue token from compacted history gets 410 Expired; a watch from it is served from the watch cache', async () => {
    for (const n of ['c1', 'c2', 'c3']) expectJSON(await s.request({ method: 'POST', path, body: configMap(n, {}) }), 201, n);
    const first = expectJSON<ObjList>(await s.request({ method: 'GET', path: `${path}?limit=1` }), 200, 'page 1');
    const rv = first.metadata.resourceVersion ?? '';
    // A write moves the store past the token's revision; the compactor then removes that revision.
    expectJSON(await s.request({ method: 'POST', path, body: configMap('c4', {}) }), 201, 'c4');
    const next = `${path}?limit=1&continue=${encodeURIComponent(first.metadata.continue ?? '')}`;
    const expired = await eventually('the continue token to expire', async () => {
      const r = await s.request({ method: 'GET', path: next });
      return r.status === 410 ? r : undefined;
    });
    const st = expired.json() as { reason: string; code: number; message: string; metadata: { continue?: string } };
    assert.equal(st.reason, 'Expired');
    assert.equal(st.code, 410);
    assert.equal(st.message, 'The provided continue parameter is too old to display a consistent list result. You can start a new ' +
      'list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. ' +
      'Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted ' +
      'between the time the first chunk was returned and now may show up in the list.');
    assert.ok(st.metadata.continue, 'the 410 carries a token that continues at the newest revision');
    const rest = expectJSON<ObjList>(await s.request({ method: 'GET', path: `${path}?continue=${encodeURIComponent(st.metadata.continue)}` }), 200, 'inconsistent continue');
    assert.deepEqual(ownConfigMaps(rest.items.map((i) => i.metadata.name)), ['c2', 'c3', 'c4']);

    // The watch cache still holds the changes after rv: kube-apiserver v1.36 (asked) streams them
    // though etcd compacted that revision; only lists and continue tokens read storage's history.
    const w = await openWatch(s.creds, `${path}?watch=1&resourceVersion=${rv}`);
    const evs = await w.waitFor((e) => e.length >= 1, 'the watch to replay c4 from the cache');
    w.stop();
    assert.equal(w.status, 200);
    assert.deepEqual(evs.map((e) => `${e.type}:${e.object.metadata?.name ?? ''}`), ['ADDED:c4']);
  });
});
