import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import { parseRequestInfo } from '../../endpoints/request/request-info.ts';
import { MANDATORY_FS_CATCH_ALL, MANDATORY_FS_EXEMPT, SUGGESTED_FSS } from './bootstrap.ts';
import { compareFlowSchemas, flowDistinguisher, matchesFlowSchema } from './rule.ts';

const info = (method: string, url: string) => {
  const u = new URL(url, 'https://x');
  return parseRequestInfo(method, u.pathname, u.searchParams);
};
const user = (name: string, ...groups: string[]): UserInfo => ({ name, groups: [...groups, 'system:authenticated'] });
const ALL = [MANDATORY_FS_EXEMPT, MANDATORY_FS_CATCH_ALL, ...SUGGESTED_FSS].sort(compareFlowSchemas);
const classify = (method: string, url: string, u: UserInfo): string =>
  ALL.find((fs) => matchesFlowSchema(info(method, url), u, fs))?.metadata.name ?? '';

describe('FlowSchema matching with the bootstrap configuration', () => {
  const cases = [
    { name: 'system:masters are exempt', method: 'GET', url: '/api/v1/pods', user: user('admin', 'system:masters'), want: 'exempt' },
    { name: 'probes of anyone are exempt', method: 'GET', url: '/readyz', user: user('alice'), want: 'probes' },
    { name: 'a probe path prefix too', method: 'GET', url: '/livez/etcd', user: user('alice'), want: 'probes' },
    { name: 'a probe other than GET is not', method: 'POST', url: '/healthz', user: user('alice'), want: 'global-default' },
    { name: 'the controller manager takes leader leases', method: 'PUT', url: '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kcm',
      user: user('system:kube-controller-manager'), want: 'system-leader-election' },
    { name: 'the controller manager otherwise', method: 'GET', url: '/api/v1/pods', user: user('system:kube-controller-manager'), want: 'kube-controller-manager' },
    { name: 'a node updating its status', method: 'PATCH', url: '/api/v1/nodes/n1/status', user: user('system:node:n1', 'system:nodes'), want: 'system-node-high' },
    { name: 'a node reading pods', method: 'GET', url: '/api/v1/pods', user: user('system:node:n1', 'system:nodes'), want: 'system-nodes' },
    { name: 'a kube-system service account', method: 'GET', url: '/api/v1/namespaces/default/pods',
      user: user('system:serviceaccount:kube-system:foo', 'system:serviceaccounts'), want: 'kube-system-service-accounts' },
    { name: 'another service account', method: 'GET', url: '/api/v1/namespaces/default/pods',
      user: user('system:serviceaccount:default:foo', 'system:serviceaccounts'), want: 'service-accounts' },
    { name: 'a namespace named like kube-system does not match its prefix', method: 'GET', url: '/api/v1/pods',
      user: user('system:serviceaccount:kube-systemx:foo', 'system:serviceaccounts'), want: 'service-accounts' },
    { name: 'any other user', method: 'GET', url: '/api/v1/pods', user: user('alice'), want: 'global-default' },
    { name: 'anonymous', method: 'GET', url: '/version', user: { name: 'system:anonymous', groups: ['system:unauthenticated'] }, want: 'global-default' },
    { name: 'no group at all: nothing matches (the controller falls back to catch-all)', method: 'GET', url: '/api/v1/pods',
      user: { name: 'x', groups: [] }, want: '' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(classify(c.method, c.url, c.user), c.want));
});

describe('resource rules', () => {
  const fs = (rule: object) => ({ metadata: { name: 'x' }, spec: { rules: [{ subjects: [{ kind: 'User', user: { name: '*' } }], resourceRules: [rule] }] } });
  const cases = [
    { name: 'cluster-scoped request needs clusterScope', rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] },
      url: '/api/v1/nodes', want: false },
    { name: 'clusterScope matches it', rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true }, url: '/api/v1/nodes', want: true },
    { name: 'named namespace', rule: { verbs: ['list'], apiGroups: [''], resources: ['pods'], namespaces: ['a'] }, url: '/api/v1/namespaces/a/pods', want: true },
    { name: 'other namespace', rule: { verbs: ['list'], apiGroups: [''], resources: ['pods'], namespaces: ['a'] }, url: '/api/v1/namespaces/b/pods', want: false },
    { name: 'subresource must be named', rule: { verbs: ['*'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] },
      url: '/api/v1/namespaces/a/pods/p/log', want: false },
    { name: 'a wildcard among others is a name', rule: { verbs: ['*', 'get'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] },
      url: '/api/v1/namespaces/a/pods', want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(matchesFlowSchema(info('GET', c.url), user('u'), fs(c.rule)), c.want));
});

describe('flowDistinguisher', () => {
  it('is the user, the namespace, or nothing', () => {
    const ri = info('GET', '/api/v1/namespaces/ns1/pods');
    const u = user('bob');
    assert.equal(flowDistinguisher(ri, u, { metadata: {}, spec: { distinguisherMethod: { type: 'ByUser' } } }), 'bob');
    assert.equal(flowDistinguisher(ri, u, { metadata: {}, spec: { distinguisherMethod: { type: 'ByNamespace' } } }), 'ns1');
    assert.equal(flowDistinguisher(ri, u, { metadata: {}, spec: {} }), '');
  });
});
