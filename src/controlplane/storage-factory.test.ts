import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openSqliteBackend } from '../storage/sqlite/sqlite-backend.ts';
import { keyPrefixFor, migrateLegacyKeys, storageCodec } from './storage-factory.ts';
import { Scheme } from '../apimachinery/runtime/scheme.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { Codec } from '../storage/interfaces.ts';
import { crdStorageEncoding } from '../apiextensions/v1beta1/storage-conversion.ts';

const dir = mkdtempSync(join(tmpdir(), 'kapi-storage-factory-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('kube-apiserver\'s etcd key layout', () => {
  it('puts built-in resources under their resource name, with kube\'s historical exceptions', () => {
    const cases: [string, string, string][] = [
      ['', 'configmaps', '/registry/configmaps'],
      ['', 'services', '/registry/services/specs'],
      ['', 'endpoints', '/registry/services/endpoints'],
      ['', 'nodes', '/registry/minions'],
      ['', 'replicationcontrollers', '/registry/controllers'],
      ['apps', 'deployments', '/registry/deployments'],
      ['networking.k8s.io', 'ingresses', '/registry/ingress'],
      ['discovery.k8s.io', 'endpointslices', '/registry/endpointslices'],
      ['flowcontrol.apiserver.k8s.io', 'flowschemas', '/registry/flowschemas'],
      ['admissionregistration.k8s.io', 'validatingwebhookconfigurations', '/registry/validatingwebhookconfigurations'],
      ['apiregistration.k8s.io', 'apiservices', '/registry/apiregistration.k8s.io/apiservices'],
      ['apiextensions.k8s.io', 'customresourcedefinitions', '/registry/apiextensions.k8s.io/customresourcedefinitions'],
    ];
    for (const [group, resource, want] of cases) assert.equal(keyPrefixFor('/registry/', group, resource), want, `${group}/${resource}`);
  });

  it('moves objects an earlier build stored under <group>/<resource>, and leaves everything else', async () => {
    const backend = await openSqliteBackend({ path: join(dir, 'migrate.db'), compactionIntervalMs: 0 });
    try {
      await backend.create('/registry/discovery.k8s.io/endpointslices/default/a', '{"a":1}');
      await backend.create('/registry/discovery.k8s.io/endpointslices/ns/b', '{"b":1}');
      await backend.create('/registry/endpointslices/ns/b', '{"b":"newer"}');
      await backend.create('/registry/deployments/default/d', '{"d":1}');
      await backend.create('/registry/configmaps/default/c', '{"c":1}');
      const resources = [
        { group: 'discovery.k8s.io', resource: 'endpointslices' }, { group: 'apps', resource: 'deployments' }, { group: '', resource: 'configmaps' },
      ];
      assert.equal(await migrateLegacyKeys(backend, '/registry', resources), 2);
      const all = await backend.range('/registry/', { prefix: true });
      assert.deepEqual(all.kvs.map((kv) => [kv.key, kv.value]), [
        ['/registry/configmaps/default/c', '{"c":1}'],
        ['/registry/deployments/default/d', '{"d":1}'],
        ['/registry/endpointslices/default/a', '{"a":1}'],
        // What is already at the new key wins.
        ['/registry/endpointslices/ns/b', '{"b":"newer"}'],
      ]);
      assert.equal(await migrateLegacyKeys(backend, '/registry', resources), 0, 'a second run finds nothing to move');
    } finally {
      await backend.close();
    }
  });
});

describe('storageCodec (kube\'s storage media type and version per resource)', () => {
  const scheme = new Scheme();
  scheme.addKnownKinds({ group: '', version: 'v1' }, ['ConfigMap']);
  scheme.addKnownKinds({ group: 'apiextensions.k8s.io', version: 'v1' }, ['CustomResourceDefinition']);
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } } as KubeObject;
  const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'w.example.com' },
    spec: { group: 'example.com', names: { plural: 'w', kind: 'W' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true }] } } as KubeObject;
  const cases: { name: string; codec: Codec; obj: KubeObject; starts: string }[] = [
    { name: 'built-ins default to protobuf', codec: storageCodec(scheme, { group: '', version: 'v1' }), obj: cm, starts: 'k8s\u0000' },
    { name: '--storage-media-type application/json', codec: storageCodec(scheme, { group: '', version: 'v1' }, 'application/json'), obj: cm, starts: '{"kind":"ConfigMap","apiVersion":"v1"' },
    { name: 'CRDs as v1beta1 JSON whatever the flag says', codec: storageCodec(scheme, { group: 'apiextensions.k8s.io', version: 'v1' }, undefined, crdStorageEncoding),
      obj: crd, starts: '{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1beta1"' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const data = c.codec.encode(c.obj);
      assert.ok(data.startsWith(c.starts), JSON.stringify(data.slice(0, 50)));
      assert.deepEqual(c.codec.decode(data), c.obj);
    });
  }
});
