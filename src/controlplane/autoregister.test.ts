// kube's autoregister rules for the APIServices of what the server serves (autoregister_controller.go
// checkAPIService): those of CRDs (automanaged=true) are kept, those of built-in groups
// (automanaged=onstart) only made at start, and APIServices without the label never touched.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type InProcessServer } from './testing/in-process.ts';

const AS = '/apis/apiregistration.k8s.io/v1/apiservices';
const LABEL = 'kube-aggregator.kubernetes.io/automanaged';

interface APIServiceView { metadata: { name: string; labels?: Record<string, string> }; spec: Record<string, unknown> }

const crd = (group: string): object => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `widgets.${group}` },
  spec: { group, scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
});

/** Polls until `probe` holds (a guard against a hang, not a timing assertion). */
async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await probe()) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('autoregister (APIServices of built-in groups and CRDs)', () => {
  let s: InProcessServer;
  before(async () => { s = await startInProcess({}); });
  after(async () => { await s?.close(); });

  const get = async (name: string): Promise<APIServiceView | undefined> => {
    const r = await s.request({ method: 'GET', url: `${AS}/${name}` });
    return r.statusCode === 200 ? r.json() as APIServiceView : undefined;
  };
  const send = async (method: string, url: string, body?: object, contentType = 'application/json'): Promise<void> => {
    const r = await s.request({ method, url, ...(body === undefined ? {} : { body: JSON.stringify(body) }), headers: { 'content-type': contentType } });
    assert.ok(r.statusCode < 300, `${method} ${url}: ${r.statusCode} ${r.text}`);
  };

  it('a CRD\'s APIService is created, recreated when deleted, and its spec set back when changed', async () => {
    await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('zeta.example.com'));
    await until('v1.zeta.example.com', async () => (await get('v1.zeta.example.com')) !== undefined);
    const want = { group: 'zeta.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 };
    assert.deepEqual((await get('v1.zeta.example.com'))?.metadata.labels, { [LABEL]: 'true' });
    await send('DELETE', `${AS}/v1.zeta.example.com`);
    await until('v1.zeta.example.com recreated', async () => (await get('v1.zeta.example.com')) !== undefined);
    assert.deepEqual((await get('v1.zeta.example.com'))?.spec, want);
    await send('PATCH', `${AS}/v1.zeta.example.com`, { spec: { versionPriority: 50 } }, 'application/merge-patch+json');
    await until('the spec set back', async () => (await get('v1.zeta.example.com'))?.spec['versionPriority'] === 100);
    assert.deepEqual((await get('v1.zeta.example.com'))?.spec, want);
  });

  it('an automanaged=true APIService no CRD serves is deleted; an onstart one made later is left alone', async () => {
    const make = (name: string, group: string, managed: string): object => ({
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name, labels: { [LABEL]: managed } },
      spec: { group, version: 'v9', groupPriorityMinimum: 500, versionPriority: 5 },
    });
    await send('POST', AS, make('v9.spurious.example.com', 'spurious.example.com', 'onstart'));
    await send('POST', AS, make('v9.spurioustrue.example.com', 'spurioustrue.example.com', 'true'));
    await until('v9.spurioustrue.example.com deleted', async () => (await get('v9.spurioustrue.example.com')) === undefined);
    assert.notEqual(await get('v9.spurious.example.com'), undefined);
  });

  it('an APIService a user made for a CRD\'s group version keeps its spec and gets no label', async () => {
    await send('POST', AS, { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1.user.example.com' },
      spec: { group: 'user.example.com', version: 'v1', groupPriorityMinimum: 500, versionPriority: 5 } });
    await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('user.example.com'));
    // The CRD's own APIService of another group shows the controller has synced since.
    await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('later.example.com'));
    await until('v1.later.example.com', async () => (await get('v1.later.example.com')) !== undefined);
    const user = await get('v1.user.example.com');
    assert.equal(user?.metadata.labels, undefined);
    assert.deepEqual(user?.spec, { group: 'user.example.com', version: 'v1', groupPriorityMinimum: 500, versionPriority: 5 });
  });

  it('a built-in group version\'s APIService (onstart) deleted while running stays deleted', async () => {
    assert.deepEqual((await get('v1.apps'))?.metadata.labels, { [LABEL]: 'onstart' });
    await send('DELETE', `${AS}/v1.apps`);
    // A CRD change makes the controllers sync; v1.apps is still not recreated.
    await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('after.example.com'));
    await until('v1.after.example.com', async () => (await get('v1.after.example.com')) !== undefined);
    assert.equal(await get('v1.apps'), undefined);
  });
});
