// Start-up of auditing as kube's: off without a policy file, and kube's messages for a policy file
// or a webhook kubeconfig that cannot be used (the server then does not start).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newAuditor, type AuditOptions } from './auditor.ts';

const batch = { bufferSize: 10, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0 };
const truncate = { enabled: false, maxEventSize: 102400, maxBatchSize: 10485760 };

describe('newAuditor', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-auditor-'));
    await writeFile(join(dir, 'empty.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\n');
    await writeFile(join(dir, 'ok.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n');
    await writeFile(join(dir, 'bad.kubeconfig'), 'apiVersion: v1\nkind: Config\n');
  });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  const log = (path: string): AuditOptions['log'] => ({ path, format: 'json', mode: 'blocking', batch, truncate, maxSizeMB: 100, maxBackups: 0, maxAgeDays: 0, compress: false });
  const cases: { name: string; opts: () => AuditOptions; want: () => string }[] = [
    { name: 'a missing policy file', opts: () => ({ policyFile: join(dir, 'nope.yaml'), log: log(join(dir, 'a.log')), webhook: undefined }),
      want: () => `loading audit policy file: failed to read file path "${join(dir, 'nope.yaml')}": open ${join(dir, 'nope.yaml')}: no such file or directory` },
    { name: 'a policy of no rules', opts: () => ({ policyFile: join(dir, 'empty.yaml'), log: log(join(dir, 'a.log')), webhook: undefined }),
      want: () => `loading audit policy file: loaded illegal policy with 0 rules: from file ${join(dir, 'empty.yaml')}` },
    { name: 'a webhook kubeconfig without a server', opts: () => ({ policyFile: join(dir, 'ok.yaml'), log: undefined,
      webhook: { configFile: join(dir, 'bad.kubeconfig'), mode: 'batch', batch, truncate, initialBackoffMs: 10 } }),
    want: () => 'initializing audit webhook: invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable' },
  ];
  for (const c of cases) it(`refuses ${c.name}`, async () => { await assert.rejects(newAuditor(c.opts()), { message: c.want() }); });

  it('is off without a policy file, and without a backend', async () => {
    assert.equal(await newAuditor({ policyFile: undefined, log: log(join(dir, 'b.log')), webhook: undefined }), undefined);
    assert.equal(await newAuditor({ policyFile: join(dir, 'ok.yaml'), log: undefined, webhook: undefined }), undefined);
  });
});
