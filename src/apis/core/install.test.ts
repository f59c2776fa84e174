import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { ResourceDefinition } from '../../registry/rest/strategy.ts';
import { coreV1Resources } from './install.ts';
import type { IPAllocator } from './service/ipallocator.ts';
import type { PortAllocator } from './service/portallocator.ts';

const unused = (): never => { throw new Error('not used'); };
const serviceIPs: IPAllocator = { cidr: '10.0.0.0/24', family: 'IPv4', allocate: unused, allocateNext: unused, release: unused, has: unused, free: unused };
const nodePorts: PortAllocator = { range: '30000-32767', base: 30000, size: 2768, allocate: unused, allocateNext: unused, release: unused, has: unused, free: unused };
const defs = coreV1Resources({ serviceIPs, nodePorts });
const byResource = new Map(defs.map((d) => [d.resource, d] as const));
const def = (r: string): ResourceDefinition<KubeObject> => {
  const d = byResource.get(r);
  assert.ok(d, r);
  return d;
};

describe('coreV1Resources', () => {
  it('serves the core resources with kube names', () => {
    const summary = defs.map((d) => [d.resource, d.kind, d.singular, (d.shortNames ?? []).join(','), (d.categories ?? []).join(','), d.namespaced, d.statusStrategy !== undefined]);
    assert.deepEqual(summary, [
      ['pods', 'Pod', 'pod', 'po', 'all', true, true],
      ['services', 'Service', 'service', 'svc', 'all', true, true],
      ['endpoints', 'Endpoints', 'endpoints', 'ep', '', true, false],
      ['namespaces', 'Namespace', 'namespace', 'ns', '', false, true],
      ['nodes', 'Node', 'node', 'no', '', false, true],
      ['configmaps', 'ConfigMap', 'configmap', 'cm', '', true, false],
      ['secrets', 'Secret', 'secret', '', '', true, false],
      ['serviceaccounts', 'ServiceAccount', 'serviceaccount', 'sa', '', true, false],
      ['events', 'Event', 'event', 'ev', '', true, false],
      ['limitranges', 'LimitRange', 'limitrange', 'limits', '', true, false],
      ['resourcequotas', 'ResourceQuota', 'resourcequota', 'quota', '', true, true],
      ['podtemplates', 'PodTemplate', 'podtemplate', '', '', true, false],
      ['persistentvolumes', 'PersistentVolume', 'persistentvolume', 'pv', '', false, true],
      ['persistentvolumeclaims', 'PersistentVolumeClaim', 'persistentvolumeclaim', 'pvc', '', true, true],
      ['replicationcontrollers', 'ReplicationController', 'replicationcontroller', 'rc', 'all', true, true],
    ]);
  });
  it('every NAME column has format name', () => {
    for (const d of defs) assert.ok((d.table ?? []).some((c) => c.name === 'Name' && c.format === 'name'), d.resource);
  });
});

interface Case { name: string; resource: string; obj: KubeObject; want: string[] }
const ns = 'default';
const cases: Case[] = [
  { name: 'endpoints need addresses', resource: 'endpoints',
    obj: { metadata: { name: 'e', namespace: ns }, subsets: [{ ports: [{ port: 80, protocol: 'TCP' }] }] } as KubeObject,
    want: ['subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`'] },
  { name: 'endpoints reject loopback', resource: 'endpoints',
    obj: { metadata: { name: 'e', namespace: ns }, subsets: [{ addresses: [{ ip: '127.0.0.1' }] }] } as KubeObject,
    want: ['subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)'] },
  { name: 'node taint effect', resource: 'nodes',
    obj: { metadata: { name: 'n1' }, spec: { taints: [{ key: 'k', effect: 'Sometimes' }] } } as KubeObject,
    // kube reports spec.taints under metadata (ValidateNode passes its metadata path on)
    want: ['metadata.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"'] },
  { name: 'pv needs modes, capacity and a source', resource: 'persistentvolumes',
    obj: { metadata: { name: 'pv1' }, spec: {} } as KubeObject,
    want: ['spec.accessModes: Required value', 'spec.capacity: Required value', 'spec.capacity: Unsupported value: {}: supported values: "storage"', 'spec: Required value: must specify a volume type'] },
  { name: 'pvc needs modes and storage', resource: 'persistentvolumeclaims',
    obj: { metadata: { name: 'c', namespace: ns }, spec: {} } as KubeObject,
    want: ['spec.accessModes: Required value: at least 1 access mode is required', 'spec.resources[storage]: Required value'] },
  { name: 'limitrange type', resource: 'limitranges',
    obj: { metadata: { name: 'l', namespace: ns }, spec: { limits: [{ type: 'Node' }] } } as KubeObject,
    want: ['spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified'] },
  { name: 'quota quantities', resource: 'resourcequotas',
    obj: { metadata: { name: 'q', namespace: ns }, spec: { hard: { pods: '-1' } } } as KubeObject,
    want: ['spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0'] },
  { name: 'podtemplate validates its pod spec', resource: 'podtemplates',
    obj: { metadata: { name: 't', namespace: ns }, template: { spec: { containers: [] } } } as KubeObject,
    want: ['template.spec.containers: Required value'] },
];

describe('validation of the smaller resources', () => {
  const ctx = systemContext(ns);
  for (const c of cases) {
    it(c.name, () => {
      const d = def(c.resource);
      const obj = structuredClone(c.obj);
      d.defaults?.(obj);
      d.strategy.prepareForCreate(ctx, obj);
      assert.deepEqual(d.strategy.validate(ctx, obj).map(formatFieldError), c.want);
    });
  }
  it('pv and pvc start Pending; podtemplate defaults its pod spec', () => {
    const ctx2 = systemContext(ns);
    const pv = { metadata: { name: 'pv' }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/d' } } } as KubeObject;
    def('persistentvolumes').defaults?.(pv);
    def('persistentvolumes').strategy.prepareForCreate(ctx2, pv);
    assert.equal((pv as { status?: { phase?: string } }).status?.phase, 'Pending');
    assert.deepEqual(def('persistentvolumes').strategy.validate(ctx2, pv), []);
    const pt = { metadata: { name: 't', namespace: ns }, template: { spec: { containers: [{ name: 'a', image: 'x:1' }] } } } as KubeObject;
    def('podtemplates').defaults?.(pt);
    assert.deepEqual(def('podtemplates').strategy.validate(ctx2, pt), []);
    assert.equal((pt as unknown as { template: { spec: { restartPolicy?: string } } }).template.spec.restartPolicy, 'Always');
  });
});
