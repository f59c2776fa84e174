import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import protobuf from 'protobufjs';
import { StatusError } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { openSqliteBackend } from './sqlite/sqlite-backend.ts';
import { EVERYTHING } from './interfaces.ts';
import { newStore } from './store.ts';
import { decodeValue, encodeValue, fromUtf8Bytes, newValueCodec, utf8Bytes } from './value-codec.ts';

const PB = 'application/vnd.kubernetes.protobuf';
const configMap = (name: string, data: Record<string, string>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data } as KubeObject);

// An encoder independent of kapi's: protobufjs over the v1.36 generated.proto files.
const PROTO_DIR = fileURLToPath(new URL('../../../shared/reference/kubernetes/proto/', import.meta.url));
function referenceRoot(): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_DIR, target);
  root.loadSync(['k8s.io/api/core/v1/generated.proto', 'k8s.io/api/apps/v1/generated.proto',
    'k8s.io/apimachinery/pkg/runtime/generated.proto'], { keepCase: true });
  return root;
}

/** `k8s\0` + runtime.Unknown{typeMeta, raw, contentEncoding: '', contentType: ''}, as kube writes a value. */
function kubeValue(root: protobuf.Root, apiVersion: string, kind: string, message: string, obj: Record<string, unknown>): string {
  const type = root.lookupType(message);
  const raw = type.encode(type.fromObject(obj)).finish();
  const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  const body = unknown.encode(unknown.fromObject({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' })).finish();
  return Buffer.concat([Buffer.from('k8s\u0000', 'latin1'), body]).toString('latin1');
}

describe('storage value codec', () => {
  const cases: { name: string; obj: KubeObject; mediaType: 'application/json' | 'application/yaml' | typeof PB; prefix: string }[] = [
    { name: 'built-in kind as protobuf', obj: configMap('a', { k: 'v' }), mediaType: PB, prefix: 'k8s\u0000' },
    { name: 'built-in kind as JSON', obj: configMap('a', { k: 'v' }), mediaType: 'application/json', prefix: '{' },
    { name: 'built-in kind as YAML', obj: configMap('a', { k: 'v' }), mediaType: 'application/yaml', prefix: 'apiVersion: v1' },
    { name: 'custom resource under protobuf is JSON', mediaType: PB, prefix: '{',
      obj: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 2 } } as KubeObject },
    { name: 'non-ASCII text survives', obj: configMap('a', { k: 'grüße ✓ 🚀' }), mediaType: PB, prefix: 'k8s\u0000' },
    { name: 'non-ASCII JSON survives', obj: configMap('a', { k: 'grüße ✓ 🚀' }), mediaType: 'application/json', prefix: '{' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const data = encodeValue(c.obj, c.mediaType);
      assert.ok(data.startsWith(c.prefix), JSON.stringify(data.slice(0, 20)));
      // A byte string: every char is one byte.
      assert.ok([...data].every((ch) => ch.charCodeAt(0) < 256));
      assert.deepEqual(decodeValue(data), c.obj);
    });
  }

  it('utf8Bytes and fromUtf8Bytes are inverse', () => {
    for (const s of ['', 'plain', 'ü', '🚀 x']) assert.equal(fromUtf8Bytes(utf8Bytes(s)), s);
    assert.equal(utf8Bytes('ü'), '\u00c3\u00bc');
  });

  it('rejects bytes that hold no object with a 500 for that object, as kube', () => {
    for (const bad of ['k8s\u0000\u00ff\u00ff', '{"a":', '[]', 'just text']) {
      assert.throws(() => decodeValue(bad), (err: unknown) => err instanceof StatusError && err.status.code === 500 && err.status.reason === '');
    }
    // kube-apiserver v1.36.3 answers GET of such a value with this Status (asked of the oracle).
    assert.throws(() => decodeValue('k8s\u0000\u00ff\u00fe garbage'),
      (err: unknown) => err instanceof StatusError && err.status.message === 'proto: illegal wireType 7');
  });

  // kube-apiserver v1.36.3 answers GET of `{"not json` with the first (asked of the oracle); the
  // others are the same json serializer's words for Go's syntax errors.
  const brokenJSON = [
    { name: 'truncated', value: '{"not json', want: "couldn't get version/kind; json parse error: unexpected end of JSON input" },
    { name: 'bad value', value: '{"a": x}', want: "couldn't get version/kind; json parse error: invalid character 'x' looking for beginning of value" },
    { name: 'trailing comma', value: '{"a":1,}', want: "couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string" },
  ];
  for (const c of brokenJSON) {
    it(`answers kube's message for broken JSON: ${c.name}`, () => {
      assert.throws(() => decodeValue(c.value), (err: unknown) => err instanceof StatusError && err.status.code === 500 && err.status.message === c.want);
    });
  }

  it('decodes values encoded from the v1.36 proto definitions, as kube writes them', () => {
    const root = referenceRoot();
    const cm = kubeValue(root, 'v1', 'ConfigMap', 'k8s.io.api.core.v1.ConfigMap', {
      metadata: { name: 'x', namespace: 'default', uid: 'u1', creationTimestamp: { seconds: 1700000000 }, labels: { app: 'a' } },
      data: { a: 'b' }, binaryData: { bin: Buffer.from([0, 1, 2]) },
    });
    assert.deepEqual(decodeValue(cm), {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: 'x', namespace: 'default', uid: 'u1', creationTimestamp: '2023-11-14T22:13:20Z', labels: { app: 'a' } },
      data: { a: 'b' }, binaryData: { bin: 'AAEC' },
    });
    const dep = kubeValue(root, 'apps/v1', 'Deployment', 'k8s.io.api.apps.v1.Deployment', {
      metadata: { name: 'd', namespace: 'default' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const got = decodeValue(dep) as KubeObject & { spec: { replicas: number; template: { spec: { containers: { image: string }[] } } } };
    assert.equal(got.apiVersion, 'apps/v1');
    assert.equal(got.spec.replicas, 3);
    assert.equal(got.spec.template.spec.containers[0]?.image, 'nginx');
    // What kapi writes for the same object decodes the same with the reference definitions.
    const mine = Buffer.from(encodeValue(decodeValue(cm), PB), 'latin1');
    const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown').decode(mine.subarray(4)) as unknown as { raw: Uint8Array; typeMeta: { kind: string } };
    assert.equal(unknown.typeMeta.kind, 'ConfigMap');
    const back = root.lookupType('k8s.io.api.core.v1.ConfigMap').toObject(root.lookupType('k8s.io.api.core.v1.ConfigMap').decode(unknown.raw)) as { data: Record<string, string> };
    assert.deepEqual(back.data, { a: 'b' });
  });
});

describe('sqlite store values', () => {
  const dirs: string[] = [];
  after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

  it('reads JSON an earlier build stored as TEXT and rewrites it as protobuf on the next write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-codec-'));
    dirs.push(dir);
    const path = join(dir, 'state.db');
    let backend = await openSqliteBackend({ path });
    await backend.create('/registry/configmaps/default/old', 'placeholder');
    await backend.close();
    // Earlier builds bound the JSON string itself: a TEXT value.
    const legacy = JSON.stringify(configMap('old', { k: 'grüße' }));
    const db = new Database(path);
    db.prepare('UPDATE kv_log SET value = ? WHERE key = ?').run(legacy, '/registry/configmaps/default/old');
    db.close();

    backend = await openSqliteBackend({ path });
    try {
      const store = newStore(backend, newValueCodec(PB));
      const got = await store.get('/registry/configmaps/default/old', {});
      assert.deepEqual((got as KubeObject & { data: unknown }).data, { k: 'grüße' });
      await store.create('/registry/configmaps/default/new', configMap('new', { k: 'ü' }));
      const list = await store.getList('/registry/configmaps/default/', { predicate: EVERYTHING, recursive: true });
      assert.deepEqual(list.items.map((o) => o.metadata.name), ['new', 'old']);
      await store.guaranteedUpdate('/registry/configmaps/default/old', { ignoreNotFound: false, tryUpdate: (cur) => cur as KubeObject });
      const raw = await backend.range('/registry/configmaps/default/old');
      assert.ok(raw.kvs[0]?.value.startsWith('k8s\u0000'), 'rewritten as protobuf');
      const created = await backend.range('/registry/configmaps/default/new');
      assert.ok(created.kvs[0]?.value.startsWith('k8s\u0000'));
    } finally {
      await backend.close();
    }
  });
});
