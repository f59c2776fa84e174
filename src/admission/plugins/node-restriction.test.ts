import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { AdmissionAuthorizer } from '../authorizer.ts';
import { assertStatus, attrs, userContext, type AttrOptions } from '../testing/attributes.ts';
import { nodeRestriction } from './node-restriction.ts';

const n1 = userContext({ name: 'system:node:n1', groups: ['system:nodes'] });
const objects: Record<string, KubeObject> = {
  'pods/ns/mine': { metadata: { name: 'mine', namespace: 'ns', uid: 'pod-uid' }, spec: { nodeName: 'n1', volumes: [
    { name: 'tok', projected: { sources: [{ serviceAccountToken: { audience: 'vault', path: 't' } }] } }] } } as KubeObject,
  'pods/ns/theirs': { metadata: { name: 'theirs', namespace: 'ns', uid: 'other-uid' }, spec: { nodeName: 'n2' } } as KubeObject,
  'nodes//n1': { metadata: { name: 'n1', uid: 'node-uid' } },
  // in-tree volumes csi-translation-lib migrates: the audience is their CSI driver's
  'pods/ns/ebs': { metadata: { name: 'ebs', namespace: 'ns', uid: 'ebs-uid' }, spec: { nodeName: 'n1', volumes: [
    { name: 'disk', awsElasticBlockStore: { volumeID: 'vol-1' } }] } } as KubeObject,
  'pods/ns/gce': { metadata: { name: 'gce', namespace: 'ns', uid: 'gce-uid' }, spec: { nodeName: 'n1', volumes: [
    { name: 'disk', persistentVolumeClaim: { claimName: 'gce-claim' } }] } } as KubeObject,
  'persistentvolumeclaims/ns/gce-claim': { metadata: { name: 'gce-claim', namespace: 'ns' }, spec: { volumeName: 'gce-pv' } } as KubeObject,
  'persistentvolumes//gce-pv': { metadata: { name: 'gce-pv' }, spec: { gcePersistentDisk: { pdName: 'pd' } } } as KubeObject,
  'csidrivers.storage.k8s.io//ebs.csi.aws.com': { metadata: { name: 'ebs.csi.aws.com' }, spec: { tokenRequests: [{ audience: 'ebs-aud' }] } } as KubeObject,
  'csidrivers.storage.k8s.io//pd.csi.storage.gke.io': { metadata: { name: 'pd.csi.storage.gke.io' }, spec: { tokenRequests: [{ audience: 'gce-aud' }] } } as KubeObject,
};
const denyAll: AdmissionAuthorizer = { authorize: async () => ({ decision: 'NoOpinion', reason: '' }) };
const plugin = nodeRestriction(async (resource, ns, name) => objects[`${resource}/${ns}/${name}`], denyAll);

const run = (obj: KubeObject | undefined, o: AttrOptions): Promise<void> => {
  const a = attrs(obj, o);
  return a.operation === 'DELETE' ? plugin.validate?.(n1, a) ?? Promise.resolve() : plugin.admit?.(n1, a) ?? Promise.resolve();
};
const mirror = (spec: Record<string, unknown> = {}, owner: Record<string, unknown> = {}): KubeObject => ({
  kind: 'Pod', metadata: { name: 'm', namespace: 'ns', annotations: { 'kubernetes.io/config.mirror': 'h' },
    ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'node-uid', controller: true, ...owner }] as never },
  spec: { nodeName: 'n1', containers: [{ name: 'c' }], ...spec },
} as KubeObject);
const node = (labels: Record<string, string>, taints?: unknown[]): KubeObject =>
  ({ kind: 'Node', metadata: { name: 'n1', labels }, spec: taints === undefined ? {} : { taints } } as KubeObject);
const token = (ref: Record<string, unknown>, audiences?: string[]): KubeObject =>
  ({ kind: 'TokenRequest', metadata: { name: 'sa' }, spec: { boundObjectRef: ref, ...(audiences === undefined ? {} : { audiences }) } } as KubeObject);

describe('NodeRestriction', () => {
  const allowed: { name: string; obj: KubeObject | undefined; o: AttrOptions }[] = [
    { name: 'a mirror pod bound to itself', obj: mirror(), o: {} },
    { name: 'deleting its own pod', obj: undefined, o: { operation: 'DELETE', name: 'mine', namespace: 'ns' } },
    { name: 'a kubelet label on its node', obj: node({ 'kubernetes.io/arch': 'arm64' }), o: { resource: 'nodes', operation: 'UPDATE', oldObject: node({}) } },
    { name: 'a token for the audience of the CSI driver its inline in-tree volume migrates to', obj: token({ apiVersion: 'v1', kind: 'Pod', name: 'ebs', uid: 'ebs-uid' }, ['ebs-aud']),
      o: { resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'sa' } },
    { name: 'a token for the audience of the CSI driver its claim\'s in-tree PV migrates to', obj: token({ apiVersion: 'v1', kind: 'Pod', name: 'gce', uid: 'gce-uid' }, ['gce-aud']),
      o: { resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'sa' } },
    { name: 'a token for its pod with an audience the pod asks for', obj: token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'pod-uid' }, ['vault']),
      o: { resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'sa' } },
    { name: 'its lease', obj: { metadata: { name: 'n1' } }, o: { group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease' } },
  ];
  for (const c of allowed) it(`allows ${c.name}`, () => run(c.obj, c.o));

  const refused: { name: string; obj: KubeObject | undefined; o: AttrOptions; message: string }[] = [
    { name: 'a pod that is not a mirror pod', obj: { kind: 'Pod', metadata: { name: 'x', namespace: 'ns' }, spec: { nodeName: 'n1' } } as KubeObject, o: {},
      message: 'pods "x" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods' },
    { name: 'a mirror pod for another node', obj: mirror({ nodeName: 'n2' }), o: {}, message: 'pods "m" is forbidden: node "n1" can only create pods with spec.nodeName set to itself' },
    { name: 'a mirror pod without controller', obj: mirror({}, { controller: false }), o: {},
      message: 'pods "m" is forbidden: node "n1" can only create pods with a controller owner reference set to itself' },
    { name: 'a mirror pod with the wrong node uid', obj: mirror({}, { uid: 'x' }), o: {}, message: 'pods "m" is forbidden: node n1 UID mismatch: expected node-uid got x' },
    { name: 'a mirror pod naming a secret', obj: mirror({ volumes: [{ name: 's', secret: { secretName: 's' } }] }), o: {},
      message: 'pods "m" is forbidden: node "n1" can not create pods that reference secrets' },
    { name: 'a mirror pod with a config map volume', obj: mirror({ volumes: [{ name: 'c', hostPath: { path: '/' } }, { name: 'd', configMap: { name: 'c' } }] }), o: {},
      message: 'pods "m" is forbidden: node "n1" can not create pods that reference configmaps' },
    { name: 'deleting another node\'s pod', obj: undefined, o: { operation: 'DELETE', name: 'theirs', namespace: 'ns' },
      message: 'pods "theirs" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself' },
    { name: 'another node', obj: { kind: 'Node', metadata: { name: 'n2' } }, o: { resource: 'nodes', operation: 'UPDATE', oldObject: { metadata: { name: 'n2' } } },
      message: 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"' },
    { name: 'a restricted label at creation', obj: node({ 'node-role.kubernetes.io/control-plane': '' }), o: { resource: 'nodes' },
      message: 'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-role.kubernetes.io/control-plane' },
    { name: 'changed taints', obj: node({}, [{ key: 'a', effect: 'NoSchedule' }]), o: { resource: 'nodes', operation: 'UPDATE', oldObject: node({}) },
      message: 'nodes "n1" is forbidden: node "n1" is not allowed to modify taints' },
    { name: 'the status of another node\'s pod', obj: objects['pods/ns/theirs'], o: { subresource: 'status', operation: 'UPDATE', oldObject: objects['pods/ns/theirs'] },
      message: 'pods "theirs" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself' },
    { name: 'another pod subresource', obj: objects['pods/ns/mine'], o: { subresource: 'binding' },
      message: 'pods "mine" is forbidden: unexpected pod subresource "binding", only \'status\' and \'eviction\' are allowed' },
    { name: 'a claim outside its status', obj: { metadata: { name: 'c', namespace: 'ns' } }, o: { resource: 'persistentvolumeclaims', operation: 'UPDATE' },
      message: 'persistentvolumeclaims "c" is forbidden: may only update PVC status' },
    { name: 'a token bound to nothing', obj: token({}), o: { resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'sa' },
      message: 'serviceaccounts "sa" is forbidden: node requested token not bound to a pod' },
    { name: 'a token for another node\'s pod', obj: token({ apiVersion: 'v1', kind: 'Pod', name: 'theirs', uid: 'other-uid' }),
      o: { resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'sa' },
      message: 'serviceaccounts "sa" is forbidden: node requested token bound to a pod scheduled on a different node' },
    { name: 'a token with a stale pod uid', obj: token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'old' }),
      o: { resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'sa' },
      message: 'serviceaccounts "sa" is forbidden: the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated' },
    { name: 'a token for another driver\'s audience', obj: token({ apiVersion: 'v1', kind: 'Pod', name: 'ebs', uid: 'ebs-uid' }, ['gce-aud']),
      o: { resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'sa' },
      message: 'serviceaccounts "sa" is forbidden: audience "gce-aud" not found in pod spec volume, system:node:n1 is not authorized to request tokens for this audience' },
    { name: 'a token for an audience its pod does not ask for', obj: token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'pod-uid' }, ['other']),
      o: { resource: 'serviceaccounts', subresource: 'token', namespace: 'ns', name: 'sa' },
      message: 'serviceaccounts "sa" is forbidden: audience "other" not found in pod spec volume, system:node:n1 is not authorized to request tokens for this audience' },
    { name: 'a lease of another node', obj: { metadata: { name: 'n2' } }, o: { group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease' },
      message: 'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node' },
  ];
  for (const c of refused) it(`refuses ${c.name}`, () => assertStatus(run(c.obj, c.o), 403, 'Forbidden', c.message));

  it('lets everyone else through', async () => {
    await plugin.admit?.(userContext({ name: 'alice', groups: [] }), attrs({ kind: 'Pod', metadata: { name: 'x', namespace: 'ns' } }));
  });
  it('refuses a node user without a name', () =>
    assertStatus(plugin.admit?.(userContext({ name: 'system:node:', groups: ['system:nodes'] }), attrs({ kind: 'Pod', metadata: { name: 'x', namespace: 'ns' } })),
      403, 'Forbidden', 'pods "x" is forbidden: could not determine node from user "system:node:"'));
  it('a missing pod for delete is 404', () => assertStatus(run(undefined, { operation: 'DELETE', name: 'gone', namespace: 'ns' }), 404, 'NotFound', 'pods "gone" not found'));
  it('checks deletes once, in the validating phase', async () => {
    await plugin.admit?.(n1, attrs(undefined, { operation: 'DELETE', name: 'theirs', namespace: 'ns' }));
    assert.ok(plugin.validate !== undefined);
  });
});
