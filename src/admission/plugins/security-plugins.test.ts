import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { AdmissionAuthorizer, AuthorizationAttributes } from '../authorizer.ts';
import { assertStatus, attrs, userContext } from '../testing/attributes.ts';
import { alwaysPullImages } from './always-pull-images.ts';
import { denyServiceExternalIPs } from './deny-service-external-ips.ts';
import { ownerReferencesPermissionEnforcement, type RESTMapper } from './owner-references.ts';

const ctx = userContext({ name: 'bob', groups: ['system:authenticated'] });
type Spec = Record<string, unknown>;
const pod = (spec: Spec): KubeObject & { spec: Spec } => ({ kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec });

describe('AlwaysPullImages', () => {
  it('sets Always on every container and image volume of a new pod', async () => {
    const p = pod({
      initContainers: [{ name: 'i', image: 'a', imagePullPolicy: 'IfNotPresent' }], containers: [{ name: 'c', image: 'b', imagePullPolicy: 'Never' }],
      volumes: [{ name: 'v', image: { reference: 'x', pullPolicy: 'IfNotPresent' } }, { name: 'e', emptyDir: {} }],
    });
    await alwaysPullImages().admit?.(ctx, attrs(p));
    assert.deepEqual([(p.spec['initContainers'] as Spec[])[0]?.['imagePullPolicy'], (p.spec['containers'] as Spec[])[0]?.['imagePullPolicy']], ['Always', 'Always']);
    assert.deepEqual(p.spec['volumes'], [{ name: 'v', image: { reference: 'x', pullPolicy: 'Always' } }, { name: 'e', emptyDir: {} }]);
  });
  const updates = [
    { name: 'an update with a new image is changed', image: 'new', want: 'Always' },
    { name: 'an update with only known images is left alone', image: 'old', want: 'Never' },
  ];
  for (const c of updates) {
    it(c.name, async () => {
      const p = pod({ containers: [{ name: 'c', image: c.image, imagePullPolicy: 'Never' }] });
      await alwaysPullImages().admit?.(ctx, attrs(p, { operation: 'UPDATE', oldObject: pod({ containers: [{ name: 'c', image: 'old' }] }) }));
      assert.equal((p.spec['containers'] as Spec[])[0]?.['imagePullPolicy'], c.want);
    });
  }
  it('validation refuses what a later step set back, as kube\'s aggregate (500)', () =>
    assertStatus(alwaysPullImages().validate?.(ctx, attrs(pod({ containers: [{ name: 'c', image: 'a', imagePullPolicy: 'IfNotPresent' }, { name: 'd', image: 'b', imagePullPolicy: 'Never' }] }))),
      500, '', '[pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always", ' +
      'pods "p" is forbidden: spec.containers[1].imagePullPolicy: Unsupported value: "Never": supported values: "Always"]'));
});

describe('DenyServiceExternalIPs', () => {
  const svc = (ips?: string[]): KubeObject & { spec: unknown } => ({ kind: 'Service', metadata: { name: 's', namespace: 'ns' }, spec: ips === undefined ? {} : { externalIPs: ips } });
  const cases = [
    { name: 'a service without external IPs', obj: svc(), old: undefined, ok: true },
    { name: 'a new service with external IPs', obj: svc(['1.2.3.4']), old: undefined, ok: false },
    { name: 'an update keeping a subset', obj: svc(['1.2.3.4']), old: svc(['1.2.3.4', '5.6.7.8']), ok: true },
    { name: 'an update adding one', obj: svc(['1.2.3.4', '9.9.9.9']), old: svc(['1.2.3.4']), ok: false },
  ];
  for (const c of cases) {
    it(`${c.ok ? 'allows' : 'refuses'} ${c.name}`, async () => {
      const p = denyServiceExternalIPs().validate?.(ctx, attrs(c.obj, { resource: 'services', operation: c.old === undefined ? 'CREATE' : 'UPDATE', ...(c.old === undefined ? {} : { oldObject: c.old }) }));
      if (c.ok) await p;
      else await assertStatus(p, 403, 'Forbidden', 'services "s" is forbidden: Use of external IPs is denied by admission control');
    });
  }
});

describe('OwnerReferencesPermissionEnforcement', () => {
  const owner = (block?: boolean): Record<string, unknown> => ({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u1', ...(block === undefined ? {} : { blockOwnerDeletion: block }) });
  const cm = (refs: unknown[]): KubeObject => ({ kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns', ownerReferences: refs as never } });
  const mapper: RESTMapper = (group, kind, version) => {
    if (group === 'apps' && kind === 'Deployment') return [{ group, version, resource: 'deployments', namespaced: true }];
    throw new Error(`no matches for kind "${kind}" in version "${group}/${version}"`);
  };
  const authz = (allowed: (a: AuthorizationAttributes) => boolean): AdmissionAuthorizer & { asked: AuthorizationAttributes[] } => {
    const asked: AuthorizationAttributes[] = [];
    return { asked, authorize: async (a) => { asked.push(a); return { decision: allowed(a) ? 'Allow' : 'NoOpinion', reason: 'no RBAC policy matched' }; } };
  };
  const on = { resource: 'configmaps', kind: 'ConfigMap' };
  it('lets a create set a non-blocking owner without asking', async () => {
    const a = authz(() => false);
    await ownerReferencesPermissionEnforcement(a, mapper).validate?.(ctx, attrs(cm([owner()]), on));
    assert.equal(a.asked.length, 0);
  });
  it('needs delete on the object to change its owners on update', () =>
    assertStatus(ownerReferencesPermissionEnforcement(authz(() => false), mapper).validate?.(ctx, attrs(cm([owner()]), { ...on, operation: 'UPDATE', oldObject: cm([]) })),
      403, 'Forbidden', 'configmaps "cm" is forbidden: cannot set an ownerRef on a resource you can\'t delete: no RBAC policy matched, <nil>'));
  it('needs update on the owner\'s finalizers to block its deletion', async () => {
    const a = authz(() => false);
    await assertStatus(ownerReferencesPermissionEnforcement(a, mapper).validate?.(ctx, attrs(cm([owner(true)]), on)),
      403, 'Forbidden', 'configmaps "cm" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: no RBAC policy matched, <nil>');
    assert.deepEqual(a.asked.map((x) => [x.verb, x.apiGroup, x.resource, x.subresource, x.name, x.namespace]),
      [['update', '*', '*', 'finalizers', '*', ''], ['update', 'apps', 'deployments', 'finalizers', 'd', 'ns']]);
  });
  it('allows blocking with update on the owner\'s finalizers', async () => {
    await ownerReferencesPermissionEnforcement(authz((x) => x.resource === 'deployments'), mapper).validate?.(ctx, attrs(cm([owner(true)]), on));
  });
  it('refuses an owner kind the server does not serve', () =>
    assertStatus(ownerReferencesPermissionEnforcement(authz(() => false), mapper).validate?.(ctx,
      attrs(cm([{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u2', blockOwnerDeletion: true }]), on)),
    403, 'Forbidden', 'configmaps "cm" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Widget: ' +
      'no matches for kind "Widget" in version "example.com/v1"'));
  it('exempts pods/status', async () => {
    await ownerReferencesPermissionEnforcement(authz(() => false), mapper).validate?.(ctx,
      attrs(pod({}), { subresource: 'status', operation: 'UPDATE', oldObject: { ...pod({}), metadata: { name: 'p', ownerReferences: [owner(true)] as never } } }));
  });
});
