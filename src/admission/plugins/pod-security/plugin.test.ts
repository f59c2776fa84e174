// The plugin around the decision: which requests it looks at, where its warnings and audit
// annotations go (kube's plugin prefixes the keys pod-security.kubernetes.io/), its refusal.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../apimachinery/errors/status-error.ts';
import { systemContext, type RequestContext } from '../../../apimachinery/request/context.ts';
import type { Attributes } from '../../interfaces.ts';
import { podSecurityAdmission } from './plugin.ts';

function recordingContext(): { ctx: RequestContext; warnings: string[]; annotations: Map<string, string> } {
  const warnings: string[] = [];
  const annotations = new Map<string, string>();
  const base = systemContext('ns');
  const ctx: RequestContext = {
    ...base, user: { name: 'alice', groups: [] }, warnings: { addWarning: (w) => warnings.push(w) },
    audit: { addAuditAnnotation: (k, v) => { if (!annotations.has(k)) annotations.set(k, v); } },
  };
  return { ctx, warnings, annotations };
}

const plugin = podSecurityAdmission({
  getNamespace: async (name) => ({ metadata: { name, labels: { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' } } }),
  listPods: async () => [],
});

const attrs = (over: Partial<Attributes>): Attributes => ({
  operation: 'CREATE', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, subresource: '',
  name: 'p', namespace: 'ns', object: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } } as Attributes['object'],
  oldObject: undefined, dryRun: false, ...over,
});

describe('PodSecurity plugin', () => {
  it('handles create and update only', () => {
    assert.deepEqual((['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const).map((op) => plugin.handles(op)), [true, true, false, false]);
  });

  it('adds the warnings and the prefixed audit annotations of an admitted pod', async () => {
    const { ctx, warnings, annotations } = recordingContext();
    await plugin.validate?.(ctx, attrs({}));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /^would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false/);
    assert.deepEqual([...annotations], [['pod-security.kubernetes.io/enforce-policy', 'baseline:latest']]);
  });

  it('refuses a pod with kube\'s Forbidden status, audit annotation included', async () => {
    const { ctx, warnings, annotations } = recordingContext();
    const privileged = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }] } };
    await assert.rejects(plugin.validate?.(ctx, attrs({ object: privileged as Attributes['object'] })) ?? Promise.resolve(), (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.equal(err.status.code, 403);
      assert.equal(err.status.reason, 'Forbidden');
      assert.deepEqual(err.status.details, { name: 'p', kind: 'pods' });
      assert.equal(err.status.message, 'pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)');
      return true;
    });
    assert.deepEqual(warnings, []);
    assert.equal(annotations.get('pod-security.kubernetes.io/enforce-policy'), 'baseline:latest');
    assert.equal(annotations.has('pod-security.kubernetes.io/audit-violations'), false, 'audit is privileged');
  });

  it('ignores resources without a pod template', async () => {
    const { ctx, warnings, annotations } = recordingContext();
    await plugin.validate?.(ctx, attrs({ resource: { group: '', version: 'v1', resource: 'configmaps' }, object: { metadata: { name: 'x' } } }));
    assert.deepEqual([warnings, [...annotations]], [[], []]);
  });
});
