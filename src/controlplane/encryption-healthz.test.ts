import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTransformers } from '../storage/value/config.ts';
import { startTestKmsPlugin, type TestKmsPlugin } from '../storage/value/testing/kms-plugin.ts';
import { kmsHealthChecks } from './encryption-healthz.ts';

describe('kms-providers health check', () => {
  const plugins: TestKmsPlugin[] = [];
  after(async () => { for (const p of plugins) await p.stop(); });

  it('one check for every KMS v2 provider, failures named kms-provider-<index>', async () => {
    const a = await startTestKmsPlugin();
    const b = await startTestKmsPlugin();
    plugins.push(a, b);
    const kms = (name: string, endpoint: string) => ({ kms: { apiVersion: 'v2', name, endpoint, timeout: '3s' } });
    const enc = buildTransformers({ resources: [{ resources: ['secrets'], providers: [kms('a', a.endpoint), kms('b', b.endpoint)] }] });
    try {
      const checks = kmsHealthChecks(enc);
      assert.deepEqual(checks.map((c) => c.name), ['kms-providers']);
      const check = checks[0];
      assert.ok(check);
      await check.check();
      b.healthz = 'broken';
      await assert.rejects(Promise.resolve(check.check()),
        { message: 'kms-provider-1: kmsv2 Provider b is not healthy, error: got unexpected healthz status: broken' });
      a.keyId = '';
      await assert.rejects(Promise.resolve(check.check()), { message: '[kms-provider-0: kmsv2 Provider a is not healthy, error: got invalid KMSv2 KeyID hash "": keyID is empty, kms-provider-1: kmsv2 Provider b is not healthy, error: got unexpected healthz status: broken]' });
    } finally {
      enc.close();
    }
    assert.deepEqual(kmsHealthChecks(buildTransformers({ resources: [{ resources: ['secrets'], providers: [{ identity: {} }] }] })), []);
  });
});
