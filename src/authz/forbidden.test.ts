import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { attributesRecord, type Attributes } from './authorizer.ts';
import { forbiddenStatusError } from './forbidden.ts';

const user = { name: 'alice', groups: [] };

describe('forbidden Status (responsewriters.ForbiddenStatusError)', () => {
  const cases: { name: string; a: Attributes; reason?: string; message: string; details: object }[] = [
    { name: 'namespaced list', a: attributesRecord({ user, verb: 'list', resourceRequest: true, resource: 'configmaps', namespace: 'default' }),
      message: 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"',
      details: { kind: 'configmaps' } },
    { name: 'cluster scope, named group', a: attributesRecord({ user, verb: 'get', resourceRequest: true, apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: 'x' }),
      message: 'clusterroles.rbac.authorization.k8s.io "x" is forbidden: User "alice" cannot get resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope',
      details: { name: 'x', group: 'rbac.authorization.k8s.io', kind: 'clusterroles' } },
    { name: 'subresource', a: attributesRecord({ user, verb: 'create', resourceRequest: true, resource: 'pods', subresource: 'exec', name: 'x', namespace: 'ns' }),
      message: 'pods "x" is forbidden: User "alice" cannot create resource "pods/exec" in API group "" in the namespace "ns"',
      details: { name: 'x', kind: 'pods' } },
    { name: 'non-resource path', a: attributesRecord({ user: { name: 'system:anonymous', groups: ['system:unauthenticated'] }, verb: 'get', path: '/api' }),
      message: 'forbidden: User "system:anonymous" cannot get path "/api"', details: {} },
    { name: 'reason appended', a: attributesRecord({ user, verb: 'get', path: '/x' }), reason: 'Everything is forbidden.',
      message: 'forbidden: User "alice" cannot get path "/x": Everything is forbidden.', details: {} },
    { name: 'HTML is escaped in the message, not the reason', a: attributesRecord({ user: { name: '<b>', groups: [] }, verb: 'get', path: '/&' }), reason: '<r>',
      message: 'forbidden: User "&lt;b&gt;" cannot get path "/&amp;": <r>', details: {} },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(forbiddenStatusError(c.a, c.reason ?? '').status, {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: c.message, reason: 'Forbidden', details: c.details, code: 403,
      });
    });
  }
});
