import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import { validatePersistentVolume } from '../persistentvolume/persistentvolume.ts';
import type { PersistentVolume, PersistentVolumeClaim, PersistentVolumeClaimSpec } from '../v1/types.ts';
import { persistentVolumeClaims } from './persistentvolumeclaim.ts';
import { PVC_SPEC_IMMUTABLE } from './validation.ts';

const ctx = systemContext('default');
const spec: PersistentVolumeClaimSpec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'fast', volumeMode: 'Filesystem' };
const claim = (s: Partial<PersistentVolumeClaimSpec>, phase = 'Bound', capacity?: string): PersistentVolumeClaim => ({
  metadata: { name: 'data', namespace: 'default', resourceVersion: '1' },
  spec: { ...structuredClone(spec), ...s },
  status: { phase, ...(capacity !== undefined ? { capacity: { storage: capacity } } : {}) },
});
const update = (next: PersistentVolumeClaim, old: PersistentVolumeClaim): string[] => {
  const obj = structuredClone(next);
  persistentVolumeClaims.strategy.prepareForUpdate(ctx, obj, old);
  return persistentVolumeClaims.strategy.validateUpdate(ctx, obj, old).map(formatFieldError);
};

describe('PersistentVolumeClaim update (ValidatePersistentVolumeClaimUpdate)', () => {
  it('a bound claim may grow its storage request and change its attributes class', () => {
    assert.deepEqual(update(claim({ resources: { requests: { storage: '2Gi' } }, volumeAttributesClassName: 'gold' }), claim({})), []);
  });
  it('a first volumeName is allowed, changing it is not', () => {
    assert.deepEqual(update(claim({ volumeName: 'pv-1' }), claim({})), []);
    const errs = update(claim({ volumeName: 'pv-2' }), claim({ volumeName: 'pv-1' }));
    assert.equal(errs.length, 1);
    // kube v1.36 prints util/diff.Diff: a unified diff of the internal spec as JSON
    assert.ok(errs[0]?.startsWith(`spec: Forbidden: ${PVC_SPEC_IMMUTABLE}\n@@ -9,7 +9,7 @@\n`), errs[0]);
    assert.match(errs[0] ?? '', /\n- "VolumeName": "pv-1",\n\+ "VolumeName": "pv-2",\n/);
  });
  it('an unbound claim may not be resized: the diff shows the requests', () => {
    const errs = update(claim({ resources: { requests: { storage: '2Gi' } } }, 'Pending'), claim({}, 'Pending'));
    assert.equal(errs.length, 1);
    assert.equal(errs[0], `spec: Forbidden: ${PVC_SPEC_IMMUTABLE}\n${[
      '@@ -6,7 +6,7 @@',
      '  "Resources": {',
      '   "Limits": null,',
      '   "Requests": {',
      '-   "storage": "1Gi"',
      '+   "storage": "2Gi"',
      '   }',
      '  },',
      '  "VolumeName": "",',
      '',
    ].join('\n')}`);
  });
  it('an unbound claim may not change its attributes class', () => {
    const errs = update(claim({ volumeAttributesClassName: 'gold' }, 'Pending'), claim({}, 'Pending'));
    assert.ok(errs[0]?.includes('\n- "VolumeAttributesClassName": null\n+ "VolumeAttributesClassName": "gold"\n'), errs[0]);
  });
  it('other requests, limits, access modes and classes are immutable even when bound', () => {
    for (const s of [
      { resources: { requests: { storage: '1Gi', other: '1' } } },
      { resources: { requests: { storage: '1Gi' }, limits: { storage: '1Gi' } } },
      { accessModes: ['ReadWriteMany'] },
      { storageClassName: 'slow' },
    ] satisfies Partial<PersistentVolumeClaimSpec>[]) {
      const errs = update(claim(s), claim({}));
      assert.ok(errs.some((e) => e.startsWith(`spec: Forbidden: ${PVC_SPEC_IMMUTABLE}\n`)), `${JSON.stringify(s)}: ${errs.join('\n')}`);
    }
  });
  it('the volume mode is immutable (kube names the path volumeMode)', () => {
    const errs = update(claim({ volumeMode: 'Block' }), claim({}));
    assert.equal(errs[1], 'volumeMode: Invalid value: "Block": field is immutable');
  });
  it('a class may be set on a claim that had none', () => {
    const none = claim({});
    delete none.spec?.storageClassName;
    assert.deepEqual(update(claim({ storageClassName: 'fast' }), none), []);
  });
  it('shrinking is allowed down to just above status.capacity (RecoverVolumeExpansionFailure)', () => {
    const old = claim({ resources: { requests: { storage: '3Gi' } } }, 'Bound', '1Gi');
    assert.deepEqual(update(claim({ resources: { requests: { storage: '2Gi' } } }, 'Bound', '1Gi'), old), []);
    assert.deepEqual(update(claim({ resources: { requests: { storage: '1Gi' } } }, 'Bound', '1Gi'), old),
      ['spec.resources.requests.storage: Forbidden: field can not be less than status.capacity']);
  });
  it('an applied attributes class (status.currentVolumeAttributesClassName) may not be removed', () => {
    const applied = claim({ volumeAttributesClassName: 'gold' });
    applied.status = { ...applied.status, currentVolumeAttributesClassName: 'gold' };
    assert.deepEqual(update(claim({ volumeAttributesClassName: '' }), applied),
      ['spec.volumeAttributesClassName: Forbidden: update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil']);
    assert.deepEqual(update(claim({}), applied),
      ['spec.volumeAttributesClassName: Forbidden: update to nil is forbidden when status.currentVolumeAttributesClassName is not nil']);
    assert.deepEqual(update(claim({}), claim({ volumeAttributesClassName: 'gold' })), [], 'not yet applied: a bound claim may drop it');
  });
});

describe('ReadWriteOncePod is exclusive', () => {
  const want = ['spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes'];
  it('PersistentVolumeClaim', () => {
    assert.deepEqual(persistentVolumeClaims.strategy.validate(ctx, claim({ accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'] })).map(formatFieldError), want);
    assert.deepEqual(persistentVolumeClaims.strategy.validate(ctx, claim({ accessModes: ['ReadWriteOncePod'] })).map(formatFieldError), []);
  });
  it('PersistentVolume', () => {
    const pv: PersistentVolume = { metadata: { name: 'pv' }, spec: { accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'], capacity: { storage: '1Gi' }, hostPath: { path: '/d' } } };
    assert.deepEqual(validatePersistentVolume(pv).map(formatFieldError), want);
  });
  it('an unknown mode next to ReadWriteOncePod is only unsupported', () => {
    assert.deepEqual(persistentVolumeClaims.strategy.validate(ctx, claim({ accessModes: ['ReadWriteOncePod', 'Bogus'] })).map(formatFieldError),
      ['spec.accessModes: Unsupported value: "Bogus": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"']);
  });
});
