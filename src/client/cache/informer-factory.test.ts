import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeList, KubeObject } from '../../apimachinery/meta/types.ts';
import type { Watch } from '../../apimachinery/watch/event.ts';
import { resourceName, SharedInformerFactory } from './informer-factory.ts';
import type { ListWatcher } from './list-watch.ts';

/** Lists one object; its watches stay silent until stopped. */
class Quiet implements ListWatcher {
  lists = 0;
  watches = 0;
  list(): Promise<KubeList> {
    this.lists++;
    return Promise.resolve({ metadata: { resourceVersion: '1' }, items: [{ metadata: { name: 'a', namespace: 'ns', resourceVersion: '1' } } as KubeObject] });
  }
  watch(): Promise<Watch> {
    this.watches++;
    let stop: () => void = () => {};
    const stopped = new Promise<void>((r) => { stop = r; });
    return Promise.resolve({ stop, async *[Symbol.asyncIterator]() { await stopped; } });
  }
}

describe('SharedInformerFactory', () => {
  it('names a resource as kube does', () => {
    assert.equal(resourceName({ group: '', resource: 'pods' }), 'pods');
    assert.equal(resourceName({ group: 'rbac.authorization.k8s.io', resource: 'roles' }), 'roles.rbac.authorization.k8s.io');
  });

  it('hands out one informer per resource name, listing it once however many ask', async () => {
    const f = new SharedInformerFactory();
    const lw = new Quiet();
    const a = f.informerFor(lw, 'pods');
    const b = f.informerFor(new Quiet(), 'pods');
    assert.equal(a, b, 'the first ListWatcher supplies the informer');
    await f.start();
    assert.equal(lw.lists, 1);
    assert.deepEqual(b.list().map((o) => o.metadata.name), ['a']);
    f.stop();
    assert.equal(a.stopped, true);
  });

  it('starts an informer asked for after start, and forget stops it and makes room for a new one', async () => {
    const f = new SharedInformerFactory();
    await f.start();
    const late = f.informerFor(new Quiet(), 'crontabs.example.com');
    await late.start();
    assert.equal(late.hasSynced(), true);
    f.forget('crontabs.example.com');
    assert.equal(late.stopped, true);
    assert.notEqual(f.informerFor(new Quiet(), 'crontabs.example.com'), late);
    f.stop();
  });
});
