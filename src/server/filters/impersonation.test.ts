import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { isStatusError } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import { attributesRecord } from '../../authz/authorizer.ts';
import { newAuthorizationChain } from '../../authz/modes.ts';
import { RBACAuthorizer } from '../../authz/rbac/rbac.ts';
import { staticListers } from '../../authz/rbac/snapshot.ts';
import { impersonationHeaders } from './impersonation.ts';
import { ImpersonationModes } from './impersonation-mode.ts';

const request = (headers: Record<string, string | string[]>): IncomingMessage => {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    headers: Object.fromEntries(Object.entries(lower).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v])),
    headersDistinct: Object.fromEntries(Object.entries(lower).map(([k, v]) => [k, Array.isArray(v) ? v : [v]])),
  } as unknown as IncomingMessage;
};

describe('Impersonate-* headers', () => {
  it('none: no impersonation', () => assert.equal(impersonationHeaders(request({ Accept: 'x' })), undefined));

  it('user, repeated groups, uid and percent-encoded extra keys; the headers are removed', () => {
    const req = request({
      'Impersonate-User': 'bob', 'Impersonate-Group': ['a', 'b, c'], 'Impersonate-Uid': 'u1',
      'Impersonate-Extra-Example.com%2fscopes': ['s1', 's2'], Accept: 'x',
    });
    assert.deepEqual(impersonationHeaders(req), { name: 'bob', uid: 'u1', groups: ['a', 'b, c'], extra: { 'example.com/scopes': ['s1', 's2'] } });
    assert.deepEqual(Object.keys(req.headers), ['accept']);
  });

  const badRequests: { name: string; headers: Record<string, string | string[]>; want: string }[] = [
    { name: 'group without user', headers: { 'Impersonate-Group': 'g1' },
      want: 'requested &user.DefaultInfo{Name:"", UID:"", Groups:[]string{"g1"}, Extra:map[string][]string(nil)} without impersonating a user name' },
    { name: 'uid without user', headers: { 'Impersonate-Uid': 'x' },
      want: 'requested &user.DefaultInfo{Name:"", UID:"x", Groups:[]string(nil), Extra:map[string][]string(nil)} without impersonating a user name' },
    { name: 'extra without user', headers: { 'Impersonate-Extra-Foo': 'v' },
      want: 'requested &user.DefaultInfo{Name:"", UID:"", Groups:[]string(nil), Extra:map[string][]string{"foo":[]string{"v"}}} without impersonating a user name' },
  ];
  for (const c of badRequests) {
    it(`400: ${c.name}`, () => {
      assert.throws(() => impersonationHeaders(request(c.headers)), (err: unknown) => {
        assert.ok(isStatusError(err));
        assert.equal(err.status.code, 400);
        assert.equal(err.status.message, c.want);
        return true;
      });
    });
  }
});

const obj = (o: object): KubeObject => o as KubeObject;
const rbac = new RBACAuthorizer(staticListers({
  clusterRoles: [
    obj({ metadata: { name: 'impersonate-bob' }, rules: [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['bob'] }] }),
    obj({ metadata: { name: 'impersonate-groups' }, rules: [{ verbs: ['impersonate'], apiGroups: [''], resources: ['groups'], resourceNames: ['g1'] }] }),
    obj({ metadata: { name: 'constrained' }, rules: [
      { verbs: ['impersonate-on:user-info:list'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['impersonate:user-info'], apiGroups: ['authentication.k8s.io'], resources: ['users'], resourceNames: ['dave'] },
    ] }),
    obj({ metadata: { name: 'impersonate-sa' }, rules: [{ verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'] }] }),
  ],
  clusterRoleBindings: [
    obj({ metadata: { name: 'alice-bob' }, roleRef: { kind: 'ClusterRole', name: 'impersonate-bob' }, subjects: [{ kind: 'User', name: 'alice' }] }),
    obj({ metadata: { name: 'alice-groups' }, roleRef: { kind: 'ClusterRole', name: 'impersonate-groups' }, subjects: [{ kind: 'User', name: 'alice' }] }),
    obj({ metadata: { name: 'carol' }, roleRef: { kind: 'ClusterRole', name: 'constrained' }, subjects: [{ kind: 'User', name: 'carol' }] }),
  ],
  roleBindings: [
    obj({ metadata: { name: 'alice-sa', namespace: 'ns' }, roleRef: { kind: 'ClusterRole', name: 'impersonate-sa' }, subjects: [{ kind: 'User', name: 'alice' }] }),
  ],
}));

describe('impersonation modes', () => {
  const user = (name: string, groups: string[] = ['system:authenticated']): UserInfo => ({ name, groups });
  const listPods = (u: UserInfo) => attributesRecord({ user: u, verb: 'list', resourceRequest: true, resource: 'pods', namespace: 'default', apiVersion: 'v1' });
  const wanted = (name: string, groups: string[] = []) => ({ name, uid: '', groups, extra: {} });

  it('system:masters may impersonate anyone, with system:authenticated added', async () => {
    const modes = new ImpersonationModes(newAuthorizationChain(['RBAC'], { rbac }).authorizer);
    const r = await modes.impersonatedUser(wanted('bob'), listPods(user('admin', ['system:masters'])));
    assert.deepEqual(r, { user: { name: 'bob', groups: ['system:authenticated'] }, constraint: 'impersonate:user-info' });
  });

  it('the system:masters group is refused to constrained impersonation, legacy impersonation still allows it', async () => {
    const modes = new ImpersonationModes(newAuthorizationChain(['RBAC'], { rbac }).authorizer);
    const r = await modes.impersonatedUser(wanted('bob', ['system:masters']), listPods(user('admin', ['system:masters'])));
    assert.deepEqual(r, { user: { name: 'bob', groups: ['system:masters', 'system:authenticated'] }, constraint: '' });
  });

  it('without any impersonate rule the answer is the first mode\'s: impersonate-on:user-info:<verb>', async () => {
    const modes = new ImpersonationModes(rbac);
    await assert.rejects(modes.impersonatedUser(wanted('bob'), listPods(user('mallory'))),
      { message: 'pods is forbidden: User "mallory" cannot impersonate-on:user-info:list resource "pods" in API group "" in the namespace "default"' });
  });

  it('legacy impersonate on users; a later refusal then names the legacy check first', async () => {
    const modes = new ImpersonationModes(rbac);
    assert.deepEqual(await modes.impersonatedUser(wanted('bob'), listPods(user('alice'))),
      { user: { name: 'bob', groups: ['system:authenticated'] }, constraint: '' });
    await assert.rejects(modes.impersonatedUser(wanted('eve'), listPods(user('alice'))),
      { message: 'users "eve" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope' });
  });

  it('groups are checked one by one', async () => {
    const modes = new ImpersonationModes(rbac);
    assert.deepEqual((await modes.impersonatedUser(wanted('bob', ['g1']), listPods(user('alice')))).user.groups, ['g1', 'system:authenticated']);
    await assert.rejects(modes.impersonatedUser(wanted('bob', ['g1', 'g2']), listPods(user('alice'))),
      { message: 'groups "g2" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope' });
  });

  it('service accounts: serviceaccounts in their namespace, with their groups', async () => {
    const modes = new ImpersonationModes(rbac);
    const r = await modes.impersonatedUser(wanted('system:serviceaccount:ns:robot'), listPods(user('alice')));
    assert.deepEqual(r.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated']);
    await assert.rejects(modes.impersonatedUser(wanted('system:serviceaccount:other:robot'), listPods(user('alice'))),
      { message: 'serviceaccounts "robot" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "other"' });
  });

  it('constrained user-info: impersonate-on for the request, then impersonate:user-info on the user', async () => {
    const modes = new ImpersonationModes(rbac);
    assert.deepEqual(await modes.impersonatedUser(wanted('dave'), listPods(user('carol'))),
      { user: { name: 'dave', groups: ['system:authenticated'] }, constraint: 'impersonate:user-info' });
    await assert.rejects(modes.impersonatedUser(wanted('erin'), listPods(user('carol'))),
      { message: 'users.authentication.k8s.io "erin" is forbidden: User "carol" cannot impersonate:user-info resource "users" in API group "authentication.k8s.io" at the cluster scope' });
  });

  it('system:anonymous gets system:unauthenticated', async () => {
    const modes = new ImpersonationModes(newAuthorizationChain(['RBAC'], { rbac }).authorizer);
    const r = await modes.impersonatedUser(wanted('system:anonymous'), listPods(user('admin', ['system:masters'])));
    assert.deepEqual(r.user.groups, ['system:unauthenticated']);
  });
});
