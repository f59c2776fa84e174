import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { StatusError } from '../../apimachinery/errors/status-error.ts';
import type { Attributes, ObjectInterfaces } from '../interfaces.ts';
import { webhookAccessors } from './accessor.ts';
import { shouldCallHook } from './matching.ts';
import { isExemptAdmissionConfigurationResource, ruleMatches, type RuleTarget } from './rules.ts';
import type { Rule, WebhookConfiguration, WebhookSpec } from './types.ts';

const target = (more: Partial<RuleTarget> = {}): RuleTarget => ({
  operation: 'CREATE', resource: { group: '', version: 'v1', resource: 'pods' }, subresource: '', namespace: 'ns', ...more,
});

describe('rules', () => {
  const cases: { name: string; rule: Rule; t: RuleTarget; want: boolean }[] = [
    { name: 'exact', rule: { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }, t: target(), want: true },
    { name: 'operation *', rule: { operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }, t: target({ operation: 'DELETE' }), want: true },
    { name: 'other operation', rule: { operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }, t: target(), want: false },
    { name: 'group *', rule: { operations: ['*'], apiGroups: ['*'], apiVersions: ['v1'], resources: ['deployments'] },
      t: target({ resource: { group: 'apps', version: 'v1', resource: 'deployments' } }), want: true },
    { name: 'other version', rule: { operations: ['*'], apiGroups: [''], apiVersions: ['v2'], resources: ['pods'] }, t: target(), want: false },
    { name: '* does not match a subresource', rule: { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] },
      t: target({ subresource: 'status' }), want: false },
    { name: '*/* matches a subresource', rule: { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] },
      t: target({ subresource: 'status' }), want: true },
    { name: '*/* matches the main resource too', rule: { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] },
      t: target(), want: true },
    { name: 'pods/status', rule: { operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/status'] },
      t: target({ subresource: 'status' }), want: true },
    { name: 'pods/status is not pods', rule: { operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/status'] },
      t: target(), want: false },
    { name: 'pods/* matches pods/exec', rule: { operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/*'] },
      t: target({ operation: 'CONNECT', subresource: 'exec' }), want: true },
    { name: '*/scale', rule: { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/scale'] },
      t: target({ resource: { group: 'apps', version: 'v1', resource: 'deployments' }, subresource: 'scale' }), want: true },
    { name: 'Namespaced scope, namespaced request', rule: { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: 'Namespaced' },
      t: target(), want: true },
    { name: 'Namespaced scope excludes namespaces themselves', rule: { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: 'Namespaced' },
      t: target({ resource: { group: '', version: 'v1', resource: 'namespaces' }, namespace: 'ns' }), want: false },
    { name: 'Cluster scope includes namespaces', rule: { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: 'Cluster' },
      t: target({ resource: { group: '', version: 'v1', resource: 'namespaces' }, namespace: 'ns' }), want: true },
    { name: 'Cluster scope excludes namespaced requests', rule: { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: 'Cluster' },
      t: target(), want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(ruleMatches(c.rule, c.t), c.want));

  it('exempts the admission configuration kinds only', () => {
    for (const kind of ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding']) {
      assert.equal(isExemptAdmissionConfigurationResource({ group: 'admissionregistration.k8s.io', version: 'v1', kind }), true, kind);
    }
    assert.equal(isExemptAdmissionConfigurationResource({ group: '', version: 'v1', kind: 'ConfigMap' }), false);
  });
});

describe('order', () => {
  it('sorts configurations by name and keeps each one\'s webhooks in order', () => {
    const cfg = (name: string, hooks: string[]): WebhookConfiguration => ({ metadata: { name }, webhooks: hooks.map((h) => ({ name: h })) });
    const order = webhookAccessors('Mutating', [cfg('b', ['b2', 'b1']), cfg('a', ['a1']), cfg('c', ['c1'])]).map((h) => h.name);
    assert.deepEqual(order, ['a1', 'b2', 'b1', 'c1']);
  });
});

const pod = (labels: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', labels } });

const interfaces: ObjectInterfaces = {
  convert: (o, gv) => ({ ...o, apiVersion: gv.group === '' ? gv.version : `${gv.group}/${gv.version}` }),
  decode: (v) => v as KubeObject,
  jsonPatch: (d) => d,
  goJSON: (o) => o,
  equivalentResources: (r) => (r.group === 'events.k8s.io' || r.group === ''
    ? [{ group: '', version: 'v1', resource: r.resource }, { group: 'events.k8s.io', version: 'v1', resource: r.resource }] : [r]),
  kindFor: (r) => ({ group: r.group, version: r.version, kind: 'Event' }),
};

function attrs(more: Partial<Attributes> = {}): Attributes {
  return {
    operation: 'CREATE', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: '', name: 'p', namespace: 'ns', object: pod(), oldObject: undefined, dryRun: false, interfaces, ...more,
  };
}

const hook = (spec: Partial<WebhookSpec>) => webhookAccessors('Validating', [{ metadata: { name: 'c' }, webhooks: [{
  name: 'h', rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }], ...spec,
}] }])[0] ?? assert.fail('no accessor');

describe('shouldCallHook', () => {
  const namespaces: Record<string, KubeObject> = { ns: { metadata: { name: 'ns', labels: { env: 'prod' } } } };
  const getNamespace = (name: string): Promise<KubeObject | undefined> => Promise.resolve(namespaces[name]);

  const cases: { name: string; spec: Partial<WebhookSpec>; attrs: Attributes; want: 'call' | 'skip' | number }[] = [
    { name: 'namespace selector matches the namespace\'s labels', spec: { namespaceSelector: { matchLabels: { env: 'prod' } } }, attrs: attrs(), want: 'call' },
    { name: 'namespace selector excludes', spec: { namespaceSelector: { matchLabels: { env: 'dev' } } }, attrs: attrs(), want: 'skip' },
    { name: 'a namespace is judged by its own new labels', spec: { namespaceSelector: { matchLabels: { env: 'dev' } } },
      attrs: attrs({ resource: { group: '', version: 'v1', resource: 'namespaces' }, kind: { group: '', version: 'v1', kind: 'Namespace' },
        name: 'fresh', namespace: 'fresh', object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh', labels: { env: 'dev' } } } }), want: 'call' },
    { name: 'a missing namespace is a 404', spec: { namespaceSelector: { matchLabels: { env: 'dev' } } }, attrs: attrs({ namespace: 'gone' }), want: 404 },
    { name: 'cluster-scoped requests ignore the namespace selector', spec: { namespaceSelector: { matchLabels: { env: 'dev' } } },
      attrs: attrs({ namespace: '', resource: { group: '', version: 'v1', resource: 'nodes' } }), want: 'call' },
    { name: 'object selector on the new object', spec: { objectSelector: { matchLabels: { a: 'b' } } }, attrs: attrs({ object: pod({ a: 'b' }) }), want: 'call' },
    { name: 'object selector on the old object', spec: { objectSelector: { matchLabels: { a: 'b' } } },
      attrs: attrs({ operation: 'DELETE', object: undefined, oldObject: pod({ a: 'b' }) }), want: 'call' },
    { name: 'object selector excludes', spec: { objectSelector: { matchLabels: { a: 'b' } } }, attrs: attrs(), want: 'skip' },
    { name: 'a bad selector is a 500 only when the rules match', spec: { objectSelector: { matchExpressions: [{ key: 'a', operator: 'Bad' as 'In' }] } },
      attrs: attrs(), want: 500 },
    { name: 'a bad selector with rules that do not match', spec: { objectSelector: { matchExpressions: [{ key: 'a', operator: 'Bad' as 'In' }] },
      rules: [{ operations: ['DELETE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }] }, attrs: attrs(), want: 'skip' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const got = await shouldCallHook(hook(c.spec), c.attrs, getNamespace);
      if (typeof c.want === 'number') assert.equal(got instanceof StatusError ? got.code : got, c.want);
      else assert.equal(got === undefined ? 'skip' : got instanceof StatusError ? got.message : 'call', c.want);
    });
  }

  it('matchPolicy Equivalent: a rule for events.k8s.io matches a core Event, sent in events.k8s.io/v1', async () => {
    const rules = [{ operations: ['*'], apiGroups: ['events.k8s.io'], apiVersions: ['v1'], resources: ['events'] }];
    const a = attrs({ kind: { group: '', version: 'v1', kind: 'Event' }, resource: { group: '', version: 'v1', resource: 'events' } });
    const inv = await shouldCallHook(hook({ rules, matchPolicy: 'Equivalent' }), a, getNamespace);
    assert.deepEqual(inv, { resource: { group: 'events.k8s.io', version: 'v1', resource: 'events' }, subresource: '',
      kind: { group: 'events.k8s.io', version: 'v1', kind: 'Event' } });
    assert.equal(await shouldCallHook(hook({ rules, matchPolicy: 'Exact' }), a, getNamespace), undefined);
  });

  it('match conditions decide last', async () => {
    const h = hook({ matchConditions: [{ name: 'x', expression: 'true' }] });
    assert.equal(await shouldCallHook(h, attrs(), getNamespace, () => Promise.resolve(false)), undefined);
    assert.notEqual(await shouldCallHook(h, attrs(), getNamespace, () => Promise.resolve(true)), undefined);
  });
});
