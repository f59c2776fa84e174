// The in-process garbage collector and namespace controller delete through the admission chain,
// as kube's (kube-controller-manager's, API clients under their service accounts) do: a webhook
// sees their deletes with the controller's identity, and a webhook's denial stops them.
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
});
