import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { clusterRoleBindings } from './clusterrolebinding/clusterrolebinding.ts';
import { clusterRoles } from './clusterrole/clusterrole.ts';
import { rbacGroup } from './install.ts';
import { roleBindings } from './rolebinding/rolebinding.ts';
import { roles } from './role/role.ts';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from './v1/types.ts';

const ctx = systemContext('default');
const G = 'rbac.authorization.k8s.io';
const meta = (ns?: string) => (ns === undefined ? { name: 'r' } : { name: 'r', namespace: ns });

describe('roles and clusterroles', () => {
  const roleCases: { name: string; obj: Role; want: string[] }[] = [
    { name: 'valid', obj: { metadata: meta('default'), rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }, want: [] },
    { name: 'verbs, groups and resources required', obj: { metadata: meta('default'), rules: [{}] },
      want: ['rules[0].verbs: Required value: verbs must contain at least one value',
        'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
        'rules[0].resources: Required value: resource rules must supply at least one resource'] },
    { name: 'namespaced rules have no non-resource URLs', obj: { metadata: meta('default'), rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] }] },
      want: ['rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
        'rules[0].nonResourceURLs: Invalid value: ["/healthz"]: rules cannot apply to both regular resources and non-resource URLs'] },
    { name: 'name is a path segment', obj: { metadata: { name: 'a/b', namespace: 'default' } }, want: ["metadata.name: Invalid value: \"a/b\": may not contain '/'"] },
    { name: 'names may have capitals and colons', obj: { metadata: { name: 'system:Controller', namespace: 'default' } }, want: [] },
  ];
  for (const c of roleCases) it(`role: ${c.name}`, () => assert.deepEqual(roles.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));

  const clusterRoleCases: { name: string; obj: ClusterRole; want: string[] }[] = [
    { name: 'non-resource URLs', obj: { metadata: meta(), rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }, want: [] },
    { name: 'namespace forbidden', obj: { metadata: meta('default') }, want: ['metadata.namespace: Forbidden: not allowed on this type'] },
    { name: 'empty aggregation rule', obj: { metadata: meta(), aggregationRule: {} },
      want: ['aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil'] },
    { name: 'bad selector operator', obj: { metadata: meta(), aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Is' }] }] } },
      want: ['aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator',
        'aggregationRule.clusterRoleSelectors[0]: Invalid value: null: invalid label selector.'] },
    { name: 'valid aggregation', obj: { metadata: meta(), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }] } }, want: [] },
  ];
  for (const c of clusterRoleCases) it(`clusterrole: ${c.name}`, () => assert.deepEqual(clusterRoles.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));

  it('update reports rule problems twice, as kube does', () => {
    const bad: Role = { metadata: meta('default'), rules: [{ verbs: ['get'], apiGroups: [''] }] };
    assert.deepEqual(roles.strategy.validateUpdate(ctx, bad, bad).map(formatFieldError), [
      'rules[0].resources: Required value: resource rules must supply at least one resource',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ]);
  });
  it('created on PUT', () => {
    for (const d of [roles, clusterRoles, roleBindings, clusterRoleBindings]) assert.equal(d.strategy.allowCreateOnUpdate, true);
  });
  it('table: NAME, CREATED AT', () => {
    const cols = roles.table;
    assert.deepEqual(cols.map((c) => [c.name, c.type]), [['Name', 'string'], ['Created At', 'date']]);
    assert.deepEqual(cols.map((c) => c.cell({ metadata: { name: 'r', creationTimestamp: '2024-01-01T00:00:00Z' } }, 0)), ['r', '2024-01-01T00:00:00Z']);
  });
});

describe('rolebindings and clusterrolebindings', () => {
  const rb = (extra: Partial<RoleBinding>): RoleBinding => ({ metadata: meta('default'), roleRef: { apiGroup: G, kind: 'Role', name: 'view' }, ...extra });
  const cases: { name: string; obj: RoleBinding; want: string[] }[] = [
    { name: 'valid', obj: rb({ subjects: [{ kind: 'User', apiGroup: G, name: 'alice' }, { kind: 'ServiceAccount', name: 'default' }] }), want: [] },
    { name: 'roleRef enums', obj: rb({ roleRef: { apiGroup: 'x', kind: 'Pod' } }),
      want: ['roleRef.apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"',
        'roleRef.kind: Unsupported value: "Pod": supported values: "Role", "ClusterRole"', 'roleRef.name: Required value'] },
    { name: 'subjects', obj: rb({ subjects: [{ kind: 'Robot', name: 'r' }, { kind: 'User' }, { kind: 'ServiceAccount', name: 'Bad_Name', apiGroup: 'v1' }] }),
      want: ['subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
        'subjects[1].name: Required value', 'subjects[1].apiGroup: Unsupported value: "": supported values: "rbac.authorization.k8s.io"',
        'subjects[2].name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
        'subjects[2].apiGroup: Unsupported value: "v1": supported values: ""'] },
  ];
  for (const c of cases) it(`rolebinding: ${c.name}`, () => assert.deepEqual(roleBindings.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));

  // SetDefaults_RoleBinding fills roleRef.apiGroup even when roleRef is absent (a struct in Go):
  // kube then reports only kind and name.
  it('rolebinding: missing roleRef gets the RBAC group by default', () => {
    const b = { metadata: meta('default') } as unknown as RoleBinding;
    roleBindings.defaults?.(b);
    assert.deepEqual(roleBindings.strategy.validate(ctx, b).map(formatFieldError),
      ['roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"', 'roleRef.name: Required value']);
  });

  it('clusterrolebinding: only ClusterRole, service accounts need a namespace', () => {
    const crb: ClusterRoleBinding = { metadata: meta(), roleRef: { apiGroup: G, kind: 'Role', name: 'x' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] };
    assert.deepEqual(clusterRoleBindings.strategy.validate(ctx, crb).map(formatFieldError), [
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"', 'subjects[0].namespace: Required value']);
  });
  it('roleRef is immutable', () => {
    const old = rb({});
    const next = rb({ roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' } });
    assert.deepEqual(roleBindings.strategy.validateUpdate(ctx, next, old).map(formatFieldError), [
      'roleRef: Invalid value: {"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"}: cannot change roleRef']);
  });
  it('defaults roleRef.apiGroup and subject groups', () => {
    const b: RoleBinding = { metadata: meta('default'), roleRef: { kind: 'Role', name: 'v' }, subjects: [{ kind: 'User', name: 'u' }, { kind: 'ServiceAccount', name: 's' }, { kind: 'Group', name: 'g' }] };
    roleBindings.defaults(b);
    assert.equal(b.roleRef.apiGroup, G);
    assert.deepEqual(b.subjects?.map((s) => s.apiGroup), [G, undefined, G]);
    assert.equal(Object.hasOwn(b.subjects?.[1] ?? {}, 'apiGroup'), false, 'an empty apiGroup is omitted, as Go marshals it');
  });
  it('table: NAME ROLE AGE (+ USERS GROUPS SERVICEACCOUNTS)', () => {
    const now = Date.parse('2024-01-01T00:10:00Z');
    const b = rb({ metadata: { name: 'b', namespace: 'default', creationTimestamp: '2024-01-01T00:00:00Z' },
      subjects: [{ kind: 'User', name: 'alice' }, { kind: 'User', name: 'bob' }, { kind: 'Group', name: 'devs' }, { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' }] });
    assert.deepEqual(roleBindings.table.map((c) => [c.name, c.priority ?? 0]), [['Name', 0], ['Role', 0], ['Age', 0], ['Users', 1], ['Groups', 1], ['ServiceAccounts', 1]]);
    assert.deepEqual(roleBindings.table.map((c) => c.cell(b, now)), ['b', 'Role/view', '10m', 'alice, bob', 'devs', 'ns/sa']);
  });
  it('group lists v1 only', () => {
    assert.deepEqual(rbacGroup().versions.map((v) => [v.version, v.resources.map((r) => r.resource)]),
      [['v1', ['clusterrolebindings', 'clusterroles', 'rolebindings', 'roles']]]);
  });
});
