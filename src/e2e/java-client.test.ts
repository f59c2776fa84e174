// A Java client (fabric8 kubernetes-client from Maven Central, clients/java) runs a short workflow
// against kapi over TLS with kapi's admin kubeconfig: create, get, list, update, edit, JSON merge,
// JSON and strategic merge patches, server-side apply, a watch, a SharedIndexInformer, a streaming
// (watch-list) list, a CRD and its custom resources through the generic client, pagination, 409,
// 404 and 422 as KubernetesClientException, and a pod log error. The same workflow runs against
// the reference kube-apiserver when its build is cached, and both must print the same lines.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildJavaWorkflow, javaUnavailable, runJavaWorkflow, type JavaWorkflow, type WorkflowRun } from './testing/java-client.ts';
import { oracleUnavailable, startOracle } from './testing/oracle.ts';
import { backendFromEnv, startSuite, type Suite } from './testing/suite.ts';

/** Every step of the workflow: one missing (renamed, or never reached) fails too. */
const STEPS = [
  'namespace', 'create', 'get', 'list', 'update', 'edit',
  'patch json merge', 'patch json', 'patch strategic', 'server-side apply', 'server-side apply conflict',
  'watch', 'informer', 'streaming list',
  'crd', 'custom resource create', 'custom resource get/list/patch', 'custom resource invalid', 'custom resource delete',
  'pagination', 'pagination bad continue',
  'conflict on update', 'conflict on create', 'not found', 'not found on update', 'invalid', 'delete',
  'pod log', 'pod log error', 'pod exec error', 'delete namespace',
];

function stepName(line: string): string {
  return line.replace(/^(STEP|FAIL) /, '').replace(/: .*$/s, '');
}

function assertPassed(r: WorkflowRun, server: string, context = ''): void {
  const failed = r.steps.filter((l) => l.startsWith('FAIL '));
  assert.deepEqual(failed, [], `the Java workflow failed against ${server}:\n${r.output}${context}`);
  assert.equal(r.code, 0, `java exited with ${r.code} against ${server}:\n${r.output}${context}`);
  assert.deepEqual(r.steps.map(stepName), STEPS, r.output);
}

// The oracle does not depend on kapi's backend: it runs on the first (sqlite) pass only.
const oracleSkip = oracleUnavailable() ?? (backendFromEnv() === 'etcd3' ? 'the oracle run belongs to the sqlite pass' : undefined);

describe('the Java client (fabric8 kubernetes-client)', () => {
  let w: JavaWorkflow;
  let s: Suite | undefined;
  let kapiSteps: readonly string[] | undefined;

  before(async () => {
    const why = await javaUnavailable();
    if (why !== undefined) throw new Error(why);
    w = await buildJavaWorkflow();
    console.log(`mvn built clients/java in ${(w.buildMs / 1000).toFixed(1)} s`);
    s = await startSuite();
  });
  after(async () => { await s?.close(); });

  it('runs its workflow against kapi', async () => {
    assert.ok(s !== undefined);
    const r = await runJavaWorkflow(w, s.server.kubeconfigPath);
    assertPassed(r, 'kapi');
    kapiSteps = r.steps;
    if (process.env['KAPI_JAVA_STEPS'] === '1') console.log(r.steps.join('\n'));
  });

  it('runs the same workflow against kube-apiserver, with the same results', { skip: oracleSkip ?? false }, async (t) => {
    const oracle = await startOracle();
    try {
      const r = await runJavaWorkflow(w, oracle.kubeconfigPath);
      assertPassed(r, `kube-apiserver ${oracle.version}`, `\nkube-apiserver's last lines:\n${oracle.logTail().slice(-2000)}`);
      assert.ok(kapiSteps !== undefined, 'the kapi run failed');
      assert.deepEqual(kapiSteps, r.steps);
      t.diagnostic(`kube-apiserver ${oracle.version} and kapi agree on ${r.steps.length} steps`);
    } finally {
      await oracle.stop();
    }
  });
});
