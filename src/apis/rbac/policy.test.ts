import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { isOnlyMutatingGCFields } from './policy.ts';

const role = (meta: Record<string, unknown>, rules: unknown[] = [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]): KubeObject =>
  ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', namespace: 'ns', resourceVersion: '5', ...meta }, rules }) as KubeObject;

describe('IsOnlyMutatingGCFields', () => {
  const cases: { name: string; obj: KubeObject; old: KubeObject; want: boolean }[] = [
    { name: 'owner references added', obj: role({ ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u' }] }), old: role({}), want: true },
    { name: 'finalizers removed', obj: role({}), old: role({ finalizers: ['x'] }), want: true },
    { name: 'nil and empty lists are equal', obj: role({ labels: {} }, []), old: role({}, []), want: true },
    { name: 'rules changed', obj: role({}, [{ verbs: ['delete'], apiGroups: [''], resources: ['pods'] }]), old: role({}), want: false },
    { name: 'labels changed with the owners', obj: role({ labels: { a: 'b' }, finalizers: ['x'] }), old: role({}), want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(isOnlyMutatingGCFields(c.obj, c.old), c.want));
});
