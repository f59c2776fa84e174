// Encryption at rest interop with kube-apiserver v1.36.3 (the oracle): both servers on one etcd with
// one EncryptionConfiguration (aescbc for secrets, aesgcm for configmaps, secretbox for
// podtemplates, kms v2 for limitranges through one test KMS plugin). Each writes objects the other
// reads, and the raw etcd values carry kube's prefixes. The oracle stores JSON
// (--storage-media-type application/json) so that the objects are readable whatever encoding kapi
// writes; the encryption layer does not depend on it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEtcdBackend } from '../storage/etcd3/etcd3-backend.ts';
import { valueToBytes } from '../storage/value/bytes.ts';
import { startTestKmsPlugin, type TestKmsPlugin } from '../storage/value/testing/kms-plugin.ts';
import { startKapiOnEtcd, type EtcdKapi } from './testing/etcd-kapi.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import type { RawResponse } from './testing/https-client.ts';

const skip = oracleUnavailable();
if (skip !== undefined) console.log(`skipping encryption interop with the oracle: ${skip}`);

interface Case { readonly name: string; readonly resource: string; readonly prefix: string; readonly body: (name: string) => Record<string, unknown> }
const CASES: readonly Case[] = [
  { name: 'aescbc', resource: 'secrets', prefix: 'k8s:enc:aescbc:v1:key1:',
    body: (name) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { password: `pw-${name}` } }) },
  { name: 'aesgcm', resource: 'configmaps', prefix: 'k8s:enc:aesgcm:v1:key1:',
    body: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: `cm-${name}` } }) },
  { name: 'secretbox', resource: 'podtemplates', prefix: 'k8s:enc:secretbox:v1:key1:',
    body: (name) => ({ apiVersion: 'v1', kind: 'PodTemplate', metadata: { name }, template: { spec: { containers: [{ name: 'c', image: `img-${name}` }] } } }) },
  { name: 'kms v2', resource: 'limitranges', prefix: 'k8s:enc:kms:v2:testkms:',
    body: (name) => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name }, spec: { limits: [{ type: 'Container', max: { cpu: '2' } }] } }) },
];

const key = (n: number): string => Buffer.alloc(32, n).toString('base64');

describe('encryption at rest: kapi and kube-apiserver on one etcd', { skip }, () => {
  let dir: string;
  let plugin: TestKmsPlugin;
  let oracle: Oracle;
  let kapi: EtcdKapi;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-enc-oracle-'));
    plugin = await startTestKmsPlugin('kms-key-1');
    const cfgPath = join(dir, 'encryption.yaml');
    await writeFile(cfgPath, JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1', kind: 'EncryptionConfiguration',
      resources: [
        { resources: ['secrets'], providers: [{ aescbc: { keys: [{ name: 'key1', secret: key(1) }] } }, { identity: {} }] },
        { resources: ['configmaps'], providers: [{ aesgcm: { keys: [{ name: 'key1', secret: key(2) }] } }, { identity: {} }] },
        { resources: ['podtemplates'], providers: [{ secretbox: { keys: [{ name: 'key1', secret: key(3) }] } }, { identity: {} }] },
        { resources: ['limitranges'], providers: [{ kms: { apiVersion: 'v2', name: 'testkms', endpoint: plugin.endpoint, timeout: '5s' } }, { identity: {} }] },
      ],
    }));
    oracle = await startOracle({ flags: ['--encryption-provider-config', cfgPath, '--storage-media-type', 'application/json'] });
    kapi = await startKapiOnEtcd(oracle.etcd.endpoint, { flags: ['--encryption-provider-config', cfgPath] });
  });
  after(async () => {
    await kapi?.dispose();
    await oracle?.stop();
    await plugin?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  const raw = async (k: string): Promise<Buffer | undefined> => {
    const b = await openEtcdBackend({ endpoints: [oracle.etcd.endpoint], compactionIntervalMs: 0 });
    try {
      const v = (await b.range(k)).kvs[0]?.value;
      return v === undefined ? undefined : valueToBytes(v);
    } finally {
      await b.close();
    }
  };
  const post = (send: (r: { method: string; path: string; body: string }) => Promise<RawResponse>, c: Case, name: string) =>
    send({ method: 'POST', path: `/api/v1/namespaces/default/${c.resource}`, body: JSON.stringify(c.body(name)) });
  const get = (send: (r: { method: string; path: string }) => Promise<RawResponse>, c: Case, name: string) =>
    send({ method: 'GET', path: `/api/v1/namespaces/default/${c.resource}/${name}` });

  it('both check the KMS plugin as kms-providers in /healthz and /readyz, not /livez', async () => {
    for (const [who, send] of [['kube', (p: string) => oracle.request({ method: 'GET', path: p })], ['kapi', (p: string) => kapi.request({ method: 'GET', path: p })]] as const) {
      for (const [path, status] of [['/healthz/kms-providers', 200], ['/readyz/kms-providers', 200], ['/livez/kms-providers', 404]] as const) {
        const r = await send(path);
        assert.equal(r.status, status, `${who} ${path}: ${r.body.toString()}`);
      }
    }
  });

  for (const c of CASES) {
    it(`${c.name}: kube writes, kapi reads (and the other way round)`, async () => {
      const fromKube = `kube-${c.resource}`;
      const created = await post((r) => oracle.request(r), c, fromKube);
      assert.equal(created.status, 201, `${created.body.toString()}\n${oracle.logTail()}`);
      const kubeRaw = await raw(`/registry/${c.resource}/default/${fromKube}`);
      assert.equal(kubeRaw?.subarray(0, c.prefix.length).toString(), c.prefix);
      const readByKapi = await get((r) => kapi.request(r), c, fromKube);
      assert.equal(readByKapi.status, 200, readByKapi.body.toString());
      assert.equal((readByKapi.json() as { metadata: { uid: string } }).metadata.uid, (created.json() as { metadata: { uid: string } }).metadata.uid);

      const fromKapi = `kapi-${c.resource}`;
      const made = await post((r) => kapi.request(r), c, fromKapi);
      assert.equal(made.status, 201, made.body.toString());
      const kapiRaw = await raw(`/registry/${c.resource}/default/${fromKapi}`);
      assert.equal(kapiRaw?.subarray(0, c.prefix.length).toString(), c.prefix);
      const readByKube = await get((r) => oracle.request(r), c, fromKapi);
      assert.equal(readByKube.status, 200, `${readByKube.body.toString()}\n${oracle.logTail()}`);
      assert.equal((readByKube.json() as { metadata: { uid: string } }).metadata.uid, (made.json() as { metadata: { uid: string } }).metadata.uid);
      if (c.resource === 'secrets') {
        assert.equal((readByKube.json() as { data: Record<string, string> }).data.password, Buffer.from(`pw-${fromKapi}`).toString('base64'));
        assert.equal((readByKapi.json() as { data: Record<string, string> }).data.password, Buffer.from(`pw-${fromKube}`).toString('base64'));
      }
    });
  }
});
