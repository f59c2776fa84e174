// @kubernetes/client-node against kapi: typed CRUD on configmaps, label selectors, and watches (a
// list-then-watch from the list's resourceVersion, and the library's informer).
import { ownConfigMaps } from './testing/objects.ts';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApiException, CoreV1Api, KubeConfig, PatchStrategy, Watch, makeInformer, setHeaderOptions,
  type V1ConfigMap, type V1Status,
} from '@kubernetes/client-node';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-client-node';

interface SeenEvent { type: string; name: string; resourceVersion: string; data: Record<string, string> | undefined }

function statusOf(err: unknown): V1Status {
  assert.ok(err instanceof ApiException, `an ApiException, got ${String(err)}`);
  const body: unknown = err.body;
  return (typeof body === 'string' ? JSON.parse(body) : body) as V1Status;
}

describe('@kubernetes/client-node', () => {
  let s: Suite;
  let kc: KubeConfig;
  let core: CoreV1Api;

  before(async () => {
    s = await startSuite();
    kc = new KubeConfig();
    kc.loadFromFile(s.server.kubeconfigPath);
    core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: NS } } });
  });
  after(async () => { await s?.close(); });

  it('creates, reads, replaces, patches and deletes a configmap', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'crud', labels: { app: 'x' } }, data: { a: '1' } } });
    assert.equal(created.metadata?.name, 'crud');
    assert.equal(created.metadata?.namespace, NS);
    assert.ok(created.metadata?.uid);
    assert.ok(created.metadata?.creationTimestamp instanceof Date);
    assert.deepEqual(created.data, { a: '1' });

    const read = await core.readNamespacedConfigMap({ name: 'crud', namespace: NS });
    assert.equal(read.metadata?.resourceVersion, created.metadata?.resourceVersion);
    assert.equal(read.metadata?.uid, created.metadata?.uid);

    read.data = { a: '2' };
    const replaced = await core.replaceNamespacedConfigMap({ name: 'crud', namespace: NS, body: read });
    assert.deepEqual(replaced.data, { a: '2' });
    assert.notEqual(replaced.metadata?.resourceVersion, read.metadata?.resourceVersion);

    const merged = await core.patchNamespacedConfigMap({ name: 'crud', namespace: NS, body: { data: { b: '3' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    assert.deepEqual(merged.data, { a: '2', b: '3' });

    const jsonPatched = await core.patchNamespacedConfigMap({ name: 'crud', namespace: NS,
      body: [{ op: 'replace', path: '/data/a', value: '4' }] }, setHeaderOptions('Content-Type', PatchStrategy.JsonPatch));
    assert.deepEqual(jsonPatched.data, { a: '4', b: '3' });

    // Stale replace: the resourceVersion read before the patches.
    read.data = { stale: 'yes' };
    const conflict = await core.replaceNamespacedConfigMap({ name: 'crud', namespace: NS, body: read }).then(() => undefined, (e: unknown) => e);
    assert.equal((conflict as ApiException<unknown>).code, 409);
    const st = statusOf(conflict);
    assert.equal(st.reason, 'Conflict');
    assert.equal(st.message, 'Operation cannot be fulfilled on configmaps "crud": the object has been modified; please apply your changes to the latest version and try again');

    const deleted = await core.deleteNamespacedConfigMap({ name: 'crud', namespace: NS });
    assert.equal(deleted.kind, 'Status');
    assert.equal(deleted.status, 'Success');

    const missing = await core.readNamespacedConfigMap({ name: 'crud', namespace: NS }).then(() => undefined, (e: unknown) => e);
    assert.equal((missing as ApiException<unknown>).code, 404);
    const nf = statusOf(missing);
    assert.equal(nf.reason, 'NotFound');
    assert.equal(nf.message, 'configmaps "crud" not found');
    assert.deepEqual(nf.details, { name: 'crud', kind: 'configmaps' });
  });

  it('creating a duplicate is a 409 AlreadyExists', async () => {
    await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'twice' } } });
    const err = await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'twice' } } }).then(() => undefined, (e: unknown) => e);
    assert.equal((err as ApiException<unknown>).code, 409);
    const st = statusOf(err);
    assert.equal(st.reason, 'AlreadyExists');
    assert.equal(st.message, 'configmaps "twice" already exists');
  });

  it('lists with a labelSelector', async () => {
    const names = { l1: 'blue', l2: 'blue', l3: 'green' };
    for (const [name, color] of Object.entries(names)) {
      await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name, labels: { color, set: 'list' } } } });
    }
    const cases = [
      { name: 'equality', selector: 'color=blue', want: ['l1', 'l2'] },
      { name: 'inequality', selector: 'set=list,color!=blue', want: ['l3'] },
      { name: 'set-based', selector: 'color in (green,red)', want: ['l3'] },
      { name: 'exists', selector: 'set', want: ['l1', 'l2', 'l3'] },
      { name: 'does not exist', selector: '!set', want: ['twice'] },
    ];
    for (const c of cases) {
      const list = await core.listNamespacedConfigMap({ namespace: NS, labelSelector: c.selector });
      assert.deepEqual(ownConfigMaps(list.items.map((i) => i.metadata?.name)).sort(), c.want, c.name);
      assert.match(list.metadata?.resourceVersion ?? '', /^\d+$/, c.name);
    }
    const page = await core.listNamespacedConfigMap({ namespace: NS, labelSelector: 'set=list', limit: 2 });
    assert.equal(page.items.length, 2);
    assert.ok(page.metadata?._continue, 'a continue token for the next page');
    const rest = await core.listNamespacedConfigMap({ namespace: NS, labelSelector: 'set=list', limit: 2, _continue: page.metadata._continue });
    assert.deepEqual([...page.items, ...rest.items].map((i) => i.metadata?.name), ['l1', 'l2', 'l3']);
  });

  it('watches from a list resourceVersion and sees ADDED, MODIFIED, DELETED in order', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: NS, labelSelector: 'watch=me' });
    assert.deepEqual(list.items, []);
    const rv = list.metadata?.resourceVersion;
    assert.ok(rv !== undefined);

    const seen: SeenEvent[] = [];
    let ended: unknown = 'still running';
    const w = new Watch(kc);
    const controller = await w.watch(`/api/v1/namespaces/${NS}/configmaps`, { resourceVersion: rv, labelSelector: 'watch=me', allowWatchBookmarks: false },
      (type: string, obj: V1ConfigMap) => {
        seen.push({ type, name: obj.metadata?.name ?? '', resourceVersion: obj.metadata?.resourceVersion ?? '', data: obj.data });
      },
      (err: unknown) => { ended = err; });
    try {
      const a = await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'watched', labels: { watch: 'me' } }, data: { v: '1' } } });
      const m = await core.patchNamespacedConfigMap({ name: 'watched', namespace: NS, body: { data: { v: '2' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
      await core.deleteNamespacedConfigMap({ name: 'watched', namespace: NS });
      await eventually('three watch events', async () => (seen.length >= 3 ? true : undefined));
      assert.deepEqual(seen.map((e) => `${e.type} ${e.name}`), ['ADDED watched', 'MODIFIED watched', 'DELETED watched']);
      assert.equal(seen[0]?.resourceVersion, a.metadata?.resourceVersion);
      assert.deepEqual(seen[0]?.data, { v: '1' });
      assert.equal(seen[1]?.resourceVersion, m.metadata?.resourceVersion);
      assert.deepEqual(seen[1]?.data, { v: '2' });
      assert.deepEqual(seen[2]?.data, { v: '2' });
      assert.ok(BigInt(seen[2]?.resourceVersion ?? '0') > BigInt(seen[1]?.resourceVersion ?? '0'), 'the DELETED event carries the deletion revision');
      assert.equal(ended, 'still running');
    } finally {
      controller.abort();
    }
  });

  it('an informer lists, then follows adds, updates and deletes', async () => {
    const path = `/api/v1/namespaces/${NS}/configmaps`;
    await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'inf-0', labels: { informer: 'yes' } } } });
    const informer = makeInformer<V1ConfigMap>(kc, path,
      () => core.listNamespacedConfigMap({ namespace: NS, labelSelector: 'informer=yes' }), 'informer=yes');
    const log: string[] = [];
    informer.on('add', (o) => log.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => log.push(`update ${o.metadata?.name} ${o.data?.['v'] ?? ''}`));
    informer.on('delete', (o) => log.push(`delete ${o.metadata?.name}`));
    const errors: unknown[] = [];
    informer.on('error', (e) => { errors.push(e); });
    await informer.start();
    try {
      await eventually('the initial add', async () => (log.includes('add inf-0') ? true : undefined));
      await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'inf-1', labels: { informer: 'yes' } }, data: { v: '1' } } });
      await eventually('add inf-1', async () => (log.includes('add inf-1') ? true : undefined));
      await core.patchNamespacedConfigMap({ name: 'inf-1', namespace: NS, body: { data: { v: '2' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
      await eventually('update inf-1', async () => (log.includes('update inf-1 2') ? true : undefined));
      await core.deleteNamespacedConfigMap({ name: 'inf-1', namespace: NS });
      await eventually('delete inf-1', async () => (log.includes('delete inf-1') ? true : undefined));
      assert.deepEqual(log, ['add inf-0', 'add inf-1', 'update inf-1 2', 'delete inf-1']);
      assert.deepEqual(informer.list().map((o) => o.metadata?.name), ['inf-0']);
      assert.deepEqual(errors, []);
    } finally {
      await informer.stop();
    }
  });
});
