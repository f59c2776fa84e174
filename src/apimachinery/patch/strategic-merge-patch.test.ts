import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { schemaForGVK } from '../openapi/index.ts';
import type { SchemaNode } from '../openapi/index.ts';
import { applyStrategicMergePatch } from './strategic-merge-patch.ts';

function kind(group: string, version: string, k: string): SchemaNode {
  const s = schemaForGVK({ group, version, kind: k });
  assert.ok(s, `schema for ${k}`);
  return s;
}
const POD = kind('', 'v1', 'Pod');
const DEPLOYMENT = kind('apps', 'v1', 'Deployment');
const SERVICE = kind('', 'v1', 'Service');
const PDB = kind('policy', 'v1', 'PodDisruptionBudget');

const pod = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): Record<string, unknown> =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ...metadata }, spec });
const c = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name, image: `${name}:1`, ...extra });

interface Case {
  name: string;
  schema?: SchemaNode;
  original: unknown;
  patch: unknown;
  want: unknown;
}

const cases: Case[] = [
  {
    name: 'containers merge by name; untouched containers stay',
    original: pod({ containers: [c('a'), c('b')] }),
    patch: { spec: { containers: [{ name: 'b', image: 'b:2' }] } },
    want: pod({ containers: [c('a'), c('b', { image: 'b:2' })] }),
  },
  {
    // The "kubectl patch" task page: the new container comes first in the result.
    name: 'a container new to the list is placed before the live ones',
    schema: DEPLOYMENT,
    original: { spec: { template: { spec: { containers: [{ name: 'patch-demo-ctr', image: 'nginx' }] } } } },
    patch: { spec: { template: { spec: { containers: [{ name: 'patch-demo-ctr-2', image: 'redis' }] } } } },
    want: { spec: { template: { spec: { containers: [
      { name: 'patch-demo-ctr-2', image: 'redis' }, { name: 'patch-demo-ctr', image: 'nginx' }] } } } },
  },
  {
    // b goes before c because b is before c in the live list; a must follow c (patch order).
    name: 'patch items keep the patch order, live-only items are interleaved by live position',
    original: pod({ containers: [c('a'), c('b'), c('c')] }),
    patch: { spec: { containers: [{ name: 'c', image: 'c:2' }, { name: 'a', image: 'a:2' }] } },
    want: pod({ containers: [c('b'), c('c', { image: 'c:2' }), c('a', { image: 'a:2' })] }),
  },
  {
    name: 'ports merge by containerPort',
    original: pod({ containers: [c('a', { ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }] })] }),
    patch: { spec: { containers: [{ name: 'a', ports: [{ containerPort: 443, name: 'https' }] }] } },
    want: pod({ containers: [c('a', { ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443, name: 'https' }] })] }),
  },
  {
    name: 'env merges by name',
    original: pod({ containers: [c('a', { env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] })] }),
    patch: { spec: { containers: [{ name: 'a', env: [{ name: 'B', value: '3' }, { name: 'C', value: '4' }] }] } },
    want: pod({ containers: [c('a', { env: [{ name: 'A', value: '1' }, { name: 'B', value: '3' }, { name: 'C', value: '4' }] })] }),
  },
  {
    name: 'volumeMounts merge by mountPath',
    original: pod({ containers: [c('a', { volumeMounts: [{ name: 'v1', mountPath: '/a' }] })] }),
    patch: { spec: { containers: [{ name: 'a', volumeMounts: [{ name: 'v2', mountPath: '/a', readOnly: true }] }] } },
    want: pod({ containers: [c('a', { volumeMounts: [{ name: 'v2', mountPath: '/a', readOnly: true }] })] }),
  },
  {
    name: 'volumes merge by name',
    original: pod({ volumes: [{ name: 'data', emptyDir: {} }] }),
    patch: { spec: { volumes: [{ name: 'cfg', configMap: { name: 'cm' } }] } },
    want: pod({ volumes: [{ name: 'cfg', configMap: { name: 'cm' } }, { name: 'data', emptyDir: {} }] }),
  },
  {
    name: 'without $retainKeys a volume keeps its old source next to the new one',
    original: pod({ volumes: [{ name: 'data', emptyDir: {} }] }),
    patch: { spec: { volumes: [{ name: 'data', hostPath: { path: '/tmp' } }] } },
    want: pod({ volumes: [{ name: 'data', emptyDir: {}, hostPath: { path: '/tmp' } }] }),
  },
  {
    name: '$retainKeys switches a volume source (emptyDir → hostPath)',
    original: pod({ volumes: [{ name: 'data', emptyDir: {} }] }),
    patch: { spec: { volumes: [{ name: 'data', hostPath: { path: '/tmp' }, $retainKeys: ['hostPath', 'name'] }] } },
    want: pod({ volumes: [{ name: 'data', hostPath: { path: '/tmp' } }] }),
  },
  {
    // The "kubectl patch" task page, retainKeys strategy.
    name: 'Deployment spec.strategy with $retainKeys drops rollingUpdate',
    schema: DEPLOYMENT,
    original: { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '30%', maxUnavailable: '30%' } } } },
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
    want: { spec: { strategy: { type: 'Recreate' } } },
  },
  {
    name: 'Deployment spec.strategy without $retainKeys merges',
    schema: DEPLOYMENT,
    original: { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '30%' } } } },
    patch: { spec: { strategy: { type: 'Recreate' } } },
    want: { spec: { strategy: { type: 'Recreate', rollingUpdate: { maxSurge: '30%' } } } },
  },
  {
    // The "kubectl patch" task page: tolerations have no patch strategy.
    name: 'tolerations are replaced as a whole',
    schema: DEPLOYMENT,
    original: { spec: { template: { spec: { tolerations: [{ effect: 'NoSchedule', key: 'dedicated', value: 'test-team' }] } } } },
    patch: { spec: { template: { spec: { tolerations: [{ effect: 'NoSchedule', key: 'disktype', value: 'ssd' }] } } } },
    want: { spec: { template: { spec: { tolerations: [{ effect: 'NoSchedule', key: 'disktype', value: 'ssd' }] } } } },
  },
  {
    name: 'imagePullSecrets merge by name',
    original: pod({ imagePullSecrets: [{ name: 'a' }] }),
    patch: { spec: { imagePullSecrets: [{ name: 'b' }, { name: 'a' }] } },
    want: pod({ imagePullSecrets: [{ name: 'b' }, { name: 'a' }] }),
  },
  {
    name: 'finalizers are a union; new values first, duplicates dropped',
    original: pod({}, { finalizers: ['x', 'y'] }),
    patch: { metadata: { finalizers: ['z', 'x', 'z'] } },
    want: pod({}, { finalizers: ['z', 'x', 'y'] }),
  },
  {
    name: '$deleteFromPrimitiveList/finalizers removes values',
    original: pod({}, { finalizers: ['x', 'y', 'x'] }),
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['x', 'nope'] } },
    want: pod({}, { finalizers: ['y'] }),
  },
  {
    name: '$deleteFromPrimitiveList for a list that does not exist adds nothing',
    original: pod({}),
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['x'] } },
    want: pod({}),
  },
  {
    name: '$setElementOrder orders a primitive list',
    original: pod({}, { finalizers: ['a', 'b', 'c'] }),
    patch: { metadata: { '$setElementOrder/finalizers': ['c', 'a', 'b'] } },
    want: pod({}, { finalizers: ['c', 'a', 'b'] }),
  },
  {
    name: 'ownerReferences merge by uid',
    original: pod({}, { ownerReferences: [{ uid: '1', name: 'rs', kind: 'ReplicaSet', apiVersion: 'apps/v1' }] }),
    patch: { metadata: { ownerReferences: [{ uid: '1', controller: true }] } },
    want: pod({}, { ownerReferences: [{ uid: '1', name: 'rs', kind: 'ReplicaSet', apiVersion: 'apps/v1', controller: true }] }),
  },
  {
    name: '$patch: delete removes a container by merge key',
    original: pod({ containers: [c('a'), c('b')] }),
    patch: { spec: { containers: [{ name: 'a', $patch: 'delete' }] } },
    want: pod({ containers: [c('b')] }),
  },
  {
    name: '$patch: delete of an element that is not there is a no-op',
    original: pod({ containers: [c('a')] }),
    patch: { spec: { containers: [{ name: 'zz', $patch: 'delete' }] } },
    want: pod({ containers: [c('a')] }),
  },
  {
    name: '$patch: replace in a list replaces the whole list',
    original: pod({ containers: [c('a'), c('b')] }),
    patch: { spec: { containers: [{ $patch: 'replace' }, { name: 'z', image: 'z' }] } },
    want: pod({ containers: [{ name: 'z', image: 'z' }] }),
  },
  {
    name: '$patch: replace on the pod spec replaces the map',
    original: pod({ containers: [c('a')], nodeName: 'n1', restartPolicy: 'Always' }),
    patch: { spec: { $patch: 'replace', containers: [c('b')] } },
    want: pod({ containers: [c('b')] }),
  },
  {
    name: '$patch: delete on a map leaves it empty',
    original: pod({}, { labels: { a: '1' } }),
    patch: { metadata: { labels: { $patch: 'delete' } } },
    want: pod({}, { labels: {} }),
  },
  {
    name: 'a directive map for a field that does not exist is dropped',
    original: pod({}),
    patch: { metadata: { labels: { $patch: 'delete' } } },
    want: pod({}),
  },
  {
    name: '$setElementOrder/containers reorders; live-only items are interleaved by live position',
    original: pod({ containers: [c('a'), c('b'), c('c')] }),
    patch: { spec: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }] } },
    want: pod({ containers: [c('b'), c('c'), c('a')] }),
  },
  {
    // Go deletes from and appends to the live slice in place, so the added container takes the
    // deleted one's slot in the live order that places the live-only container x.
    name: '$setElementOrder with an added and a deleted container (kubectl apply)',
    original: pod({ containers: [c('a'), c('b'), c('x')] }),
    patch: { spec: {
      '$setElementOrder/containers': [{ name: 'a' }, { name: 'n' }],
      containers: [{ name: 'n', image: 'n:1' }, { name: 'b', $patch: 'delete' }],
    } },
    want: pod({ containers: [c('a'), c('x'), c('n')] }),
  },
  {
    name: 'Service ports merge by port',
    schema: SERVICE,
    original: { spec: { ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }, { port: 443, protocol: 'TCP' }] } },
    patch: { spec: { ports: [{ port: 80, targetPort: 9090 }] } },
    want: { spec: { ports: [{ port: 80, targetPort: 9090, protocol: 'TCP' }, { port: 443, protocol: 'TCP' }] } },
  },
  {
    name: 'Deployment status conditions merge by type',
    schema: DEPLOYMENT,
    original: { status: { conditions: [{ type: 'Available', status: 'False' }, { type: 'Progressing', status: 'True' }] } },
    patch: { status: { conditions: [{ type: 'Available', status: 'True' }] } },
    want: { status: { conditions: [{ type: 'Available', status: 'True' }, { type: 'Progressing', status: 'True' }] } },
  },
  {
    name: 'null deletes a label, other labels merge',
    original: pod({}, { labels: { a: '1', b: '2' } }),
    patch: { metadata: { labels: { a: null, c: '3' } } },
    want: pod({}, { labels: { b: '2', c: '3' } }),
  },
  {
    name: 'null for a field that is not there is ignored; nulls inside new values are dropped',
    original: pod({}),
    patch: { metadata: { annotations: null, labels: { a: '1', b: null } } },
    want: pod({}, { labels: { a: '1' } }),
  },
  {
    name: 'replace strategy (PodDisruptionBudget spec.selector) replaces the map',
    schema: PDB,
    original: { spec: { selector: { matchLabels: { a: '1' } }, minAvailable: 1 } },
    patch: { spec: { selector: { matchExpressions: [{ key: 'b', operator: 'Exists' }] } } },
    want: { spec: { selector: { matchExpressions: [{ key: 'b', operator: 'Exists' }] }, minAvailable: 1 } },
  },
  {
    name: 'a value of another type replaces the old one',
    original: pod({ containers: [c('a')] }),
    patch: { spec: { containers: 'oops' } },
    want: pod({ containers: 'oops' }),
  },
  {
    name: 'managedFields (no strategy) are replaced',
    original: pod({}, { managedFields: [{ manager: 'a' }, { manager: 'b' }] }),
    patch: { metadata: { managedFields: [{ manager: 'c' }] } },
    want: pod({}, { managedFields: [{ manager: 'c' }] }),
  },
  {
    name: 'RawExtension: top-level scalars are replaced like a merge patch',
    schema: kind('apps', 'v1', 'ControllerRevision'),
    original: { data: { a: 1, b: 2 }, revision: 1 },
    patch: { data: { a: 3, b: null, c: [1] } },
    want: { data: { a: 3, c: [1] }, revision: 1 },
  },
  {
    name: 'a null patch changes nothing',
    original: pod({ containers: [c('a')] }),
    patch: null,
    want: pod({ containers: [c('a')] }),
  },
];

describe('applyStrategicMergePatch', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const original = structuredClone(tc.original);
      const patch = structuredClone(tc.patch);
      assert.deepEqual(applyStrategicMergePatch(original, patch, tc.schema ?? POD), tc.want);
      assert.deepEqual(original, tc.original, 'original not modified');
      assert.deepEqual(patch, tc.patch, 'patch not modified');
    });
  }
});
