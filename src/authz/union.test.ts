import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { UserInfo } from '../apimachinery/request/context.ts';
import { attributesRecord, type AuthorizationResult, type Authorizer } from './authorizer.ts';
import { newAlwaysAllowAuthorizer, newAlwaysDenyAuthorizer, newPrivilegedGroups } from './factory.ts';
import { anonymousAllowedWith, newAuthorizationChain } from './modes.ts';
import { RBACAuthorizer } from './rbac/rbac.ts';
import { staticListers } from './rbac/snapshot.ts';
import { newUnionAuthorizer } from './union.ts';

const fixed = (r: AuthorizationResult, calls: string[], name: string): Authorizer => ({
  authorize: () => { calls.push(name); return Promise.resolve(r); },
});
const admin: UserInfo = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };
const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
const getPods = (user: UserInfo | undefined) => attributesRecord({ user, verb: 'get', resourceRequest: true, resource: 'pods', namespace: 'default' });

describe('union authorizer', () => {
  const cases: { name: string; chain: AuthorizationResult[]; want: AuthorizationResult; calls: number }[] = [
    { name: 'first allow wins', chain: [{ decision: 'NoOpinion', reason: 'a' }, { decision: 'Allow', reason: 'b' }, { decision: 'Deny', reason: 'c' }],
      want: { decision: 'Allow', reason: 'b' }, calls: 2 },
    { name: 'first deny wins', chain: [{ decision: 'Deny', reason: 'no' }, { decision: 'Allow', reason: '' }],
      want: { decision: 'Deny', reason: 'no' }, calls: 1 },
    { name: 'no opinion joins reasons with newlines', chain: [{ decision: 'NoOpinion', reason: 'a' }, { decision: 'NoOpinion', reason: '' }, { decision: 'NoOpinion', reason: 'c' }],
      want: { decision: 'NoOpinion', reason: 'a\nc' }, calls: 3 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const calls: string[] = [];
      const u = newUnionAuthorizer(...c.chain.map((r, i) => fixed(r, calls, String(i))));
      assert.deepEqual(await u.authorize(getPods(alice)), c.want);
      assert.equal(calls.length, c.calls);
    });
  }
  it('aggregates the errors of authorizers with no opinion', async () => {
    const u = newUnionAuthorizer(fixed({ decision: 'NoOpinion', reason: '', error: new Error('x') }, [], 'a'),
      fixed({ decision: 'NoOpinion', reason: '', error: new Error('y') }, [], 'b'));
    assert.equal((await u.authorize(getPods(alice))).error?.message, '[x, y]');
  });
});

describe('built-in authorizers', () => {
  it('the privileged group allows system:masters and has no opinion about others', async () => {
    const p = newPrivilegedGroups('system:masters');
    assert.equal((await p.authorize(getPods(admin))).decision, 'Allow');
    assert.deepEqual(await p.authorize(getPods(alice)), { decision: 'NoOpinion', reason: '' });
    const noUser = await p.authorize(getPods(undefined));
    assert.equal(noUser.error?.message, 'no user on request.');
  });
  it('AlwaysDeny has no opinion, with kube\'s reason', async () => {
    assert.deepEqual(await newAlwaysDenyAuthorizer().authorize(getPods(alice)), { decision: 'NoOpinion', reason: 'Everything is forbidden.' });
  });
  it('AlwaysAllow allows and holds * rules', async () => {
    const a = newAlwaysAllowAuthorizer();
    assert.equal((await a.authorize(getPods(alice))).decision, 'Allow');
    assert.deepEqual((await a.rulesFor(alice, 'default')).resourceRules, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }]);
  });
});

describe('authorization chain (--authorization-mode)', () => {
  const rbac = new RBACAuthorizer(staticListers({}));
  it('system:masters is allowed before the modes are asked, even with AlwaysDeny', async () => {
    const { authorizer } = newAuthorizationChain(['AlwaysDeny'], { rbac });
    assert.equal((await authorizer.authorize(getPods(admin))).decision, 'Allow');
    assert.deepEqual(await authorizer.authorize(getPods(alice)), { decision: 'NoOpinion', reason: 'Everything is forbidden.' });
  });
  it('RBAC without bindings has no opinion; a later AlwaysAllow allows', async () => {
    assert.equal((await newAuthorizationChain(['RBAC'], { rbac }).authorizer.authorize(getPods(alice))).decision, 'NoOpinion');
    assert.equal((await newAuthorizationChain(['RBAC', 'AlwaysAllow'], { rbac }).authorizer.authorize(getPods(alice))).decision, 'Allow');
  });
  it('rules come from the modes, not from system:masters', async () => {
    const { ruleResolver } = newAuthorizationChain(['RBAC', 'AlwaysDeny'], { rbac });
    assert.deepEqual(await ruleResolver.rulesFor(admin, 'default'), { resourceRules: [], nonResourceRules: [], incomplete: false });
  });
  it('RBAC needs its authorizer', () => {
    assert.throws(() => newAuthorizationChain(['RBAC'], {}), /authorizer type RBAC is not allowed/);
  });
  it('AlwaysAllow turns anonymous requests off', () => {
    assert.equal(anonymousAllowedWith(['AlwaysAllow'], true), false);
    assert.equal(anonymousAllowedWith(['RBAC', 'AlwaysAllow'], true), false);
    assert.equal(anonymousAllowedWith(['RBAC'], true), true);
    assert.equal(anonymousAllowedWith(['RBAC'], false), false);
  });
});
