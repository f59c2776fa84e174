// The post-start hooks in /healthz, /livez and /readyz: kapi lists the hooks it runs under kube's
// names, in kube-apiserver's order (the checks it lists are an ordered part of the oracle's), and
// each one answers on its own path. Needs the oracle for the order; the names alone always run.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startSuite, type Suite } from './testing/suite.ts';

/** The hooks of kube-apiserver v1.36 that kapi runs (kube's names; rbac/bootstrap-roles as kube lists it with RBAC). */
const KAPI_HOOKS = [
  'generic-apiserver-start-informers', 'priority-and-fairness-config-consumer', 'priority-and-fairness-filter',
  'start-apiextensions-informers', 'start-apiextensions-controllers', 'crd-informer-synced',
  'start-system-namespaces-controller', 'start-cluster-authentication-info-controller', 'start-kube-apiserver-identity-lease-controller',
  'start-kube-apiserver-identity-lease-garbage-collector', 'start-legacy-token-tracking-controller', 'rbac/bootstrap-roles',
  'scheduling/bootstrap-system-priority-classes', 'priority-and-fairness-config-producer', 'bootstrap-controller',
  'apiservice-status-local-available-controller', 'apiservice-status-remote-available-controller', 'apiservice-registration-controller',
  'apiservice-discovery-controller', 'kube-apiserver-autoregistration', 'apiservice-openapi-controller', 'apiservice-openapiv3-controller',
].map((h) => `poststarthook/${h}`);

const checks = (verbose: string): string[] =>
  verbose.split('\n').flatMap((l) => /^\[\+\](\S+) ok$/.exec(l)?.[1] ?? []);

describe('post-start hooks in the health endpoints', () => {
  let s: Suite;
  before(async () => { s = await startSuite(); });
  after(async () => { await s?.close(); });

  for (const kind of ['healthz', 'livez', 'readyz']) {
    it(`/${kind}?verbose lists every hook kapi runs, and each answers ok on its own path`, async () => {
      const r = await s.request({ method: 'GET', path: `/${kind}?verbose` });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(checks(r.text).filter((c) => c.startsWith('poststarthook/')), KAPI_HOOKS);
      for (const h of KAPI_HOOKS) {
        const one = await s.request({ method: 'GET', path: `/${kind}/${h}` });
        assert.deepEqual([one.status, one.text], [200, 'ok'], h);
      }
    });
  }
});

const why = oracleUnavailable();
describe('post-start hooks against the reference kube-apiserver', { skip: why }, () => {
  let s: Suite;
  let oracle: Oracle;
  before(async () => { [s, oracle] = await Promise.all([startSuite(), startOracle({ authorizationModes: ['Node', 'RBAC'] })]); });
  after(async () => { await Promise.all([s?.close(), oracle?.stop()]); });

  for (const kind of ['healthz', 'livez', 'readyz']) {
    it(`/${kind}?verbose: kapi's checks are kube's, in kube's order`, async () => {
      const [k, o] = await Promise.all([s, oracle].map(async (srv) => checks((await srv.request({ method: 'GET', path: `/${kind}?verbose` })).text)));
      const kube = o ?? [];
      const positions = (k ?? []).map((c) => kube.indexOf(c));
      assert.deepEqual((k ?? []).filter((_, i) => positions[i] === -1), [], 'checks kube does not have');
      assert.deepEqual(positions, [...positions].sort((a, b) => a - b), `kapi ${JSON.stringify(k)}\nkube ${JSON.stringify(kube)}`);
    });
  }
});
if (why !== undefined) console.log(`post-start hooks against the reference kube-apiserver: skipped: ${why}`);
