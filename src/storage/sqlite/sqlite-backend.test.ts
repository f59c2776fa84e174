// Behaviour specific to the sqlite backend (the shared contract is in sqlite.test.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
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
