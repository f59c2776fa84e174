import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import { attributesRecord, type Attributes } from '../authorizer.ts';
import { ruleAllows } from './evaluation-helpers.ts';
import { RBACAuthorizer } from './rbac.ts';
import { staticListers } from './snapshot.ts';
import type { PolicyRule } from './types.ts';

const alice: UserInfo = { name: 'alice', groups: ['dev', 'system:authenticated'] };
const res = (verb: string, resource: string, more: Partial<Attributes> = {}): Attributes =>
  attributesRecord({ user: alice, verb, resourceRequest: true, resource, ...more });
const url = (verb: string, path: string): Attributes => attributesRecord({ user: alice, verb, path });

describe('RuleAllows (evaluation_helpers.go)', () => {
  const cases: { name: string; rule: PolicyRule; a: Attributes; want: boolean }[] = [
    { name: 'exact verb, group and resource', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, a: res('get', 'pods'), want: true },
    { name: 'other verb', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, a: res('list', 'pods'), want: false },
    { name: 'verb *', rule: { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, a: res('deletecollection', 'pods'), want: true },
    { name: 'other group', rule: { verbs: ['get'], apiGroups: [''], resources: ['deployments'] }, a: res('get', 'deployments', { apiGroup: 'apps' }), want: false },
    { name: 'group *', rule: { verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }, a: res('get', 'deployments', { apiGroup: 'apps' }), want: true },
    { name: 'resource *', rule: { verbs: ['get'], apiGroups: [''], resources: ['*'] }, a: res('get', 'secrets'), want: true },
    { name: 'resource * covers subresources', rule: { verbs: ['create'], apiGroups: [''], resources: ['*'] }, a: res('create', 'pods', { subresource: 'exec' }), want: true },
    { name: 'resource alone is not its subresource', rule: { verbs: ['create'], apiGroups: [''], resources: ['pods'] }, a: res('create', 'pods', { subresource: 'exec' }), want: false },
    { name: 'resource/subresource', rule: { verbs: ['create'], apiGroups: [''], resources: ['pods/exec'] }, a: res('create', 'pods', { subresource: 'exec' }), want: true },
    { name: 'subresource alone is not the resource', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, a: res('get', 'pods'), want: false },
    { name: '*/subresource', rule: { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, a: res('get', 'deployments', { apiGroup: 'apps', subresource: 'scale' }), want: true },
    { name: '*/subresource needs that subresource', rule: { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, a: res('get', 'deployments', { apiGroup: 'apps', subresource: 'status' }), want: false },
    { name: '*/subresource does not match the resource', rule: { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, a: res('get', 'deployments', { apiGroup: 'apps' }), want: false },
    { name: 'resourceNames match the name', rule: { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'] }, a: res('get', 'configmaps', { name: 'b' }), want: true },
    { name: 'resourceNames refuse another name', rule: { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, a: res('get', 'configmaps', { name: 'c' }), want: false },
    { name: 'resourceNames refuse a list (no name)', rule: { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, a: res('list', 'configmaps'), want: false },
    { name: 'non-resource exact', rule: { verbs: ['get'], nonResourceURLs: ['/healthz'] }, a: url('get', '/healthz'), want: true },
    { name: 'non-resource exact is not a prefix', rule: { verbs: ['get'], nonResourceURLs: ['/healthz'] }, a: url('get', '/healthz/etcd'), want: false },
    { name: 'non-resource trailing *', rule: { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, a: url('get', '/healthz/etcd'), want: true },
    { name: 'non-resource trailing * without the slash', rule: { verbs: ['get'], nonResourceURLs: ['/api*'] }, a: url('get', '/apis/apps'), want: true },
    { name: 'non-resource *', rule: { verbs: ['get'], nonResourceURLs: ['*'] }, a: url('get', '/anything'), want: true },
    { name: 'non-resource verb', rule: { verbs: ['get'], nonResourceURLs: ['*'] }, a: url('post', '/anything'), want: false },
    { name: 'resource rule never matches a path', rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, a: url('get', '/api'), want: false },
    { name: 'URL rule never matches a resource', rule: { verbs: ['*'], nonResourceURLs: ['*'] }, a: res('get', 'pods'), want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(ruleAllows(c.a, c.rule), c.want));
});

const meta = (name: string, namespace?: string): KubeObject['metadata'] => (namespace === undefined ? { name } : { name, namespace });
const role = (name: string, rules: PolicyRule[], namespace?: string): KubeObject => ({ metadata: meta(name, namespace), rules } as KubeObject);
const binding = (name: string, roleRef: { kind: string; name: string }, subjects: object[], namespace?: string): KubeObject =>
  ({ metadata: meta(name, namespace), roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef }, subjects } as KubeObject);

const authorizer = new RBACAuthorizer(staticListers({
  clusterRoles: [
    role('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]),
    role('healthz', [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }]),
    role('secret-one', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['one'] }]),
  ],
  roles: [role('cm-writer', [{ verbs: ['create', 'update'], apiGroups: [''], resources: ['configmaps'] }], 'ns1')],
  clusterRoleBindings: [
    binding('devs-read-pods', { kind: 'ClusterRole', name: 'pod-reader' }, [{ kind: 'Group', name: 'dev' }]),
    binding('everyone-healthz', { kind: 'ClusterRole', name: 'healthz' }, [{ kind: 'Group', name: 'system:unauthenticated' }, { kind: 'Group', name: 'system:authenticated' }]),
    binding('broken', { kind: 'ClusterRole', name: 'missing' }, [{ kind: 'User', name: 'bob' }]),
  ],
  roleBindings: [
    binding('alice-cm', { kind: 'Role', name: 'cm-writer' }, [{ kind: 'User', name: 'alice' }], 'ns1'),
    binding('sa-secret', { kind: 'ClusterRole', name: 'secret-one' }, [{ kind: 'ServiceAccount', name: 'robot' }], 'ns1'),
    binding('other-sa-secret', { kind: 'ClusterRole', name: 'secret-one' }, [{ kind: 'ServiceAccount', name: 'robot', namespace: 'ns2' }], 'ns1'),
    binding('bob-missing-role', { kind: 'Role', name: 'gone' }, [{ kind: 'User', name: 'bob' }], 'ns1'),
  ],
}, true));

describe('RBACAuthorizer', () => {
  const robot: UserInfo = { name: 'system:serviceaccount:ns1:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'] };
  const robot2: UserInfo = { name: 'system:serviceaccount:ns2:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns2', 'system:authenticated'] };
  const bob: UserInfo = { name: 'bob', groups: ['system:authenticated'] };
  const cases: { name: string; a: Attributes; decision: string; reason: string }[] = [
    { name: 'group binding, cluster-wide', a: res('list', 'pods'), decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "devs-read-pods" of ClusterRole "pod-reader" to Group "dev"' },
    { name: 'cluster role binding applies in every namespace', a: res('get', 'pods', { namespace: 'x', name: 'p' }), decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "devs-read-pods" of ClusterRole "pod-reader" to Group "dev"' },
    { name: 'role binding in its namespace', a: res('create', 'configmaps', { namespace: 'ns1' }), decision: 'Allow',
      reason: 'RBAC: allowed by RoleBinding "alice-cm/ns1" of Role "cm-writer" to User "alice"' },
    { name: 'role binding not in another namespace', a: res('create', 'configmaps', { namespace: 'ns2' }), decision: 'NoOpinion', reason: '' },
    { name: 'role binding not cluster-wide', a: res('create', 'configmaps'), decision: 'NoOpinion', reason: '' },
    { name: 'non-resource URL', a: url('get', '/healthz'), decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "everyone-healthz" of ClusterRole "healthz" to Group "system:authenticated"' },
    { name: 'service account subject defaults to the binding namespace', a: { ...res('get', 'secrets', { namespace: 'ns1', name: 'one' }), user: robot },
      decision: 'Allow', reason: 'RBAC: allowed by RoleBinding "sa-secret/ns1" of ClusterRole "secret-one" to ServiceAccount "robot/ns1"' },
    { name: 'service account of another namespace named explicitly', a: { ...res('get', 'secrets', { namespace: 'ns1', name: 'one' }), user: robot2 },
      decision: 'Allow', reason: 'RBAC: allowed by RoleBinding "other-sa-secret/ns1" of ClusterRole "secret-one" to ServiceAccount "robot/ns2"' },
    { name: 'resourceNames', a: { ...res('get', 'secrets', { namespace: 'ns1', name: 'two' }), user: robot }, decision: 'NoOpinion', reason: '' },
    { name: 'missing roles are the reason', a: { ...res('get', 'pods', { namespace: 'ns1' }), user: bob }, decision: 'NoOpinion',
      reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "missing" not found, role.rbac.authorization.k8s.io "gone" not found]' },
    { name: 'one missing role', a: { ...res('get', 'pods'), user: bob }, decision: 'NoOpinion',
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found' },
    { name: 'no user', a: { ...res('get', 'pods'), user: undefined }, decision: 'NoOpinion', reason: '' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await authorizer.authorize(c.a);
      assert.deepEqual({ decision: r.decision, reason: r.reason }, { decision: c.decision, reason: c.reason });
    });
  }

  it('rulesFor: cluster-wide rules, then those of the namespace, split by kind', async () => {
    const r = await authorizer.rulesFor(alice, 'ns1');
    assert.deepEqual(r, {
      resourceRules: [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: [] },
        { verbs: ['create', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: [] },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      incomplete: false,
    });
  });

  it('rulesFor reports what it could not resolve, with the rules it found', async () => {
    const r = await authorizer.rulesFor(bob, 'ns1');
    assert.equal(r.nonResourceRules.length, 1);
    assert.equal(r.error?.message, '[clusterrole.rbac.authorization.k8s.io "missing" not found, role.rbac.authorization.k8s.io "gone" not found]');
  });
});
