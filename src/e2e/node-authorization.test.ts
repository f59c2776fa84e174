// --authorization-mode Node,RBAC with the NodeRestriction admission plugin, against a started kapi
// and, where built, the kube-apiserver oracle started the same way: a kubelet (impersonated as
// system:node:<name> in system:nodes) reads only what the pods bound to its node use, lists pods
// only through its spec.nodeName field selector, and writes only its own Node, mirror pods and
// the status of its own pods; both servers give the same answers and messages.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RawRequest, RawResponse } from './testing/https-client.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startSuite, type Suite } from './testing/suite.ts';

interface Target { readonly name: string; request(req: RawRequest): Promise<RawResponse> }

const NS = 'node-authz';
const AS_N1 = { 'Impersonate-User': 'system:node:n1', 'Impersonate-Group': 'system:nodes' };
const json = (method: string, path: string, body?: unknown, headers?: Record<string, string>, contentType = 'application/json'): RawRequest =>
  ({ method, path, ...(body === undefined ? {} : { body: JSON.stringify(body), contentType }), ...(headers === undefined ? {} : { headers }) });

async function setUp(t: Target): Promise<void> {
  const must = async (req: RawRequest): Promise<void> => {
    const r = await t.request(req);
    assert.ok(r.status === 201 || r.status === 409, `${t.name} ${req.method} ${req.path}: ${r.text}`);
  };
  await must(json('POST', '/api/v1/namespaces', { metadata: { name: NS } }));
  await must(json('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'default' } }));
  for (const n of ['n1', 'n2']) await must(json('POST', '/api/v1/nodes', { metadata: { name: n } }));
  for (const s of ['used', 'unused']) await must(json('POST', `/api/v1/namespaces/${NS}/secrets`, { metadata: { name: s }, stringData: { k: 'v' } }));
  await must(json('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'cfg' }, data: { k: 'v' } }));
  await must(json('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`,
    { metadata: { name: 'claim' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }));
  const pod = (name: string, node: string, more: readonly unknown[] = []): unknown => ({
    metadata: { name }, spec: {
      nodeName: node, automountServiceAccountToken: false,
      containers: [{ name: 'c', image: 'busybox', envFrom: [{ configMapRef: { name: 'cfg' } }] }],
      volumes: [{ name: 's', secret: { secretName: 'used' } }, ...more],
    },
  });
  await must(json('POST', `/api/v1/namespaces/${NS}/pods`, pod('on-n1', 'n1', [{ name: 'c', persistentVolumeClaim: { claimName: 'claim' } }])));
  await must(json('POST', `/api/v1/namespaces/${NS}/pods`, pod('on-n2', 'n2')));
}

interface Case { readonly name: string; readonly req: RawRequest; readonly code: number; readonly message?: string }

const CASES: readonly Case[] = [
  { name: 'reads a secret its pod uses', req: json('GET', `/api/v1/namespaces/${NS}/secrets/used`, undefined, AS_N1), code: 200 },
  { name: 'reads a config map its pod uses', req: json('GET', `/api/v1/namespaces/${NS}/configmaps/cfg`, undefined, AS_N1), code: 200 },
  { name: 'cannot read a secret no pod of its uses', req: json('GET', `/api/v1/namespaces/${NS}/secrets/unused`, undefined, AS_N1), code: 403,
    message: `secrets "unused" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "${NS}": no relationship found between node 'n1' and this object` },
  { name: 'cannot list secrets', req: json('GET', `/api/v1/namespaces/${NS}/secrets`, undefined, AS_N1), code: 403,
    message: `secrets is forbidden: User "system:node:n1" cannot list resource "secrets" in API group "" in the namespace "${NS}": No Object name found` },
  { name: 'gets its own pod', req: json('GET', `/api/v1/namespaces/${NS}/pods/on-n1`, undefined, AS_N1), code: 200 },
  { name: 'cannot get a pod of another node', req: json('GET', `/api/v1/namespaces/${NS}/pods/on-n2`, undefined, AS_N1), code: 403,
    message: `pods "on-n2" is forbidden: User "system:node:n1" cannot get resource "pods" in API group "" in the namespace "${NS}": no relationship found between node 'n1' and this object` },
  { name: 'lists pods with its field selector', req: json('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1', undefined, AS_N1), code: 200 },
  { name: 'cannot list all pods', req: json('GET', '/api/v1/pods', undefined, AS_N1), code: 403,
    message: 'pods is forbidden: User "system:node:n1" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector' },
  { name: 'cannot read another node', req: json('GET', '/api/v1/nodes/n2', undefined, AS_N1), code: 403,
    message: 'nodes "n2" is forbidden: User "system:node:n1" cannot get resource "nodes" in API group "" at the cluster scope: node \'n1\' cannot read \'n2\', only its own Node object' },
  { name: 'NodeRestriction: cannot modify another node', req: json('PATCH', '/api/v1/nodes/n2', { metadata: { labels: { a: 'b' } } }, AS_N1, 'application/merge-patch+json'),
    code: 403, message: 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"' },
  { name: 'NodeRestriction: cannot set a restricted label on itself', req: json('PATCH', '/api/v1/nodes/n1',
    { metadata: { labels: { 'node-restriction.kubernetes.io/pool': 'x' } } }, AS_N1, 'application/merge-patch+json'),
  code: 403, message: 'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool' },
  { name: 'NodeRestriction: may set a kubelet label on itself', req: json('PATCH', '/api/v1/nodes/n1',
    { metadata: { labels: { 'kubernetes.io/arch': 'amd64' } } }, AS_N1, 'application/merge-patch+json'), code: 200 },
  { name: 'NodeRestriction: cannot modify its taints', req: json('PATCH', '/api/v1/nodes/n1', { spec: { taints: [] } }, AS_N1, 'application/merge-patch+json'),
    code: 403, message: 'nodes "n1" is forbidden: node "n1" is not allowed to modify taints' },
  { name: 'NodeRestriction: cannot create a pod that is not a mirror pod', req: json('POST', `/api/v1/namespaces/${NS}/pods`,
    { metadata: { name: 'sneaky' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] } }, AS_N1), code: 403,
  message: 'pods "sneaky" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods' },
  { name: 'NodeRestriction: cannot update the status of another node\'s pod', req: json('PATCH', `/api/v1/namespaces/${NS}/pods/on-n2/status`,
    { status: { message: 'x' } }, AS_N1, 'application/merge-patch+json'), code: 403,
  message: 'pods "on-n2" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself' },
  { name: 'NodeRestriction: updates the status of its own pod', req: json('PATCH', `/api/v1/namespaces/${NS}/pods/on-n1/status`,
    { status: { message: 'x' } }, AS_N1, 'application/merge-patch+json'), code: 200 },
  { name: 'NodeRestriction: cannot delete another node\'s pod', req: json('DELETE', `/api/v1/namespaces/${NS}/pods/on-n2`, undefined, AS_N1), code: 403,
    message: 'pods "on-n2" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself' },
  { name: 'NodeRestriction: may update its claim\'s status conditions', req: json('PATCH', `/api/v1/namespaces/${NS}/persistentvolumeclaims/claim/status`,
    { status: { conditions: [{ type: 'Resizing', status: 'True' }] } }, AS_N1, 'application/merge-patch+json'), code: 200 },
  // The message ends with util/diff.Diff of kube's internal claims, as compared (capacity, conditions, ... cleared).
  { name: 'NodeRestriction: cannot change its claim\'s phase', req: json('PATCH', `/api/v1/namespaces/${NS}/persistentvolumeclaims/claim/status`,
    { status: { phase: 'Bound' } }, AS_N1, 'application/merge-patch+json'), code: 403,
  message: 'persistentvolumeclaims "claim" is forbidden: node "n1" is not allowed to update fields other than status.quantity and status.conditions: ' +
    '@@ -25,7 +25,7 @@\n   "VolumeAttributesClassName": null\n  },\n  "Status": {\n-  "Phase": "Pending",\n+  "Phase": "Bound",\n' +
    '   "AccessModes": null,\n   "Capacity": null,\n   "Conditions": null,\n' },
  { name: 'lease outside kube-node-lease', req: json('POST', `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`, { metadata: { name: 'n1' } }, AS_N1), code: 403,
    message: `leases.coordination.k8s.io is forbidden: User "system:node:n1" cannot create resource "leases" in API group "coordination.k8s.io" in the namespace "${NS}": can only access leases in the "kube-node-lease" system namespace` },
];

async function runCases(t: Target): Promise<void> {
  await setUp(t);
  for (const c of CASES) {
    const r = await t.request(c.req);
    assert.equal(r.status, c.code, `${t.name} ${c.name}: ${r.text}`);
    if (c.message !== undefined) assert.equal((r.json() as { message: string }).message, c.message, `${t.name} ${c.name}`);
  }
}

describe('Node authorizer and NodeRestriction', () => {
  let suite: Suite | undefined;
  let oracle: Oracle | undefined;
  const skipOracle = oracleUnavailable();
  before(async () => {
    suite = await startSuite({ flags: ['--authorization-mode', 'Node,RBAC', '--enable-admission-plugins', 'NodeRestriction'] });
    if (skipOracle === undefined) oracle = await startOracle({ authorizationModes: ['Node', 'RBAC'], flags: ['--enable-admission-plugins', 'NodeRestriction'] });
  });
  after(async () => { await oracle?.stop(); await suite?.close(); });

  it('kapi', async () => {
    assert.ok(suite !== undefined);
    const s = suite;
    await runCases({ name: 'kapi', request: (r) => s.request(r) });
  });

  it('kube-apiserver (oracle)', { skip: skipOracle }, async () => {
    assert.ok(oracle !== undefined);
    const o = oracle;
    await runCases({ name: 'kube', request: (r) => o.request(r) });
  });
});
