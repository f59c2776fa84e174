// @kubernetes/client-node's informers (ListWatch, makeInformer) against kapi: list, watch from the
// list's resourceVersion with bookmarks allowed, concurrent writes, a watch forced onto compacted
// history (410 Expired) and the re-list that follows; in the end each cache equals the server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, KubeConfig, ListWatch, Watch, makeInformer, type KubernetesObject, type V1ConfigMap } from '@kubernetes/client-node';
import { ownConfigMaps, configMap, expectJSON, type ObjList } from './testing/objects.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-informer';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const MERGE = 'application/merge-patch+json';

type Callback = (phase: string, obj: KubernetesObject, watchObj?: unknown) => void;

/**
 * client-node's Watch with what a client-go reflector asks for: bookmarks and a short server-side
 * timeout (so the informer re-watches often); `forceResourceVersion` sends the next watch from there.
 */
class ReflectorWatch extends Watch {
  forceResourceVersion: string | undefined;
  readonly resourceVersions: string[] = [];
  readonly seen: { phase: string; code?: number; reason?: string }[] = [];

  override watch(path: string, queryParams: Record<string, string | number | boolean | undefined>, callback: Callback,
    done: (err: unknown) => void): Promise<AbortController> {
    const params: Record<string, string | number | boolean | undefined> = { ...queryParams, allowWatchBookmarks: true, timeoutSeconds: 3 };
    if (this.forceResourceVersion !== undefined) {
      params.resourceVersion = this.forceResourceVersion;
      this.forceResourceVersion = undefined;
    }
    this.resourceVersions.push(String(params.resourceVersion));
    return super.watch(path, params, (phase, obj: KubernetesObject & { code?: number; reason?: string }, watchObj) => {
      this.seen.push({ phase, ...(obj.code === undefined ? {} : { code: obj.code }), ...(obj.reason === undefined ? {} : { reason: obj.reason }) });
      callback(phase, obj, watchObj);
    }, done);
  }
}

describe('client-node informers', () => {
  let s: Suite;
  let kc: KubeConfig;
  let core: CoreV1Api;

  before(async () => {
    // A short compaction interval: the history an old resourceVersion points to is soon gone.
    // ConfigMaps are not watch-cached (size 0), so that a watch from it reads storage and gets
    // 410, as from kube-apiserver with the same flags (its cache would still serve the watch).
    s = await startSuite({ flags: ['--etcd-compaction-interval', '1s', '--watch-cache-sizes', 'configmaps#0'] });
    kc = new KubeConfig();
    kc.loadFromFile(s.server.kubeconfigPath);
    core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: NS } } });
  });
  after(async () => { await s?.close(); });

  const serverState = async (): Promise<Map<string, string | undefined>> => {
    const l = expectJSON<ObjList>(await s.request({ method: 'GET', path: CMS }), 200, 'list');
    return new Map(l.items.map((i) => [i.metadata.name, i.metadata.resourceVersion]));
  };
  const cacheState = (cache: { list(namespace?: string): readonly V1ConfigMap[] }): Map<string, string | undefined> =>
    new Map(cache.list(NS).map((o) => [o.metadata?.name ?? '', o.metadata?.resourceVersion]));
  const sorted = (m: Map<string, string | undefined>): [string, string | undefined][] => [...m].sort(([a], [b]) => a.localeCompare(b));

  /** Concurrent creates, patches and deletes over a few shared names; 404 and 409 are part of the race. */
  const burst = async (tag: string): Promise<void> => {
    await Promise.all([0, 1, 2, 3].map(async (k) => {
      for (let i = 0; i < 15; i++) {
        const name = `${tag}-${(k * 3 + i) % 6}`;
        const op = (k + i) % 3;
        const r = op === 0 ? await s.request({ method: 'POST', path: CMS, body: configMap(name, { w: `${k}-${i}` }) })
          : op === 1 ? await s.request({ method: 'PATCH', path: `${CMS}/${name}`, body: JSON.stringify({ data: { w: `${k}-${i}` } }), contentType: MERGE })
            : await s.request({ method: 'DELETE', path: `${CMS}/${name}` });
        assert.ok([200, 201, 404, 409].includes(r.status), `${tag} writer ${k} op ${i}: ${r.status} ${r.text}`);
      }
    }));
  };

  it('stays equal to the server through concurrent writes and a 410 that forces a re-list', async () => {
    const start = expectJSON<ObjList>(await s.request({ method: 'GET', path: CMS }), 200, 'initial list');
    const oldRV = start.metadata.resourceVersion ?? '';
    for (const n of ['a', 'b', 'c']) expectJSON(await s.request({ method: 'POST', path: CMS, body: configMap(n, {}) }), 201, n);

    let lists = 0;
    const errors: unknown[] = [];
    const watch = new ReflectorWatch(kc);
    const informer = new ListWatch<V1ConfigMap>(CMS, watch, async () => { lists++; return core.listNamespacedConfigMap({ namespace: NS }); }, false);
    const plain = makeInformer<V1ConfigMap>(kc, CMS, () => core.listNamespacedConfigMap({ namespace: NS }));
    informer.on('error', (err) => { errors.push(err); });
    plain.on('error', (err) => { errors.push(err); });
    await informer.start();
    await plain.start();
    try {
      assert.equal(lists, 1);
      assert.deepEqual(ownConfigMaps(informer.list(NS).map((o) => o.metadata?.name)).sort(), ['a', 'b', 'c']);
      assert.equal(watch.resourceVersions[0], informer.latestResourceVersion());

      await burst('x');

      // Once the compactor has passed the old resourceVersion, the next watch from it gets 410.
      await eventually('history before the first list to be compacted', async () => {
        const r = await s.request({ method: 'GET', path: `${CMS}?resourceVersion=${oldRV}&resourceVersionMatch=Exact` });
        return r.status === 410 ? true : undefined;
      });
      watch.forceResourceVersion = oldRV;
      await Promise.all([burst('y'), eventually('the informer to re-list after 410', async () => (lists >= 2 ? true : undefined))]);
      assert.ok(watch.resourceVersions.includes(oldRV));
      assert.ok(watch.seen.some((e) => e.phase === 'ERROR' && e.code === 410 && e.reason === 'Expired'),
        `an ERROR 410 Expired event; saw ${JSON.stringify(watch.seen.filter((e) => e.phase === 'ERROR'))}`);

      await burst('z');
      expectJSON(await s.request({ method: 'POST', path: CMS, body: configMap('marker', {}) }), 201, 'marker');
      const want = sorted(await serverState());
      for (const [name, cache] of [['ListWatch', informer], ['makeInformer', plain]] as const) {
        await eventually(`${name} to hold the marker`, async () => (cache.get('marker', NS) === undefined ? undefined : true));
        assert.deepEqual(sorted(cacheState(cache)), want, name);
      }
      assert.deepEqual(errors, []);
    } finally {
      await informer.stop();
      await plain.stop();
    }
  });
});
