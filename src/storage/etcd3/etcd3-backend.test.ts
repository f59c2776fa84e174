// Behaviour specific to the etcd3 backend (the shared contract is in etcd3.test.ts): several
// API servers on one etcd, etcd going away and coming back, leases, compaction, fragments.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Backend, BackendEvent, BackendWatchHandler } from '../backend.ts';
import { isStorageError } from '../interfaces.ts';
import { startEtcd, type EtcdServer } from '../testing/etcd-server.ts';
import { EtcdClient } from './client.ts';
import { COMPACT_REV_KEY } from './compactor.ts';
import { openEtcdBackend, type EtcdBackend } from './etcd3-backend.ts';
import { startEtcdWatch } from './watcher.ts';

interface Recorder extends BackendWatchHandler {
  readonly events: BackendEvent[];
  readonly progress: number[];
  readonly errors: Error[];
  readonly batches: number[];
}

function recorder(): Recorder {
  const r: Recorder = {
    events: [], progress: [], errors: [], batches: [],
    onEvents: (evs) => { r.events.push(...evs); r.batches.push(evs.length); },
    onProgress: (rev) => { r.progress.push(rev); },
    onError: (err) => { r.errors.push(err); },
  };
  return r;
}

/** Polls until cond() holds; fails (instead of hanging) after `tries`. */
async function until(what: string, cond: () => boolean | Promise<boolean>, tries = 200): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await cond()) return;
    await sleep(50);
  }
  assert.fail(`timed out waiting for ${what}`);
}

const brief = (e: BackendEvent): string => `${e.type}:${e.kv.key}@${e.kv.modRevision}`;

describe('etcd3 backend', () => {
  let etcd: EtcdServer;
  const open: EtcdBackend[] = [];
  let n = 0;
  const openBackend = async (prefix = `/kapi-backend-${n++}`): Promise<EtcdBackend> => {
    const b = await openEtcdBackend({ endpoints: [etcd.endpoint], prefix, compactionIntervalMs: 0, requestTimeoutMs: 2000 });
    open.push(b);
    return b;
  };
  before(async () => { etcd = await startEtcd(); });
  after(async () => {
    for (const b of open) await b.close();
    await etcd.stop();
  });

  it('lets two backends on one etcd see each other\'s writes and watch them in revision order', async () => {
    const a = await openBackend('/shared');
    const b = await openBackend('/shared');
    const start = await a.currentRevision();
    const rec = recorder();
    const w = await a.watch('/pods/', { prefix: true, fromRevision: start }, rec);
    const c1 = await a.create('/pods/x', 'from-a');
    const c2 = await b.create('/pods/y', 'from-b');
    assert.equal((await b.create('/pods/x', 'again')).kv?.value, 'from-a');
    const u = await b.update('/pods/x', 'b-updated', c1.revision);
    assert.equal(u.succeeded, true);
    assert.equal((await a.update('/pods/x', 'stale', c1.revision)).succeeded, false);
    const d = await a.delete('/pods/y', c2.revision);
    assert.deepEqual((await a.range('/pods/', { prefix: true })).kvs.map((kv) => [kv.key, kv.value]), [['/pods/x', 'b-updated']]);
    await until('4 events', () => rec.events.length >= 4);
    w.cancel();
    assert.deepEqual(rec.events.map(brief), [
      `put:/pods/x@${c1.revision}`, `put:/pods/y@${c2.revision}`, `put:/pods/x@${u.revision}`, `delete:/pods/y@${d.revision}`,
    ]);
    assert.equal(rec.events[2]!.prevKv?.value, 'from-a');
    assert.equal(rec.events[3]!.prevKv?.value, 'from-b');
  });

  it('isolates stores by prefix', async () => {
    const a = await openBackend();
    const b = await openBackend();
    await a.create('/registry/pods/ns/a', 'a');
    assert.equal(await b.count('/registry/pods/'), 0);
    assert.equal(await a.count('/registry/pods/'), 1);
  });

  it('attaches keys with similar TTLs to one lease, and etcd deletes them when it expires', async () => {
    const b = await openBackend();
    const x = await b.create('/ev/x', 'x', 1);
    const y = await b.create('/ev/y', 'y', 1);
    const z = await b.create('/ev/z', 'z');
    assert.notEqual(x.kv?.lease, 0);
    assert.equal(y.kv?.lease, x.kv?.lease);
    assert.equal(z.kv?.lease, 0);
    const rec = recorder();
    await b.watch('/ev/', { prefix: true, fromRevision: z.revision }, rec);
    await until('the lease to expire', async () => (await b.count('/ev/')) === 1);
    await until('2 delete events', () => rec.events.length >= 2);
    // One lease, one revocation: etcd deletes its keys in no particular order.
    const deleted = rec.events.map((e) => `${e.type}:${e.kv.key}=${e.prevKv?.value ?? ''}`).sort();
    assert.deepEqual(deleted, ['delete:/ev/x=x', 'delete:/ev/y=y']);
  });

  it('records compactions under compact_rev_key, visible to every backend', async () => {
    const a = await openBackend();
    const b = await openBackend();
    await a.create('/k', 'v');
    const rev = await a.currentRevision();
    await a.compact(rev);
    assert.equal(await b.compactedRevision(), rev);
    await assert.rejects(b.compact(rev), (err) => isStorageError(err, 'Compacted') && err.revision === rev);
    await assert.rejects(b.range('/k', { revision: rev - 1 }), (err) => isStorageError(err, 'Compacted') && err.revision === rev);
    const raw = new EtcdClient({ endpoints: [etcd.endpoint], requestTimeoutMs: 2000 });
    const stored = await raw.call('KV/Range', { key: Buffer.from(COMPACT_REV_KEY) });
    raw.close();
    assert.equal(stored.kvs[0]?.value.toString(), String(rev));
  });

  it('ends a watch with Compacted when etcd compacts past it while it replays', async () => {
    const b = await openBackend();
    const first = await b.create('/c/a', '1');
    for (let i = 0; i < 3; i++) await b.update('/c/a', String(i + 2), (await b.range('/c/a')).kvs[0]!.modRevision);
    const cur = await b.currentRevision();
    await b.compact(cur);
    // Straight to etcd, past the backend's check: etcd itself cancels the watch.
    const client = new EtcdClient({ endpoints: [etcd.endpoint], requestTimeoutMs: 2000 });
    const rec = recorder();
    let compacted = 0;
    await startEtcdWatch({
      client, toKv: () => assert.fail('no events expected'), requestTimeoutMs: 2000, progressTrusted: false,
      onCompacted: (rev) => { compacted = rev; },
    }, { key: '/c/a', start: Buffer.from('/kapi-x/c/a'), fromRevision: first.revision }, rec, () => {});
    await until('the compaction error', () => rec.errors.length > 0);
    client.close();
    assert.ok(isStorageError(rec.errors[0], 'Compacted'));
    assert.equal((rec.errors[0] as { revision: number }).revision, cur);
    assert.equal(compacted, cur);
  });

  it('reports progress of a watch that has caught up', async () => {
    const b = await openBackend();
    const start = await b.currentRevision();
    const rec = recorder();
    const w = await b.watch('/p/', { prefix: true, fromRevision: start }, rec);
    const other = await b.create('/elsewhere', 'x');
    w.requestProgress();
    await until('progress', () => rec.progress.length > 0);
    w.cancel();
    assert.ok(rec.progress[0]! >= other.revision);
    assert.deepEqual(rec.events, []);
  });

  it('ends watches with an error on close and rejects later calls', async () => {
    const b = await openBackend();
    const rec = recorder();
    await b.watch('/w/', { prefix: true, fromRevision: await b.currentRevision() }, rec);
    await b.close();
    assert.deepEqual(rec.errors.map((e) => e.message), ['storage backend is closed']);
    await assert.rejects(b.range('/w/'), (err) => isStorageError(err, 'Unreachable'));
  });
});

describe('etcd3 backend with large watch responses', () => {
  let etcd: EtcdServer;
  before(async () => { etcd = await startEtcd({ extraArgs: ['--max-request-bytes', '4096'] }); });
  after(async () => { await etcd.stop(); });

  it('reassembles fragmented watch responses', async () => {
    const b = await openEtcdBackend({ endpoints: [etcd.endpoint], prefix: '/frag', compactionIntervalMs: 0 });
    const start = await b.currentRevision();
    const value = 'v'.repeat(1000);
    for (let i = 0; i < 12; i++) await b.create(`/big/k${String(i).padStart(2, '0')}`, value);
    const rec = recorder();
    // Replaying history sends all 12 events at once, well above the 4 KiB limit.
    await b.watch('/big/', { prefix: true, fromRevision: start }, rec);
    await until('12 events', () => rec.events.length >= 12);
    await b.close();
    assert.deepEqual(rec.events.map((e) => e.kv.modRevision), Array.from({ length: 12 }, (_, i) => start + i + 1));
    assert.ok(rec.events.every((e) => e.kv.value === value));
    assert.ok(rec.batches.length < 12, 'the replay came as one reassembled response');
  });
});

describe('etcd3 backend when etcd goes away', () => {
  let etcd: EtcdServer;
  let backend: Backend;
  before(async () => {
    etcd = await startEtcd();
    backend = await openEtcdBackend({ endpoints: [etcd.endpoint], prefix: '/outage', compactionIntervalMs: 0, requestTimeoutMs: 2000 });
  });
  after(async () => {
    await backend.close();
    await etcd.stop();
  });

  it('rejects with Unreachable and ends watches while etcd is down, and recovers when it is back', { timeout: 60_000 }, async () => {
    const created = await backend.create('/a', 'before');
    const rec = recorder();
    await backend.watch('/', { prefix: true, fromRevision: created.revision }, rec);
    await etcd.kill();
    await until('the watch to end', () => rec.errors.length > 0);
    assert.ok(isStorageError(rec.errors[0], 'Unreachable'), String(rec.errors[0]));
    for (const op of [
      { name: 'range', run: () => backend.range('/a') },
      { name: 'create', run: () => backend.create('/b', 'x') },
      { name: 'update', run: () => backend.update('/a', 'x', created.revision) },
      { name: 'delete', run: () => backend.delete('/a') },
      { name: 'currentRevision', run: () => backend.currentRevision() },
      { name: 'watch', run: () => backend.watch('/', { prefix: true, fromRevision: created.revision }, recorder()) },
    ]) {
      await assert.rejects(op.run(), (err) => isStorageError(err, 'Unreachable'), op.name);
    }

    await etcd.restart();
    await until('etcd to be reachable again', () => backend.currentRevision().then(() => true, () => false));
    assert.deepEqual((await backend.range('/a')).kvs.map((kv) => kv.value), ['before']);
    const rec2 = recorder();
    await backend.watch('/', { prefix: true, fromRevision: created.revision }, rec2);
    const u = await backend.update('/a', 'after', created.revision);
    assert.equal(u.succeeded, true);
    await until('the new watch to see the update', () => rec2.events.length > 0);
    assert.deepEqual(rec2.events.map(brief), [`put:/a@${u.revision}`]);
  });
});
