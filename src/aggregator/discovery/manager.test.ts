import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { Watch, WatchEvent } from '../../apimachinery/watch/event.ts';
import type { ListWatcher } from '../../client/cache/list-watch.ts';
import type { APIService } from '../apiservice/apiservice.ts';
import type { BackendCallOptions, BackendResponse, BackendSpec } from '../proxy/backend.ts';
import { isAggregatedDiscoveryType, DiscoveryManager, type DiscoveryFetcher } from './manager.ts';

/** Lists `items` and watches forever: the tests drive the manager through addAPIService. */
const listing = (items: KubeObject[]): ListWatcher => ({
  list: () => Promise.resolve({ metadata: { resourceVersion: '1' }, items }),
  watch: () => {
    let stop: () => void = () => {};
    const ended = new Promise<void>((r) => { stop = r; });
    const w: Watch = {
      stop: () => stop(),
      async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<KubeObject>> { await ended; },
    };
    return Promise.resolve(w);
  },
});
const idle = listing([]);

const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

interface Call { path: string; accept: string | undefined; user: string | undefined; groups: readonly string[] | undefined }

class FakeBackend implements DiscoveryFetcher {
  calls: Call[] = [];
  answer: (path: string, spec: BackendSpec) => BackendResponse | Error = () => new Error('down');
  get(spec: BackendSpec, path: string, opts: BackendCallOptions): Promise<BackendResponse> {
    this.calls.push({ path, accept: opts.accept, user: opts.user?.name, groups: opts.user?.groups });
    const a = this.answer(path, spec);
    return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
  }
}

const json = (status: number, body: unknown, contentType = 'application/json'): BackendResponse =>
  ({ status, headers: { 'content-type': contentType }, body: Buffer.from(JSON.stringify(body)) });

const flunders = { resource: 'flunders', responseKind: { group: 'wardle.example.com', version: 'v1', kind: 'Flunder' }, scope: 'Namespaced', singularResource: 'flunder', verbs: ['get', 'list'] };
const aggregatedDoc = { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {},
  items: [{ metadata: { name: 'wardle.example.com' }, versions: [{ version: 'v1', resources: [flunders], freshness: 'Current' }] }] };

const apiService = (name: string, group: string, version: string, service: NonNullable<APIService['spec']['service']> | null): APIService => ({
  apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name },
  spec: { group, version, groupPriorityMinimum: 2000, versionPriority: 10, service },
});
const wardle = apiService('v1.wardle.example.com', 'wardle.example.com', 'v1', { namespace: 'wardle', name: 'api', port: 443 });

async function until<T>(probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const v = probe();
    if (v !== undefined) return v;
    await sleep(10);
  }
  throw new Error('gave up');
}

describe('aggregator discovery manager (handler_discovery.go)', () => {
  let m: DiscoveryManager | undefined;
  afterEach(() => { m?.stop(); });

  async function started(backend: FakeBackend): Promise<DiscoveryManager> {
    m = new DiscoveryManager(idle, backend);
    await m.start();
    return m;
  }

  it('fetches /apis as aggregated discovery, as system:kube-aggregator in system:masters, and lists the group version Current', async () => {
    const backend = new FakeBackend();
    backend.answer = () => json(200, aggregatedDoc, V2);
    const mgr = await started(backend);
    mgr.addAPIService(wardle);
    const e = await until(() => mgr.remoteEntries()[0]);
    assert.deepEqual(e.discovery, { version: 'v1', resources: [flunders], freshness: 'Current' });
    assert.deepEqual(backend.calls, [{ path: '/apis', user: 'system:kube-aggregator', groups: ['system:masters'],
      accept: `${V2},application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList` }]);
  });

  it('falls back to the legacy document of the group version when /apis is no aggregated list', async () => {
    const backend = new FakeBackend();
    backend.answer = (path) => (path === '/apis' ? json(200, { kind: 'APIGroupList', groups: [] })
      : json(200, { kind: 'APIResourceList', groupVersion: 'wardle.example.com/v1',
        resources: [{ name: 'flunders', singularName: 'flunder', namespaced: true, group: 'wardle.example.com', version: 'v1', kind: 'Flunder', verbs: ['get', 'list'] }] }));
    const mgr = await started(backend);
    mgr.addAPIService(wardle);
    const e = await until(() => mgr.remoteEntries()[0]);
    assert.deepEqual(e.discovery, { version: 'v1', resources: [flunders], freshness: 'Current' });
    assert.deepEqual(backend.calls.map((c) => [c.path, c.user, c.accept]), [
      ['/apis', 'system:kube-aggregator', `${V2},application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList`],
      ['/apis/wardle.example.com/v1', 'system:aggregator', 'application/json'],
    ]);
  });

  const staleCases: { name: string; answer: (path: string) => BackendResponse | Error }[] = [
    { name: 'the backend cannot be reached', answer: () => new Error('dial tcp 127.0.0.1:1: connect: connection refused') },
    { name: 'the backend answers 503 to both documents', answer: () => json(503, 'service unavailable', 'text/plain') },
    { name: 'the aggregated document does not decode', answer: () => ({ status: 200, headers: { 'content-type': V2 }, body: Buffer.from('{') }) },
  ];
  for (const c of staleCases) {
    it(`lists the group version Stale, with no resources, when ${c.name}; then Current once it answers`, async () => {
      const backend = new FakeBackend();
      backend.answer = c.answer;
      const mgr = await started(backend);
      mgr.addAPIService(wardle);
      const stale = await until(() => mgr.remoteEntries()[0]);
      assert.deepEqual(stale.discovery, { version: 'v1', freshness: 'Stale' });
      // A change of the APIService (its availability) fetches again at once.
      backend.answer = () => json(200, aggregatedDoc, V2);
      mgr.addAPIService({ ...wardle, status: { conditions: [{ type: 'Available', status: 'True' }] } });
      const fresh = await until(() => mgr.remoteEntries().find((x) => x.discovery.freshness === 'Current'));
      assert.deepEqual(fresh.discovery.resources, [flunders]);
    });
  }

  it('a group version the backend does not list is Current with no resources', async () => {
    const backend = new FakeBackend();
    backend.answer = () => json(200, aggregatedDoc, V2);
    const mgr = await started(backend);
    mgr.addAPIService(apiService('v2.wardle.example.com', 'wardle.example.com', 'v2', { namespace: 'wardle', name: 'api', port: 443 }));
    assert.deepEqual((await until(() => mgr.remoteEntries()[0])).discovery, { version: 'v2', freshness: 'Current' });
  });

  it('APIServices of one service share one fetch; a deleted APIService leaves discovery', async () => {
    const backend = new FakeBackend();
    backend.answer = () => json(200, { ...aggregatedDoc, items: [...aggregatedDoc.items, { metadata: { name: 'wardle.example.com' }, versions: [{ version: 'v1beta1' }] }] }, V2);
    const mgr = await started(backend);
    mgr.addAPIService(wardle);
    await until(() => mgr.remoteEntries()[0]);
    mgr.addAPIService(apiService('v1beta1.wardle.example.com', 'wardle.example.com', 'v1beta1', { namespace: 'wardle', name: 'api', port: 443 }));
    await until(() => (mgr.remoteEntries().length === 2 ? true : undefined));
    // The second APIService was marked dirty after the first fetch, so it fetched again (kube's rule).
    assert.equal(backend.calls.length, 2);
    mgr.removeAPIService('v1.wardle.example.com');
    await until(() => (mgr.remoteEntries().length === 1 ? true : undefined));
    assert.deepEqual(mgr.remoteEntries().map((e) => e.version), ['v1beta1']);
    assert.equal(mgr.priority('wardle.example.com', 'v1'), undefined);
  });

  it('local APIServices are never fetched, only their priorities kept', async () => {
    const backend = new FakeBackend();
    const mgr = await started(backend);
    mgr.addAPIService(apiService('v1.apps', 'apps', 'v1', null));
    await sleep(50);
    assert.deepEqual(backend.calls, []);
    assert.deepEqual(mgr.remoteEntries(), []);
    assert.equal(mgr.priority('apps', 'v1')?.groupPriorityMinimum, 2000);
  });

  it('start resolves once the APIServices listed at start have been fetched, failing ones listed Stale', async () => {
    const backend = new FakeBackend();
    backend.answer = (_path, spec) => (spec.service?.name === 'api' ? json(200, aggregatedDoc, V2) : new Error('down'));
    const down = apiService('v1.down.example.com', 'down.example.com', 'v1', { namespace: 'down', name: 'gone', port: 443 });
    m = new DiscoveryManager(listing([wardle, down]), backend);
    await m.start();
    assert.deepEqual(m.remoteEntries().map((e) => [e.group, e.discovery.freshness]).sort(),
      [['down.example.com', 'Stale'], ['wardle.example.com', 'Current']]);
  });

  it('ContentTypeIsGVK: v2 and v2beta1 APIGroupDiscoveryList only', () => {
    for (const [ct, want] of [[V2, true], ['application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList', true],
      ['application/json', false], ['application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList', false], [undefined, false]] as const) {
      assert.equal(isAggregatedDiscoveryType(ct), want, String(ct));
    }
  });
});
