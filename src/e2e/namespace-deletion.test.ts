// Namespace deletion as kube-apiserver v1.36 with kube-controller-manager's namespace controller
// shows it: the namespace turns Terminating; pods go first, and one that lingers past its grace
// period is a deletion failure while nothing else is deleted; then the rest goes, what a finalizer
// holds keeps the namespace there with the controller's conditions; creates in it are refused
// (access reviews aside) while updates are not; it goes once the finalizer is released. kapi runs its
// own namespace controller (controlplane/namespace-controller.ts); the oracle gets the real one.
// kube's answers are recorded in testing/fixtures/namespace-deletion-kube.json; the live oracle and
// kube-controller-manager are asked as well where they are built.
// No Go counterpart: the e2e test harness.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { RawRequest, RawResponse } from './testing/https-client.ts';
import { kubeControllerManagerUnavailable, startKubeControllerManager, type KubeControllerManager } from './testing/kube-controller-manager.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import { outcome, patch, post, type Outcome } from './testing/validation-differential.ts';

type Send = (req: RawRequest) => Promise<RawResponse>;
type Obj = Record<string, unknown>;
const NS = 'ns-deletion';
const FIXTURE = new URL('./testing/fixtures/namespace-deletion-kube.json', import.meta.url);

interface Report {
  readonly steps: Readonly<Record<string, Outcome | unknown>>;
}

/** The namespace's phase and conditions, without their times. */
const namespaceState = (r: RawResponse): unknown => {
  const ns = r.json() as { status?: { phase?: string; conditions?: Obj[] } };
  return { phase: ns.status?.phase, conditions: (ns.status?.conditions ?? []).map(({ lastTransitionTime: _t, ...c }) => c) };
};

/** Polls the namespace until `ready` holds for its state. */
const stateWhen = (send: Send, what: string, ready: (conditions: readonly Obj[]) => boolean): Promise<unknown> =>
  eventually(what, async () => {
    const r = await send({ method: 'GET', path: `/api/v1/namespaces/${NS}` });
    const state = namespaceState(r) as { conditions: Obj[] };
    return ready(state.conditions) ? state : undefined;
  });
const conditionIs = (conditions: readonly Obj[], type: string, status: string): boolean =>
  conditions.some((c) => c['type'] === type && c['status'] === status);

async function observe(send: Send): Promise<Report> {
  const steps: Record<string, unknown> = {};
  const cms = `/api/v1/namespaces/${NS}/configmaps`;
  const secret = `/api/v1/namespaces/${NS}/secrets/s`;
  await send(post('/api/v1/namespaces', { metadata: { name: NS } }));
  await send(post(cms, { metadata: { name: 'held', finalizers: ['example.com/hold'] } }));
  await send(post(`/api/v1/namespaces/${NS}/secrets`, { metadata: { name: 's' } }));
  // a pod bound to a node is deleted gracefully: without a kubelet it lingers, and pods go first
  // (the oracle has no service account controller: the default account is made here)
  await send(post(`/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'default' } }));
  await send(post(`/api/v1/namespaces/${NS}/pods`, { metadata: { name: 'bound' }, spec: { nodeName: 'node-1',
    terminationGracePeriodSeconds: 2, automountServiceAccountToken: false, containers: [{ name: 'c', image: 'busybox' }] } }));
  const del = await send({ method: 'DELETE', path: `/api/v1/namespaces/${NS}` });
  steps['delete'] = { ...outcome(del), state: namespaceState(del) };
  // past the pod's grace period, the lingering pod is a deletion failure; nothing else is deleted yet
  steps['pod lingers'] = await stateWhen(send, 'the pod reported as not deleted', (c) => conditionIs(c, 'NamespaceDeletionContentFailure', 'True'));
  const pod = await send({ method: 'GET', path: `/api/v1/namespaces/${NS}/pods/bound` });
  const podMeta = (pod.json() as { metadata: Obj }).metadata;
  steps['bound pod terminating'] = { code: pod.status, deleting: podMeta['deletionTimestamp'] !== undefined, grace: podMeta['deletionGracePeriodSeconds'] };
  steps['secret kept while a pod remains'] = outcome(await send({ method: 'GET', path: secret }));
  steps['create refused'] = outcome(await send(post(cms, { metadata: { name: 'new' } })));
  steps['dry-run create refused'] = outcome(await send(post(`${cms}?dryRun=All`, { metadata: { name: 'new' } })));
  steps['event refused'] = outcome(await send(post(`/api/v1/namespaces/${NS}/events`,
    { metadata: { name: 'e' }, involvedObject: { kind: 'Pod', name: 'bound', namespace: NS }, reason: 'R', message: 'm' })));
  steps['access review allowed'] = outcome(await send(post(`/apis/authorization.k8s.io/v1/namespaces/${NS}/localsubjectaccessreviews`,
    { spec: { user: 'u', resourceAttributes: { namespace: NS, verb: 'get', resource: 'pods' } } })));
  steps['update allowed'] = outcome(await send(patch(`${cms}/held`, { data: { a: 'b' } })));
  steps['pod force-deleted'] = outcome(await send({ method: 'DELETE', path: `/api/v1/namespaces/${NS}/pods/bound?gracePeriodSeconds=0` }));
  // then the rest goes, but for what a finalizer holds
  steps['finalizer holds'] = await stateWhen(send, 'the remaining content reported', (c) => conditionIs(c, 'NamespaceContentRemaining', 'True'));
  steps['secret deleted'] = outcome(await send({ method: 'GET', path: secret }));
  steps['finalizer released'] = outcome(await send(patch(`${cms}/held`, { metadata: { finalizers: null } })));
  steps['gone'] = await eventually('the namespace to go', async () => {
    const r = await send({ method: 'GET', path: `/api/v1/namespaces/${NS}` });
    return r.status === 404 ? outcome(r) : undefined;
  });
  return { steps };
}

const recording = process.env['KAPI_RECORD'] === '1' && oracleUnavailable() === undefined && kubeControllerManagerUnavailable() === undefined;

describe('namespace deletion agrees with kube-apiserver v1.36 and its namespace controller', () => {
  let suite: Suite;
  let kapi: Report;
  before(async () => {
    suite = await startSuite();
    kapi = await observe(suite.request);
  });
  after(async () => { await suite?.close(); });

  it('as recorded', { skip: recording ? 'KAPI_RECORD=1: the recording is being rewritten' : false }, () => {
    assert.ok(existsSync(FIXTURE), 'record with KAPI_RECORD=1 and the oracle built');
    assert.deepEqual(kapi, JSON.parse(readFileSync(FIXTURE, 'utf8')));
  });

  it('the server stays healthy', async () => {
    assert.equal((await suite.request({ method: 'GET', path: '/readyz' })).status, 200);
  });

  describe('and live', { skip: oracleUnavailable() ?? kubeControllerManagerUnavailable() ?? false }, () => {
    let oracle: Oracle;
    let kcm: KubeControllerManager;
    let kube: Report;
    before(async () => {
      oracle = await startOracle();
      kcm = await startKubeControllerManager({ kubeconfigPath: oracle.kubeconfigPath, flags: ['--controllers=namespace', '--leader-elect=false'] });
      kube = await observe(oracle.request);
      if (recording) writeFileSync(FIXTURE, `${JSON.stringify(kube, null, 1)}\n`);
    });
    after(async () => {
      await kcm?.stop();
      await oracle?.stop();
    });

    it('kapi answers as kube', () => { assert.deepEqual(kapi, kube); });
  });
});
