import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { attributesRecord, type Authorizer } from '../authorizer.ts';
import { bindingAuthorized, compactRules, compactString, confirmNoEscalation, escalationAllowed, roleEscalationAuthorized } from './escalation.ts';
import { covers } from './policy-comparator.ts';
import { DefaultRuleResolver } from './rule.ts';
import { staticListers } from './snapshot.ts';
import type { PolicyRule } from './types.ts';

describe('covers (policy_comparator.go)', () => {
  const cases: { name: string; owner: PolicyRule[]; servant: PolicyRule[]; missing: PolicyRule[] }[] = [
    { name: 'same rule', owner: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], servant: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], missing: [] },
    { name: 'stars cover everything', owner: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      servant: [{ verbs: ['get', 'delete'], apiGroups: ['apps'], resources: ['deployments/scale'], resourceNames: ['x'] }], missing: [] },
    { name: 'missing verbs broken down', owner: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      servant: [{ verbs: ['get', 'list', 'delete'], apiGroups: [''], resources: ['pods'] }],
      missing: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }, { apiGroups: [''], resources: ['pods'], verbs: ['delete'] }] },
    { name: '*/subresource covers any resource\'s subresource', owner: [{ verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }],
      servant: [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }], missing: [] },
    { name: 'named owner does not cover unnamed', owner: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }],
      servant: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }], missing: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] },
    { name: 'unnamed owner covers named', owner: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }],
      servant: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }], missing: [] },
    { name: 'URL prefix', owner: [{ verbs: ['get'], nonResourceURLs: ['/healthz*'] }], servant: [{ verbs: ['get'], nonResourceURLs: ['/healthz/etcd', '/metrics'] }],
      missing: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(covers(c.owner, c.servant).missing, c.missing));
});

describe('compaction and formatting of missing rules', () => {
  it('merges the verbs of simple rules and formats as Go %q', () => {
    const compact = compactRules([
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a'] }, { nonResourceURLs: ['/x'], verbs: ['get'] },
    ]);
    assert.deepEqual(compact.map(compactString), [
      '{APIGroups:[""], Resources:["secrets"], ResourceNames:["a"], Verbs:["get"]}',
      '{NonResourceURLs:["/x"], Verbs:["get"]}',
      '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
    ]);
  });
});

const obj = (o: object): KubeObject => o as KubeObject;
const resolver = new DefaultRuleResolver(staticListers({
  clusterRoles: [obj({ metadata: { name: 'read-pods' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }] })],
  clusterRoleBindings: [
    obj({ metadata: { name: 'alice' }, roleRef: { kind: 'ClusterRole', name: 'read-pods' }, subjects: [{ kind: 'User', name: 'alice' }] }),
    obj({ metadata: { name: 'carol' }, roleRef: { kind: 'ClusterRole', name: 'gone' }, subjects: [{ kind: 'User', name: 'carol' }] }),
  ],
}));

describe('confirmNoEscalation', () => {
  const alice = { name: 'alice', groups: ['dev', 'system:authenticated'] };
  it('allows what the user holds', () => {
    assert.equal(confirmNoEscalation(resolver, alice, 'default', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), undefined);
  });
  it('names what is missing, one compact rule a line, sorted', () => {
    assert.equal(confirmNoEscalation(resolver, alice, 'default', [
      { verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods', 'configmaps'] },
    ]), 'user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["configmaps"], Verbs:["get" "delete"]}\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}');
  });
  it('adds resolution errors', () => {
    assert.equal(confirmNoEscalation(resolver, { name: 'carol', groups: [] }, '', [{ verbs: ['get'], nonResourceURLs: ['/x'] }]),
      'user "carol" (groups=[]) is attempting to grant RBAC permissions not currently held:\n{NonResourceURLs:["/x"], Verbs:["get"]}' +
      '; resolution errors: [clusterroles.rbac.authorization.k8s.io "gone" not found]');
  });
});

describe('escalation bypasses', () => {
  const seen: string[] = [];
  const authz: Authorizer = {
    authorize: (a) => {
      seen.push(`${a.verb} ${a.apiGroup}/${a.resource} ${a.namespace}/${a.name}`);
      return Promise.resolve({ decision: a.name === 'ok' ? 'Allow' : 'NoOpinion', reason: '' });
    },
  };
  const info = (resource: string, name: string) => ({
    isResourceRequest: true, path: '', verb: 'update', apiPrefix: 'apis', apiGroup: 'rbac.authorization.k8s.io', apiVersion: 'v1',
    namespace: 'ns', resource, subresource: '', name, parts: [],
  });
  const u = { name: 'alice', groups: [] };
  it('system:masters may escalate', () => {
    assert.equal(escalationAllowed({ name: 'x', groups: ['system:masters'] }), true);
    assert.equal(escalationAllowed(u), false);
    assert.equal(escalationAllowed(undefined), false);
  });
  it('escalate is checked on the role of the request', async () => {
    assert.equal(await roleEscalationAuthorized(u, info('roles', 'ok'), authz), true);
    assert.equal(await roleEscalationAuthorized(u, info('roles', 'other'), authz), false);
    assert.equal(await roleEscalationAuthorized(u, info('rolebindings', 'ok'), authz), false);
    assert.deepEqual(seen.splice(0), ['escalate rbac.authorization.k8s.io/roles ns/ok', 'escalate rbac.authorization.k8s.io/roles ns/other']);
  });
  it('bind is checked on the referenced role, in the binding\'s namespace', async () => {
    assert.equal(await bindingAuthorized(u, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'ok' }, 'ns', authz), true);
    assert.equal(await bindingAuthorized(u, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'no' }, '', authz), false);
    assert.equal(await bindingAuthorized(u, { kind: 'Other', name: 'ok' }, '', authz), false);
    assert.deepEqual(seen.splice(0), ['bind rbac.authorization.k8s.io/clusterroles ns/ok', 'bind rbac.authorization.k8s.io/roles /no']);
  });
  it('attributes record defaults', () => {
    assert.deepEqual(attributesRecord({ user: u, verb: 'get' }), {
      user: u, verb: 'get', resourceRequest: false, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', path: '',
    });
  });
});
