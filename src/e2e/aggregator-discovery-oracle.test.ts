// The aggregator's discovery and OpenAPI merging, kapi against the reference kube-apiserver: the
// same backend (discovery-backend.ts) behind the same Service, EndpointSlice and APIService, and
// both servers list the same groups in the same order (legacy and aggregated), carry the same
// entry for the backend's group version, the same /apis/<group>, the same v3 index entry and
// document, the same v2 paths and definition, and forget the group alike once the APIService is
// deleted. Needs the oracle and a network namespace; skips with the reason otherwise.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newTestPKI, type TestPKI } from '../webhook/testing.ts';
import { createBackendObjects, GROUP, GV, startBackend, V2, type DiscoveryBackend, type Send } from './testing/discovery-backend.ts';
import { createTestAddress, testAddressUnavailable, type TestAddress } from './testing/netns.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

/**
 * Polls `probe` for up to 4 minutes (a guard against a hang, not a timing assertion): kube's
 * OpenAPI controllers retry a backend that was not yet available after a minute, then two.
 */
async function slowly<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

interface AggList { items: { metadata: { name?: string }; versions: { freshness?: string }[] }[] }
interface GroupList { groups: { name: string }[] }
interface V2Doc { paths: Record<string, unknown>; definitions: Record<string, unknown> }

/** What a server shows of the backend once its group version is Current. */
async function observe(send: Send): Promise<Record<string, unknown>> {
  const agg = await eventually('the backend group Current', async () => {
    const r = await send({ method: 'GET', path: '/apis', headers: { accept: V2 } });
    const list = r.json() as AggList;
    return list.items.find((g) => g.metadata.name === GROUP)?.versions[0]?.freshness === 'Current' ? list : undefined;
  });
  const legacy = (await send({ method: 'GET', path: '/apis' })).json() as GroupList;
  const index = await slowly('the backend\'s v3 document in the index', async () => {
    const r = await send({ method: 'GET', path: '/openapi/v3' });
    const paths = (r.json() as { paths: Record<string, { serverRelativeURL: string }> }).paths;
    return paths[`apis/${GV}`];
  });
  const v3 = await send({ method: 'GET', path: index.serverRelativeURL });
  const v2 = await slowly('the backend\'s paths in /openapi/v2', async () => {
    const doc = (await send({ method: 'GET', path: '/openapi/v2', headers: { accept: 'application/json' } })).json() as V2Doc;
    return Object.keys(doc.paths).some((p) => p.startsWith(`/apis/${GV}/`)) ? doc : undefined;
  });
  const group = await send({ method: 'GET', path: `/apis/${GROUP}` });
  return {
    aggregatedGroups: agg.items.map((g) => g.metadata.name ?? ''),
    aggregatedEntry: agg.items.find((g) => g.metadata.name === GROUP),
    legacyGroups: legacy.groups.map((g) => g.name),
    group: [group.status, group.json()],
    v3IndexEntry: index,
    v3Document: [v3.status, v3.json()],
    v2Paths: Object.entries(v2.paths).filter(([p]) => p.startsWith(`/apis/${GV}/`) || p.startsWith('/version')),
    v2Definition: v2.definitions['com.example.wardle.v1alpha1.Flunder'],
  };
}

/** What a server shows once the APIService is deleted. */
async function afterDelete(send: Send): Promise<Record<string, unknown>> {
  const r = await send({ method: 'DELETE', path: `/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.${GROUP}` });
  assert.equal(r.status, 200, r.text);
  await eventually('the group gone from aggregated discovery', async () => {
    const list = (await send({ method: 'GET', path: '/apis', headers: { accept: V2 } })).json() as AggList;
    return list.items.some((g) => g.metadata.name === GROUP) ? undefined : true;
  });
  const legacy = (await send({ method: 'GET', path: '/apis' })).json() as GroupList;
  const index = (await send({ method: 'GET', path: '/openapi/v3' })).json() as { paths: Record<string, unknown> };
  return {
    legacyListsGroup: legacy.groups.some((g) => g.name === GROUP),
    group: (await send({ method: 'GET', path: `/apis/${GROUP}` })).status,
    v3Index: index.paths[`apis/${GV}`] ?? null,
  };
}

/** The aggregator's own calls the backend saw: path, identity and Accept, each once. */
function aggregatorCalls(backend: DiscoveryBackend): string[] {
  const calls = backend.seen.filter((x) => x.user !== undefined && x.user.startsWith('system:') && x.user.includes('aggregator'))
    .filter((x) => ['/apis', `/apis/${GV}`, '/openapi/v2', '/openapi/v3'].includes(x.path))
    .map((x) => JSON.stringify([x.path, x.user, x.groups ?? null, x.accept ?? null]));
  return [...new Set(calls)].sort();
}

const why = oracleUnavailable() ?? await testAddressUnavailable();
describe('aggregator discovery and OpenAPI against the reference kube-apiserver', { skip: why }, () => {
  let s: Suite;
  let oracle: Oracle;
  let local: TestAddress;
  let pki: TestPKI;
  let kapiBackend: DiscoveryBackend;
  let kubeBackend: DiscoveryBackend;

  before(async () => {
    local = await createTestAddress();
    pki = await newTestPKI(['api.wardle.svc'], [local.address]);
    [kapiBackend, kubeBackend] = await Promise.all([startBackend(pki, local.address), startBackend(pki, local.address)]);
    [s, oracle] = await Promise.all([startSuite(), startOracle({ flags: ['--enable-aggregator-routing'] })]);
    await Promise.all([
      createBackendObjects((r) => s.request(r), kapiBackend, local.address, pki.caBundle),
      createBackendObjects((r) => oracle.request(r), kubeBackend, local.address, pki.caBundle),
    ]);
  });
  after(async () => {
    await Promise.all([s?.close(), oracle?.stop()]);
    kapiBackend?.server.close();
    kubeBackend?.server.close();
    await local?.close();
  });

  it('lists, orders and serves the backend\'s group version as kube does', async () => {
    const [k, o] = await Promise.all([observe((r) => s.request(r)), observe((r) => oracle.request(r))]);
    for (const key of Object.keys(o)) assert.deepEqual(k[key], o[key], key);
  });

  it('asks the backend for the same documents as the same users', () => {
    assert.deepEqual(aggregatorCalls(kapiBackend), aggregatorCalls(kubeBackend));
  });

  it('forgets the group once its APIService is deleted, as kube does', async () => {
    const [k, o] = await Promise.all([afterDelete((r) => s.request(r)), afterDelete((r) => oracle.request(r))]);
    assert.deepEqual(k, o);
  });
});
if (why !== undefined) console.log(`aggregator discovery against the reference kube-apiserver: skipped: ${why}`);
