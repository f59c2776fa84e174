import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation } from '../interfaces.ts';
import { defaultIngressClass } from './default-ingress-class.ts';
import { defaultStorageClass } from './default-storage-class.ts';
import { storageObjectInUseProtection } from './storage-object-in-use-protection.ts';

const ctx = systemContext('ns');
type Obj = KubeObject & { spec?: Record<string, unknown> };
const attrs = (group: string, resource: string, obj: Obj, operation: Operation = 'CREATE', subresource = ''): Attributes => ({
  operation, kind: { group, version: 'v1', kind: obj.kind ?? '' }, resource: { group, version: 'v1', resource }, subresource,
  name: obj.metadata.name ?? '', namespace: obj.metadata.namespace ?? '', object: obj, oldObject: undefined, dryRun: false,
});
const cls = (name: string, created: string, annotations?: Record<string, string>): KubeObject =>
  ({ metadata: { name, creationTimestamp: created, ...(annotations !== undefined ? { annotations } : {}) } });
const claim = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): Obj =>
  ({ kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'ns', ...(annotations !== undefined ? { annotations } : {}) }, spec });
const ingress = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): Obj =>
  ({ kind: 'Ingress', metadata: { name: 'i', namespace: 'ns', ...(annotations !== undefined ? { annotations } : {}) }, spec });

describe('StorageObjectInUseProtection admission', () => {
  const plugin = storageObjectInUseProtection();
  it('adds the protection finalizer to claims and volumes on create, once', async () => {
    const pvc = claim();
    await plugin.admit?.(ctx, attrs('', 'persistentvolumeclaims', pvc));
    assert.deepEqual(pvc.metadata.finalizers, ['kubernetes.io/pvc-protection']);
    const pv: Obj = { kind: 'PersistentVolume', metadata: { name: 'v', finalizers: ['kubernetes.io/pv-protection', 'x'] } };
    await plugin.admit?.(ctx, attrs('', 'persistentvolumes', pv));
    assert.deepEqual(pv.metadata.finalizers, ['kubernetes.io/pv-protection', 'x']);
    const pv2: Obj = { kind: 'PersistentVolume', metadata: { name: 'v2' } };
    await plugin.admit?.(ctx, attrs('', 'persistentvolumes', pv2));
    assert.deepEqual(pv2.metadata.finalizers, ['kubernetes.io/pv-protection']);
  });
  it('adds kubernetes.io/vac-protection to a VolumeAttributesClass on create, as kube since the feature went GA', async () => {
    const vac: Obj = { kind: 'VolumeAttributesClass', metadata: { name: 'gold', finalizers: ['x'] } };
    await plugin.admit?.(ctx, attrs('storage.k8s.io', 'volumeattributesclasses', vac));
    assert.deepEqual(vac.metadata.finalizers, ['x', 'kubernetes.io/vac-protection']);
    const other: Obj = { kind: 'StorageClass', metadata: { name: 'fast' } };
    await plugin.admit?.(ctx, attrs('storage.k8s.io', 'storageclasses', other));
    assert.equal(other.metadata.finalizers, undefined);
  });
  it('leaves updates, subresources and other resources alone', async () => {
    assert.equal(plugin.handles('UPDATE'), false);
    const pvc = claim();
    await plugin.admit?.(ctx, attrs('', 'persistentvolumeclaims', pvc, 'CREATE', 'status'));
    const cm: Obj = { kind: 'ConfigMap', metadata: { name: 'x', namespace: 'ns' } };
    await plugin.admit?.(ctx, attrs('', 'configmaps', cm));
    assert.deepEqual([pvc.metadata.finalizers, cm.metadata.finalizers], [undefined, undefined]);
  });
});

describe('DefaultStorageClass admission', () => {
  const classes = [
    cls('old', '2024-01-01T00:00:00Z', { 'storageclass.kubernetes.io/is-default-class': 'true' }),
    cls('beta', '2024-02-01T00:00:00Z', { 'storageclass.beta.kubernetes.io/is-default-class': 'true' }),
    cls('plain', '2024-03-01T00:00:00Z'),
    cls('off', '2024-04-01T00:00:00Z', { 'storageclass.kubernetes.io/is-default-class': 'false' }),
  ];
  const plugin = defaultStorageClass(async () => classes);
  it('gives a claim without a class the newest default one (the beta annotation counts)', async () => {
    const pvc = claim({ accessModes: ['ReadWriteOnce'] });
    await plugin.admit?.(ctx, attrs('', 'persistentvolumeclaims', pvc));
    assert.deepEqual(pvc.spec, { accessModes: ['ReadWriteOnce'], storageClassName: 'beta' });
  });
  it('breaks a tie of creation times by name', async () => {
    const tie = defaultStorageClass(async () => [
      cls('b', '2024-01-01T00:00:00Z', { 'storageclass.kubernetes.io/is-default-class': 'true' }),
      cls('a', '2024-01-01T00:00:00Z', { 'storageclass.kubernetes.io/is-default-class': 'true' })]);
    const pvc = claim();
    await tie.admit?.(ctx, attrs('', 'persistentvolumeclaims', pvc));
    assert.equal(pvc.spec?.['storageClassName'], 'a');
  });
  it('keeps a class asked for, even "", or named by the beta annotation, and does nothing without a default', async () => {
    for (const pvc of [claim({ storageClassName: 'fast' }), claim({ storageClassName: '' }),
      claim({}, { 'volume.beta.kubernetes.io/storage-class': 'slow' })]) {
      const before = structuredClone(pvc.spec);
      await plugin.admit?.(ctx, attrs('', 'persistentvolumeclaims', pvc));
      assert.deepEqual(pvc.spec, before);
    }
    const none = claim();
    await defaultStorageClass(async () => [classes[2] as KubeObject]).admit?.(ctx, attrs('', 'persistentvolumeclaims', none));
    assert.deepEqual(none.spec, {});
  });
});

describe('DefaultIngressClass admission', () => {
  const classes = [
    cls('nginx', '2024-01-01T00:00:00Z', { 'ingressclass.kubernetes.io/is-default-class': 'true' }),
    cls('traefik', '2024-05-01T00:00:00Z', { 'ingressclass.kubernetes.io/is-default-class': 'true' }),
    cls('other', '2024-06-01T00:00:00Z'),
  ];
  const plugin = defaultIngressClass(async () => classes);
  it('gives an Ingress without a class the newest default IngressClass', async () => {
    const ing = ingress({ defaultBackend: { service: { name: 's', port: { number: 80 } } } });
    await plugin.admit?.(ctx, attrs('networking.k8s.io', 'ingresses', ing));
    assert.equal(ing.spec?.['ingressClassName'], 'traefik');
  });
  it('keeps a class given by field or annotation, and ignores updates and other groups', async () => {
    const named = ingress({ ingressClassName: 'other' });
    await plugin.admit?.(ctx, attrs('networking.k8s.io', 'ingresses', named));
    assert.equal(named.spec?.['ingressClassName'], 'other');
    const annotated = ingress({}, { 'kubernetes.io/ingress.class': 'nginx' });
    await plugin.admit?.(ctx, attrs('networking.k8s.io', 'ingresses', annotated));
    assert.equal(annotated.spec?.['ingressClassName'], undefined);
    assert.equal(plugin.handles('UPDATE'), false);
    const elsewhere = ingress();
    await plugin.admit?.(ctx, attrs('example.com', 'ingresses', elsewhere));
    assert.equal(elsewhere.spec?.['ingressClassName'], undefined);
  });
});
