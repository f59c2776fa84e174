import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { StorageClass } from '../v1/types.ts';
import { defaultStorageClass, storageClasses } from './storageclass.ts';

const ctx = systemContext();
const sc = (extra: Partial<StorageClass> = {}): StorageClass => {
  const o: StorageClass = { metadata: { name: 'fast' }, provisioner: 'kubernetes.io/aws-ebs', ...extra };
  defaultStorageClass(o);
  return o;
};

describe('storageclasses', () => {
  it('defaults reclaimPolicy Delete and volumeBindingMode Immediate', () => {
    const o = sc();
    assert.equal(o.reclaimPolicy, 'Delete');
    assert.equal(o.volumeBindingMode, 'Immediate');
  });

  const cases: { name: string; obj: StorageClass; want: string[] }[] = [
    { name: 'valid', obj: sc(), want: [] },
    { name: 'missing provisioner', obj: sc({ provisioner: '' }), want: ['provisioner: Required value'] },
    { name: 'bad provisioner', obj: sc({ provisioner: 'a/b/c' }),
      want: ["provisioner: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"] },
    { name: 'bad reclaim policy', obj: sc({ reclaimPolicy: 'Recycle' }), want: ['reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"'] },
    { name: 'bad binding mode', obj: sc({ volumeBindingMode: 'Later' }), want: ['volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"'] },
    { name: 'empty parameter key', obj: sc({ parameters: { '': 'x' } }), want: ['parameters: Invalid value: "": field can not be empty.'] },
    { name: 'duplicate topology key', obj: sc({ allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: ['a'] }, { key: 'zone', values: ['b'] }] }] }),
      want: ['allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: "zone"'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(storageClasses.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));

  it('forbids changing provisioner, parameters, reclaimPolicy and volumeBindingMode', () => {
    const old = sc({ parameters: { type: 'gp2' } });
    const next = sc({ provisioner: 'other.io/x', parameters: { type: 'io1' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' });
    assert.deepEqual(storageClasses.strategy.validateUpdate(ctx, next, old).map(formatFieldError), [
      'parameters: Invalid value: {"type":"io1"}: field is immutable',
      'provisioner: Invalid value: "other.io/x": field is immutable',
      'reclaimPolicy: Invalid value: "Retain": field is immutable',
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]);
  });

  it('allows changing allowVolumeExpansion', () => {
    assert.deepEqual(storageClasses.strategy.validateUpdate(ctx, sc({ allowVolumeExpansion: true }), sc()), []);
  });

  it('prints the default class with its suffix', () => {
    const o = sc({ allowVolumeExpansion: true });
    o.metadata.annotations = { 'storageclass.kubernetes.io/is-default-class': 'true' };
    assert.deepEqual(storageClasses.table.map((c) => c.name), ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
    assert.deepEqual(storageClasses.table.slice(0, 5).map((c) => c.cell(o, 0)), ['fast (default)', 'kubernetes.io/aws-ebs', 'Delete', 'Immediate', true]);
  });
});
