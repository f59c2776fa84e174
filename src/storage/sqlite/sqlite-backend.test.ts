// Behaviour specific to the sqlite backend (the shared contract is in sqlite.test.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { BackendEvent } from '../backend.ts';
import { openSqliteBackend } from './sqlite-backend.ts';

const dir = mkdtempSync(join(tmpdir(), 'kapi-sqlite-backend-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = (): string => join(dir, `db-${n++}.sqlite`);

describe('sqlite backend', () => {
  it('keeps its revision after reopening, even when compaction removed the newest tombstone', async () => {
    const path = freshPath();
    let b = await openSqliteBackend({ path });
    await b.create('/k/a', 'A');
    const del = await b.delete('/k/a');
    await b.compact(del.revision);
    await b.close();
    b = await openSqliteBackend({ path });
    assert.equal(await b.currentRevision(), del.revision);
    assert.equal(await b.compactedRevision(), del.revision);
    assert.equal((await b.create('/k/a', 'A2')).revision, del.revision + 1);
    await b.close();
  });

  it('reads old revisions from the log after reopening', async () => {
    const path = freshPath();
    let b = await openSqliteBackend({ path });
    const c = await b.create('/k/a', 'v1');
    await b.update('/k/a', 'v2', c.revision);
    await b.close();
    b = await openSqliteBackend({ path });
    const old = await b.range('/k/', { prefix: true, revision: c.revision });
    assert.deepEqual(old.kvs.map((kv) => kv.value), ['v1']);
    await b.close();
  });

  it('replays history with prevKv, then delivers live events', async () => {
    const b = await openSqliteBackend({ path: freshPath() });
    const c = await b.create('/k/a', 'v1');
    await b.update('/k/a', 'v2', c.revision);
    const seen: BackendEvent[] = [];
    const w = await b.watch('/k/', { prefix: true, fromRevision: 0 }, {
      onEvents: (evs) => seen.push(...evs), onProgress: () => {}, onError: () => {},
    });
    await b.delete('/k/a');
    w.cancel();
    await b.create('/k/b', 'x');
    assert.deepEqual(seen.map((e) => [e.type, e.kv.modRevision, e.kv.value, e.prevKv?.value]),
      [['put', 1, 'v1', undefined], ['put', 2, 'v2', 'v1'], ['delete', 3, '', 'v2']]);
    await b.close();
  });

  it('reports progress once every change up to the current revision was delivered', async () => {
    const b = await openSqliteBackend({ path: freshPath() });
    const progress: number[] = [];
    const w = await b.watch('/k/', { prefix: true, fromRevision: 0 }, {
      onEvents: () => {}, onProgress: (rev) => progress.push(rev), onError: () => {},
    });
    await b.create('/other/x', 'x');
    w.requestProgress();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(progress, [1]);
    await b.close();
  });

  it('commits writes that arrive together as a group: each answered after the commit, a failing one alone rolled back', async () => {
    const path = freshPath();
    await (await openSqliteBackend({ path })).close();
    // A trigger fails the write of one key inside the group.
    const other = new Database(path);
    other.exec(`CREATE TRIGGER fail_bad BEFORE INSERT ON kv_log WHEN NEW.key = '/k/bad' BEGIN SELECT RAISE(ABORT, 'refused'); END;`);
    other.close();
    let b = await openSqliteBackend({ path });
    const seen: string[] = [];
    const w = await b.watch('/k/', { prefix: true, fromRevision: 0 }, {
      onEvents: (evs) => seen.push(...evs.map((e) => `${e.type}:${e.kv.key}@${e.kv.modRevision}`)), onProgress: () => {}, onError: () => {},
    });
    const cases = [
      { name: 'first', write: () => b.create('/k/a', 'A'), want: { succeeded: true, revision: 1 } },
      { name: 'refused by sqlite', write: () => b.create('/k/bad', 'X'), want: /sqlite write failed: refused/ },
      { name: 'same key again', write: () => b.create('/k/a', 'A2'), want: { succeeded: false, revision: 1 } },
      { name: 'after the failure', write: () => b.create('/k/c', 'C'), want: { succeeded: true, revision: 2 } },
      { name: 'update in the same group', write: () => b.update('/k/c', 'C2', 2), want: { succeeded: true, revision: 3 } },
    ];
    const results = await Promise.allSettled(cases.map((c) => c.write()));
    cases.forEach((c, i) => {
      const r = results[i]!;
      if (c.want instanceof RegExp) assert.ok(r.status === 'rejected' && c.want.test(String(r.reason)), c.name);
      else assert.deepEqual(r.status === 'fulfilled' && { succeeded: r.value.succeeded, revision: r.value.revision }, c.want, c.name);
    });
    assert.deepEqual(seen, ['put:/k/a@1', 'put:/k/c@2', 'put:/k/c@3']);
    w.cancel();
    await b.close();
    b = await openSqliteBackend({ path });
    assert.equal(await b.currentRevision(), 3);
    assert.deepEqual((await b.range('/k/', { prefix: true })).kvs.map((kv) => `${kv.key}=${kv.value}`), ['/k/a=A', '/k/c=C2']);
    await b.close();
  });

  it('answers writes still queued at close with an error, storing none of them', async () => {
    const path = freshPath();
    let b = await openSqliteBackend({ path });
    const pending = b.create('/k/a', 'A');
    await b.close();
    await assert.rejects(pending, /storage backend is closed/);
    b = await openSqliteBackend({ path });
    assert.equal(await b.currentRevision(), 0);
    await b.close();
  });

  it('ends watches with an error on close', async () => {
    const b = await openSqliteBackend({ path: freshPath() });
    const errors: string[] = [];
    await b.watch('/k/', { prefix: true, fromRevision: 0 }, {
      onEvents: () => {}, onProgress: () => {}, onError: (err) => errors.push(err.message),
    });
    await b.close();
    assert.deepEqual(errors, ['storage backend is closed']);
    await assert.rejects(b.range('/k/'), /closed/);
  });
});
