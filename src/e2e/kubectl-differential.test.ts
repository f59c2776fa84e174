// kubectl 1.27 to 1.35 against kapi and the oracle (kube-apiserver v1.36.3), each server with the
// oracle build's kube-controller-manager so that Deployments roll out, Nodes register and
// namespaces empty on both: every kubectl version runs the core steps of the workflow
// (testing/kubectl-workflow.ts), 1.33 and 1.35 run all of it, and the normalised outputs (exit
// code, stdout, stderr) must be equal, minus the differences intended-differences.ts lists.
// Skipped, with the reason, when the oracle build is not cached.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectlIntendedDifferences } from './testing/intended-differences.ts';
import { kubeControllerManagerUnavailable, startKubeControllerManager, type KubeControllerManager } from './testing/kube-controller-manager.ts';
import {
  describeStepDifference, kubectlVersions, listedStepDifference, runSteps, type KubectlVersion, type StepDifference,
} from './testing/kubectl-differential.ts';
import { workflow } from './testing/kubectl-workflow.ts';
import { writeTokenOnlyKubeconfig } from './testing/kubectl.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startSuite, type Suite } from './testing/suite.ts';

/** The versions that run the whole workflow; the others run its core steps. */
const FULL = new Set(['1.33', '1.35']);

const versions = kubectlVersions();
const skip = oracleUnavailable() ?? kubeControllerManagerUnavailable() ??
  (versions.found.length === 0 ? `no kubectl binary found: ${versions.missing.join('; ')}` : undefined);
if (skip !== undefined) console.log(`# kubectl differential test skipped: ${skip}`);
for (const m of versions.missing) console.log(`# kubectl differential test runs without ${m}`);

/** Files the steps read: a TLS pair, a CSR, and the EDITOR script of `kubectl edit`. */
async function writeStepFiles(dir: string): Promise<string> {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  execFileSync('openssl', ['req', '-x509', ...ec, '-keyout', join(dir, 'tls.key'), '-out', join(dir, 'tls.crt'), '-subj', '/CN=kd', '-days', '1'],
    { stdio: 'ignore' });
  execFileSync('openssl', ['req', '-new', ...ec, '-keyout', join(dir, 'csr.key'), '-out', join(dir, 'csr.pem'), '-subj', '/CN=kd-user'],
    { stdio: 'ignore' });
  await writeFile(join(dir, 'editor.sh'), `sed -i 's/^  a: "1"/  a: "edited"/' "$1"\n`);
  return (await readFile(join(dir, 'csr.pem'))).toString('base64');
}

describe('kubectl against kapi and kube-apiserver', { skip: skip ?? false }, () => {
  let kapi: Suite;
  let oracle: Oracle;
  const controllers: KubeControllerManager[] = [];
  let dir: string;
  let csr: string;
  let kapiKubeconfig = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-kubectl-diff-'));
    csr = await writeStepFiles(dir);
    [kapi, oracle] = await Promise.all([startSuite(), startOracle()]);
    // The oracle's admin authenticates by token; so does kapi's here, or whoami differs by design.
    kapiKubeconfig = join(dir, 'kapi-token.kubeconfig');
    await writeTokenOnlyKubeconfig(kapi.server.kubeconfigPath, kapiKubeconfig);
    for (const kubeconfigPath of [kapiKubeconfig, oracle.kubeconfigPath]) {
      controllers.push(await startKubeControllerManager({ kubeconfigPath }));
    }
  });
  after(async () => {
    for (const c of controllers) await c.stop();
    await kapi?.close();
    await oracle?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  const seen: StepDifference[] = [];

  const runVersion = async (v: KubectlVersion): Promise<void> => {
    const name = v.name.replace('.', '');
    const homes = await Promise.all([mkdtemp(join(dir, `home-kapi-${name}-`)), mkdtemp(join(dir, `home-oracle-${name}-`))]);
    const steps = workflow(csr).filter((s) => FULL.has(v.name) || s.core === true);
    const reports = await runSteps(v, steps, { kubeconfigPath: kapiKubeconfig, home: homes[0] },
      { kubeconfigPath: oracle.kubeconfigPath, home: homes[1] }, { ns: `kd-${name}`, v: name, dir });
    const mine = reports.flatMap((r) => r.differences);
    seen.push(...mine);
    const defects = mine.filter((d) => listedStepDifference(d, kubectlIntendedDifferences) === undefined);
    console.log(`# kubectl ${v.name}: ${reports.length} steps, ${reports.length - new Set(mine.map((d) => d.id)).size} alike`);
    assert.equal(defects.length, 0, `kubectl ${v.name} prints differently on kapi:\n${defects.map(describeStepDifference).join('\n')}`);
  };

  for (const v of versions.found) {
    it(`kubectl ${v.name}: ${FULL.has(v.name) ? 'the whole workflow' : 'the core steps'} print alike`, () => runVersion(v));
  }

  it('every listed kubectl difference still shows', () => {
    const unused = kubectlIntendedDifferences.filter((e) => !seen.some((d) => listedStepDifference(d, [e]) === e));
    assert.deepEqual(unused.map((e) => `${String(e.cases)} ${e.where}: ${e.reason}`), []);
  });
});
