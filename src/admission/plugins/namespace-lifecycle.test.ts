// NamespaceLifecycle as kube-apiserver v1.36.3 answers (asked through src/e2e/testing/oracle.ts):
// creates in a missing namespace are 404 for the namespace, in a terminating one 403, events
// included; local access reviews pass in either.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { Attributes } from '../interfaces.ts';
import { namespaceLifecycle } from './namespace-lifecycle.ts';

const namespaces: Record<string, KubeObject> = {
  live: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'live' } },
  term: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'term' }, status: { phase: 'Terminating' } } as KubeObject,
};
const plugin = namespaceLifecycle((name) => Promise.resolve(namespaces[name]));

function attrs(namespace: string, group: string, resource: string, name: string, subresource = ''): Attributes {
  return {
    operation: 'CREATE', kind: { group, version: 'v1', kind: 'X' }, resource: { group, version: 'v1', resource }, subresource,
    name, namespace, object: { metadata: { name } } as KubeObject, oldObject: undefined, dryRun: false,
  };
}

describe('NamespaceLifecycle', () => {
  const cases: { name: string; a: Attributes; want: { code: number; message: string } | undefined }[] = [
    { name: 'a create in a live namespace', a: attrs('live', '', 'configmaps', 'x'), want: undefined },
    { name: 'a create in a missing namespace', a: attrs('nope', '', 'configmaps', 'x'), want: { code: 404, message: 'namespaces "nope" not found' } },
    { name: 'a create in a terminating namespace', a: attrs('term', '', 'configmaps', 'x'),
      want: { code: 403, message: 'configmaps "x" is forbidden: unable to create new content in namespace term because it is being terminated' } },
    { name: 'a core event in a terminating namespace', a: attrs('term', '', 'events', 'e1'),
      want: { code: 403, message: 'events "e1" is forbidden: unable to create new content in namespace term because it is being terminated' } },
    { name: 'a token for a service account of a terminating namespace', a: attrs('term', '', 'serviceaccounts', 'default', 'token'),
      want: { code: 403, message: 'serviceaccounts "default" is forbidden: unable to create new content in namespace term because it is being terminated' } },
    { name: 'a local access review in a missing namespace', a: attrs('nope', 'authorization.k8s.io', 'localsubjectaccessreviews', ''), want: undefined },
    { name: 'a local access review in a terminating namespace', a: attrs('term', 'authorization.k8s.io', 'localsubjectaccessreviews', ''), want: undefined },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const run = plugin.admit?.(systemContext(c.a.namespace), c.a) ?? Promise.resolve();
      if (c.want === undefined) { await run; return; }
      await assert.rejects(run, (err: unknown) => {
        assert.ok(err instanceof StatusError);
        assert.equal(err.status.code, c.want?.code);
        assert.equal(err.status.message, c.want?.message);
        return true;
      });
    });
  }
});

describe('NamespaceLifecycle phase', () => it('refuses in the mutating phase, before mutating webhooks are called (as kube)', () => {
  const plugin = namespaceLifecycle(async () => undefined);
  assert.equal(typeof plugin.admit, 'function');
  assert.equal(plugin.validate, undefined);
}));
