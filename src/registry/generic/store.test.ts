// The generic Store on an in-memory SQLite backend (store_test.go in kube's generic registry):
// every verb, preconditions, dry run, graceful deletion, finalizers and create-on-update, with a
// resource of test strategy ("widgets") whose knobs each case sets.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { invalid } from '../../apimachinery/errors/field-errors.ts';
import { StatusError } from '../../apimachinery/errors/status-error.ts';
import type { DeleteOptions, KubeObject, Status } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { WatchEvent } from '../../apimachinery/watch/event.ts';
import type { Backend } from '../../storage/backend.ts';
import { jsonCodec } from '../../storage/json-codec.ts';
import { openSqliteBackend } from '../../storage/sqlite/sqlite-backend.ts';
import { newStore } from '../../storage/store.ts';
import type { ResourceDefinition, Strategy } from '../rest/strategy.ts';
import { Store } from './store.ts';

type Widget = KubeObject & { spec?: { size?: number }; status?: { ready?: boolean } };

const strategy: Strategy<Widget> = {
  prepareForCreate(_ctx, w) { delete w.status; },
  // size must not be negative: the Store answers 422 with the cause.
  validate: (_ctx, w) => ((w.spec?.size ?? 0) < 0 ? [invalid('spec.size', w.spec?.size ?? 0, 'must be greater than or equal to 0')] : []),
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForUpdate(_ctx, w, old) { if (old.status === undefined) delete w.status; else w.status = { ...old.status }; },
  validateUpdate: (_ctx, w) => ((w.spec?.size ?? 0) < 0 ? [invalid('spec.size', w.spec?.size ?? 0, 'must be greater than or equal to 0')] : []),
};

const widgets = (over: Partial<ResourceDefinition<Widget>> = {}, strat: Partial<Strategy<Widget>> = {}): ResourceDefinition<Widget> => ({
  group: 'example.com', kind: 'Widget', resource: 'widgets', singular: 'widget', namespaced: true,
  strategy: { ...strategy, ...strat }, ...over,
});

const widget = (name: string, extra: Partial<Widget['metadata']> = {}, size = 1): Widget =>
  ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, ...extra }, spec: { size } });

const ctx = systemContext('ns1');
const noDryRun = { dryRun: false };
const dryRun = { dryRun: true };
const del = (o: Partial<DeleteOptions> = {}): DeleteOptions => ({ kind: 'DeleteOptions', apiVersion: 'v1', ...o }) as DeleteOptions;

async function rejects(p: Promise<unknown>, code: number, reason: string, message?: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof StatusError, `not a StatusError: ${String(err)}`);
    assert.equal(err.status.code, code);
    assert.equal(err.status.reason, reason);
    if (message !== undefined) assert.match(err.status.message ?? '', message);
    return true;
  });
}

describe('generic Store', () => {
  let backend: Backend;
  let n = 0;
  /** A fresh Store under its own key prefix, so cases do not see each other's objects. */
  const newWidgets = (over: Partial<ResourceDefinition<Widget>> = {}, strat: Partial<Strategy<Widget>> = {}): Store<Widget> =>
    new Store({ definition: widgets(over, strat), storage: newStore(backend, jsonCodec), keyPrefix: `/registry/widgets-${n++}`, listApiVersion: 'example.com/v1' });
  const update = (s: Store<Widget>, obj: KubeObject, opts = noDryRun, c = ctx) =>
    s.update(c, obj.metadata.name ?? '', { updatedObject: () => structuredClone(obj) }, undefined, undefined, false, opts);

  before(async () => { backend = await openSqliteBackend({ path: ':memory:' }); });
  after(async () => { await backend.close(); });

  describe('create', () => {
    it('sets uid, creationTimestamp, resourceVersion and the request namespace; clears status', async () => {
      const s = newWidgets();
      const out = await s.create(ctx, { ...widget('a'), status: { ready: true } } as Widget, undefined, noDryRun) as Widget;
      assert.equal(out.metadata.namespace, 'ns1');
      assert.match(out.metadata.uid ?? '', /^[0-9a-f-]{36}$/);
      assert.ok(out.metadata.creationTimestamp);
      assert.match(out.metadata.resourceVersion ?? '', /^\d+$/);
      assert.equal(out.status, undefined);
      assert.deepEqual(await s.get(ctx, 'a', {}), out);
    });
    it('generates a name from generateName', async () => {
      const s = newWidgets();
      const out = await s.create(ctx, widget('', { generateName: 'w-' }), undefined, noDryRun);
      assert.match(out.metadata.name ?? '', /^w-[a-z0-9]{5}$/);
    });
    const failures: { name: string; obj: Widget; code: number; reason: string; message: RegExp }[] = [
      { name: 'a namespace other than the request\'s', obj: widget('b', { namespace: 'other' }), code: 400, reason: 'BadRequest', message: /does not match the namespace sent on the request/ },
      { name: 'an invalid spec', obj: widget('c', {}, -1), code: 422, reason: 'Invalid', message: /^Widget\.example\.com "c" is invalid: spec\.size: Invalid value: -1/ },
      { name: 'a name no path segment can hold', obj: widget('..'), code: 422, reason: 'Invalid', message: /metadata\.name: Invalid value: "\.\.": may not be '\.\.'/ },
      { name: 'a resourceVersion', obj: widget('d', { resourceVersion: '5' }), code: 500, reason: 'InternalError', message: /resourceVersion should not be set/ },
      { name: 'no name', obj: widget(''), code: 422, reason: 'Invalid', message: /metadata\.name: Required value/ },
    ];
    for (const c of failures) {
      it(`rejects ${c.name} and stores nothing`, async () => {
        const s = newWidgets();
        await rejects(s.create(ctx, c.obj, undefined, noDryRun), c.code, c.reason, c.message);
        assert.deepEqual((await s.list(ctx, {})).items, []);
      });
    }
    it('rejects a second object of the same name with AlreadyExists', async () => {
      const s = newWidgets();
      await s.create(ctx, widget('a'), undefined, noDryRun);
      await rejects(s.create(ctx, widget('a'), undefined, noDryRun), 409, 'AlreadyExists', /^widgets\.example\.com "a" already exists$/);
    });
    it('rejects with what the admission check throws, before anything is stored', async () => {
      const s = newWidgets();
      const deny = (): void => { throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 403, reason: 'Forbidden', message: 'no' }); };
      await rejects(s.create(ctx, widget('a'), deny, noDryRun), 403, 'Forbidden');
      await rejects(s.get(ctx, 'a', {}), 404, 'NotFound');
    });
    it('on a cluster-scoped resource drops the namespace', async () => {
      const s = newWidgets({ namespaced: false });
      const out = await s.create(systemContext(''), widget('a', { namespace: 'ns1' }), undefined, noDryRun);
      assert.equal(out.metadata.namespace, undefined);
    });
  });

  describe('get', () => {
    const cases: { name: string; ns: string; object: string; code: number; reason: string; message: RegExp }[] = [
      { name: 'a missing object', ns: 'ns1', object: 'nope', code: 404, reason: 'NotFound', message: /^widgets\.example\.com "nope" not found$/ },
      { name: 'no namespace on a namespaced resource', ns: '', object: 'a', code: 400, reason: 'BadRequest', message: /^Namespace parameter required\.$/ },
      { name: 'an empty name', ns: 'ns1', object: '', code: 400, reason: 'BadRequest', message: /^Name parameter required\.$/ },
      { name: 'a name with a slash', ns: 'ns1', object: 'a/b', code: 400, reason: 'BadRequest', message: /^Name parameter invalid: "a\/b": may not contain '\/'$/ },
    ];
    for (const c of cases) {
      it(`rejects ${c.name}`, async () => {
        await rejects(newWidgets().get(systemContext(c.ns), c.object, {}), c.code, c.reason, c.message);
      });
    }
  });

  describe('list', () => {
    it('selects by label and field, scoped to the request namespace', async () => {
      const s = newWidgets();
      await s.create(ctx, widget('a', { labels: { app: 'x' } }), undefined, noDryRun);
      await s.create(ctx, widget('b', { labels: { app: 'y' } }), undefined, noDryRun);
      await s.create(systemContext('ns2'), widget('c', { labels: { app: 'x' } }), undefined, noDryRun);
      const names = async (c: typeof ctx, opts: { labelSelector?: string; fieldSelector?: string }): Promise<string[]> =>
        (await s.list(c, opts)).items.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`).sort();
      const cases: { name: string; ns: string; opts: { labelSelector?: string; fieldSelector?: string }; want: string[] }[] = [
        { name: 'everything in ns1', ns: 'ns1', opts: {}, want: ['ns1/a', 'ns1/b'] },
        { name: 'every namespace', ns: '', opts: {}, want: ['ns1/a', 'ns1/b', 'ns2/c'] },
        { name: 'app=x everywhere', ns: '', opts: { labelSelector: 'app=x' }, want: ['ns1/a', 'ns2/c'] },
        { name: 'app!=x in ns1', ns: 'ns1', opts: { labelSelector: 'app!=x' }, want: ['ns1/b'] },
        { name: 'metadata.name=b', ns: '', opts: { fieldSelector: 'metadata.name=b' }, want: ['ns1/b'] },
        { name: 'metadata.namespace=ns2', ns: '', opts: { fieldSelector: 'metadata.namespace=ns2' }, want: ['ns2/c'] },
      ];
      for (const c of cases) assert.deepEqual(await names(systemContext(c.ns), c.opts), c.want, c.name);
      const list = await s.list(ctx, {});
      assert.equal(list.kind, 'WidgetList');
      assert.equal(list.apiVersion, 'example.com/v1');
      assert.match(list.metadata.resourceVersion ?? '', /^\d+$/);
    });
    it('rejects a field selector on an unknown field with BadRequest', async () => {
      await rejects(newWidgets().list(ctx, { fieldSelector: 'spec.size=1' }), 400, 'BadRequest',
        /^"spec\.size" is not a known field selector: only "metadata\.name", "metadata\.namespace"$/);
    });
  });

  describe('update', () => {
    it('writes a new resourceVersion and keeps uid, creationTimestamp and status', async () => {
      const s = newWidgets();
      const created = await s.create(ctx, widget('a'), undefined, noDryRun);
      await s.updateUnchecked(ctx, 'a', (cur) => ({ ...cur, status: { ready: true } }) as KubeObject, noDryRun);
      const cur = await s.get(ctx, 'a', {}) as Widget;
      const next = { ...cur, spec: { size: 2 }, status: { ready: false }, metadata: { ...cur.metadata, uid: '', creationTimestamp: null } } as Widget;
      const { object, created: wasCreated } = await update(s, next);
      const out = object as Widget;
      assert.equal(wasCreated, false);
      assert.equal(out.spec?.size, 2);
      assert.deepEqual(out.status, { ready: true });
      assert.equal(out.metadata.uid, created.metadata.uid);
      assert.equal(out.metadata.creationTimestamp, created.metadata.creationTimestamp);
      assert.ok(BigInt(out.metadata.resourceVersion ?? '0') > BigInt(cur.metadata.resourceVersion ?? '0'));
    });
    it('rejects a stale resourceVersion with Conflict and keeps the stored object', async () => {
      const s = newWidgets();
      const first = await s.create(ctx, widget('a'), undefined, noDryRun);
      await update(s, { ...first, spec: { size: 2 } } as Widget);
      await rejects(update(s, { ...first, spec: { size: 3 } } as Widget), 409, 'Conflict',
        /^Operation cannot be fulfilled on widgets\.example\.com "a": the object has been modified; please apply your changes to the latest version and try again$/);
      assert.equal((await s.get(ctx, 'a', {}) as Widget).spec?.size, 2);
    });
    it('rejects a UID precondition that does not match with Conflict', async () => {
      const s = newWidgets();
      const first = await s.create(ctx, widget('a'), undefined, noDryRun);
      await rejects(s.update(ctx, 'a', { preconditions: { uid: 'other' }, updatedObject: () => structuredClone(first) }, undefined, undefined, false, noDryRun),
        409, 'Conflict', /Precondition failed: UID in precondition: other, UID in object meta: /);
    });
    it('rejects a missing object with NotFound unless the strategy allows create on update', async () => {
      await rejects(update(newWidgets(), widget('a')), 404, 'NotFound', /^widgets\.example\.com "a" not found$/);
      const s = newWidgets({}, { allowCreateOnUpdate: true });
      const { object, created } = await update(s, widget('a'));
      assert.equal(created, true);
      assert.ok(object.metadata.uid);
      assert.deepEqual(await s.get(ctx, 'a', {}), object);
    });
    it('rejects a name other than the URL\'s with BadRequest', async () => {
      const s = newWidgets();
      await s.create(ctx, widget('a'), undefined, noDryRun);
      await rejects(s.update(ctx, 'a', { updatedObject: () => widget('b') }, undefined, undefined, false, noDryRun),
        400, 'BadRequest', /^the name of the object \(b\) does not match the name on the URL \(a\)$/);
    });
    it('rejects an invalid update with Invalid and keeps the stored object', async () => {
      const s = newWidgets();
      const first = await s.create(ctx, widget('a'), undefined, noDryRun);
      await rejects(update(s, { ...first, spec: { size: -1 } } as Widget), 422, 'Invalid');
      assert.deepEqual(await s.get(ctx, 'a', {}), first);
    });
  });

  describe('dry run', () => {
    it('create, update, updateUnchecked and delete answer as the write would, and store nothing', async () => {
      const s = newWidgets();
      const out = await s.create(ctx, widget('a'), undefined, dryRun);
      assert.equal(out.metadata.name, 'a');
      await rejects(s.get(ctx, 'a', {}), 404, 'NotFound');
      const stored = await s.create(ctx, widget('a'), undefined, noDryRun);
      await rejects(s.create(ctx, widget('a'), undefined, dryRun), 409, 'AlreadyExists');
      const { object } = await update(s, { ...stored, spec: { size: 5 } } as Widget, dryRun);
      assert.equal((object as Widget).spec?.size, 5);
      await s.updateUnchecked(ctx, 'a', (cur) => ({ ...cur, spec: { size: 6 } }) as KubeObject, dryRun);
      const res = await s.delete(ctx, 'a', undefined, del({ dryRun: ['All'] }));
      assert.equal(res.deletedImmediately, true);
      assert.deepEqual(await s.get(ctx, 'a', {}), stored);
      await s.deleteCollection(ctx, undefined, del({ dryRun: ['All'] }), {});
      assert.deepEqual(await s.get(ctx, 'a', {}), stored);
    });
    it('a graceful or finalizer-held delete answers the marked object and writes nothing', async () => {
      const cases: { name: string; s: Store<Widget>; meta: Partial<Widget['metadata']>; grace: number }[] = [
        { name: 'finalizers', s: newWidgets(), meta: { finalizers: ['example.com/hold'] }, grace: 0 },
        { name: 'a grace period', s: newWidgets({}, { checkGracefulDelete: () => 30 }), meta: {}, grace: 30 },
      ];
      for (const c of cases) {
        const stored = await c.s.create(ctx, widget('a', c.meta), undefined, noDryRun);
        const res = await c.s.delete(ctx, 'a', undefined, del({ dryRun: ['All'] }));
        assert.equal(res.deletedImmediately, false, c.name);
        assert.equal(res.object.kind, 'Widget', c.name);
        assert.ok((res.object as KubeObject).metadata.deletionTimestamp, c.name);
        assert.equal((res.object as KubeObject).metadata.deletionGracePeriodSeconds, c.grace, c.name);
        assert.deepEqual(await c.s.get(ctx, 'a', {}), stored, c.name);
      }
    });
    it('checks preconditions and conflicts as the write would', async () => {
      const s = newWidgets();
      const stored = await s.create(ctx, widget('a'), undefined, noDryRun);
      await update(s, { ...stored, spec: { size: 2 } } as Widget);
      await rejects(update(s, { ...stored, spec: { size: 3 } } as Widget, dryRun), 409, 'Conflict');
      await rejects(s.delete(ctx, 'a', undefined, del({ dryRun: ['All'], preconditions: { uid: 'x' } })), 409, 'Conflict');
      await rejects(s.updateUnchecked(ctx, 'nope', (cur) => cur, dryRun), 404, 'NotFound');
    });
  });

  describe('delete', () => {
    it('answers a Success Status naming the object, or the object itself when the resource says so', async () => {
      const s = newWidgets();
      const a = await s.create(ctx, widget('a'), undefined, noDryRun);
      const res = await s.delete(ctx, 'a', undefined, del());
      assert.equal(res.deletedImmediately, true);
      assert.deepEqual(res.object, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
        details: { name: 'a', group: 'example.com', kind: 'widgets', uid: a.metadata.uid ?? '' } } satisfies Status);
      await rejects(s.get(ctx, 'a', {}), 404, 'NotFound');
      await rejects(s.delete(ctx, 'a', undefined, del()), 404, 'NotFound');
      const r = newWidgets({ returnDeletedObject: true });
      await r.create(ctx, widget('b'), undefined, noDryRun);
      assert.equal((await r.delete(ctx, 'b', undefined, del())).object.kind, 'Widget');
    });
    const preconditions: { name: string; pre: (o: KubeObject) => NonNullable<DeleteOptions['preconditions']>; message: RegExp }[] = [
      { name: 'uid', pre: () => ({ uid: 'other' }), message: /^Operation cannot be fulfilled on Widget\.example\.com "a": the UID in the precondition \(other\) does not match the UID in record/ },
      { name: 'resourceVersion', pre: () => ({ resourceVersion: '1' }), message: /the ResourceVersion in the precondition \(1\) does not match the ResourceVersion in record/ },
    ];
    for (const c of preconditions) {
      it(`rejects a ${c.name} precondition that does not match with Conflict and keeps the object`, async () => {
        const s = newWidgets();
        const a = await s.create(ctx, widget('a'), undefined, noDryRun);
        await rejects(s.delete(ctx, 'a', undefined, del({ preconditions: c.pre(a) })), 409, 'Conflict', c.message);
        assert.deepEqual(await s.get(ctx, 'a', {}), a);
      });
    }
    it('keeps an object with finalizers until an update removes the last one', async () => {
      const s = newWidgets();
      await s.create(ctx, widget('a', { finalizers: ['example.com/hold'] }), undefined, noDryRun);
      const res = await s.delete(ctx, 'a', undefined, del());
      assert.equal(res.deletedImmediately, false);
      const held = await s.get(ctx, 'a', {});
      assert.ok(held.metadata.deletionTimestamp);
      assert.equal(held.metadata.deletionGracePeriodSeconds, 0);
      await update(s, { ...held, metadata: { ...held.metadata, finalizers: [] } });
      await rejects(s.get(ctx, 'a', {}), 404, 'NotFound');
    });
    it('adds the orphan finalizer for propagationPolicy Orphan', async () => {
      const s = newWidgets();
      await s.create(ctx, widget('a'), undefined, noDryRun);
      await s.delete(ctx, 'a', undefined, del({ propagationPolicy: 'Orphan' }));
      assert.deepEqual((await s.get(ctx, 'a', {})).metadata.finalizers, ['orphan']);
    });
    it('deletes gracefully when the strategy asks for a grace period, and at once with gracePeriodSeconds 0', async () => {
      const s = newWidgets({}, { checkGracefulDelete: () => 30 });
      await s.create(ctx, widget('a', { generation: 1 }), undefined, noDryRun);
      const res = await s.delete(ctx, 'a', undefined, del());
      assert.equal(res.deletedImmediately, false);
      const pending = await s.get(ctx, 'a', {});
      assert.equal(pending.metadata.deletionGracePeriodSeconds, 30);
      assert.ok(pending.metadata.deletionTimestamp);
      // A second delete without a shorter grace period changes nothing.
      assert.equal((await s.delete(ctx, 'a', undefined, del())).deletedImmediately, false);
      assert.equal((await s.get(ctx, 'a', {})).metadata.resourceVersion, pending.metadata.resourceVersion);
      assert.equal((await s.delete(ctx, 'a', undefined, del({ gracePeriodSeconds: 0 }))).deletedImmediately, true);
      await rejects(s.get(ctx, 'a', {}), 404, 'NotFound');
    });
  });

  describe('deletecollection', () => {
    it('deletes what the selectors match in the request namespace, and answers the deleted objects', async () => {
      const s = newWidgets();
      await s.create(ctx, widget('a', { labels: { app: 'x' } }), undefined, noDryRun);
      await s.create(ctx, widget('b', { labels: { app: 'y' } }), undefined, noDryRun);
      await s.create(systemContext('ns2'), widget('c', { labels: { app: 'x' } }), undefined, noDryRun);
      const out = await s.deleteCollection(ctx, undefined, del(), { labelSelector: 'app=x' });
      assert.deepEqual(out.items.map((o) => o.metadata.name), ['a']);
      assert.deepEqual((await s.list(systemContext(''), {})).items.map((o) => o.metadata.name).sort(), ['b', 'c']);
    });
  });

  describe('watch', () => {
    it('delivers ADDED, MODIFIED and DELETED after a resourceVersion, filtered by the selectors', async () => {
      const s = newWidgets();
      const start = (await s.list(ctx, {})).metadata.resourceVersion ?? '0';
      const w = await s.watch(ctx, { resourceVersion: start, labelSelector: 'app=x' });
      const a = await s.create(ctx, widget('a', { labels: { app: 'x' } }), undefined, noDryRun);
      await s.create(ctx, widget('b', { labels: { app: 'y' } }), undefined, noDryRun);
      await update(s, { ...a, spec: { size: 9 } } as Widget);
      await s.delete(ctx, 'a', undefined, del());
      const got: string[] = [];
      for await (const ev of w as AsyncIterable<WatchEvent>) {
        if (ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED') got.push(`${ev.type} ${ev.object.metadata.name ?? ''}`);
        if (got.length === 3) break;
      }
      w.stop();
      assert.deepEqual(got, ['ADDED a', 'MODIFIED a', 'DELETED a']);
    });
    it('rejects a compacted or malformed resourceVersion', async () => {
      await rejects(newWidgets().watch(ctx, { resourceVersion: 'abc' }), 500, '');
    });
  });
});
