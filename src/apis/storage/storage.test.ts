import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { csiDrivers, defaultCSIDriver } from './csidriver/csidriver.ts';
import { volumeAttachments } from './volumeattachment/volumeattachment.ts';
import { volumeAttributesClasses } from './volumeattributesclass/volumeattributesclass.ts';
import type { CSIDriver, VolumeAttachment } from './v1/types.ts';

const ctx = systemContext();

describe('volumeattachments', () => {
  const va = (): VolumeAttachment => ({ metadata: { name: 'va' }, spec: { attacher: 'csi.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } } });
  it('validates the source union', () => {
    assert.deepEqual(volumeAttachments.strategy.validate(ctx, va()), []);
    const none: VolumeAttachment = { metadata: { name: 'va' }, spec: { attacher: 'a.b', nodeName: 'n' } };
    assert.deepEqual(volumeAttachments.strategy.validate(ctx, none).map(formatFieldError), ['spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName']);
  });
  it('main resource resets and keeps status; status endpoint keeps spec', () => {
    const o = { ...va(), status: { attached: true } };
    volumeAttachments.strategy.prepareForCreate(ctx, o);
    assert.equal(o.status, undefined);
    const old = { ...va(), status: { attached: true } };
    const viaStatus: VolumeAttachment = { metadata: { name: 'va' }, spec: { attacher: 'other' }, status: { attached: false } };
    volumeAttachments.statusStrategy.prepareForUpdate(ctx, viaStatus, old);
    assert.deepEqual([viaStatus.spec, viaStatus.status], [old.spec, { attached: false }]);
    const changed = va();
    changed.spec = { ...changed.spec, nodeName: 'node-2' };
    assert.equal(volumeAttachments.strategy.validateUpdate(ctx, changed, va()).map(formatFieldError)[0]?.endsWith('field is immutable'), true);
  });
  it('table', () => {
    assert.deepEqual(volumeAttachments.table.map((c) => c.cell(va(), 0)), ['va', 'csi.example.com', 'pv-1', 'node-1', false, '<unknown>']);
  });
});

describe('csidrivers', () => {
  it('defaults and immutable attachRequired', () => {
    const d: CSIDriver = { metadata: { name: 'csi.example.com' } };
    defaultCSIDriver(d);
    assert.deepEqual(d.spec, { attachRequired: true, podInfoOnMount: false, storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType', volumeLifecycleModes: ['Persistent'], requiresRepublish: false, seLinuxMount: false });
    assert.deepEqual(csiDrivers.strategy.validate(ctx, d), []);
    const next: CSIDriver = { metadata: { name: 'csi.example.com' }, spec: { ...d.spec, attachRequired: false } };
    assert.deepEqual(csiDrivers.strategy.validateUpdate(ctx, next, d).map(formatFieldError), ['spec.attachedRequired: Invalid value: false: field is immutable']);
    assert.deepEqual(csiDrivers.table.map((c) => c.cell(d, 0)), ['csi.example.com', true, false, false, '<unset>', false, 'Persistent', '<unknown>']);
  });
});

describe('volumeattributesclasses', () => {
  it('requires parameters and freezes them', () => {
    const v = { metadata: { name: 'gold' }, driverName: 'csi.example.com', parameters: { iops: '100' } };
    assert.deepEqual(volumeAttributesClasses.strategy.validate(ctx, v), []);
    assert.deepEqual(volumeAttributesClasses.strategy.validate(ctx, { ...v, parameters: {} }).map(formatFieldError), ['parameters: Required value: must contain at least one key/value pair']);
    assert.deepEqual(volumeAttributesClasses.strategy.validateUpdate(ctx, { ...v, parameters: { iops: '200' } }, v).map(formatFieldError), ['parameters: Forbidden: updates to parameters are forbidden.']);
  });
});
