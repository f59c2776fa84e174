// PersistentVolumeClaimResize and the PriorityClass half of Priority admission (kube's messages).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation } from '../interfaces.ts';
import { priorityAdmission } from './priority.ts';
import { persistentVolumeClaimResize } from './pvc-resize.ts';

const ctx = systemContext('ns');
const attrs = (group: string, resource: string, obj: KubeObject, old: KubeObject | undefined, operation: Operation, subresource = ''): Attributes => ({
  operation, kind: { group, version: 'v1', kind: obj.kind ?? '' }, resource: { group, version: 'v1', resource }, subresource,
  name: obj.metadata.name ?? '', namespace: obj.metadata.namespace ?? '', object: obj, oldObject: old, dryRun: false,
});
const messageOf = async (p: Promise<void> | undefined): Promise<string> => {
  try { await p; return ''; } catch (e) { return (e as Error).message; }
};

describe('PersistentVolumeClaimResize admission', () => {
  const classes: Record<string, KubeObject & { allowVolumeExpansion?: boolean }> = {
    grow: { metadata: { name: 'grow' }, allowVolumeExpansion: true }, fixed: { metadata: { name: 'fixed' } },
  };
  const plugin = persistentVolumeClaimResize(async (name) => classes[name]);
  const claim = (storage: string, phase: string, storageClassName?: string): KubeObject => ({ kind: 'PersistentVolumeClaim',
    metadata: { name: 'c', namespace: 'ns' }, spec: { resources: { requests: { storage } }, ...(storageClassName !== undefined ? { storageClassName } : {}) },
    status: { phase } } as KubeObject);
  const NOT_EXPANDABLE = 'persistentvolumeclaims "c" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';
  const cases: { name: string; next: KubeObject; old: KubeObject; want: string }[] = [
    { name: 'a bound claim of an expandable class grows', next: claim('2Gi', 'Bound', 'grow'), old: claim('1Gi', 'Bound', 'grow'), want: '' },
    { name: 'shrinking or keeping the size is not its business', next: claim('1Gi', 'Pending'), old: claim('2Gi', 'Pending'), want: '' },
    { name: 'an unbound claim may not grow', next: claim('2Gi', 'Pending', 'grow'), old: claim('1Gi', 'Pending', 'grow'),
      want: 'persistentvolumeclaims "c" is forbidden: Only bound persistent volume claims can be expanded' },
    { name: 'a class that does not allow expansion', next: claim('2Gi', 'Bound', 'fixed'), old: claim('1Gi', 'Bound', 'fixed'), want: NOT_EXPANDABLE },
    { name: 'no class', next: claim('2Gi', 'Bound'), old: claim('1Gi', 'Bound'), want: NOT_EXPANDABLE },
    { name: 'a class that does not exist', next: claim('2Gi', 'Bound', 'gone'), old: claim('1Gi', 'Bound', 'gone'), want: NOT_EXPANDABLE },
  ];
  for (const c of cases) {
    it(c.name, async () => assert.equal(await messageOf(plugin.validate?.(ctx, attrs('', 'persistentvolumeclaims', c.next, c.old, 'UPDATE'))), c.want));
  }
  it('only updates of the claim itself', async () => {
    assert.equal(plugin.handles('CREATE'), false);
    const grown = claim('2Gi', 'Pending');
    assert.equal(await messageOf(plugin.validate?.(ctx, attrs('', 'persistentvolumeclaims', grown, claim('1Gi', 'Pending'), 'UPDATE', 'status'))), '');
  });
});

describe('Priority admission of PriorityClasses', () => {
  const current = { name: 'high', value: 10, globalDefault: true };
  const plugin = priorityAdmission({ get: async () => undefined, globalDefault: async () => current });
  const pc = (name: string, globalDefault: boolean): KubeObject => ({ kind: 'PriorityClass', metadata: { name }, value: 1, globalDefault } as KubeObject);
  const check = (obj: KubeObject, op: Operation): Promise<string> =>
    messageOf(plugin.validate?.(ctx, attrs('scheduling.k8s.io', 'priorityclasses', obj, op === 'UPDATE' ? obj : undefined, op)));
  it('refuses a second global default, on create or update', async () => {
    const want = 'priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass high is already marked as default. Only one default can exist';
    assert.equal(await check(pc('other', true), 'CREATE'), want);
    assert.equal(await check(pc('other', true), 'UPDATE'), want);
  });
  it('lets the default stay the default, and others be created', async () => {
    assert.equal(await check(pc('high', true), 'UPDATE'), '');
    assert.equal(await check(pc('other', false), 'CREATE'), '');
  });
});
