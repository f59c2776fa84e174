// The storage contract as one suite, run unchanged against every backend (sqlite, etcd3; a watch
// cache too, once there is one): create/get/update/delete, resourceVersion rules, lists and
// pagination, compaction. Watch behaviour is in conformance-watch.ts.
// Counterpart of k8s.io/apiserver/pkg/storage/testing/store_tests.go.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { isStorageError, type StorageErrorCode } from '../interfaces.ts';
import { runWatchConformance } from './conformance-watch.ts';
import {
  brief, defaultNewStore, everything, key, labelIs, pod, PODS, rvOf, take, withStore, type NewStore, type OpenBackend,
} from './fixtures.ts';

const rejectsWith = (code: StorageErrorCode, message?: RegExp) => (err: unknown): boolean => {
  assert.ok(isStorageError(err, code), `want StorageError ${code}, got ${String(err)}`);
  if (message !== undefined) assert.match(err.message, message);
  return true;
};

export function runStorageConformance(name: string, openBackend: OpenBackend,
  opts: {
    readonly newStore?: NewStore;
    /**
     * A watch cache: watches from a revision still in its buffer are served from it after the
     * backend compacted that revision away (as kube's cacher); lists still answer 410.
     */
    readonly watchCache?: boolean;
  } = {}): void {
  const make = opts.newStore ?? defaultNewStore;
  const t = (fn: Parameters<typeof withStore>[2], storeOpts = {}) => withStore(openBackend, make, fn, storeOpts);

  describe(`storage conformance: ${name}`, () => {
    describe('create and get', () => {
      it('creates, sets resourceVersion to the write revision, and reads it back', t(async ({ store }) => {
        const created = await store.create(key('a'), pod('a'));
        assert.equal(created.metadata.resourceVersion, String(await store.currentRevision()));
        assert.deepEqual(await store.get(key('a'), {}), created);
      }));
      it('rejects a second create with KeyExists', t(async ({ store }) => {
        await store.create(key('a'), pod('a'));
        await assert.rejects(store.create(key('a'), pod('a')), rejectsWith('KeyExists'));
      }));
      it('rejects a create that carries a resourceVersion', t(async ({ store }) => {
        const obj = pod('a');
        obj.metadata.resourceVersion = '5';
        await assert.rejects(store.create(key('a'), obj), rejectsWith('InvalidObj'));
      }));
      it('rejects get of a missing key with KeyNotFound, or resolves undefined with ignoreNotFound', t(async ({ store }) => {
        await assert.rejects(store.get(key('nope'), {}), rejectsWith('KeyNotFound'));
        assert.equal(await store.get(key('nope'), { ignoreNotFound: true }), undefined);
      }));
      it('gives every write a new, strictly increasing revision', t(async ({ store }) => {
        const rvs = [];
        for (const n of ['a', 'b', 'c']) rvs.push(rvOf(await store.create(key(n), pod(n))));
        assert.ok(rvs[0]! < rvs[1]! && rvs[1]! < rvs[2]!);
        assert.equal(await store.currentRevision(), rvs[2]);
      }));
      it('rejects get with a resourceVersion ahead of the store with TooLargeResourceVersion', t(async ({ store }) => {
        const rv = rvOf(await store.create(key('a'), pod('a')));
        await assert.rejects(store.get(key('a'), { resourceVersion: String(rv + 100) }),
          (err) => rejectsWith('TooLargeResourceVersion')(err) && isStorageError(err) && err.revision === rv);
        assert.equal(rvOf(await store.get(key('a'), { resourceVersion: String(rv) })), rv);
        assert.equal(rvOf(await store.get(key('a'), { resourceVersion: '0' })), rv);
      }));
      it('counts the keys under a prefix', t(async ({ store }) => {
        for (const n of ['a', 'b']) await store.create(key(n), pod(n));
        await store.create(key('c', 'other'), pod('c'));
        await store.create('/registry/podsx/ns/d', pod('d'));
        assert.equal(await store.count(PODS), 3);
        assert.equal(await store.count(`${PODS}/ns`), 2);
      }));
    });

    describe('guaranteedUpdate', () => {
      const bump = (o: KubeObject): KubeObject => ({ ...o, data: `${String((o as { data?: unknown }).data)}+` }) as KubeObject;
      it('writes the result of tryUpdate with a new resourceVersion', t(async ({ store }) => {
        const created = await store.create(key('a'), pod('a', {}, 'x'));
        const updated = await store.guaranteedUpdate(key('a'), { ignoreNotFound: false, tryUpdate: (cur) => bump(cur!) });
        assert.ok(rvOf(updated) > rvOf(created));
        assert.deepEqual(await store.get(key('a'), {}), updated);
        assert.equal((updated as { data?: string }).data, 'x+');
      }));
      it('does not write when the result is identical', t(async ({ store }) => {
        const created = await store.create(key('a'), pod('a'));
        const same = await store.guaranteedUpdate(key('a'), { ignoreNotFound: false, tryUpdate: (cur) => cur! });
        assert.equal(same.metadata.resourceVersion, created.metadata.resourceVersion);
        assert.equal(await store.currentRevision(), rvOf(created));
      }));
      it('rejects a missing key with KeyNotFound unless ignoreNotFound, which creates', t(async ({ store }) => {
        await assert.rejects(store.guaranteedUpdate(key('a'), { ignoreNotFound: false, tryUpdate: () => pod('a') }),
          rejectsWith('KeyNotFound'));
        let seen: unknown = 'unset';
        const made = await store.guaranteedUpdate(key('a'), {
          ignoreNotFound: true, tryUpdate: (cur) => { seen = cur; return pod('a'); },
        });
        assert.equal(seen, undefined);
        assert.deepEqual(await store.get(key('a'), {}), made);
      }));
      it('passes errors of tryUpdate through and writes nothing', t(async ({ store }) => {
        const created = await store.create(key('a'), pod('a'));
        await assert.rejects(store.guaranteedUpdate(key('a'), {
          ignoreNotFound: false, tryUpdate: () => { throw new Error('invalid'); },
        }), /invalid/);
        assert.equal(await store.currentRevision(), rvOf(created));
      }));
      it('retries on conflict so that concurrent writers all succeed', t(async ({ store }) => {
        await store.create(key('a'), { ...pod('a'), n: 0 } as never);
        let calls = 0;
        const writers = 20;
        await Promise.all(Array.from({ length: writers }, () => store.guaranteedUpdate(key('a'), {
          ignoreNotFound: false,
          tryUpdate: async (cur) => {
            calls++;
            await Promise.resolve();
            const c = cur as unknown as { n: number };
            return { ...cur!, n: c.n + 1 } as never;
          },
        })));
        const final = await store.get(key('a'), {}) as unknown as { n: number };
        assert.equal(final.n, writers);
        assert.ok(calls > writers, 'concurrent writers conflicted and retried');
      }));
      for (const c of [
        { name: 'uid', pre: { uid: 'other' }, message: /^Precondition failed: UID in precondition: other, UID in object meta: uid-a$/ },
        { name: 'resourceVersion', pre: { resourceVersion: '999' }, message: /^Precondition failed: ResourceVersion in precondition: 999, ResourceVersion in object meta: \d+$/ },
      ]) {
        it(`rejects a failed ${c.name} precondition with ResourceVersionConflicts`, t(async ({ store }) => {
          await store.create(key('a'), pod('a'));
          await assert.rejects(store.guaranteedUpdate(key('a'), {
            ignoreNotFound: false, preconditions: c.pre, tryUpdate: (cur) => bump(cur!),
          }), rejectsWith('ResourceVersionConflicts', c.message));
          await assert.rejects(store.delete(key('a'), { preconditions: c.pre }), rejectsWith('ResourceVersionConflicts', c.message));
        }));
      }
      it('applies matching preconditions', t(async ({ store }) => {
        const created = await store.create(key('a'), pod('a'));
        const pre = { uid: 'uid-a', resourceVersion: created.metadata.resourceVersion! };
        await store.guaranteedUpdate(key('a'), { ignoreNotFound: false, preconditions: pre, tryUpdate: (cur) => bump(cur!) });
      }));
    });

    describe('delete', () => {
      it('deletes and resolves the object as last written', t(async ({ store }) => {
        const created = await store.create(key('a'), pod('a'));
        assert.deepEqual(await store.delete(key('a'), {}), created);
        await assert.rejects(store.get(key('a'), {}), rejectsWith('KeyNotFound'));
        assert.ok(await store.currentRevision() > rvOf(created));
      }));
      it('rejects a missing key with KeyNotFound', t(async ({ store }) => {
        await assert.rejects(store.delete(key('a'), {}), rejectsWith('KeyNotFound'));
      }));
      it('does not delete when validateDeletion throws', t(async ({ store }) => {
        await store.create(key('a'), pod('a'));
        await assert.rejects(store.delete(key('a'), { validateDeletion: () => { throw new Error('no'); } }), /no/);
        await store.get(key('a'), {});
      }));
    });

    describe('getList', () => {
      it('lists a prefix as a directory: /a does not include /ab', t(async ({ store }) => {
        await store.create(`${PODS}/a/x`, pod('x'));
        await store.create(`${PODS}/ab/y`, pod('y'));
        const res = await store.getList(`${PODS}/a`, { recursive: true, predicate: everything });
        assert.deepEqual(res.items.map((o) => o.metadata.name), ['x']);
        assert.equal(res.resourceVersion, String(await store.currentRevision()));
        const one = await store.getList(`${PODS}/ab/y`, { recursive: false, predicate: everything });
        assert.deepEqual(one.items.map((o) => o.metadata.name), ['y']);
      }));
      it('keeps one snapshot across pages while writes happen', t(async ({ store }) => {
        for (const n of ['a', 'b', 'c', 'd', 'e']) await store.create(key(n), pod(n));
        const first = await store.getList(PODS, { recursive: true, predicate: everything, limit: 2 });
        assert.deepEqual(first.items.map((o) => o.metadata.name), ['a', 'b']);
        assert.equal(first.remainingItemCount, 3);
        const token = JSON.parse(Buffer.from(first.continue ?? '', 'base64url').toString()) as unknown;
        assert.deepEqual(token, { v: 'meta.k8s.io/v1', rv: Number(first.resourceVersion), start: 'ns/b\u0000' });
        await store.delete(key('c'), {});
        await store.create(key('cc'), pod('cc'));
        await store.guaranteedUpdate(key('d'), { ignoreNotFound: false, tryUpdate: (o) => ({ ...o!, data: 'new' }) as never });
        const second = await store.getList(PODS, { recursive: true, predicate: everything, limit: 2, continue: first.continue! });
        assert.deepEqual(second.items.map((o) => o.metadata.name), ['c', 'd']);
        assert.equal(second.resourceVersion, first.resourceVersion);
        assert.equal((second.items[1] as { data?: string }).data, '');
        const third = await store.getList(PODS, { recursive: true, predicate: everything, limit: 2, continue: second.continue! });
        assert.deepEqual(third.items.map((o) => o.metadata.name), ['e']);
        assert.equal(third.continue, undefined);
        assert.equal(third.remainingItemCount, undefined);
      }));
      it('fills a page with matching items when a selector filters', t(async ({ store }) => {
        for (let i = 0; i < 10; i++) await store.create(key(`p${i}`), pod(`p${i}`, { even: String(i % 2 === 0) }));
        const res = await store.getList(PODS, { recursive: true, predicate: labelIs('even', 'true'), limit: 3 });
        assert.deepEqual(res.items.map((o) => o.metadata.name), ['p0', 'p2', 'p4']);
        assert.notEqual(res.continue, undefined);
        assert.equal(res.remainingItemCount, undefined);
        const rest = await store.getList(PODS, { recursive: true, predicate: labelIs('even', 'true'), limit: 3, continue: res.continue! });
        assert.deepEqual(rest.items.map((o) => o.metadata.name), ['p6', 'p8']);
      }));
      it('applies resourceVersion and resourceVersionMatch as kube does', t(async ({ store }) => {
        const a = await store.create(key('a'), pod('a'));
        await store.create(key('b'), pod('b'));
        const cur = await store.currentRevision();
        const names = async (o: object) =>
          (await store.getList(PODS, { recursive: true, predicate: everything, ...o })).items.map((i) => i.metadata.name);
        assert.deepEqual(await names({ resourceVersion: a.metadata.resourceVersion, resourceVersionMatch: 'Exact' }), ['a']);
        assert.deepEqual(await names({ resourceVersion: a.metadata.resourceVersion, limit: 5 }), ['a']);
        assert.deepEqual(await names({ resourceVersion: a.metadata.resourceVersion }), ['a', 'b']);
        assert.deepEqual(await names({ resourceVersion: a.metadata.resourceVersion, resourceVersionMatch: 'NotOlderThan' }), ['a', 'b']);
        const exact = await store.getList(PODS, { recursive: true, predicate: everything, resourceVersion: a.metadata.resourceVersion!, resourceVersionMatch: 'Exact' });
        assert.equal(exact.resourceVersion, a.metadata.resourceVersion);
        for (const match of ['NotOlderThan', 'Exact', ''] as const) {
          await assert.rejects(names({ resourceVersion: String(cur + 10), resourceVersionMatch: match }),
            rejectsWith('TooLargeResourceVersion', new RegExp(`^Too large resource version: ${cur + 10}, current: ${cur}$`)));
        }
      }));
      it('rejects bad continue tokens and a resourceVersion with a continue token', t(async ({ store }) => {
        for (const n of ['a', 'b']) await store.create(key(n), pod(n));
        const first = await store.getList(PODS, { recursive: true, predicate: everything, limit: 1 });
        await assert.rejects(store.getList(PODS, { recursive: true, predicate: everything, continue: first.continue!, resourceVersion: '1' }),
          rejectsWith('InvalidContinue', /^specifying resource version is not allowed when using continue$/));
        await assert.rejects(store.getList(PODS, { recursive: true, predicate: everything, continue: 'not*base64' }),
          rejectsWith('InvalidContinue', /^invalid continue token: continue key is not valid/));
        const escape = Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"../secrets/x"}').toString('base64url');
        await assert.rejects(store.getList(PODS, { recursive: true, predicate: everything, continue: escape }),
          rejectsWith('InvalidContinue'));
      }));
    });

    describe('compaction', () => {
      it('rejects reads, continue tokens and watches before the compacted revision with Compacted', t(async ({ store, backend }) => {
        const a = await store.create(key('a'), pod('a'));
        for (const n of ['b', 'c']) await store.create(key(n), pod(n));
        const page = await store.getList(PODS, { recursive: true, predicate: everything, limit: 1 });
        await store.guaranteedUpdate(key('a'), { ignoreNotFound: false, tryUpdate: (o) => ({ ...o!, data: 'v2' }) as never });
        const cur = await store.currentRevision();
        await backend.compact(cur);
        assert.equal(await backend.compactedRevision(), cur);
        await assert.rejects(store.getList(PODS, { recursive: true, predicate: everything, resourceVersion: a.metadata.resourceVersion!, resourceVersionMatch: 'Exact' }),
          rejectsWith('Compacted', /^The resourceVersion for the provided list is too old\.$/));
        let token = '';
        await assert.rejects(store.getList(PODS, { recursive: true, predicate: everything, limit: 1, continue: page.continue! }),
          (err) => { rejectsWith('Compacted', /^The provided continue parameter is too old/)(err); token = isStorageError(err) ? err.continueToken : ''; return true; });
        const rest = await store.getList(PODS, { recursive: true, predicate: everything, continue: token });
        assert.deepEqual(rest.items.map((o) => o.metadata.name), ['b', 'c']);
        if (opts.watchCache === true) {
          const w = await store.watch(PODS, { recursive: true, predicate: everything, resourceVersion: a.metadata.resourceVersion! });
          assert.deepEqual((await take(w, 3)).map(brief), [`ADDED:b@${rvOf(a) + 1}`, `ADDED:c@${rvOf(a) + 2}`, `MODIFIED:a@${cur}`]);
          w.stop();
        } else {
          await assert.rejects(store.watch(PODS, { recursive: true, predicate: everything, resourceVersion: a.metadata.resourceVersion! }),
            rejectsWith('Compacted', new RegExp(`^too old resource version: ${a.metadata.resourceVersion} \\(${cur}\\)$`)));
        }
        const all = await store.getList(PODS, { recursive: true, predicate: everything, resourceVersion: String(cur), resourceVersionMatch: 'Exact' });
        assert.deepEqual(all.items.map((o) => o.metadata.name), ['a', 'b', 'c']);
        assert.equal((all.items[0] as { data?: string }).data, 'v2');
      }));
    });

    runWatchConformance(t);
  });
}
