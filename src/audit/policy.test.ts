// The audit policy: which rule matches a request (users, groups, verbs, resources with
// subresources, wildcards and names, namespaces, non-resource URLs), stages and managed fields
// merged as kube merges them, and the documents kube refuses at start-up.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newPolicyRuleEvaluator, parsePolicy, type AuditAttributes } from './policy.ts';
import type { Policy } from './types.ts';

const alice = { name: 'alice', groups: ['devs', 'system:authenticated'] };
const base: AuditAttributes = {
  user: alice, verb: 'get', isResourceRequest: true, path: '/api/v1/namespaces/ns/pods/p', apiGroup: '', namespace: 'ns',
  resource: 'pods', subresource: '', name: 'p',
};

describe('audit policy rules', () => {
  const cases: { name: string; rule: Record<string, unknown>; attrs?: Partial<AuditAttributes>; match: boolean }[] = [
    { name: 'no constraints matches all', rule: {}, match: true },
    { name: 'users matches the name', rule: { users: ['alice'] }, match: true },
    { name: 'users does not match another', rule: { users: ['bob'] }, match: false },
    { name: 'users never matches without a user', rule: { users: ['alice'] }, attrs: { user: undefined }, match: false },
    { name: 'userGroups matches any group', rule: { userGroups: ['devs'] }, match: true },
    { name: 'userGroups does not match', rule: { userGroups: ['ops'] }, match: false },
    { name: 'verbs', rule: { verbs: ['list', 'get'] }, match: true },
    { name: 'verbs other', rule: { verbs: ['create'] }, match: false },
    { name: 'resource of its group', rule: { resources: [{ group: '', resources: ['pods'] }] }, match: true },
    { name: 'resource of another group', rule: { resources: [{ group: 'apps', resources: ['pods'] }] }, match: false },
    { name: 'group without resources matches all of it', rule: { resources: [{ group: '' }] }, match: true },
    { name: 'a subresource needs its combined name', rule: { resources: [{ resources: ['pods'] }] }, attrs: { subresource: 'log' }, match: false },
    { name: 'combined name', rule: { resources: [{ resources: ['pods/log'] }] }, attrs: { subresource: 'log' }, match: true },
    { name: '* matches subresources', rule: { resources: [{ resources: ['*'] }] }, attrs: { subresource: 'log' }, match: true },
    { name: '*/subresource', rule: { resources: [{ resources: ['*/log'] }] }, attrs: { subresource: 'log' }, match: true },
    { name: '*/subresource not the resource itself', rule: { resources: [{ resources: ['*/log'] }] }, match: false },
    { name: 'resource/*', rule: { resources: [{ resources: ['pods/*'] }] }, attrs: { subresource: 'status' }, match: true },
    { name: 'resourceNames', rule: { resources: [{ resources: ['pods'], resourceNames: ['p'] }] }, match: true },
    { name: 'resourceNames other', rule: { resources: [{ resources: ['pods'], resourceNames: ['q'] }] }, match: false },
    { name: 'namespaces', rule: { namespaces: ['ns'] }, match: true },
    { name: 'namespaces other', rule: { namespaces: ['kube-system'] }, match: false },
    { name: 'namespace "" is cluster scope', rule: { namespaces: [''] }, attrs: { namespace: '', resource: 'nodes' }, match: true },
    { name: 'resource rules never match non-resource requests', rule: { resources: [{ group: '' }] }, attrs: { isResourceRequest: false, path: '/healthz' }, match: false },
    { name: 'nonResourceURLs exact', rule: { nonResourceURLs: ['/healthz'] }, attrs: { isResourceRequest: false, path: '/healthz' }, match: true },
    { name: 'nonResourceURLs prefix', rule: { nonResourceURLs: ['/healthz*'] }, attrs: { isResourceRequest: false, path: '/healthz/etcd' }, match: true },
    { name: 'nonResourceURLs *', rule: { nonResourceURLs: ['*'] }, attrs: { isResourceRequest: false, path: '/version' }, match: true },
    { name: 'nonResourceURLs never match resource requests', rule: { nonResourceURLs: ['*'] }, match: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const policy = parsePolicy(JSON.stringify({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'Metadata', ...c.rule }] }));
      const got = newPolicyRuleEvaluator(policy)({ ...base, ...c.attrs });
      assert.equal(got.level, c.match ? 'Metadata' : 'None');
    });
  }

  it('the first matching rule decides; stages and omitManagedFields merge with the policy\'s', () => {
    const p: Policy = parsePolicy(`apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
omitManagedFields: true
rules:
- level: None
  users: [bob]
- level: RequestResponse
  verbs: [get]
  omitStages: [ResponseStarted]
  omitManagedFields: false
- level: Metadata
`);
    assert.deepEqual(newPolicyRuleEvaluator(p)(base), { level: 'RequestResponse', omitStages: ['RequestReceived', 'ResponseStarted'], omitManagedFields: false });
    assert.deepEqual(newPolicyRuleEvaluator(p)({ ...base, verb: 'list' }), { level: 'Metadata', omitStages: ['RequestReceived'], omitManagedFields: true });
    assert.equal(newPolicyRuleEvaluator(p)({ ...base, user: { name: 'bob', groups: [] } }).level, 'None');
  });
});

describe('audit policy documents refused', () => {
  const cases = [
    { name: 'no rules', doc: 'apiVersion: audit.k8s.io/v1\nkind: Policy\n', want: 'loaded illegal policy with 0 rules' },
    { name: 'another version', doc: 'apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n', want: 'unknown group version field audit.k8s.io/v1beta1, Kind=Policy in policy' },
    { name: 'a bad level', doc: 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Everything}]\n',
      want: 'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"' },
    { name: 'no level', doc: 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{verbs: [get]}]\n', want: 'rules[0].level: Required value' },
    { name: 'resources and URLs', doc: 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: [/x], namespaces: [a]}]\n',
      want: 'rules[0].nonResourceURLs: Invalid value: "[/x]": rules cannot apply to both regular resources and non-resource URLs' },
    { name: 'a URL without /', doc: 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: [x]}]\n',
      want: 'rules[0].nonResourceURLs[0]: Invalid value: "x": non-resource URL rules must begin with a \'/\' character' },
  ];
  for (const c of cases) it(c.name, () => { assert.throws(() => parsePolicy(c.doc), { message: c.want }); });
});
