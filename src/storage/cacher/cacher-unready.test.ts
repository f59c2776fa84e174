// A watch cache whose list fails for ever (a value nobody can decode under its prefix): as kube's
// cacher with ResilientWatchCacheInitialization, reads that need the cache answer 429 "storage is
// (re)initializing: failed to list <type>: <error>", what kube's delegator sends to storage goes
// there, and the cache serves again once the value is gone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { StatusError } from '../../apimachinery/errors/status-error.ts';
import type { ListOptions } from '../interfaces.ts';
import { openSqliteBackend } from '../sqlite/sqlite-backend.ts';
import { everything, key, labelIs, pod, PODS } from '../testing/fixtures.ts';
import { newTestCacher } from './testing.ts';

const dir = mkdtempSync(join(tmpdir(), 'kapi-cacher-unready-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const CORRUPT = '{"kind": "Pod", not json';

/** What a read answered: the 429's message and Retry-After, or that something else (storage) answered. */
async function outcome(read: () => Promise<unknown>): Promise<string> {
  try {
    await read();
    return 'served';
  } catch (err) {
    if (err instanceof StatusError && err.status.code === 429) {
      return `429 ${err.status.message ?? ''} retryAfter=${String(err.status.details?.retryAfterSeconds)}`;
    }
    return 'storage';
  }
}

describe('a watch cache whose list keeps failing', () => {
  it('answers kube\'s 429 where kube\'s cacher does, delegates the rest, and recovers', async () => {
    const backend = await openSqliteBackend({ path: join(dir, 'state.db') });
    const logs: string[] = [];
    await backend.create(key('good'), JSON.stringify(pod('good')));
    await backend.create(key('bad'), CORRUPT);
    const cacher = newTestCacher(backend, {}, { objectType: '*core.Pod', log: (m) => logs.push(m) });
    try {
      // The first list fails (and is logged once); from then on the cache says why it cannot serve.
      while (logs.length === 0) await sleep(10);
      const list = (opts: Partial<ListOptions>) => () => cacher.getList(`${PODS}/ns`, { predicate: everything, recursive: true, ...opts });
      const cases: { name: string; read: () => Promise<unknown>; want: 'storage' | '429' }[] = [
        { name: 'consistent list', read: list({}), want: '429' },
        { name: 'list at resourceVersion=0', read: list({ resourceVersion: '0' }), want: '429' },
        { name: 'list NotOlderThan', read: list({ resourceVersion: '1', resourceVersionMatch: 'NotOlderThan' }), want: '429' },
        { name: 'paginated list with a label selector', read: list({ limit: 5, predicate: labelIs('a', 'b') }), want: '429' },
        { name: 'paginated list without selectors', read: list({ limit: 5 }), want: 'storage' },
        { name: 'list at an exact resourceVersion', read: list({ resourceVersion: '1', resourceVersionMatch: 'Exact' }), want: 'storage' },
        { name: 'legacy exact list (limit and resourceVersion)', read: list({ resourceVersion: '1', limit: 5 }), want: 'storage' },
        { name: 'watch', read: () => cacher.watch(`${PODS}/ns`, { predicate: everything, recursive: true, resourceVersion: '0' }), want: '429' },
        { name: 'get of the good object at resourceVersion 0', read: () => cacher.get(key('good'), { resourceVersion: '0' }), want: 'storage' },
      ];
      for (const c of cases) {
        const got = await outcome(c.read);
        if (c.want === '429') {
          assert.match(got, /^429 storage is \(re\)initializing: failed to list \*core\.Pod: .+ retryAfter=1$/, c.name);
        } else {
          assert.doesNotMatch(got, /^429/, c.name);
        }
      }
      assert.equal((await cacher.get(key('good'), { resourceVersion: '0' }))?.metadata.name, 'good', 'a get goes to storage');

      // Once the value is gone, the next list succeeds and the cache serves.
      await backend.delete(key('bad'));
      for (;;) {
        const got = await outcome(list({}));
        if (got === 'served') break;
        await sleep(50);
      }
      const items = (await cacher.getList(`${PODS}/ns`, { predicate: everything, recursive: true, resourceVersion: '0' })).items;
      assert.deepEqual(items.map((o) => o.metadata.name), ['good']);
      assert.equal(logs.length, 1, `one log line per outage: ${logs.join('\n')}`);
    } finally {
      cacher.stop();
      await backend.close();
    }
  });

  it('stops before a value written later that does not decode, as kube\'s reflector, until it is compacted away', async () => {
    const backend = await openSqliteBackend({ path: join(dir, 'stuck.db') });
    const logs: string[] = [];
    const cacher = newTestCacher(backend, { freshnessWaitMs: 50 }, { objectType: '*core.Pod', log: (m) => logs.push(m) });
    const names = async (rv: string): Promise<string[]> =>
      (await cacher.getList(`${PODS}/ns`, { predicate: everything, recursive: true, resourceVersion: rv })).items.map((o) => o.metadata.name ?? '');
    try {
      await cacher.ready();
      await backend.create(key('a'), JSON.stringify(pod('a')));
      while ((await names('0')).length === 0) await sleep(10);
      await backend.create(key('bad'), CORRUPT);
      await backend.create(key('b'), JSON.stringify(pod('b')));
      while (logs.length === 0) await sleep(10);
      // The cache stays before the bad value: it lists what it had, a fresher read goes to storage,
      // which fails on the value (kube: the consistent list's fallback to etcd answers its error).
      assert.deepEqual(await names('0'), ['a']);
      await assert.rejects(cacher.getList(`${PODS}/ns`, { predicate: everything, recursive: true }), (err: unknown) => !(err instanceof StatusError && err.status.code === 429));
      assert.match(logs[0] ?? '', /cannot decode \/registry\/pods\/ns\/bad@\d+/);
      // Fixing the value does not help while it is history; compaction ends the watch, the cache lists again.
      await backend.delete(key('bad'));
      await sleep(100);
      assert.deepEqual(await names('0'), ['a']);
      await backend.compact(await backend.currentRevision());
      for (;;) {
        if ((await names('0')).join() === 'a,b') break;
        await sleep(50);
      }
      assert.equal(logs.filter((l) => l.includes('cannot decode')).length, 1, 'one line however often the watch meets the value');
    } finally {
      cacher.stop();
      await backend.close();
    }
  });
});
