import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { Watch, WatchEvent } from '../../apimachinery/watch/event.ts';
import type { ListWatcher } from '../../client/cache/list-watch.ts';
import type { APIService } from '../apiservice/apiservice.ts';
import type { DiscoveryFetcher } from '../discovery/manager.ts';
import type { BackendCallOptions, BackendResponse, BackendSpec } from '../proxy/backend.ts';
import { OpenAPIAggregationController } from './controller.ts';

const idle: ListWatcher = {
  list: () => Promise.resolve({ metadata: { resourceVersion: '1' }, items: [] }),
  watch: () => {
    let stop: () => void = () => {};
    const ended = new Promise<void>((r) => { stop = r; });
    const w: Watch = { stop: () => stop(), async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<KubeObject>> { await ended; } };
    return Promise.resolve(w);
  },
};

const GV = 'wardle.example.com/v1alpha1';
const docs: Record<string, unknown> = {
  '/openapi/v2': { swagger: '2.0', paths: { [`/apis/${GV}/flunders`]: { get: {} }, '/version/': { get: {} } }, definitions: {} },
  '/openapi/v3': { paths: { [`apis/${GV}`]: { serverRelativeURL: `/openapi/v3/apis/${GV}?hash=X` } } },
};

class FakeBackend implements DiscoveryFetcher {
  calls: { path: string; user: string | undefined }[] = [];
  get(_spec: BackendSpec, path: string, opts: BackendCallOptions): Promise<BackendResponse> {
    this.calls.push({ path, user: opts.user?.name });
    const doc = docs[path];
    return Promise.resolve(doc === undefined ? { status: 404, headers: {}, body: Buffer.alloc(0) }
      : { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(doc)) });
  }
}

const wardle = (available: boolean): APIService => ({
  apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1alpha1.wardle.example.com' },
  spec: { group: 'wardle.example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15, service: { namespace: 'wardle', name: 'api', port: 443 } },
  status: { conditions: [{ type: 'Available', status: available ? 'True' : 'False' }] },
});

describe('aggregator OpenAPI controller (openapi and openapiv3 controllers)', () => {
  let c: OpenAPIAggregationController | undefined;
  afterEach(() => { c?.stop(); });

  it('downloads nothing while the APIService is not Available (kube\'s proxy answers 503), then both documents as system:aggregator', async () => {
    const backend = new FakeBackend();
    c = new OpenAPIAggregationController(idle, backend);
    await c.start();
    c.addAPIService(wardle(false));
    await sleep(50);
    assert.equal(backend.calls.length, 0);
    c.addAPIService(wardle(true));
    for (let i = 0; i < 200 && c.v2Specs().length === 0; i++) await sleep(10);
    // What was fetched, and as whom (a retry of the unavailable sync may fetch once more under load).
    assert.deepEqual([...new Set(backend.calls.map((x) => `${x.path} ${x.user ?? ''}`))].sort(),
      ['/openapi/v2 system:aggregator', '/openapi/v3 system:aggregator']);
    // The v2 spec is cut to the APIService's group version.
    assert.deepEqual(Object.keys(c.v2Specs()[0]?.['paths'] as object), [`/apis/${GV}/flunders`]);
    assert.deepEqual([...c.v3Paths()], [[`apis/${GV}`, `/openapi/v3/apis/${GV}?hash=X`]]);
    c.removeAPIService('v1alpha1.wardle.example.com');
    assert.deepEqual([c.v2Specs(), [...c.v3Paths()]], [[], []]);
  });
});
