import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { schemaForGVK } from '../openapi/index.ts';
import type { SchemaNode } from '../openapi/index.ts';
import { createThreeWayMergePatch, createTwoWayMergePatch } from './create-patch.ts';
import { PatchError } from './errors.ts';
import { applyStrategicMergePatch } from './strategic-merge-patch.ts';

const POD = schemaForGVK({ group: '', version: 'v1', kind: 'Pod' });
const DEPLOYMENT = schemaForGVK({ group: 'apps', version: 'v1', kind: 'Deployment' });

interface TwoWayCase { name: string; schema: SchemaNode | undefined; original: unknown; modified: unknown; want: unknown }

const twoWay: TwoWayCase[] = [
  {
    name: 'primitive merge list: deletion list and element order',
    schema: POD,
    original: { metadata: { finalizers: ['a', 'b', 'c'] } },
    modified: { metadata: { finalizers: ['c', 'a'] } },
    want: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'], '$setElementOrder/finalizers': ['c', 'a'] } },
  },
  {
    name: 'volume source switch carries $retainKeys and a null for the old source',
    schema: POD,
    original: { spec: { volumes: [{ name: 'v', emptyDir: {} }] } },
    modified: { spec: { volumes: [{ name: 'v', hostPath: { path: '/x' } }] } },
    want: { spec: {
      volumes: [{ hostPath: { path: '/x' }, emptyDir: null, $retainKeys: ['hostPath', 'name'], name: 'v' }],
      '$setElementOrder/volumes': [{ name: 'v' }],
    } },
  },
  {
    name: 'Deployment strategy (retainKeys) change',
    schema: DEPLOYMENT,
    original: { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } },
    modified: { spec: { strategy: { type: 'Recreate' } } },
    want: { spec: { strategy: { type: 'Recreate', rollingUpdate: null, $retainKeys: ['type'] } } },
  },
  {
    name: 'a list without strategy is sent whole',
    schema: POD,
    original: { spec: { tolerations: [{ key: 'a' }] } },
    modified: { spec: { tolerations: [{ key: 'b' }] } },
    want: { spec: { tolerations: [{ key: 'b' }] } },
  },
  {
    name: 'removed container and label',
    schema: POD,
    original: { metadata: { labels: { a: '1', b: '2' } }, spec: { containers: [{ name: 'a', image: 'a' }, { name: 'b', image: 'b' }] } },
    modified: { metadata: { labels: { a: '1' } }, spec: { containers: [{ name: 'a', image: 'a' }] } },
    want: { metadata: { labels: { b: null } }, spec: {
      containers: [{ name: 'b', $patch: 'delete' }], '$setElementOrder/containers': [{ name: 'a' }],
    } },
  },
  {
    name: 'identical documents give an empty patch',
    schema: POD,
    original: { spec: { containers: [{ name: 'a', image: 'a' }] } },
    modified: { spec: { containers: [{ name: 'a', image: 'a' }] } },
    want: {},
  },
];

describe('createTwoWayMergePatch', () => {
  for (const tc of twoWay) {
    it(tc.name, () => {
      const patch = createTwoWayMergePatch(tc.original, tc.modified, tc.schema);
      assert.deepEqual(patch, tc.want);
      assert.deepEqual(applyStrategicMergePatch(tc.original, patch, tc.schema), tc.modified);
    });
  }
});

describe('createThreeWayMergePatch', () => {
  // kubectl apply: last-applied configuration, new configuration, live object.
  const lastApplied = {
    metadata: { name: 'd', labels: { app: 'x', tier: 'web' } },
    spec: { template: { spec: { containers: [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }] } } },
  };
  const desired = {
    metadata: { name: 'd', labels: { app: 'x' } },
    spec: { template: { spec: { containers: [{ name: 'a', image: 'a:2' }] } } },
  };
  const live = {
    metadata: { name: 'd', uid: 'u', labels: { app: 'x', tier: 'web', extra: 'z' } },
    spec: { replicas: 1, template: { spec: { containers: [
      { name: 'a', image: 'a:1', imagePullPolicy: 'IfNotPresent' }, { name: 'b', image: 'b:1' }] } } },
  };

  it('sends changes from live to desired plus deletions from last-applied, and keeps fields others own', () => {
    const patch = createThreeWayMergePatch(lastApplied, desired, live, DEPLOYMENT);
    assert.deepEqual(patch, {
      metadata: { labels: { tier: null } },
      spec: { template: { spec: {
        containers: [{ image: 'a:2', name: 'a' }, { name: 'b', $patch: 'delete' }],
        '$setElementOrder/containers': [{ name: 'a' }],
      } } },
    });
    assert.deepEqual(applyStrategicMergePatch(live, patch, DEPLOYMENT), {
      metadata: { name: 'd', uid: 'u', labels: { app: 'x', extra: 'z' } },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'a', image: 'a:2', imagePullPolicy: 'IfNotPresent' }] } } },
    });
  });

  const original = { spec: { containers: [{ name: 'a', image: 'a:1' }] } };
  const modified = { spec: { containers: [{ name: 'a', image: 'a:2' }] } };
  const current = { spec: { containers: [{ name: 'a', image: 'a:3' }] } };

  it('overwrites a field changed on the live object when overwrite is on', () => {
    assert.deepEqual(createThreeWayMergePatch(original, modified, current, POD), {
      spec: { containers: [{ image: 'a:2', name: 'a' }], '$setElementOrder/containers': [{ name: 'a' }] },
    });
  });

  it('reports a conflict when overwrite is off', () => {
    assert.throws(() => createThreeWayMergePatch(original, modified, current, POD, false), (err: unknown) => {
      assert.ok(err instanceof PatchError);
      assert.equal(err.kind, 'Conflict');
      assert.match(err.message, /^patch:\n[\s\S]*\nconflicts with changes made from original to current:\n[\s\S]*image: a:3/);
      return true;
    });
  });

  it('does not report a conflict for changes that agree', () => {
    assert.deepEqual(createThreeWayMergePatch(original, modified, modified, POD, false), {});
  });
});
