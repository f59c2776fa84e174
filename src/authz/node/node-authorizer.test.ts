import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { attributesRecord, type Attributes } from '../authorizer.ts';
import { NodeAuthorizer, nodeIdentity, type NodeGraph, type VertexType } from './node-authorizer.ts';

const node1 = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
/** n1 is related to secret ns/used, pvc ns/data, pod ns/p1 only. */
const graph: NodeGraph = {
  hasPathFrom: async (node: string, type: VertexType, ns: string, name: string) =>
    node === 'n1' && ns === 'ns' && ((type === 'secret' && name === 'used') || (type === 'pvc' && name === 'data') || (type === 'pod' && name === 'p1')),
};
const authz = new NodeAuthorizer(graph, [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['services'] }], { getServiceAccounts: true });
const ask = (fields: Partial<Attributes>): Attributes => attributesRecord({ user: node1, verb: 'get', resourceRequest: true, ...fields });

describe('nodeIdentity', () => {
  const cases = [
    { name: 'a node', user: node1, want: 'n1' },
    { name: 'not in system:nodes', user: { name: 'system:node:n1', groups: [] }, want: undefined },
    { name: 'another user', user: { name: 'alice', groups: ['system:nodes'] }, want: undefined },
    { name: 'no node name', user: { name: 'system:node:', groups: ['system:nodes'] }, want: '' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(nodeIdentity(c.user), c.want));
});

describe('NodeAuthorizer', () => {
  const cases: { name: string; attrs: Partial<Attributes>; decision: string; reason?: string }[] = [
    { name: 'a secret its pods use', attrs: { resource: 'secrets', namespace: 'ns', name: 'used' }, decision: 'Allow' },
    { name: 'another secret', attrs: { resource: 'secrets', namespace: 'ns', name: 'other' }, decision: 'NoOpinion',
      reason: 'no relationship found between node \'n1\' and this object' },
    { name: 'listing secrets without a name', attrs: { resource: 'secrets', verb: 'list', namespace: 'ns' }, decision: 'NoOpinion', reason: 'No Object name found' },
    { name: 'writing a secret', attrs: { resource: 'secrets', verb: 'update', namespace: 'ns', name: 'used' }, decision: 'NoOpinion',
      reason: 'can only read resources of this type' },
    { name: 'cluster-wide secrets', attrs: { resource: 'secrets', name: 'used' }, decision: 'NoOpinion', reason: 'can only read namespaced object of this type' },
    { name: 'its pvc status', attrs: { resource: 'persistentvolumeclaims', subresource: 'status', verb: 'patch', namespace: 'ns', name: 'data' }, decision: 'Allow' },
    { name: 'listing pvcs', attrs: { resource: 'persistentvolumeclaims', verb: 'list', namespace: 'ns' }, decision: 'NoOpinion',
      reason: 'can only get individual resources of this type' },
    { name: 'pods with its field selector', attrs: { resource: 'pods', verb: 'list', fieldSelector: 'spec.nodeName=n1' }, decision: 'Allow' },
    { name: 'pods with another node\'s selector', attrs: { resource: 'pods', verb: 'watch', fieldSelector: 'spec.nodeName=n2' }, decision: 'NoOpinion',
      reason: 'can only list/watch pods with spec.nodeName field selector' },
    { name: 'its own node', attrs: { resource: 'nodes', name: 'n1' }, decision: 'Allow' },
    { name: 'all nodes', attrs: { resource: 'nodes', verb: 'list' }, decision: 'NoOpinion', reason: 'node \'n1\' cannot read all nodes, only its own Node object' },
    { name: 'its lease', attrs: { resource: 'leases', apiGroup: 'coordination.k8s.io', namespace: 'kube-node-lease', name: 'n1', verb: 'update' }, decision: 'Allow' },
    { name: 'another lease', attrs: { resource: 'leases', apiGroup: 'coordination.k8s.io', namespace: 'kube-node-lease', name: 'n2', verb: 'update' },
      decision: 'NoOpinion', reason: 'can only access node lease with the same name as the requesting node' },
    { name: 'a token for a service account no pod of its runs as', attrs: { resource: 'serviceaccounts', subresource: 'token', verb: 'create', namespace: 'ns', name: 'sa' },
      decision: 'NoOpinion', reason: 'no relationship found between node \'n1\' and this object' },
    { name: 'what the node rules allow', attrs: { resource: 'services', verb: 'list' }, decision: 'Allow' },
    { name: 'what they do not', attrs: { resource: 'deployments', apiGroup: 'apps', verb: 'list' }, decision: 'NoOpinion', reason: '' },
    { name: 'a user without a node name', attrs: { user: { name: 'system:node:', groups: ['system:nodes'] }, resource: 'services', verb: 'list' },
      decision: 'NoOpinion', reason: 'unknown node for user "system:node:"' },
    { name: 'anyone else', attrs: { user: { name: 'alice', groups: [] }, resource: 'services', verb: 'list' }, decision: 'NoOpinion', reason: '' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await authz.authorize(ask(c.attrs));
      assert.equal(r.decision, c.decision);
      if (c.reason !== undefined) assert.equal(r.reason, c.reason);
    });
  }
  it('says a node\'s rules cannot be listed', async () => {
    const r = await authz.rulesFor(node1);
    assert.equal(r.incomplete, true);
    assert.equal(r.error?.message, 'node authorizer does not support user rule resolution');
    assert.equal((await authz.rulesFor({ name: 'alice', groups: [] })).incomplete, false);
  });
});
