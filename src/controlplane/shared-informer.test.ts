// The shared informer (src/client/cache) against the registry Stores the control plane builds, on
// SQLite in a temporary directory and in memory: however its watch ends (broken mid-stream, too
// old after a compaction) and whatever its handlers do, its cache and what its handlers were told
// end equal to a fresh list.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import type { KubeList, KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext, type RequestContext } from '../apimachinery/request/context.ts';
import { Scheme } from '../apimachinery/runtime/scheme.ts';
import type { Watch, WatchEvent } from '../apimachinery/watch/event.ts';
import type { ListWatcher } from '../client/cache/list-watch.ts';
import { SharedInformer } from '../client/cache/shared-informer.ts';
import type { Backend } from '../storage/backend.ts';
import { openSqliteBackend } from '../storage/sqlite/sqlite-backend.ts';
import { coreDefinitions } from './core-definitions.ts';
import { buildGroupREST } from './group-rest.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

const dir = mkdtempSync(join(tmpdir(), 'kapi-informer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A Store whose watches the test can break (the stream throws) or hold back (the next watch waits). */
class FaultyListWatcher implements ListWatcher {
  breakNow: (() => void) | undefined;
  endNow: (() => void) | undefined;
  gate: Promise<void> | undefined;
  watches = 0;
  constructor(private readonly store: ResourceStore<KubeObject>) {}
  lists = 0;
  list(ctx: RequestContext, opts: { resourceVersion?: string }): Promise<KubeList> { this.lists++; return this.store.list(ctx, opts); }
  async watch(ctx: RequestContext, opts: { resourceVersion?: string; allowWatchBookmarks?: boolean }): Promise<Watch> {
    await this.gate;
    this.watches++;
    const w = await this.store.watch(ctx, opts);
    let broken = false;
    let ended = false;
    const wake: (() => void)[] = [];
    this.breakNow = () => { broken = true; for (const f of wake.splice(0)) f(); };
    this.endNow = () => { ended = true; for (const f of wake.splice(0)) f(); };
    const it = w[Symbol.asyncIterator]();
    return {
      stop: () => w.stop(),
      [Symbol.asyncIterator]: () => ({
        next: async (): Promise<IteratorResult<WatchEvent>> => {
          if (ended) return { done: true, value: undefined };
          if (broken) throw new Error('connection reset');
          const interrupted = new Promise<'interrupted'>((r) => wake.push(() => r('interrupted')));
          const r = await Promise.race([it.next(), interrupted]);
          if (r !== 'interrupted') return r;
          w.stop();
          if (ended) return { done: true, value: undefined };
          throw new Error('connection reset');
        },
      }),
    };
  }
}

interface Fixture { backend: Backend; store: ResourceStore<KubeObject>; lw: FaultyListWatcher; informer: SharedInformer; mirror: Map<string, string>; logs: string[] }

const backends: { name: string; open: () => Promise<Backend> }[] = [
  { name: 'sqlite in a temp dir', open: () => openSqliteBackend({ path: join(dir, `${Math.random().toString(36).slice(2)}.db`), compactionIntervalMs: 0 }) },
  { name: 'sqlite in memory', open: () => openSqliteBackend({ path: ':memory:', compactionIntervalMs: 0 }) },
];

async function fixture(open: () => Promise<Backend>, throwing = false): Promise<Fixture> {
  const backend = await open();
  const core = await coreDefinitions({ serviceClusterIPRange: { text: '10.0.0.0/24' }, serviceNodePortRange: { base: 30000, size: 2768 },
    eventTTLSeconds: 3600 }, backend, '/registry');
  const store = buildGroupREST(new Scheme(), backend, '/registry', core, () => true, () => undefined).stores.get('configmaps');
  assert.ok(store !== undefined);
  const lw = new FaultyListWatcher(store);
  const logs: string[] = [];
  const informer = new SharedInformer(lw, { name: 'configmaps', backoffMs: 1, maxBackoffMs: 4, log: (m) => logs.push(m) });
  const mirror = new Map<string, string>();
  const key = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
  if (throwing) {
    informer.addEventHandler({
      onAdd: () => { throw new Error('add handler bug'); },
      onUpdate: () => Promise.reject(new Error('update handler bug')),
      onDelete: () => { throw new Error('delete handler bug'); },
    });
  }
  informer.addEventHandler({
    onAdd: (o) => { mirror.set(key(o), o.metadata.resourceVersion ?? ''); },
    onUpdate: (_old, o) => { mirror.set(key(o), o.metadata.resourceVersion ?? ''); },
    onDelete: (o) => { mirror.delete(key(o)); },
  });
  return { backend, store, lw, informer, mirror, logs };
}

const cm = (ns: string, name: string, v: string): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data: { v } }) as KubeObject;

async function write(f: Fixture, round: number): Promise<void> {
  const ctx = (ns: string): RequestContext => systemContext(ns);
  for (let i = 0; i < 5; i++) await f.store.create(ctx(`ns${i % 2}`), cm(`ns${i % 2}`, `r${round}-${i}`, 'a'), undefined, { dryRun: false });
  await f.store.updateUnchecked(ctx('ns0'), `r${round}-0`, (cur) => ({ ...cur, data: { v: 'b' } }) as KubeObject, { dryRun: false });
  await f.store.delete(ctx('ns1'), `r${round}-1`, undefined, {});
}

/** namespace/name → resourceVersion of a fresh list. */
async function fresh(f: Fixture): Promise<Map<string, string>> {
  const list = await f.store.list(systemContext(''), {});
  return new Map(list.items.map((o) => [`${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`, o.metadata.resourceVersion ?? '']));
}

/** Waits until the informer has opened `n` watches. */
async function watching(f: Fixture, n: number): Promise<void> {
  for (let i = 0; i < 500 && f.lw.watches < n; i++) await sleep(10);
  assert.ok(f.lw.watches >= n, `${n} watches opened`);
}

const cached = (f: Fixture): Map<string, string> =>
  new Map(f.informer.list().map((o) => [`${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`, o.metadata.resourceVersion ?? '']));

/** Waits (bounded: a guard against a hang, not a timing assertion) until the cache and the handlers' mirror equal a fresh list. */
async function converged(f: Fixture): Promise<void> {
  const want = await fresh(f);
  for (let i = 0; i < 500; i++) {
    if (JSON.stringify([...cached(f)].sort()) === JSON.stringify([...want].sort()) &&
      JSON.stringify([...f.mirror].sort()) === JSON.stringify([...want].sort())) return;
    await sleep(10);
  }
  assert.deepEqual([...cached(f)].sort(), [...want].sort(), 'cache');
  assert.deepEqual([...f.mirror].sort(), [...want].sort(), 'what the handlers were told');
}

for (const b of backends) {
  describe(`shared informer on ${b.name}`, () => {
    it('lists, follows, and serves the namespace index', async () => {
      const f = await fixture(b.open);
      try {
        await write(f, 0);
        await f.informer.start();
        assert.equal(f.informer.hasSynced(), true);
        await write(f, 1);
        await converged(f);
        assert.deepEqual(f.informer.byNamespace('ns1').map((o) => o.metadata.name).sort(), ['r0-3', 'r1-3']);
      } finally { f.informer.stop(); await f.backend.close(); }
    });

    it('relists after a watch broken mid-stream, telling handlers what they missed', async () => {
      const f = await fixture(b.open);
      try {
        await write(f, 0);
        await f.informer.start();
        await watching(f, 1);
        const before = f.lw.watches;
        // Hold the next watch, so that what happens now is only seen by the relist.
        let open: () => void = () => {};
        f.lw.gate = new Promise((r) => { open = r; });
        f.lw.breakNow?.();
        await write(f, 1);
        await f.store.delete(systemContext('ns0'), 'r0-0', undefined, {});
        open();
        await converged(f);
        for (let i = 0; i < 500 && f.lw.watches === before; i++) await sleep(10);
        assert.ok(f.lw.watches > before, 'watched again');
        assert.ok(f.logs.some((l) => l.includes('connection reset')), f.logs.join('\n'));
      } finally { f.informer.stop(); await f.backend.close(); }
    });

    it('relists after 410 Gone when its resourceVersion was compacted', async () => {
      const f = await fixture(b.open);
      try {
        await write(f, 0);
        await f.informer.start();
        await watching(f, 1);
        let open: () => void = () => {};
        f.lw.gate = new Promise((r) => { open = r; });
        // End the stream the way storage ends a slow watcher: the informer resumes from its last resourceVersion...
        const rv = f.informer.lastSyncResourceVersion();
        f.lw.endNow?.();
        await write(f, 1);
        await f.store.delete(systemContext('ns0'), 'r0-2', undefined, {});
        // ...which compaction has removed, so the watch is refused with Expired and the informer lists again.
        await f.backend.compact(await f.backend.currentRevision());
        await assert.rejects(f.store.watch(systemContext(''), { resourceVersion: rv }), { name: 'StatusError', message: /too old/ });
        const lists = f.lw.lists;
        open();
        await converged(f);
        assert.ok(f.lw.lists > lists, 'listed again');
        assert.ok(!f.informer.list().some((o) => o.metadata.name === 'r0-2'));
      } finally { f.informer.stop(); await f.backend.close(); }
    });

    it('keeps following when a handler throws or rejects', async () => {
      const f = await fixture(b.open, true);
      try {
        await write(f, 0);
        await f.informer.start();
        await write(f, 1);
        await converged(f);
        for (const bug of ['add handler bug', 'update handler bug', 'delete handler bug']) {
          assert.ok(f.logs.some((l) => l.includes(bug)), `${bug} logged`);
        }
      } finally { f.informer.stop(); await f.backend.close(); }
    });
  });
}

describe('shared informer handlers', () => {
  it('replays the cache to a handler added after sync, and resyncs it with onUpdate(o, o)', async () => {
    const f = await fixture(backends[1]?.open ?? (() => openSqliteBackend({ path: ':memory:' })));
    try {
      await write(f, 0);
      await f.informer.start();
      const added: string[] = [];
      let resynced = 0;
      const remove = f.informer.addEventHandler({
        onAdd: (o, initial) => { if (initial) added.push(o.metadata.name ?? ''); },
        onUpdate: (a, b2) => { if (a === b2) resynced++; },
      }, { resyncMs: 5 });
      assert.deepEqual(added.sort(), ['r0-0', 'r0-2', 'r0-3', 'r0-4']);
      for (let i = 0; i < 500 && resynced < 8; i++) await sleep(5);
      assert.ok(resynced >= 8);
      remove();
    } finally { f.informer.stop(); await f.backend.close(); }
  });

  it('keeps listing after a failed first list (an object nobody can decode), and syncs once one succeeds', async () => {
    let failures = 2;
    const logs: string[] = [];
    const informer = new SharedInformer({
      list: () => (failures-- > 0 ? Promise.reject(new Error('proto: illegal wireType 7'))
        : Promise.resolve({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '5' }, items: [{ metadata: { name: 'a', namespace: 'ns' } }] })),
      watch: () => new Promise<never>(() => {}),
    }, { name: 'configmaps', backoffMs: 1, maxBackoffMs: 2, log: (m) => logs.push(m) });
    try {
      // start() resolves (the server goes on) without the informer having synced.
      await informer.start();
      assert.equal(informer.hasSynced(), false);
      assert.equal(informer.stopped, false);
      assert.equal(await informer.waitForSync(), true);
      assert.deepEqual(informer.list().map((o) => o.metadata.name), ['a']);
      // The same error twice is logged once.
      assert.deepEqual(logs, ['informer configmaps: failed to list: proto: illegal wireType 7']);
    } finally { informer.stop(); }
  });

  it('waitForSync resolves false when the informer stops unsynced', async () => {
    const informer = new SharedInformer({ list: () => Promise.reject(new Error('storage down')), watch: () => new Promise<never>(() => {}) },
      { backoffMs: 1, maxBackoffMs: 2, log: () => {} });
    await informer.start();
    const waiting = informer.waitForSync();
    informer.stop();
    assert.equal(await waiting, false);
  });
});
