import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { buildTransformers, validateEncryptionConfiguration } from './config.ts';
import { decodeEncryptedObject } from './kmsv2.ts';
import { poly1305, secretboxOpen, secretboxSeal } from './secretbox.ts';
import { startTestKmsPlugin } from './testing/kms-plugin.ts';

const KEY = '/registry/secrets/default/s1';
const b64 = (n: number, fill = 1): string => Buffer.alloc(n, fill).toString('base64');
const cfg = (providers: unknown[], resources = ['secrets']): Record<string, unknown> => ({
  kind: 'EncryptionConfiguration', apiVersion: 'apiserver.config.k8s.io/v1', resources: [{ resources, providers }],
});
const tf = (providers: unknown[]) => {
  const t = buildTransformers(cfg(providers)).forResource({ group: '', resource: 'secrets' });
  assert.ok(t);
  return t;
};
const plain = Buffer.from('{"kind":"Secret","data":{"é":"x"}}');

describe('value transformers', () => {
  const cases = [
    { name: 'aescbc', providers: [{ aescbc: { keys: [{ name: 'k1', secret: b64(32) }] } }], prefix: 'k8s:enc:aescbc:v1:k1:' },
    { name: 'aesgcm', providers: [{ aesgcm: { keys: [{ name: 'k1', secret: b64(16) }] } }], prefix: 'k8s:enc:aesgcm:v1:k1:' },
    { name: 'secretbox', providers: [{ secretbox: { keys: [{ name: 'k1', secret: b64(32) }] } }], prefix: 'k8s:enc:secretbox:v1:k1:' },
    { name: 'identity', providers: [{ identity: {} }], prefix: '' },
  ];
  for (const c of cases) {
    it(`${c.name}: round trip with kube's prefix`, async () => {
      const t = tf(c.providers);
      const stored = await t.toStorage(plain, KEY);
      assert.equal(stored.subarray(0, c.prefix.length).toString(), c.prefix);
      if (c.prefix !== '') assert.ok(!stored.includes(Buffer.from('Secret')));
      const back = await t.fromStorage(stored, KEY);
      assert.deepEqual(back, { data: plain, stale: false });
    });
  }

  it('aescbc: layout is IV + PKCS#7 CBC (decrypts with node crypto directly)', async () => {
    const key = Buffer.alloc(32, 7);
    const stored = await tf([{ aescbc: { keys: [{ name: 'k', secret: key.toString('base64') }] } }]).toStorage(plain, KEY);
    const body = stored.subarray('k8s:enc:aescbc:v1:k:'.length);
    const d = createDecipheriv('aes-256-cbc', key, body.subarray(0, 16));
    assert.deepEqual(Buffer.concat([d.update(body.subarray(16)), d.final()]), plain);
  });

  it('aesgcm: nonce + ciphertext + tag, the etcd key as authenticated data', async () => {
    const key = Buffer.alloc(32, 9);
    const nonce = Buffer.alloc(12, 3);
    const c = createCipheriv('aes-256-gcm', key, nonce);
    c.setAAD(Buffer.from(KEY));
    const kube = Buffer.concat([Buffer.from('k8s:enc:aesgcm:v1:k:'), nonce, c.update(plain), c.final(), c.getAuthTag()]);
    const t = tf([{ aesgcm: { keys: [{ name: 'k', secret: key.toString('base64') }] } }]);
    assert.deepEqual((await t.fromStorage(kube, KEY)).data, plain);
    // Moved to another key: authentication fails.
    await assert.rejects(t.fromStorage(kube, '/registry/secrets/default/other'), /message authentication failed/);
  });

  it('secretbox matches golang.org/x/crypto/nacl/secretbox byte for byte', () => {
    const k = Buffer.from(Array.from({ length: 32 }, (_, i) => i));
    const n = Buffer.from(Array.from({ length: 24 }, (_, i) => 100 + i));
    const m = Buffer.from(Array.from({ length: 150 }, (_, i) => (i * 7) & 255));
    const want = '713d1ab021c139974ea4b4dcfbdc275a02be97dc2695e4d888c265d963dfc1714edd46226835d1ba0ea3f429ce401b5148881aedb33491f5ed09314f34289f2c91c7f07d7ef543de8b6ec5997f192cdd834c82b814dfa27b417019ff54d8cfba64a0b342ebac2163faf4ff5afc6d775f5a6e47ce531af016dba4996648a797316838886ffb187a4808c358fe807aa4453e87838dab6db7b8f59cedf5091202bc93dc081a2134';
    assert.equal(secretboxSeal(m, n, k).toString('hex'), want);
    assert.deepEqual(secretboxOpen(Buffer.from(want, 'hex'), n, k), m);
    assert.equal(secretboxOpen(Buffer.from(want, 'hex'), n, Buffer.alloc(32)), undefined);
    // RFC 8439 2.5.2
    assert.equal(poly1305(Buffer.from('85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b', 'hex'),
      Buffer.from('Cryptographic Forum Research Group')).toString('hex'), 'a8061dc1305136c6c22b8baf0c0127a9');
  });

  it('rotation: reads with any listed key (stale unless the first), writes with the first', async () => {
    const old = tf([{ aescbc: { keys: [{ name: 'old', secret: b64(32, 1) }] } }]);
    const stored = await old.toStorage(plain, KEY);
    const rotated = tf([{ aescbc: { keys: [{ name: 'new', secret: b64(32, 2) }, { name: 'old', secret: b64(32, 1) }] } }]);
    assert.deepEqual(await rotated.fromStorage(stored, KEY), { data: plain, stale: true });
    const again = await rotated.toStorage(plain, KEY);
    assert.equal(again.subarray(0, 22).toString(), 'k8s:enc:aescbc:v1:new:');
    assert.equal((await rotated.fromStorage(again, KEY)).stale, false);
    // identity listed second: plain values read, stale.
    const withId = tf([{ aescbc: { keys: [{ name: 'new', secret: b64(32, 2) }] } }, { identity: {} }]);
    assert.deepEqual(await withId.fromStorage(plain, KEY), { data: plain, stale: true });
  });

  const errors = [
    { name: 'missing key name', stored: 'k8s:enc:aescbc:v1:gone:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', err: 'no matching key was found for the provided AES transformer' },
    { name: 'no provider prefix', stored: 'k8s:enc:secretbox:v1:k:abc', err: 'no matching prefix found' },
    { name: 'plain value without identity', stored: '{"a":1}', err: 'no matching prefix found' },
  ];
  for (const c of errors) {
    it(`kube's error: ${c.name}`, async () => {
      const t = tf([{ aescbc: { keys: [{ name: 'k', secret: b64(32) }] } }]);
      await assert.rejects(t.fromStorage(Buffer.from(c.stored), KEY), (e: Error) => e.message === c.err);
    });
  }
  it("kube's error: identity reading encrypted data", async () => {
    await assert.rejects(tf([{ identity: {} }]).fromStorage(Buffer.from('k8s:enc:aescbc:v1:k:zz'), KEY), /no matching prefix found/);
  });

  it('rules: exact resource, then *.<group>, then *.*; custom resources by plural.group', () => {
    const set = buildTransformers({ resources: [
      { resources: ['secrets'], providers: [{ identity: {} }] },
      { resources: ['*.apps'], providers: [{ aesgcm: { keys: [{ name: 'a', secret: b64(32) }] } }] },
      { resources: ['*.*'], providers: [{ secretbox: { keys: [{ name: 'b', secret: b64(32) }] } }] },
    ] });
    const s = set.forResource({ group: '', resource: 'secrets' });
    const apps = set.forResource({ group: 'apps', resource: 'deployments' });
    const cr = set.forResource({ group: 'example.com', resource: 'widgets' });
    assert.ok(s && apps && cr);
    assert.notEqual(s, apps);
    assert.notEqual(apps, cr);
    assert.equal(buildTransformers(cfg([{ identity: {} }])).forResource({ group: '', resource: 'configmaps' }), undefined);
  });
});

describe('kms v2 over gRPC with a test plugin', () => {
  const plugins: { stop(): Promise<void> }[] = [];
  after(async () => { for (const p of plugins) await p.stop(); });

  it('writes kube\'s EncryptedObject after k8s:enc:kms:v2:<name>: and reads it back; one DEK for many writes', async () => {
    const plugin = await startTestKmsPlugin('key-1');
    plugins.push(plugin);
    const set = buildTransformers(cfg([{ kms: { apiVersion: 'v2', name: 'test', endpoint: plugin.endpoint, timeout: '3s' } }]));
    const t = set.forResource({ group: '', resource: 'secrets' });
    assert.ok(t);
    const a = await t.toStorage(plain, KEY);
    const b = await t.toStorage(plain, KEY);
    const prefix = 'k8s:enc:kms:v2:test:';
    assert.equal(a.subarray(0, prefix.length).toString(), prefix);
    const o = decodeEncryptedObject(a.subarray(prefix.length));
    assert.equal(o.keyID, 'key-1');
    assert.equal(o.encryptedDEKSourceType, 1);
    assert.equal(o.encryptedData.length, 32 + 12 + plain.length + 16);
    assert.deepEqual(o.annotations.get('kms.kapi.test'), Buffer.from('1'));
    assert.equal(plugin.calls.Encrypt, 1);
    assert.deepEqual((await t.fromStorage(b, KEY)).data, plain);
    // A fresh server (empty DEK cache) decrypts through the plugin.
    const fresh = buildTransformers(cfg([{ kms: { apiVersion: 'v2', name: 'test', endpoint: plugin.endpoint, timeout: '3s' } }]));
    assert.deepEqual((await fresh.forResource({ group: '', resource: 'secrets' })?.fromStorage(a, KEY))?.data, plain);
    assert.equal(plugin.calls.Decrypt, 1);
    set.close(); fresh.close();
  });

  it('a new key ID at the plugin: a new DEK for later writes, older values read stale', async () => {
    const plugin = await startTestKmsPlugin('key-1');
    plugins.push(plugin);
    const set = buildTransformers(cfg([{ kms: { apiVersion: 'v2', name: 'test', endpoint: plugin.endpoint, timeout: '3s' } }]));
    const t = set.forResource({ group: '', resource: 'secrets' });
    const p = set.kmsProviders[0];
    assert.ok(t && p);
    const old = await t.toStorage(plain, KEY);
    assert.equal((await t.fromStorage(old, KEY)).stale, false);
    plugin.keyId = 'key-2';
    assert.equal(await p.envelope.refreshKeyId(), 'key-2');
    const fresh = await t.toStorage(plain, KEY);
    assert.equal(decodeEncryptedObject(fresh.subarray(20)).keyID, 'key-2');
    assert.equal(plugin.calls.Encrypt, 2);
    assert.deepEqual(await t.fromStorage(old, KEY), { data: plain, stale: true });
    assert.equal((await t.fromStorage(fresh, KEY)).stale, false);
    set.close();
  });

  it('a plugin that cannot decrypt gives kube\'s "failed to decrypt DEK" error', async () => {
    const plugin = await startTestKmsPlugin('key-1');
    plugins.push(plugin);
    const set = buildTransformers(cfg([{ kms: { apiVersion: 'v2', name: 'test', endpoint: plugin.endpoint, timeout: '3s' } }]));
    const stored = await set.forResource({ group: '', resource: 'secrets' })?.toStorage(plain, KEY);
    assert.ok(stored);
    const other = buildTransformers(cfg([{ kms: { apiVersion: 'v2', name: 'test', endpoint: plugin.endpoint, timeout: '3s' } }]));
    // Tamper the key ID the DEK was encrypted under.
    const o = decodeEncryptedObject(stored.subarray(20));
    const { encodeEncryptedObject } = await import('./kmsv2.ts');
    const bad = Buffer.concat([stored.subarray(0, 20), encodeEncryptedObject({ ...o, keyID: 'key-9' })]);
    await assert.rejects(other.forResource({ group: '', resource: 'secrets' })?.fromStorage(bad, KEY) ?? Promise.resolve(),
      /^Error: failed to decrypt DEK, error: 3 INVALID_ARGUMENT: cannot decrypt with key key-9$/);
    set.close(); other.close();
  });
});

describe('EncryptionConfiguration validation (kube messages)', () => {
  const cases: { name: string; providers: unknown[]; resources?: string[]; want: string[] }[] = [
    { name: 'short aescbc key', providers: [{ aescbc: { keys: [{ name: 'k', secret: b64(8) }] } }],
      want: ['resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of [16 24 32]'] },
    { name: 'secretbox 16-byte key', providers: [{ secretbox: { keys: [{ name: 'k', secret: b64(16) }] } }],
      want: ['resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32]'] },
    { name: 'not base64', providers: [{ aesgcm: { keys: [{ name: 'k', secret: '!!!' }] } }],
      want: ['resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded'] },
    { name: 'no keys', providers: [{ aesgcm: { keys: [] } }], want: ['resources[0].providers[0].aesgcm.keys: Required value: at least one keys is required'] },
    { name: 'star resource', providers: [{ identity: {} }], resources: ['*'],
      want: ['resources[0].resources[0]: Invalid value: "*": use \'*.\' to encrypt all the resources from core API group or *.* to encrypt all resources'] },
    { name: 'kms name with colon', providers: [{ kms: { apiVersion: 'v2', name: 'a:b', endpoint: 'unix:///x', timeout: '3s' } }],
      want: ['resources[0].providers[0].kms.name: Invalid value: "a:b": invalid KMS provider name a:b, must not contain \':\''] },
    { name: 'kms tcp endpoint', providers: [{ kms: { apiVersion: 'v2', name: 'a', endpoint: 'tcp://x', timeout: '3s' } }],
      want: ['resources[0].providers[0].kms.endpoint: Invalid value: "tcp://x": unsupported scheme "tcp" for KMS provider, only unix is supported'] },
  ];
  for (const c of cases) {
    it(c.name, () => { assert.deepEqual(validateEncryptionConfiguration(cfg(c.providers, c.resources)), c.want); });
  }
});
