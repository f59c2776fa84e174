// kube-apiserver's default admission plugins through kubectl: LimitRanger (defaults and refusals),
// StorageObjectInUseProtection with the in-process pvc/pv/vac-protection controllers,
// DefaultStorageClass and DefaultIngressClass, and --disable-admission-plugins.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { at } from './testing/objects.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-admission';
type Json = Record<string, unknown>;

describe('default admission plugins', () => {
  let s: Suite;
  const ok = async (args: readonly string[], input?: string): Promise<string> => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const get = async (what: string, ns: string | null = NS): Promise<Json> =>
    JSON.parse(await ok(['get', what, ...(ns === null ? [] : ['-n', ns]), '-o', 'json'])) as Json;
  const gone = (what: string, ns: string | null = NS): Promise<boolean> => eventually(`${what} to go`, async () => {
    const r = await s.kubectl(['get', what, ...(ns === null ? [] : ['-n', ns]), '-o', 'name']);
    return r.code !== 0 && r.stderr.includes('NotFound') ? true : undefined;
  });

  before(async () => {
    s = await startSuite();
    await ok(['create', 'namespace', NS]);
  });
  after(async () => { await s?.close(); });

  it('LimitRanger: a LimitRange is defaulted, kubectl run gets its defaults, and an over-limit pod is refused', async () => {
    await ok(['apply', '-n', NS, '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits' },
      spec: { limits: [{ type: 'Container', max: { cpu: '1', memory: '1Gi' }, defaultRequest: { cpu: '100m' } }] },
    }));
    assert.deepEqual(at(await get('limitrange/limits'), 'spec', 'limits'), [{
      type: 'Container', max: { cpu: '1', memory: '1Gi' }, default: { cpu: '1', memory: '1Gi' }, defaultRequest: { cpu: '100m', memory: '1Gi' },
    }]);
    assert.equal(await ok(['run', 'web', '--image=nginx', '-n', NS]), 'pod/web created\n');
    const pod = await get('pod/web');
    assert.deepEqual(at(pod, 'spec', 'containers', 0, 'resources'), {
      limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '100m', memory: '1Gi' },
    });
    assert.equal(at(pod, 'metadata', 'annotations', 'kubernetes.io/limit-ranger'),
      'LimitRanger plugin set: cpu, memory request for container web; cpu, memory limit for container web');

    const big = await s.kubectl(['run', 'big', '--image=nginx', '-n', NS,
      '--overrides', JSON.stringify({ spec: { containers: [{ name: 'big', image: 'nginx', resources: { limits: { cpu: '2' } } }] } })]);
    assert.equal(big.code, 1);
    assert.equal(big.stderr, 'Error from server (Forbidden): pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2\n');
    await ok(['delete', 'limitrange/limits', '-n', NS]);
  });

  it('DefaultStorageClass and StorageObjectInUseProtection: a claim gets the newest default class and the finalizer, and goes once unused', async () => {
    for (const name of ['standard', 'fast']) {
      await ok(['apply', '-f', '-'], JSON.stringify({
        apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', provisioner: 'example.com/disk',
        metadata: { name, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      }));
      await new Promise((r) => setTimeout(r, 1100)); // creation timestamps have a resolution of one second
    }
    await ok(['apply', '-n', NS, '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    }));
    const pvc = await get('pvc/data');
    assert.equal(at(pvc, 'spec', 'storageClassName'), 'fast');
    assert.deepEqual(at(pvc, 'metadata', 'finalizers'), ['kubernetes.io/pvc-protection']);

    // A scheduled pod uses the claim: deleting the claim leaves it Terminating until the pod goes.
    await ok(['apply', '-n', NS, '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'user' },
      spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }],
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
    }));
    assert.equal(await ok(['delete', 'pvc/data', '-n', NS, '--wait=false']), 'persistentvolumeclaim "data" deleted\n');
    await new Promise((r) => setTimeout(r, 500));
    const terminating = await get('pvc/data');
    assert.equal(typeof at(terminating, 'metadata', 'deletionTimestamp'), 'string');
    assert.deepEqual(at(terminating, 'metadata', 'finalizers'), ['kubernetes.io/pvc-protection']);
    await ok(['delete', 'pod/user', '-n', NS, '--grace-period=0', '--force']);
    assert.equal(await gone('pvc/data'), true);
  });

  it('StorageObjectInUseProtection: a volume gets the pv-protection finalizer and, not Bound, is deleted', async () => {
    await ok(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'vol' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/vol' } },
    }));
    assert.deepEqual(at(await get('pv/vol', null), 'metadata', 'finalizers'), ['kubernetes.io/pv-protection']);
    await ok(['delete', 'pv/vol']);
    assert.equal(await gone('pv/vol', null), true);
  });

  it('StorageObjectInUseProtection: a VolumeAttributesClass gets vac-protection and goes once no claim refers to it', async () => {
    await ok(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttributesClass', metadata: { name: 'gold' },
      driverName: 'example.com/disk', parameters: { iops: '500' },
    }));
    assert.deepEqual(at(await get('volumeattributesclass/gold', null), 'metadata', 'finalizers'), ['kubernetes.io/vac-protection']);
    await ok(['apply', '-n', NS, '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'gold-data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeAttributesClassName: 'gold' },
    }));
    // In use: deleting the class leaves it Terminating until the claim goes.
    await ok(['delete', 'volumeattributesclass/gold', '--wait=false']);
    await new Promise((r) => setTimeout(r, 500));
    const terminating = await get('volumeattributesclass/gold', null);
    assert.equal(typeof at(terminating, 'metadata', 'deletionTimestamp'), 'string');
    assert.deepEqual(at(terminating, 'metadata', 'finalizers'), ['kubernetes.io/vac-protection']);
    await ok(['delete', 'pvc/gold-data', '-n', NS]);
    assert.equal(await gone('volumeattributesclass/gold', null), true);
  });

  it('DefaultIngressClass: an Ingress without a class gets the default IngressClass', async () => {
    await ok(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', spec: { controller: 'example.com/ingress' },
      metadata: { name: 'main', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
    }));
    await ok(['create', 'ingress', 'site', '-n', NS, '--rule=example.com/=svc:80']);
    assert.equal(at(await get('ingress/site'), 'spec', 'ingressClassName'), 'main');
  });

  it('a namespace holding a protected claim is still deleted', async () => {
    await ok(['create', 'namespace', 'e2e-admission-gone']);
    await ok(['apply', '-n', 'e2e-admission-gone', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    }));
    await ok(['delete', 'namespace', 'e2e-admission-gone', '--wait=false']);
    assert.equal(await gone('namespace/e2e-admission-gone', null), true);
  });
});

describe('--disable-admission-plugins', () => {
  let s: Suite;
  before(async () => { s = await startSuite({ flags: ['--disable-admission-plugins', 'StorageObjectInUseProtection,DefaultStorageClass'] }); });
  after(async () => { await s?.close(); });

  it('turns the plugins off', async () => {
    await s.kubectl(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', provisioner: 'example.com/disk',
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    }));
    const r = await s.kubectl(['apply', '-n', 'default', '-o', 'json', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    }));
    assert.equal(r.code, 0, r.stderr);
    const pvc = JSON.parse(r.stdout) as Json;
    assert.deepEqual([at(pvc, 'metadata', 'finalizers'), at(pvc, 'spec', 'storageClassName')], [undefined, undefined]);
  });
});
