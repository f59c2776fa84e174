// The official Python client (`kubernetes` from PyPI, the version clients/python/requirements.txt
// pins) runs its e2e suite, clients/python/e2e/, against kapi; and against the reference
// kube-apiserver (the oracle) when its build is cached, so that the suite itself is checked
// against the real thing. The venv is made once per machine (testing/python-client.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { oracleUnavailable, startOracle } from './testing/oracle.ts';
import { ensurePythonClient, runPythonE2E, type PythonClient, type RunResult } from './testing/python-client.ts';
import { backendFromEnv, startSuite, type Suite } from './testing/suite.ts';

/** The suite's own summary line ("Ran 26 tests in 8.1s"), for the log of a passing run. */
function summary(r: RunResult): string {
  return /^Ran \d+ tests? in .*$/m.exec(r.output)?.[0] ?? '(no summary)';
}

function assertPassed(r: RunResult, server: string, context = ''): void {
  assert.equal(r.code, 0, `the Python client's e2e suite failed against ${server}:\n${r.output}${context}`);
  assert.match(r.output, /^OK\b/m, r.output);
}

// The oracle does not depend on kapi's backend: it runs on the first (sqlite) pass only.
const oracleSkip = oracleUnavailable() ?? (backendFromEnv() === 'etcd3' ? 'the oracle run belongs to the sqlite pass' : undefined);

describe('the Python client from PyPI', () => {
  let py: PythonClient;
  let s: Suite | undefined;

  before(async () => {
    py = await ensurePythonClient();
    s = await startSuite();
  });
  after(async () => { await s?.close(); });

  it('passes its e2e suite against kapi', async () => {
    assert.ok(s !== undefined);
    const r = await runPythonE2E(py, s.server.kubeconfigPath);
    assertPassed(r, 'kapi');
    console.log(`kubernetes==${py.version}${py.installed ? ' (just installed)' : ''} against kapi: ${summary(r)}`);
  });

  it('passes the same suite against kube-apiserver', { skip: oracleSkip ?? false }, async () => {
    const oracle = await startOracle();
    try {
      const r = await runPythonE2E(py, oracle.kubeconfigPath);
      assertPassed(r, `kube-apiserver ${oracle.version}`, `\nkube-apiserver's last lines:\n${oracle.logTail().slice(-2000)}`);
      console.log(`kubernetes==${py.version} against kube-apiserver ${oracle.version}: ${summary(r)}`);
    } finally {
      await oracle.stop();
    }
  });
});
