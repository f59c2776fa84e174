// A server whose etcd holds values nobody can decode starts and serves, as kube-apiserver v1.36
// does: the informers and watch caches of those resources keep retrying their lists, lists and
// watches of those resources answer 429 "storage is (re)initializing: failed to list <type>:
// <error>", a get of the corrupt object answers the decoder's 500, every other object and
// resource is served, /readyz reports informer-sync and the CRD hooks failing; once the values
// are gone everything serves and /readyz is ok. With the oracle cached, kube-apiserver on the same
// etcd is asked the same requests and must answer the same.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { serverURL } from '../cli/kubeconfig.ts';
import { startOracleEtcd, type OracleEtcd } from '../oracle/etcd.ts';
import { spawnKubeApiserver, type KubeApiserverProcess } from '../oracle/kube-apiserver.ts';
import { openEtcdBackend, type EtcdBackend } from '../storage/etcd3/etcd3-backend.ts';
import { startKapiOnEtcd, type EtcdKapi } from './testing/etcd-kapi.ts';
import { expectStatus, guard } from './testing/etcd-e2e.ts';
import { rawRequest, type RawRequest, type RawResponse } from './testing/https-client.ts';
import { oracleBuildLocation, oracleUnavailable } from './testing/oracle.ts';

const noOracle = oracleUnavailable();
if (noOracle !== undefined) console.log(`# the kube-apiserver comparison of the corrupt-object test is skipped: ${noOracle}`);

const CORRUPT = 'k8s\u0000\u00ff\u00fe garbage';
const CORRUPT_KEYS = [
  '/registry/configmaps/default/bad',
  '/registry/namespaces/zz-bad',
  '/registry/clusterroles/zz-bad',
  '/registry/apiextensions.k8s.io/customresourcedefinitions/bad.example.com',
];

const TOO_MANY = (type: string): { code: number; reason: string; message: string } =>
  ({ code: 429, reason: 'TooManyRequests', message: `storage is (re)initializing: failed to list ${type}: proto: illegal wireType 7` });

/** The requests asked of both servers, with what kube-apiserver v1.36.3 answers (asked). */
/**
 * A consistent list (no resourceVersion) needs the cache only where etcd answers progress
 * requests (kube's ConsistentReadSupported; the etcd built for the oracle does, Debian's does
 * not): kube sends it to etcd otherwise, which answers the decoder's 500.
 */
const CASES: { name: string; req: RawRequest; want: { code: number; reason?: string; message?: string }; consistent?: boolean }[] = [
  { name: 'list of a resource with a corrupt object', req: { method: 'GET', path: '/api/v1/namespaces/default/configmaps' }, want: TOO_MANY('*core.ConfigMap'), consistent: true },
  { name: 'list from the cache (resourceVersion=0)', req: { method: 'GET', path: '/api/v1/configmaps?resourceVersion=0' }, want: TOO_MANY('*core.ConfigMap') },
  { name: 'watch', req: { method: 'GET', path: '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1' }, want: TOO_MANY('*core.ConfigMap') },
  { name: 'cluster-scoped list', req: { method: 'GET', path: '/api/v1/namespaces' }, want: TOO_MANY('*core.Namespace'), consistent: true },
  { name: 'rbac list', req: { method: 'GET', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles?resourceVersion=0' }, want: TOO_MANY('*rbac.ClusterRole') },
  { name: 'CRD list', req: { method: 'GET', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions' }, want: TOO_MANY('*apiextensions.CustomResourceDefinition'), consistent: true },
  { name: 'get of the corrupt object', req: { method: 'GET', path: '/api/v1/namespaces/default/configmaps/bad' }, want: { code: 500, message: 'proto: illegal wireType 7' } },
  { name: 'get of a good object of that resource', req: { method: 'GET', path: '/api/v1/namespaces/kube-system' }, want: { code: 200 } },
  { name: 'list of another resource', req: { method: 'GET', path: '/api/v1/namespaces/default/secrets' }, want: { code: 200 } },
  // AllowUnsafeMalformedObjectDeletion is alpha and off in v1.36: the option is dropped, the
  // delete reads the object as any delete does.
  { name: 'delete of the corrupt object', req: { method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/bad' }, want: { code: 500, message: 'proto: illegal wireType 7' } },
  { name: 'unsafe delete of the corrupt object (gate off)', req: { method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/bad?ignoreStoreReadErrorWithClusterBreakingPotential=true' },
    want: { code: 500, message: 'proto: illegal wireType 7' } },
  { name: 'unsafe delete in a body (gate off)', req: { method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/bad',
    body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', ignoreStoreReadErrorWithClusterBreakingPotential: true }) }, want: { code: 500, message: 'proto: illegal wireType 7' } },
  // kube lists the collection in pages, which its cache sends to etcd while it cannot list.
  { name: 'deletecollection with the option (gate off)', req: { method: 'DELETE', path: '/api/v1/namespaces/default/configmaps?ignoreStoreReadErrorWithClusterBreakingPotential=true&dryRun=All' },
    want: { code: 500, message: 'proto: illegal wireType 7' } },
];

/** What a response says, in the terms of CASES. */
function answer(r: RawResponse): { code: number; reason?: string; message?: string } {
  if (r.status === 200) return { code: 200 };
  const s = r.json() as { reason?: string; message?: string };
  return { code: r.status, ...(s.reason !== undefined && s.reason !== '' ? { reason: s.reason } : {}), ...(s.message !== undefined ? { message: s.message } : {}) };
}

async function readyz(request: (r: RawRequest) => Promise<RawResponse>): Promise<{ status: number; failed: string[] }> {
  const r = await request({ method: 'GET', path: '/readyz?verbose' });
  return { status: r.status, failed: [...r.text.matchAll(/^\[-\](\S+) failed/gm)].map((m) => m[1] ?? '') };
}

describe('values nobody can decode in etcd', () => {
  let etcd: OracleEtcd;
  let raw: EtcdBackend;
  let kapi: EtcdKapi;
  let kube: KubeApiserverProcess | undefined;

  before(async () => {
    etcd = await startOracleEtcd('kapi-corrupt-objects');
    raw = await openEtcdBackend({ endpoints: [etcd.endpoint], compactionIntervalMs: 0 });
    for (const k of CORRUPT_KEYS) await raw.create(k, CORRUPT);
    // Starting at all is the first finding: kapi exited on the first informer's failed list.
    kapi = await startKapiOnEtcd(etcd.endpoint, { flags: ['--etcd-prefix', '/registry'] });
    if (noOracle === undefined) kube = await spawnKubeApiserver(oracleBuildLocation().kubeApiserver, etcd.endpoint);
  });
  after(async () => {
    await kube?.stop();
    await kapi?.dispose();
    await raw?.close();
    await etcd?.stop();
  });

  it('kapi starts and answers as kube-apiserver v1.36 does', async () => {
    const got = [];
    const want = [];
    for (const c of CASES) {
      got.push({ name: c.name, ...answer(await kapi.request(c.req)) });
      want.push({ name: c.name, ...c.want });
    }
    assert.deepEqual(got, want);
    const ready = await readyz((r) => kapi.request(r));
    assert.equal(ready.status, 500);
    assert.deepEqual(ready.failed, ['informer-sync', 'poststarthook/start-apiextensions-controllers', 'poststarthook/crd-informer-synced']);
    // Writes go on. (kube's admission refuses them, 403 "not yet ready to handle request", while
    // the informers its plugins wait for have not synced: kapi's admission reads storage then.)
    expectStatus(await kapi.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'good' } }) }), 201, 'create a configmap');
  });

  it('kube-apiserver v1.36 answers the same', { skip: noOracle }, async () => {
    assert.ok(kube !== undefined);
    const creds = { server: serverURL(kube.host, kube.port), ca: kube.ca, token: kube.token };
    const request = (r: RawRequest): Promise<RawResponse> => rawRequest(creds, r);
    // kube-apiserver is up once it answers; its caches of the corrupt resources never sync. Until
    // it knows whether etcd supports progress requests it sends consistent lists to etcd (the
    // decoder's 500); then, on the etcd built for the oracle, they need the cache too.
    const progress = etcd.version !== 'system';
    await guard('kube-apiserver answers', 120_000, (async () => {
      for (;;) {
        const r = await request({ method: 'GET', path: '/api/v1/namespaces' }).catch(() => undefined);
        if (r?.status === (progress ? 429 : 500)) return;
        await sleep(200);
      }
    })());
    const cases = CASES.filter((c) => progress || c.consistent !== true);
    const got = [];
    for (const c of cases) got.push({ name: c.name, ...answer(await request(c.req)) });
    assert.deepEqual(got, cases.map((c) => ({ name: c.name, ...c.want })));
    const ready = await readyz(request);
    assert.equal(ready.status, 500);
    for (const f of ['informer-sync', 'poststarthook/start-apiextensions-controllers', 'poststarthook/crd-informer-synced']) assert.ok(ready.failed.includes(f), f);
  });

  it('once the values are gone, kapi serves everything and is ready', async () => {
    for (const k of CORRUPT_KEYS) await raw.delete(k);
    await guard('lists serve again', 120_000, (async () => {
      for (;;) {
        const statuses = await Promise.all(CASES.map(async (c) => (await kapi.request(c.req)).status));
        if (statuses.every((s) => s === 200 || s === 404)) return;
        await sleep(200);
      }
    })());
    await guard('/readyz ok', 120_000, (async () => {
      for (;;) {
        if ((await readyz((r) => kapi.request(r))).status === 200) return;
        await sleep(200);
      }
    })());
    const list = expectStatus(await kapi.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' }), 200, 'list') as { items: { metadata: { name: string } }[] };
    assert.ok(list.items.some((o) => o.metadata.name === 'good'));
  });
});
