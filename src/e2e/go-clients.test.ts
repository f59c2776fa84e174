// Real Go clients against kapi: the module clients/go (client-go typed clients in JSON and protobuf,
// the dynamic client on a CRD, shared informers, server-side apply, watch-list, and a
// controller-runtime operator on envtest with USE_EXISTING_CLUSTER) run by `go test` with kapi's
// admin kubeconfig, and with the oracle's when its build is cached. Compiled packages stay in Go's
// build cache, so only the first run on a machine pays for compiling client-go and controller-runtime.
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { goUnavailable, runGoTest, type GoTestRun } from './testing/go-test.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { backendFromEnv, startSuite, type Suite } from './testing/suite.ts';

const MODULE = fileURLToPath(new URL('../../clients/go/', import.meta.url));

/** Every top-level test of the module: one missing from the run (renamed, or never reached) fails too. */
const EXPECTED = [
  'kapi.local/clients/clientgo/TestTypedConfigMaps',
  'kapi.local/clients/clientgo/TestTypedDeployments',
  'kapi.local/clients/clientgo/TestDynamicCustomResources',
  'kapi.local/clients/clientgo/TestCRDClientsetProtobuf',
  'kapi.local/clients/clientgo/TestSharedInformer',
  'kapi.local/clients/clientgo/TestServerSideApply',
  'kapi.local/clients/clientgo/TestServerSideApplyDeployment',
  'kapi.local/clients/clientgo/TestWatchListStream',
  'kapi.local/clients/clientgo/TestReflectorUsesWatchList',
  'kapi.local/clients/operator/TestOperatorOnEnvtest',
];

/**
 * Tests that find a kapi defect not fixed yet, by Go test name, with the defect: they are skipped
 * (go test -skip) and reported; remove an entry once kapi is fixed.
 */
const KAPI_DEFECTS: Readonly<Record<string, string>> = {};

/**
 * What the oracle cannot do on Debian's etcd 3.4, which it falls back to only when its own etcd is
 * not built (scripts/build-oracle.sh builds it with kube-apiserver).
 */
const DEBIAN_ETCD_LIMITS: Readonly<Record<string, string>> = {
  TestWatchListStream: 'kube-apiserver on Debian\'s etcd 3.4 answers sendInitialEvents with 500 "the required storage feature RequestWatchProgress is disabled"',
  TestReflectorUsesWatchList: 'the same: the reflector falls back to LIST',
};

/** -count=1: the results depend on the server, never on Go's test cache. */
const GO_TEST_FLAGS = ['-count=1', '-timeout=15m'];

/** A guard against a hang, not a timing assertion: the first build of the module on 2 cores takes minutes. */
const RUN_TIMEOUT_MS = 20 * 60_000;

function describeRun(run: GoTestRun): string {
  const failed = [...run.results].filter(([, action]) => action === 'fail').map(([name]) => name);
  return `go test exited with ${run.exitCode}; failed: ${failed.length === 0 ? 'none reported' : failed.join(', ')}\n` +
    `--- go test output ---\n${run.output}`;
}

/** Runs the module against the server of `kubeconfig`, skipping the tests `skips` names, and asserts the rest pass. */
async function passesGoTests(t: TestContext, kubeconfig: string, skips: Readonly<Record<string, string>>): Promise<void> {
  const names = Object.keys(skips);
  const skipArgs = names.length === 0 ? [] : [`-skip=^(${names.join('|')})$`];
  const env = { KUBECONFIG: kubeconfig, USE_EXISTING_CLUSTER: 'true', KUBE_FEATURE_WatchListClient: 'true' };
  const runs = [
    // client-go compares every watch-list sync with a LIST at the same revision, and panics on a
    // difference. Not for the operator: client-go clears apiVersion and kind of every object a
    // watch delivers (WithoutVersionDecoder) while a typed list's items keep theirs, and custom
    // resources carry them in lists, so the detector sees a difference whatever the server.
    await runGoTest({ dir: MODULE, args: [...GO_TEST_FLAGS, ...skipArgs, './clientgo/...'], env: { ...env, KUBE_WATCHLIST_INCONSISTENCY_DETECTOR: 'true' } }),
    await runGoTest({ dir: MODULE, args: [...GO_TEST_FLAGS, ...skipArgs, './operator/...'], env }),
  ];
  for (const run of runs) {
    t.diagnostic(`go test took ${(run.elapsedMs / 1000).toFixed(1)} s (build included)`);
    assert.equal(run.exitCode, 0, describeRun(run));
  }
  for (const [name, why] of Object.entries(skips)) t.diagnostic(`skipped ${name}: ${why}`);
  const results = new Map(runs.flatMap((r) => [...r.results]));
  const missing = EXPECTED.filter((name) => !Object.hasOwn(skips, name.slice(name.lastIndexOf('/') + 1)) && results.get(name) !== 'pass');
  assert.deepEqual(missing, [], `tests that did not pass: ${missing.join(', ')}\n${runs.map(describeRun).join('\n')}`);
}

describe('Go clients (client-go, controller-runtime envtest) against kapi', () => {
  let s: Suite | undefined;

  before(async () => {
    const why = await goUnavailable();
    if (why !== undefined) throw new Error(why);
    s = await startSuite();
  });
  after(async () => { await s?.close(); });

  it('passes go test in clients/go', { timeout: RUN_TIMEOUT_MS }, async (t) => {
    assert.ok(s !== undefined);
    await passesGoTests(t, s.server.kubeconfigPath, KAPI_DEFECTS);
  });
});

// The same tests against kube-apiserver prove they test kube's behaviour; once per `npm test` (the
// oracle has its own etcd, so the run on kapi's etcd3 backend would repeat it).
const oracleSkip = oracleUnavailable() ?? (backendFromEnv() === 'etcd3' ? 'run on the sqlite pass only' : undefined);
describe('Go clients against the reference kube-apiserver', { skip: oracleSkip ?? false }, () => {
  let o: Oracle | undefined;

  before(async () => {
    const why = await goUnavailable();
    if (why !== undefined) throw new Error(why);
    o = await startOracle();
  });
  after(async () => { await o?.stop(); });

  it('passes go test in clients/go', { timeout: RUN_TIMEOUT_MS }, async (t) => {
    assert.ok(o !== undefined);
    await passesGoTests(t, o.kubeconfigPath, o.etcd.version === 'system' ? DEBIAN_ETCD_LIMITS : {});
  });
});
