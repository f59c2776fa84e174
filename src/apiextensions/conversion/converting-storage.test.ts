import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { StatusError } from '../../apimachinery/errors/status-error.ts';
import type { Backend } from '../../storage/backend.ts';
import type { Interface as Storage } from '../../storage/interfaces.ts';
import { EVERYTHING } from '../../storage/interfaces.ts';
import { openSqliteBackend } from '../../storage/sqlite/sqlite-backend.ts';
import { newStore } from '../../storage/store.ts';
import { drainsToEnd, take } from '../../storage/testing/fixtures.ts';
import { newConvertingStorage, type ConvertFunc } from './converting-storage.ts';

const V1 = 'g/v1';
const V2 = 'g/v2';
let failing = false;
let calls: { count: number; to: string }[] = [];
/** v1 spec.n (number) ↔ v2 spec.s (string). */
const convert: ConvertFunc = (objs, apiVersion) => {
  const todo = objs.filter((o) => o.apiVersion !== apiVersion);
  if (todo.length > 0) calls.push({ count: todo.length, to: apiVersion });
  if (failing && todo.length > 0) return Promise.reject(new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, reason: '', message: 'webhook says no' }));
  return Promise.resolve(objs.map((o) => {
    if (o.apiVersion === apiVersion) return o;
    const spec = (o as KubeObject & { spec: Record<string, unknown> }).spec;
    const next = apiVersion === V2 ? { s: String(spec['n']) } : { n: Number(spec['s']) };
    return { ...o, apiVersion, spec: next } as KubeObject;
  }));
};

const obj = (name: string, apiVersion: string, spec: Record<string, unknown>): KubeObject => ({ apiVersion, kind: 'W', metadata: { name }, spec } as KubeObject);
const specOf = (o: KubeObject | undefined): unknown => (o as (KubeObject & { spec?: unknown }) | undefined)?.spec;

describe('converting storage', () => {
  let dir: string;
  let backend: Backend;
  let raw: Storage;
  let v2: Storage;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-conv-'));
    backend = await openSqliteBackend({ path: join(dir, 'state.db') });
    raw = newStore(backend, { encode: (o) => JSON.stringify(o), decode: (d) => JSON.parse(d) as KubeObject },
      { newBookmark: (rv) => ({ apiVersion: V1, kind: 'W', metadata: { resourceVersion: rv } }) });
    v2 = newConvertingStorage(raw, convert, V2, V1);
  });
  after(async () => { await backend.close(); await rm(dir, { recursive: true, force: true }); });

  it('writes in the storage version and reads in the served one', async () => {
    calls = [];
    const created = await v2.create('/w/a', obj('a', V2, { s: '1' }));
    assert.equal(created.apiVersion, V2);
    assert.deepEqual(specOf(await raw.get('/w/a', {})), { n: 1 });
    assert.deepEqual(specOf(await v2.get('/w/a', {})), { s: '1' });
    assert.deepEqual(calls, [{ count: 1, to: V1 }, { count: 1, to: V2 }, { count: 1, to: V2 }]);
  });

  it('converts a list in one call', async () => {
    await raw.create('/w/b', obj('b', V1, { n: 2 }));
    calls = [];
    const list = await v2.getList('/w/', { predicate: EVERYTHING, recursive: true });
    assert.deepEqual(list.items.map(specOf), [{ s: '1' }, { s: '2' }]);
    assert.deepEqual(calls, [{ count: 2, to: V2 }]);
  });

  it('hands tryUpdate and validateDeletion the served version', async () => {
    const updated = await v2.guaranteedUpdate('/w/a', { ignoreNotFound: false, tryUpdate: (cur) => {
      assert.equal(cur?.apiVersion, V2);
      return { ...(cur ?? obj('a', V2, {})), spec: { s: '7' } } as KubeObject;
    } });
    assert.deepEqual(specOf(updated), { s: '7' });
    assert.deepEqual(specOf(await raw.get('/w/a', {})), { n: 7 });
    const seen: unknown[] = [];
    await v2.delete('/w/b', { validateDeletion: (cur) => { seen.push(specOf(cur)); } });
    assert.deepEqual(seen, [{ s: '2' }]);
  });

  it('round-trips a dry-run write through both conversions', async () => {
    calls = [];
    assert.deepEqual(specOf(await v2.roundTrip?.(obj('x', V2, { s: '3' }))), { s: '3' });
    assert.deepEqual(calls, [{ count: 1, to: V1 }, { count: 1, to: V2 }]);
  });

  it('converts watch events and ends the watch with an InternalError when a conversion fails', async () => {
    const rev = await raw.currentRevision();
    const w = await v2.watch('/w/', { resourceVersion: String(rev), recursive: true, predicate: EVERYTHING });
    await raw.guaranteedUpdate('/w/a', { ignoreNotFound: false, tryUpdate: (cur) => ({ ...(cur ?? obj('a', V1, {})), spec: { n: 8 } } as KubeObject) });
    const [ev] = await take(w, 1);
    assert.equal(ev?.type, 'MODIFIED');
    assert.deepEqual(specOf(ev?.object as KubeObject), { s: '8' });
    failing = true;
    try {
      await raw.guaranteedUpdate('/w/a', { ignoreNotFound: false, tryUpdate: (cur) => ({ ...(cur ?? obj('a', V1, {})), spec: { n: 9 } } as KubeObject) });
      const rest = await drainsToEnd(w);
      assert.equal(rest.ended, true);
      assert.deepEqual(rest.events.map((e) => [e.type, (e.object as { message?: string }).message]),
        [['ERROR', 'Internal error occurred: webhook says no']]);
    } finally {
      failing = false;
      w.stop();
    }
  });
});
