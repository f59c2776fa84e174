// A bad --encryption-provider-config stops kapi at start-up with kube-apiserver v1.36.3's message
// (decoding, every validation rule, masked rules). The expected texts were read from kube-apiserver;
// when its build is cached, each case is also run against it.
// No Go counterpart: end-to-end tests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../cli/serve.ts';
import { oracleUnavailable } from './testing/oracle.ts';
import { kubeStartupError } from './testing/startup-error.ts';

const b64 = (n: number): string => Buffer.alloc(n, 1).toString('base64');
const KEY32 = b64(32);
const wrap = (resources: unknown): string => JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'EncryptionConfiguration', resources });
const P = 'error while parsing file: ';

const CASES: readonly { name: string; file: string; want: string }[] = [
  { name: 'a short aescbc key', file: wrap([{ resources: ['secrets'], providers: [{ aescbc: { keys: [{ name: 'k', secret: b64(8) }] } }] }]),
    want: `${P}resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of [16 24 32]` },
  { name: 'a key that is not base64', file: wrap([{ resources: ['secrets'], providers: [{ aesgcm: { keys: [{ name: 'k', secret: '!!!!' }] } }] }]),
    want: `${P}resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded` },
  { name: 'no keys', file: wrap([{ resources: ['secrets'], providers: [{ secretbox: { keys: [] } }] }]),
    want: `${P}resources[0].providers[0].secretbox.keys: Required value: at least one keys is required` },
  { name: 'two errors', file: wrap([{ resources: ['secrets'], providers: [{ aescbc: { keys: [{ name: '', secret: b64(8) }] } }] }]),
    want: `${P}[resources[0].providers[0].aescbc.keys[0].name: Required value: name is a mandatory field for a key, resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of [16 24 32]]` },
  { name: 'a bare *', file: wrap([{ resources: ['*'], providers: [{ identity: {} }] }]),
    want: `${P}resources[0].resources[0]: Invalid value: "*": use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources` },
  { name: 'no resources', file: wrap([]), want: `${P}resources: Required value: at least one resources is required` },
  { name: 'no providers', file: wrap([{ resources: ['secrets'], providers: [] }]),
    want: `${P}resources[0].providers: Required value: at least one resources[0].providers is required` },
  { name: 'two providers in one element', file: wrap([{ resources: ['secrets'], providers: [{ identity: {}, aescbc: { keys: [{ name: 'k', secret: KEY32 }] } }] }]),
    want: `${P}resources[0].providers[0]: Invalid value: {"AESGCM":null,"AESCBC":{"Keys":[{"Name":"k","Secret":"${KEY32}"}]},"Secretbox":null,"Identity":{},"KMS":null}: more than one provider specified in a single element, should split into different list elements` },
  { name: 'overlapping resources', file: wrap([{ resources: ['secrets', '*.'], providers: [{ identity: {} }] }]),
    want: `${P}resources[0].resources: Invalid value: ["secrets","*."]: using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked` },
  { name: 'a resource twice', file: wrap([{ resources: ['secrets', 'secrets'], providers: [{ identity: {} }] }]),
    want: `${P}resources[0].resources: Invalid value: ["secrets","secrets"]: the same resource cannot be specified multiple times` },
  { name: 'capital letters', file: wrap([{ resources: ['Secrets'], providers: [{ identity: {} }] }]),
    want: `${P}resources[0].resources[0]: Invalid value: "Secrets": resource name should not contain capital letters` },
  { name: 'events.k8s.io', file: wrap([{ resources: ['*.events.k8s.io'], providers: [{ identity: {} }] }]),
    want: `${P}resources[0].resources[0]: Invalid value: "*.events.k8s.io": '*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file` },
  { name: 'a KMS v2 name with a colon', file: wrap([{ resources: ['secrets'], providers: [{ kms: { apiVersion: 'v2', name: 'a:b', endpoint: 'unix:///tmp/x.sock' } }] }]),
    want: `${P}resources[0].providers[0].kms.name: Invalid value: "a:b": invalid KMS provider name a:b, must not contain ':'` },
  { name: 'a tcp KMS endpoint', file: wrap([{ resources: ['secrets'], providers: [{ kms: { apiVersion: 'v2', name: 'a', endpoint: 'tcp://x' } }] }]),
    want: `${P}resources[0].providers[0].kms.endpoint: Invalid value: "tcp://x": unsupported scheme "tcp" for KMS provider, only unix is supported` },
  { name: 'no KMS endpoint', file: wrap([{ resources: ['secrets'], providers: [{ kms: { apiVersion: 'v2', name: 'a' } }] }]),
    want: `${P}resources[0].providers[0].kms.endpoint: Invalid value: "": endpoint is a mandatory field for a kms` },
  { name: 'KMS apiVersion v3', file: wrap([{ resources: ['secrets'], providers: [{ kms: { apiVersion: 'v3', name: 'a', endpoint: 'unix:///tmp/x.sock' } }] }]),
    want: `${P}resources[0].providers[0].kms.apiVersion: Invalid value: "v3": unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported` },
  { name: 'another kind', file: JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'Foo', resources: [] }),
    want: `${P}error decoding encryption provider configuration file "$FILE": no kind "Foo" is registered for version "apiserver.config.k8s.io/v1" in scheme "pkg/runtime/scheme.go:111"` },
  { name: 'an empty file', file: '', want: `${P}error while loading file: encryption provider configuration file "$FILE" is empty` },
  { name: 'a rule masked by an earlier *.*', file: wrap([{ resources: ['*.*'], providers: [{ identity: {} }] }, { resources: ['secrets'], providers: [{ identity: {} }] }]),
    want: 'error while building transformers: resource "secrets" is masked by earlier rule "*.*"' },
  // KMSv1 is deprecated and off by default in v1.36 (alpha gates aside, kapi has no --feature-gates).
  { name: 'a KMS v1 provider', file: wrap([{ resources: ['secrets'], providers: [{ kms: { apiVersion: 'v1', name: 'k', endpoint: 'unix:///tmp/kms.sock' } }] }]),
    want: 'error while building transformers: KMSv1 is deprecated and will only receive security updates going forward. Use KMSv2 instead.  Set --feature-gates=KMSv1=true to use the deprecated KMSv1 feature.' },
  { name: 'a KMS provider without apiVersion (v1)', file: wrap([{ resources: ['secrets'], providers: [{ kms: { name: 'k', endpoint: 'unix:///tmp/kms.sock' } }] }]),
    want: 'error while building transformers: KMSv1 is deprecated and will only receive security updates going forward. Use KMSv2 instead.  Set --feature-gates=KMSv1=true to use the deprecated KMSv1 feature.' },
];

describe('--encryption-provider-config start-up errors', () => {
  let dir: string;
  const fileOf = (i: number): string => join(dir, `enc-${i}.yaml`);
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-enc-startup-'));
    for (const [i, c] of CASES.entries()) await writeFile(fileOf(i), c.file);
  });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  for (const [i, c] of CASES.entries()) {
    it(`kapi refuses ${c.name}`, async () => {
      await assert.rejects(startServer({ flags: ['--encryption-provider-config', fileOf(i)] }), (err: Error) => {
        assert.equal(err.message, c.want.replaceAll('$FILE', fileOf(i)));
        return true;
      });
    });
  }

  const skip = oracleUnavailable();
  it('kube-apiserver v1.36.3 stops with the same messages', { skip }, async () => {
    const diffs: string[] = [];
    for (const [i, c] of CASES.entries()) {
      const got = await kubeStartupError(['--encryption-provider-config', fileOf(i)]);
      if (got !== c.want.replaceAll('$FILE', fileOf(i))) diffs.push(`${c.name}: kube ${JSON.stringify(got)}`);
    }
    assert.deepEqual(diffs, []);
  });
});
