// The watch half of the storage conformance suite (see conformance.ts).
// Counterpart of k8s.io/apiserver/pkg/storage/testing/watcher_tests.go.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { StoreOptions } from '../store.ts';
import { brief, drainsToEnd, everything, key, labelIs, pod, PODS, rvOf, take, type Fixture } from './fixtures.ts';

export type TestFactory = (fn: (f: Fixture) => Promise<void>, storeOpts?: StoreOptions) => () => Promise<void>;

const relabel = (o: KubeObject | undefined, v: string): KubeObject =>
  ({ ...o!, metadata: { ...o!.metadata, labels: { ...o!.metadata.labels, keep: v } } });

export function runWatchConformance(t: TestFactory): void {
  describe('watch', () => {
    it('delivers changes after a resourceVersion, with DELETED at the delete revision', t(async ({ store }) => {
      const a = await store.create(key('a'), pod('a'));
      const w = await store.watch(PODS, { recursive: true, predicate: everything, resourceVersion: a.metadata.resourceVersion! });
      const b = await store.create(key('b'), pod('b'));
      const a2 = await store.guaranteedUpdate(key('a'), { ignoreNotFound: false, tryUpdate: (o) => ({ ...o!, data: 'x' }) as never });
      await store.delete(key('b'), {});
      const deletedAt = await store.currentRevision();
      const evs = await take(w, 3);
      w.stop();
      assert.deepEqual(evs.map(brief), [`ADDED:b@${rvOf(b)}`, `MODIFIED:a@${rvOf(a2)}`, `DELETED:b@${deletedAt}`]);
    }));

    it('replays history from an older resourceVersion in order', t(async ({ store }) => {
      const a = await store.create(key('a'), pod('a'));
      const b = await store.create(key('b'), pod('b'));
      await store.create(key('x', 'other-ns'), pod('x'));
      const w = await store.watch(`${PODS}/ns`, { recursive: true, predicate: everything, resourceVersion: a.metadata.resourceVersion! });
      const c = await store.create(key('c'), pod('c'));
      const evs = await take(w, 2);
      w.stop();
      assert.deepEqual(evs.map(brief), [`ADDED:b@${rvOf(b)}`, `ADDED:c@${rvOf(c)}`]);
    }));

    it('delivers concurrent writes exactly once in revision order', t(async ({ store }) => {
      const start = await store.currentRevision();
      const w = await store.watch(PODS, { recursive: true, predicate: everything, resourceVersion: String(start) });
      const n = 40;
      await Promise.all(Array.from({ length: n }, async (_, i) => {
        await store.create(key(`p${i}`), pod(`p${i}`));
        await store.guaranteedUpdate(key(`p${i}`), { ignoreNotFound: false, tryUpdate: (o) => ({ ...o!, data: 'u' }) as never });
      }));
      const evs = await take(w, 2 * n);
      w.stop();
      const rvs = evs.map((e) => rvOf(e.object as KubeObject));
      assert.equal(evs.length, 2 * n);
      assert.deepEqual(rvs, [...rvs].sort((x, y) => x - y));
      assert.equal(new Set(rvs).size, rvs.length);
      assert.equal(rvs[rvs.length - 1], await store.currentRevision());
    }));

    it('watches a single key when not recursive', t(async ({ store }) => {
      const start = await store.currentRevision();
      const w = await store.watch(key('a'), { recursive: false, predicate: everything, resourceVersion: String(start) });
      await store.create(key('ab'), pod('ab'));
      await store.create(key('a'), pod('a'));
      const evs = await take(w, 1);
      w.stop();
      assert.deepEqual(evs.map((e) => e.object.metadata), [(await store.get(key('a'), {}))!.metadata]);
    }));

    it('turns predicate transitions into ADDED and DELETED', t(async ({ store }) => {
      const a = await store.create(key('a'), pod('a', { keep: 'no' }));
      const w = await store.watch(PODS, { recursive: true, predicate: labelIs('keep', 'yes'), resourceVersion: a.metadata.resourceVersion! });
      const up = (v: string) => store.guaranteedUpdate(key('a'), { ignoreNotFound: false, tryUpdate: (o) => relabel(o, v) });
      const r1 = await up('yes');
      const r2 = await store.guaranteedUpdate(key('a'), { ignoreNotFound: false, tryUpdate: (o) => ({ ...o!, data: 'z' }) as never });
      const r3 = await up('no');
      await up('never');
      const r4 = await up('yes');
      const evs = await take(w, 4);
      w.stop();
      assert.deepEqual(evs.map(brief), [`ADDED:a@${rvOf(r1)}`, `MODIFIED:a@${rvOf(r2)}`, `DELETED:a@${rvOf(r3)}`, `ADDED:a@${rvOf(r4)}`]);
    }));

    for (const rv of ['', '0']) {
      it(`starts from resourceVersion "${rv}" with the current state as ADDED`, t(async ({ store }) => {
        const a = await store.create(key('a'), pod('a'));
        await store.create(key('b', 'x'), pod('b'));
        const w = await store.watch(`${PODS}/ns`, { recursive: true, predicate: everything, resourceVersion: rv });
        const c = await store.create(key('c'), pod('c'));
        const evs = await take(w, 2);
        w.stop();
        assert.deepEqual(evs.map(brief), [`ADDED:a@${rvOf(a)}`, `ADDED:c@${rvOf(c)}`]);
      }));
    }

    it('sends initial events then a bookmark marked initial-events-end', t(async ({ store }) => {
      const a = await store.create(key('a'), pod('a'));
      const b = await store.create(key('b'), pod('b'));
      const w = await store.watch(PODS, {
        recursive: true, predicate: everything, resourceVersion: '', sendInitialEvents: true, allowBookmarks: true,
      });
      const c = await store.create(key('c'), pod('c'));
      const evs = await take(w, 4);
      w.stop();
      assert.deepEqual(evs.map(brief), [`ADDED:a@${rvOf(a)}`, `ADDED:b@${rvOf(b)}`, `BOOKMARK:@${rvOf(b)}`, `ADDED:c@${rvOf(c)}`]);
      assert.deepEqual(evs[2]!.object, {
        kind: 'Pod', apiVersion: 'v1',
        metadata: { resourceVersion: String(rvOf(b)), annotations: { 'k8s.io/initial-events-end': 'true' } },
      });
    }, { newBookmark: (resourceVersion) => ({ kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion } }) }));

    it('sends periodic bookmarks carrying the progress of the store', t(async ({ store }) => {
      const start = await store.currentRevision();
      const w = await store.watch(PODS, { recursive: true, predicate: everything, resourceVersion: String(start), allowBookmarks: true });
      const unrelated = await store.create('/registry/configmaps/ns/x', pod('x'));
      // A bookmark timed while the write was in flight may still carry an older
      // revision; bookmarks never go backwards and soon pass the write.
      const seen: number[] = [];
      while (seen.length === 0 || seen[seen.length - 1]! < rvOf(unrelated)) {
        const [ev] = await take(w, 1);
        assert.equal(ev!.type, 'BOOKMARK');
        seen.push(rvOf(ev!.object as KubeObject));
        assert.ok(seen.length < 50, `bookmarks never passed ${rvOf(unrelated)}: ${seen.join(',')}`);
      }
      w.stop();
      assert.deepEqual(seen, [...seen].sort((x, y) => x - y));
      assert.ok(seen[0]! >= start);
      assert.ok(seen[seen.length - 1]! <= await store.currentRevision());
    }, { bookmarkIntervalMs: 20 }));

    it('deletes a key when its TTL expires, as a DELETED event', t(async ({ store }) => {
      const start = await store.currentRevision();
      const w = await store.watch(PODS, { recursive: true, predicate: everything, resourceVersion: String(start) });
      const a = await store.create(key('a'), pod('a'), 1);
      const evs = await take(w, 2);
      w.stop();
      assert.deepEqual(evs.map((e) => e.type), ['ADDED', 'DELETED']);
      assert.ok(rvOf(evs[1]!.object as KubeObject) > rvOf(a));
      assert.equal(await store.get(key('a'), { ignoreNotFound: true }), undefined);
    }));

    it('ends iteration on stop() and on abort', t(async ({ store }) => {
      const w = await store.watch(PODS, { recursive: true, predicate: everything, resourceVersion: String(await store.currentRevision()) });
      const pending = drainsToEnd(w);
      w.stop();
      w.stop();
      assert.equal((await pending).ended, true);
      const ac = new AbortController();
      const w2 = await store.watch(PODS, { recursive: true, predicate: everything, signal: ac.signal, resourceVersion: '0' });
      ac.abort();
      assert.equal((await drainsToEnd(w2)).ended, true);
      await store.create(key('a'), pod('a'));
    }));

    it('ends the watch of a consumer that falls too far behind, without blocking writers', t(async ({ store }) => {
      const start = await store.currentRevision();
      const w = await store.watch(PODS, { recursive: true, predicate: everything, resourceVersion: String(start) });
      for (let i = 0; i < 20; i++) await store.create(key(`p${i}`), pod(`p${i}`));
      const { ended, events } = await drainsToEnd(w);
      assert.equal(ended, true);
      assert.ok(events.length < 20);
      assert.deepEqual(events.map(brief), events.map((_, i) => `ADDED:p${i}@${start + i + 1}`));
    }, { watchBufferSize: 5 }));
  });
}
