import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import type { VertexType } from '../authz/node/node-authorizer.ts';
import { storeNodeGraph } from './node-graph.ts';

const pod = (name: string, node: string, spec: Record<string, unknown>, annotations?: Record<string, string>): KubeObject =>
  ({ metadata: { name, namespace: 'ns', ...(annotations === undefined ? {} : { annotations }) }, spec: { nodeName: node, ...spec } } as KubeObject);
const pods = [
  pod('web', 'n1', {
    serviceAccountName: 'robot', imagePullSecrets: [{ name: 'pull' }],
    containers: [{ name: 'c', env: [{ name: 'E', valueFrom: { configMapKeyRef: { name: 'env-cm', key: 'k' } } }] }],
    volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }, { name: 'scratch', ephemeral: { volumeClaimTemplate: {} } },
      { name: 'p', projected: { sources: [{ secret: { name: 'proj' } }] } }],
    resourceClaims: [{ name: 'gpu', resourceClaimName: 'gpu-claim' }],
  }),
  pod('mirror', 'n1', { volumes: [{ name: 's', secret: { secretName: 'mirror-secret' } }] }, { 'kubernetes.io/config.mirror': 'x' }),
  pod('elsewhere', 'n2', { volumes: [{ name: 's', secret: { secretName: 'other' } }] }),
];
const pv: KubeObject = { metadata: { name: 'pv1' }, spec: { claimRef: { namespace: 'ns', name: 'data' }, csi: { driver: 'd', nodeStageSecretRef: { name: 'stage', namespace: 'ns' }, controllerPublishSecretRef: { name: 'ctrl', namespace: 'ns' } } } } as KubeObject;
const store = (items: KubeObject[]): ResourceStore<KubeObject> => ({ list: async () => ({ items }) }) as unknown as ResourceStore<KubeObject>;
const graph = storeNodeGraph({
  pods: async () => pods,
  storeFor: (r) => (r === 'persistentvolumes' ? store([pv]) : r === 'volumeattachments.storage.k8s.io' ? store([{ metadata: { name: 'va' }, spec: { nodeName: 'n1' } } as KubeObject]) : undefined),
});

describe('the Node authorizer graph from the stores', () => {
  const cases: { name: string; type: VertexType; ns: string; obj: string; want: boolean }[] = [
    { name: 'its pod', type: 'pod', ns: 'ns', obj: 'web', want: true },
    { name: 'another node\'s pod', type: 'pod', ns: 'ns', obj: 'elsewhere', want: false },
    { name: 'the service account of its pod', type: 'serviceaccount', ns: 'ns', obj: 'robot', want: true },
    { name: 'an image pull secret', type: 'secret', ns: 'ns', obj: 'pull', want: true },
    { name: 'a projected secret', type: 'secret', ns: 'ns', obj: 'proj', want: true },
    { name: 'a secret only a mirror pod names', type: 'secret', ns: 'ns', obj: 'mirror-secret', want: false },
    { name: 'a secret of another node\'s pod', type: 'secret', ns: 'ns', obj: 'other', want: false },
    { name: 'a secret in another namespace', type: 'secret', ns: 'other-ns', obj: 'pull', want: false },
    { name: 'a config map from env', type: 'configmap', ns: 'ns', obj: 'env-cm', want: true },
    { name: 'a claim', type: 'pvc', ns: 'ns', obj: 'data', want: true },
    { name: 'an ephemeral volume claim', type: 'pvc', ns: 'ns', obj: 'web-scratch', want: true },
    { name: 'the volume bound to its claim', type: 'pv', ns: '', obj: 'pv1', want: true },
    { name: 'the volume\'s node-side secret', type: 'secret', ns: 'ns', obj: 'stage', want: true },
    { name: 'the volume\'s controller secret', type: 'secret', ns: 'ns', obj: 'ctrl', want: false },
    { name: 'a resource claim', type: 'resourceclaim', ns: 'ns', obj: 'gpu-claim', want: true },
    { name: 'its volume attachment', type: 'volumeattachment', ns: '', obj: 'va', want: true },
  ];
  for (const c of cases) it(c.name, async () => assert.equal(await graph.hasPathFrom('n1', c.type, c.ns, c.obj), c.want));
});
