// kapi as envtest's kube-apiserver: controller-runtime's envtest starts the binaries of
// KUBEBUILDER_ASSETS with its own command line (cert dir with its serving pair, --client-ca-file,
// service account keys and issuer, --secure-port, --etcd-servers, RBAC, admission flags) and logs
// in with a client certificate. The assets folder holds a `kube-apiserver` that runs kapi's
// command from the sources, Debian's etcd and the machine's kubectl; the Go test
// (clients/go/envtestassets) creates and reads a ConfigMap and a custom resource. The same test
// with the oracle's kube-apiserver in the folder shows it tests kube's behaviour.
// No Go counterpart: end-to-end tests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { goUnavailable, runGoTest, type GoTestRun } from './testing/go-test.ts';
import { oracleBuildLocation, oracleUnavailable } from './testing/oracle.ts';

const MODULE = fileURLToPath(new URL('../../clients/go/', import.meta.url));
const KUBE_APISERVER_SOURCE = fileURLToPath(new URL('../cli/kube-apiserver.ts', import.meta.url));
const TEST = 'kapi.local/clients/envtestassets/TestEnvtestStartsKapi';
/** A guard against a hang, not a timing assertion: the first build of the module takes minutes on 2 cores. */
const RUN_TIMEOUT_MS = 20 * 60_000;

const which = (cmd: string): string => execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim();

/** The folder envtest reads: kube-apiserver (given), etcd and kubectl from the machine. */
async function assets(kubeApiserver: (dir: string) => Promise<void>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kapi-envtest-assets-'));
  await kubeApiserver(dir);
  await symlink(which('etcd'), join(dir, 'etcd'));
  await symlink(which('kubectl'), join(dir, 'kubectl'));
  return dir;
}

/** A kube-apiserver that runs kapi's command from the sources (an npm install has it as the `kube-apiserver` bin). */
async function kapiWrapper(dir: string): Promise<void> {
  const tsx = import.meta.resolve('tsx');
  const path = join(dir, 'kube-apiserver');
  await writeFile(path, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} --import ${JSON.stringify(tsx)} ${JSON.stringify(KUBE_APISERVER_SOURCE)} "$@"\n`);
  await chmod(path, 0o755);
}

const describeRun = (run: GoTestRun): string => `go test exited with ${run.exitCode}\n--- go test output ---\n${run.output}`;

async function runEnvtest(assetsDir: string): Promise<GoTestRun> {
  return await runGoTest({
    dir: MODULE, args: ['-count=1', '-timeout=15m', '-run', '^TestEnvtestStartsKapi$', './envtestassets/'],
    env: { KUBEBUILDER_ASSETS: assetsDir, KAPI_ENVTEST_ASSETS: '1', USE_EXISTING_CLUSTER: 'false' },
  });
}

describe('envtest with kapi\'s kube-apiserver in KUBEBUILDER_ASSETS', () => {
  let dir: string | undefined;
  before(async () => {
    const why = await goUnavailable();
    if (why !== undefined) throw new Error(why);
    dir = await assets(kapiWrapper);
  });
  after(async () => { if (dir !== undefined) await rm(dir, { recursive: true, force: true }); });

  it('starts kapi with envtest\'s command line; the client certificate user creates and reads a ConfigMap and a custom resource', { timeout: RUN_TIMEOUT_MS }, async () => {
    assert.ok(dir !== undefined);
    const run = await runEnvtest(dir);
    assert.equal(run.exitCode, 0, describeRun(run));
    assert.equal(run.results.get(TEST), 'pass', describeRun(run));
  });
});

describe('envtest with the reference kube-apiserver in KUBEBUILDER_ASSETS', { skip: oracleUnavailable() ?? false }, () => {
  let dir: string | undefined;
  before(async () => {
    const why = await goUnavailable();
    if (why !== undefined) throw new Error(why);
    dir = await assets(async (d) => { await symlink(oracleBuildLocation().kubeApiserver, join(d, 'kube-apiserver')); });
  });
  after(async () => { if (dir !== undefined) await rm(dir, { recursive: true, force: true }); });

  it('passes the same test', { timeout: RUN_TIMEOUT_MS }, async () => {
    assert.ok(dir !== undefined);
    const run = await runEnvtest(dir);
    assert.equal(run.exitCode, 0, describeRun(run));
    assert.equal(run.results.get(TEST), 'pass', describeRun(run));
  });
});
