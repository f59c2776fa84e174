// The in-process garbage collector and namespace controller write through the admission chain,
// as kube's (kube-controller-manager's, API clients under their service accounts) do: a webhook
// sees their deletes and updates (orphaned dependents' ownerReferences, owners' finalizers, a
// namespace's status and finalize) with the controller's identity, and a webhook's denial stops
// them. What kube sends was read off kube-apiserver v1.36.3 with its kube-controller-manager.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import { startScriptedWebhook, type ScriptedWebhook } from './testing/admission-webhook-server.ts';

type Json = Record<string, unknown>;
const body = (o: Json): string => JSON.stringify(o);
const json = 'application/json';
const cm = (name: string, more: Json = {}): string => body({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...more }, data: { k: 'v' } });

describe('controller deletes go through admission', () => {
  let hook: ScriptedWebhook;
  let kapi: Suite;

  before(async () => {
    hook = await startScriptedWebhook();
    hook.on('/deny', () => ({ allowed: false, status: { message: 'kept by policy' } }));
    hook.on('/deny-update', () => ({ allowed: false, status: { message: 'references kept by policy' } }));
    kapi = await startSuite();
    const config = {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'controller-deletes' },
      webhooks: [
        { name: 'record.deletes.test', clientConfig: hook.clientConfig('/record'), sideEffects: 'None', admissionReviewVersions: ['v1'],
          objectSelector: { matchLabels: { watched: 'yes' } },
          rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
        { name: 'deny.deletes.test', clientConfig: hook.clientConfig('/deny'), sideEffects: 'None', admissionReviewVersions: ['v1'],
          objectSelector: { matchLabels: { keep: 'yes' } },
          rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
        { name: 'updates.controllers.test', clientConfig: hook.clientConfig('/updates'), sideEffects: 'None', admissionReviewVersions: ['v1'],
          objectSelector: { matchLabels: { watched: 'yes' } },
          rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps', 'namespaces', 'namespaces/status', 'namespaces/finalize'] }] },
        { name: 'deny-updates.controllers.test', clientConfig: hook.clientConfig('/deny-update'), sideEffects: 'None', admissionReviewVersions: ['v1'],
          objectSelector: { matchLabels: { 'keep-refs': 'yes' } },
          rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
      ],
    };
    const r = await kapi.request({ method: 'POST', path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', body: body(config), contentType: json });
    assert.equal(r.status, 201, r.text);
    // In effect once a dry-run delete of a watched object reaches the webhook.
    assert.equal((await kapi.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: cm('probe', { labels: { watched: 'yes' } }), contentType: json })).status, 201);
    await eventually('configuration in effect', async () => {
      const n = hook.reviews('/record').length;
      await kapi.request({ method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/probe?dryRun=All' });
      return hook.reviews('/record').length > n ? true : undefined;
    });
  });
  after(async () => {
    await kapi?.close();
    await hook?.close();
  });

  const ownedBy = async (owner: string, name: string, labels: Json): Promise<void> => {
    const o = (await kapi.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: cm(owner), contentType: json })).json() as { metadata: { uid: string } };
    const r = await kapi.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', contentType: json,
      body: cm(name, { labels, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner, uid: o.metadata.uid }] }) });
    assert.equal(r.status, 201, r.text);
    assert.equal((await kapi.request({ method: 'DELETE', path: `/api/v1/namespaces/default/configmaps/${owner}` })).status, 200);
  };

  it('the garbage collector\'s delete of a dependent is admitted as system:serviceaccount:kube-system:generic-garbage-collector', async () => {
    await ownedBy('owner', 'dependent', { watched: 'yes' });
    const review = await eventually('the webhook saw the collector\'s delete', async () =>
      hook.reviews('/record').find((r) => r['name'] === 'dependent'));
    assert.equal(review['operation'], 'DELETE');
    assert.deepEqual(review['userInfo'], { username: 'system:serviceaccount:kube-system:generic-garbage-collector',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] });
    assert.deepEqual(review['options'], { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background',
      preconditions: { uid: (review['oldObject'] as { metadata: { uid: string } }).metadata.uid } });
    await eventually('the dependent is gone', async () =>
      ((await kapi.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/dependent' })).status === 404 ? true : undefined));
  });

  it('a webhook denying the collector\'s delete keeps the dependent', async () => {
    await ownedBy('owner2', 'kept', { keep: 'yes' });
    await eventually('the webhook denied the collector\'s delete', async () =>
      hook.reviews('/deny').find((r) => r['name'] === 'kept' && (r['userInfo'] as { username: string }).username.endsWith(':generic-garbage-collector')));
    const r = await kapi.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/kept' });
    assert.equal(r.status, 200);
    assert.equal((await kapi.request({ method: 'GET', path: '/healthz' })).status, 200);
  });

  it('the namespace controller\'s deletes are admitted as system:serviceaccount:kube-system:namespace-controller', async () => {
    assert.equal((await kapi.request({ method: 'POST', path: '/api/v1/namespaces', body: body({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } }), contentType: json })).status, 201);
    assert.equal((await kapi.request({ method: 'POST', path: '/api/v1/namespaces/doomed/configmaps', body: cm('content', { labels: { watched: 'yes' } }), contentType: json })).status, 201);
    assert.equal((await kapi.request({ method: 'DELETE', path: '/api/v1/namespaces/doomed' })).status, 200);
    const review = await eventually('the webhook saw the controller\'s delete', async () =>
      hook.reviews('/record').find((r) => r['namespace'] === 'doomed'));
    // A deletecollection: kube's attributes name no object.
    assert.equal(review['name'], undefined);
    assert.equal((review['oldObject'] as { metadata: { name: string } }).metadata.name, 'content');
    assert.equal((review['userInfo'] as { username: string }).username, 'system:serviceaccount:kube-system:namespace-controller');
    await eventually('the namespace is gone', async () =>
      ((await kapi.request({ method: 'GET', path: '/api/v1/namespaces/doomed' })).status === 404 ? true : undefined));
  });

  const GC = 'system:serviceaccount:kube-system:generic-garbage-collector';
  const NS_CONTROLLER = 'system:serviceaccount:kube-system:namespace-controller';
  const UPDATE_OPTIONS = { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' };
  type Meta = { metadata: { ownerReferences?: unknown[]; finalizers?: string[]; managedFields?: { manager: string }[] } };
  const metaOf = (review: Json, field: 'object' | 'oldObject'): Meta['metadata'] => (review[field] as Meta).metadata;
  const updateBy = (user: string, name: string, sub?: string) => (r: Json): boolean => r['operation'] === 'UPDATE' && r['name'] === name &&
    (r['userInfo'] as { username: string }).username === user && r['subResource'] === sub;

  /** An owner and its dependent (both labelled), the owner deleted with propagationPolicy Orphan. */
  const orphaned = async (owner: string, name: string, labels: Json): Promise<void> => {
    const o = (await kapi.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: cm(owner, { labels }), contentType: json })).json() as { metadata: { uid: string } };
    const r = await kapi.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', contentType: json,
      body: cm(name, { labels, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner, uid: o.metadata.uid }] }) });
    assert.equal(r.status, 201, r.text);
    const d = await kapi.request({ method: 'DELETE', path: `/api/v1/namespaces/default/configmaps/${owner}`, contentType: json, body: body({ propagationPolicy: 'Orphan' }) });
    assert.equal(d.status, 200, d.text);
  };

  it('the garbage collector\'s orphaning updates (dependent, then owner) are admitted as generic-garbage-collector', async () => {
    await orphaned('o-owner', 'o-dep', { watched: 'yes' });
    const dep = await eventually('the dependent\'s update', async () => hook.reviews('/updates').find(updateBy(GC, 'o-dep')));
    assert.deepEqual(dep['options'], UPDATE_OPTIONS);
    assert.equal(metaOf(dep, 'object').ownerReferences, undefined);
    assert.equal(metaOf(dep, 'oldObject').ownerReferences?.length, 1);
    // Tracked as kube-controller-manager's patch: removing a field adds no entry of its own.
    assert.deepEqual(metaOf(dep, 'object').managedFields?.map((e) => e.manager), ['unknown']);
    const owner = await eventually('the owner\'s update', async () => hook.reviews('/updates').find(updateBy(GC, 'o-owner')));
    assert.deepEqual([metaOf(owner, 'oldObject').finalizers, metaOf(owner, 'object').finalizers], [['orphan'], undefined]);
    await eventually('the owner is gone', async () =>
      ((await kapi.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/o-owner' })).status === 404 ? true : undefined));
    const kept = (await kapi.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/o-dep' })).json() as Meta;
    assert.equal(kept.metadata.ownerReferences, undefined);
  });

  it('a webhook denying the orphaning keeps the dependent\'s reference and the owner', async () => {
    await orphaned('h-owner', 'h-dep', { 'keep-refs': 'yes' });
    await eventually('the webhook denied the collector\'s update', async () => hook.reviews('/deny-update').find(updateBy(GC, 'h-dep')));
    const dep = (await kapi.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/h-dep' })).json() as Meta;
    assert.equal(dep.metadata.ownerReferences?.length, 1);
    const owner = (await kapi.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/h-owner' })).json() as Meta;
    assert.deepEqual(owner.metadata.finalizers, ['orphan']);
    assert.equal((await kapi.request({ method: 'GET', path: '/healthz' })).status, 200);
  });

  it('the namespace controller\'s status update and finalize are admitted as namespace-controller', async () => {
    const ns = body({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed2', labels: { watched: 'yes' } } });
    assert.equal((await kapi.request({ method: 'POST', path: '/api/v1/namespaces', body: ns, contentType: json })).status, 201);
    assert.equal((await kapi.request({ method: 'DELETE', path: '/api/v1/namespaces/doomed2' })).status, 200);
    const finalize = await eventually('the finalize', async () => hook.reviews('/updates').find(updateBy(NS_CONTROLLER, 'doomed2', 'finalize')));
    assert.deepEqual(finalize['options'], UPDATE_OPTIONS);
    assert.deepEqual([(finalize['oldObject'] as { spec: unknown }).spec, (finalize['object'] as { spec: unknown }).spec], [{ finalizers: ['kubernetes'] }, {}]);
    // The conditions came first, written through namespaces/status and recorded for kube-controller-manager.
    const status = hook.reviews('/updates').find(updateBy(NS_CONTROLLER, 'doomed2', 'status'));
    assert.ok(status !== undefined, 'no status update seen');
    assert.ok(metaOf(status, 'object').managedFields?.some((e) => e.manager === 'kube-controller-manager'));
    await eventually('the namespace is gone', async () =>
      ((await kapi.request({ method: 'GET', path: '/api/v1/namespaces/doomed2' })).status === 404 ? true : undefined));
  });

  it('a status update of a Terminating namespace keeps it while spec.finalizers remain', async () => {
    const ns = body({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'held' }, spec: { finalizers: ['example.com/hold'] } });
    assert.equal((await kapi.request({ method: 'POST', path: '/api/v1/namespaces', body: ns, contentType: json })).status, 201);
    assert.equal((await kapi.request({ method: 'DELETE', path: '/api/v1/namespaces/held' })).status, 200);
    // The controller writes its conditions; the namespace stays until its own finalizer goes.
    const terminating = await eventually('the conditions', async () => {
      const r = (await kapi.request({ method: 'GET', path: '/api/v1/namespaces/held' })).json() as { status?: { conditions?: unknown[] } };
      return (r.status?.conditions?.length ?? 0) > 0 ? r : undefined;
    });
    const put = await kapi.request({ method: 'PUT', path: '/api/v1/namespaces/held/status', contentType: json, body: body(terminating) });
    assert.equal(put.status, 200, put.text);
    assert.equal((await kapi.request({ method: 'GET', path: '/api/v1/namespaces/held' })).status, 200);
    const fin = await kapi.request({ method: 'PUT', path: '/api/v1/namespaces/held/finalize', contentType: json,
      body: body({ ...terminating, spec: { finalizers: [] } }) });
    assert.equal(fin.status, 200, fin.text);
    assert.equal((await kapi.request({ method: 'GET', path: '/api/v1/namespaces/held' })).status, 404);
  });
});
