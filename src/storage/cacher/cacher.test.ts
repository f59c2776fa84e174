// What the watch cache adds to the storage contract: reads from memory (no storage call), one
// backend watch for every client watch, the window of its ring buffer (410 beyond it), lists at
// an older revision, consistent reads with their fallback, shared events, restart.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Backend } from '../backend.ts';
import { isStorageError, type ListOptions } from '../interfaces.ts';
import { openSqliteBackend } from '../sqlite/sqlite-backend.ts';
import { brief, everything, key, labelIs, pod, PODS, rvOf, take } from '../testing/fixtures.ts';
import { newSelectionPredicate } from '../../apimachinery/fields/predicate.ts';
import { parseFieldSelector } from '../../apimachinery/fields/selector.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { Cacher } from './cacher.ts';
import { newTestCacher } from './testing.ts';

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-cacher-unit-'));
  dirs.push(dir);
  return dir;
}

/** A backend that counts the calls made to it, by method. */
function counting(inner: Backend): { backend: Backend; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const backend = new Proxy(inner, {
    get(target, prop, receiver) {
      const v: unknown = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { backend, calls };
}

interface Env { cacher: Cacher; backend: Backend; calls: Map<string, number>; path: string }

const nodeOf = (o: KubeObject): string => (o as { spec?: { nodeName?: string } }).spec?.nodeName ?? '';
const onNode = (node: string) => newSelectionPredicate(undefined, parseFieldSelector(`spec.nodeName=${node}`),
  (o) => ({ 'spec.nodeName': nodeOf(o) }));
const podOn = (name: string, node: string): KubeObject => ({ ...pod(name), spec: { nodeName: node } } as KubeObject);

async function withCacher(fn: (e: Env) => Promise<void>, capacity?: number, path = join(newDir(), 'state.db')): Promise<void> {
  const inner = await openSqliteBackend({ path });
  const { backend, calls } = counting(inner);
  const cacher = newTestCacher(backend, {}, {
    indexes: new Map([['spec.nodeName', nodeOf]]), ...(capacity !== undefined ? { capacity } : {}),
  });
  try {
    await cacher.ready();
    await fn({ cacher, backend, calls, path });
  } finally {
    cacher.stop();
    await inner.close();
  }
}

const list = (c: Cacher, o: Partial<ListOptions> = {}) => c.getList(PODS, { recursive: true, predicate: everything, ...o });
const names = (r: { items: { metadata: { name?: string } }[] }): string[] => r.items.map((o) => o.metadata.name ?? '');

describe('watch cache', () => {
  it('serves lists with resourceVersion 0, NotOlderThan, consistent and paged from memory: no range read', () => withCacher(async ({ cacher, calls }) => {
    const a = await cacher.create(key('a'), pod('a'));
    for (const n of ['b', 'c']) await cacher.create(key(n), pod(n));
    calls.clear();
    for (const c of [
      { name: 'rv 0', opts: { resourceVersion: '0' }, want: ['a', 'b', 'c'] },
      { name: 'NotOlderThan', opts: { resourceVersion: a.metadata.resourceVersion!, resourceVersionMatch: 'NotOlderThan' as const }, want: ['a', 'b', 'c'] },
      { name: 'consistent', opts: {}, want: ['a', 'b', 'c'] },
      { name: 'exact at a', opts: { resourceVersion: a.metadata.resourceVersion!, resourceVersionMatch: 'Exact' as const }, want: ['a'] },
      { name: 'label selector', opts: { predicate: labelIs('x', 'y') }, want: [] },
    ]) {
      assert.deepEqual(names(await list(cacher, c.opts)), c.want, c.name);
    }
    // resourceVersion=0 ignores the limit, as kube-apiserver v1.36's cache does.
    assert.deepEqual(names(await list(cacher, { resourceVersion: '0', limit: 2 })), ['a', 'b', 'c']);
    const p1 = await list(cacher, { resourceVersion: a.metadata.resourceVersion!, resourceVersionMatch: 'NotOlderThan', limit: 2 });
    assert.deepEqual(names(p1), ['a', 'b']);
    assert.equal(p1.remainingItemCount, 1);
    const p2 = await list(cacher, { limit: 2, continue: p1.continue! });
    assert.deepEqual(names(p2), ['c']);
    assert.equal(p2.continue, undefined);
    assert.equal(calls.get('range'), undefined);
    assert.equal(calls.get('watch'), undefined);
  }));

  it('answers a quorum get from storage, sharing the cached decode of the same revision when the caller allows', () => withCacher(async ({ cacher, calls }) => {
    const a = await cacher.create(key('a'), pod('a'));
    const cached = await cacher.get(key('a'), { resourceVersion: a.metadata.resourceVersion! });
    await cacher.guaranteedUpdate(key('b'), { ignoreNotFound: true, tryUpdate: () => pod('b') });
    for (const c of [
      { name: 'shared: the cache\'s frozen object', opts: { shared: true }, same: true },
      { name: 'not shared: a fresh decode', opts: {}, same: false },
    ]) {
      calls.clear();
      const got = await cacher.get(key('a'), c.opts);
      assert.equal(calls.get('range'), 1, `${c.name}: storage is read`);
      assert.equal(got === cached, c.same, c.name);
      assert.equal(Object.isFrozen(got), c.same, c.name);
      assert.deepEqual(got, cached, c.name);
    }
    // Storage moved on past the cache (its watch stopped): storage's newer object, decoded.
    const internal = cacher as unknown as { backendWatcher: { cancel(): void } };
    internal.backendWatcher.cancel();
    const b2 = await cacher.guaranteedUpdate(key('a'), { ignoreNotFound: false, tryUpdate: (o) => ({ ...o!, data: 'new' }) as never });
    const got = await cacher.get(key('a'), { shared: true });
    assert.equal(got?.metadata.resourceVersion, b2.metadata.resourceVersion);
    assert.equal((got as { data?: string }).data, 'new');
  }));

  it('hands an update that only reads the stored object the cache\'s decode of the revision it read', () => withCacher(async ({ cacher }) => {
    await cacher.create(key('a'), pod('a'));
    for (const c of [
      { name: 'shared', shared: true, same: true },
      { name: 'not shared', shared: false, same: false },
    ]) {
      let seen: KubeObject | undefined;
      const before = await cacher.get(key('a'), { resourceVersion: String(await cacher.currentRevision()) });
      const out = await cacher.guaranteedUpdate(key('a'), {
        ignoreNotFound: false, shared: c.shared,
        tryUpdate: (cur) => { seen = cur; return { ...structuredClone(cur!), data: c.name } as KubeObject; },
      });
      assert.equal(seen === before, c.same, c.name);
      assert.equal(Object.isFrozen(seen), c.same, c.name);
      assert.deepEqual(seen, before, c.name);
      assert.equal((await cacher.get(key('a'), {}) as { data?: string }).data, c.name);
      assert.equal(out.metadata.resourceVersion, String(await cacher.currentRevision()));
    }
  }));

  it('reads an exact older revision and continues a page from the snapshot after updates and deletes', () => withCacher(async ({ cacher }) => {
    for (const n of ['a', 'b', 'c', 'd']) await cacher.create(key(n), pod(n));
    const p1 = await list(cacher, { limit: 2 });
    await cacher.delete(key('c'), {});
    await cacher.guaranteedUpdate(key('d'), { ignoreNotFound: false, tryUpdate: (o) => ({ ...o!, data: 'new' }) as never });
    await cacher.create(key('bb'), pod('bb'));
    const p2 = await list(cacher, { limit: 2, continue: p1.continue! });
    assert.deepEqual(names(p2), ['c', 'd']);
    assert.equal((p2.items[1] as { data?: string }).data, '');
    assert.equal(p2.resourceVersion, p1.resourceVersion);
    assert.deepEqual(names(await list(cacher)), ['a', 'b', 'bb', 'd']);
  }));

  it('serves every client watch from one backend watch, sharing each event object', () => withCacher(async ({ cacher, calls }) => {
    calls.clear();
    const from = String(await cacher.currentRevision());
    const ws = await Promise.all(Array.from({ length: 5 }, () => cacher.watch(PODS, { recursive: true, predicate: everything, resourceVersion: from })));
    await cacher.create(key('a'), pod('a'));
    const evs = await Promise.all(ws.map((w) => take(w, 1)));
    for (const w of ws) w.stop();
    assert.equal(calls.get('watch'), undefined);
    assert.ok(evs.every((e) => e[0] === evs[0]![0]), 'one event object for every watcher');
  }));

  it('answers a watch from before its window with 410 too old resource version, as kube', () => withCacher(async ({ cacher }) => {
    const a = await cacher.create(key('a'), pod('a'));
    for (const n of ['b', 'c', 'd', 'e']) await cacher.create(key(n), pod(n));
    const cur = await cacher.currentRevision();
    // A buffer of 3 events keeps the changes after cur - 3.
    await assert.rejects(cacher.watch(PODS, { recursive: true, predicate: everything, resourceVersion: a.metadata.resourceVersion! }),
      (err) => isStorageError(err, 'Compacted') && err.message === `too old resource version: ${rvOf(a)} (${cur - 3})`);
    const w = await cacher.watch(PODS, { recursive: true, predicate: everything, resourceVersion: String(cur - 3) });
    assert.deepEqual((await take(w, 3)).map(brief), [`ADDED:c@${cur - 2}`, `ADDED:d@${cur - 1}`, `ADDED:e@${cur}`]);
    w.stop();
    // A list at an exact revision before the window reads storage instead.
    assert.deepEqual(names(await list(cacher, { resourceVersion: a.metadata.resourceVersion!, resourceVersionMatch: 'Exact' })), ['a']);
  }, 3));

  it('falls back to storage for a consistent list when the cache cannot catch up', () => withCacher(async ({ cacher, calls }) => {
    await cacher.create(key('a'), pod('a'));
    // The cache's watch stops delivering: storage moves on without it.
    const internal = cacher as unknown as { backendWatcher: { cancel(): void; requestProgress(): void } };
    internal.backendWatcher.cancel();
    internal.backendWatcher.requestProgress = () => {};
    await cacher.create(key('b'), pod('b'));
    calls.clear();
    assert.deepEqual(names(await list(cacher)), ['a', 'b']);
    assert.equal(calls.get('range'), 1);
    // A list that may be stale is still served from memory.
    assert.deepEqual(names(await list(cacher, { resourceVersion: '0' })), ['a']);
  }));

  it('rebuilds from storage on restart: state is listed, watches from before the restart get 410', async () => {
    const path = join(newDir(), 'state.db');
    let before = 0;
    await withCacher(async ({ cacher }) => {
      before = rvOf(await cacher.create(key('a'), pod('a')));
      await cacher.create(key('b'), pod('b'));
    }, undefined, path);
    await withCacher(async ({ cacher, calls }) => {
      calls.clear();
      assert.deepEqual(names(await list(cacher, { resourceVersion: '0' })), ['a', 'b']);
      assert.equal(calls.get('range'), undefined);
      const cur = await cacher.currentRevision();
      await assert.rejects(cacher.watch(PODS, { recursive: true, predicate: everything, resourceVersion: String(before) }),
        (err) => isStorageError(err, 'Compacted') && err.message === `too old resource version: ${before} (${cur})`);
      const w = await cacher.watch(PODS, { recursive: true, predicate: everything, resourceVersion: String(cur) });
      const c = await cacher.create(key('c'), pod('c'));
      assert.deepEqual((await take(w, 1)).map(brief), [`ADDED:c@${rvOf(c)}`]);
      w.stop();
    }, undefined, path);
  });

  it('lists and watches pods of one node through the spec.nodeName index, moves included', () => withCacher(async ({ cacher }) => {
    for (const [n, node] of [['a', 'n1'], ['b', 'n2'], ['c', 'n1']] as const) await cacher.create(key(n), podOn(n, node));
    assert.deepEqual(names(await list(cacher, { predicate: onNode('n1') })), ['a', 'c']);
    const page = await list(cacher, { predicate: onNode('n1'), limit: 1, resourceVersion: '1', resourceVersionMatch: 'NotOlderThan' });
    assert.deepEqual(names(page), ['a']);
    assert.equal(page.remainingItemCount, undefined);
    assert.deepEqual(names(await list(cacher, { predicate: onNode('n1'), continue: page.continue! })), ['c']);
    const from = String(await cacher.currentRevision());
    const w1 = await cacher.watch(PODS, { recursive: true, predicate: onNode('n1'), resourceVersion: from });
    const w2 = await cacher.watch(PODS, { recursive: true, predicate: onNode('n2'), resourceVersion: from });
    const move = (n: string, node: string) => cacher.guaranteedUpdate(key(n), { ignoreNotFound: false, tryUpdate: (o) => ({ ...o!, spec: { nodeName: node } }) as never });
    const r1 = await move('a', 'n2');
    const r2 = await cacher.create(key('d'), podOn('d', 'n2'));
    const r3 = await move('c', 'n1');
    const r4 = await cacher.create(key('e'), podOn('e', 'n1'));
    assert.deepEqual((await take(w1, 2)).map(brief), [`DELETED:a@${rvOf(r1)}`, `ADDED:e@${rvOf(r4)}`]);
    assert.deepEqual((await take(w2, 2)).map(brief), [`ADDED:a@${rvOf(r1)}`, `ADDED:d@${rvOf(r2)}`]);
    assert.ok(rvOf(r3) > 0);
    w1.stop();
    w2.stop();
  }));

  it('refuses to let a reader mutate a cached object', () => withCacher(async ({ cacher }) => {
    await cacher.create(key('a'), pod('a', { x: '1' }));
    const got = await cacher.get(key('a'), { resourceVersion: '0' });
    assert.throws(() => { got!.metadata.labels!['x'] = '2'; }, TypeError);
    assert.equal((await cacher.get(key('a'), { resourceVersion: '0' }))!.metadata.labels!['x'], '1');
  }));

  it('continues pages from memory without reading the compacted revision where that is a request (etcd), yet 410s after a compaction it knows of', async () => {
    const inner = await openSqliteBackend({ path: join(newDir(), 'state.db') });
    let known = 0;
    // etcd's shape: compactedRevision() is a request, the client knows its own compactions.
    const { backend, calls } = counting(new Proxy(inner, {
      get: (target, prop, receiver) => (prop === 'knownCompactedRevision' ? () => known : Reflect.get(target, prop, receiver) as unknown),
    }));
    const cacher = newTestCacher(backend, {});
    try {
      await cacher.ready();
      for (const n of ['a', 'b', 'c', 'd']) await cacher.create(key(n), pod(n));
      const before = calls.get('compactedRevision') ?? 0;
      let page = await list(cacher, { limit: 1 });
      const first = page;
      const seen = names(page);
      while (page.continue !== undefined) {
        page = await list(cacher, { limit: 1, continue: page.continue });
        seen.push(...names(page));
      }
      assert.deepEqual(seen, ['a', 'b', 'c', 'd']);
      assert.equal(calls.get('compactedRevision') ?? 0, before);
      await cacher.create(key('e'), pod('e'));
      const cur = await cacher.currentRevision();
      await inner.compact(cur);
      known = cur;
      await assert.rejects(list(cacher, { limit: 1, continue: first.continue! }), (err) => isStorageError(err) && err.code === 'Compacted');
    } finally {
      cacher.stop();
      await inner.close();
    }
  });
});
