import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pvcSpecValue } from '../persistentvolumeclaim/spec-value.ts';
import { cmpDiff, type GoValue } from '../../../apimachinery/goformat/index.ts';

const spec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '50Gi' } }, volumeName: 'my-pvc-id', storageClassName: 'default', volumeMode: 'Filesystem' };

describe('cmp.Diff report', () => {
  it('equal values: empty', () => assert.equal(cmpDiff(pvcSpecValue(spec), pvcSpecValue(structuredClone(spec))), ''));

  it('leaf changes: -/+ lines, two records of context, identical fields counted (as kube-apiserver prints it)', () => {
    // The message a v1.36 kube-apiserver returns for this change (quoted in public issue threads).
    assert.equal(cmpDiff(pvcSpecValue(spec), pvcSpecValue({ accessModes: spec.accessModes, resources: spec.resources, volumeName: '', volumeMode: spec.volumeMode })), [
      '  core.PersistentVolumeClaimSpec{',
      '  \tAccessModes:      {"ReadWriteOnce"},',
      '  \tSelector:         nil,',
      '  \tResources:        {Requests: {s"storage": {i: {...}, s: "50Gi", Format: "BinarySI"}}},',
      '- \tVolumeName:       "my-pvc-id",',
      '+ \tVolumeName:       "",',
      '- \tStorageClassName: &"default",',
      '+ \tStorageClassName: nil,',
      '  \tVolumeMode:       &"Filesystem",',
      '  \tDataSource:       nil,',
      '  \t... // 2 identical fields',
      '  }',
      '',
    ].join('\n'));
  });

  it('a changed composite prints its type; an insertion into a longer list is shown in place', () => {
    assert.equal(cmpDiff(pvcSpecValue(spec), pvcSpecValue({ ...spec, accessModes: ['ReadWriteMany'] })), [
      '  core.PersistentVolumeClaimSpec{',
      '- \tAccessModes: []core.PersistentVolumeAccessMode{"ReadWriteOnce"},',
      '+ \tAccessModes: []core.PersistentVolumeAccessMode{"ReadWriteMany"},',
      '  \tSelector:    nil,',
      '  \tResources:   {Requests: {s"storage": {i: {...}, s: "50Gi", Format: "BinarySI"}}},',
      '  \t... // 6 identical fields',
      '  }',
      '',
    ].join('\n'));
    assert.match(cmpDiff(pvcSpecValue(spec), pvcSpecValue({ ...spec, accessModes: ['ReadWriteOnce', 'ReadOnlyMany'] })),
      /\tAccessModes: \[\]core\.PersistentVolumeAccessMode\{\n  \t\t"ReadWriteOnce",\n\+ \t\t"ReadOnlyMany",\n  \t\},/);
  });

  it('nested changes descend; quantities cache their text only in canonical form', () => {
    const out = cmpDiff(pvcSpecValue(spec), pvcSpecValue({ ...spec, resources: { requests: { storage: '50Gi' }, limits: { storage: '80Gi' } } }));
    assert.match(out, /\n  \tResources: core\.VolumeResourceRequirements\{\n- \t\tLimits:   nil,\n\+ \t\tLimits:   core\.ResourceList\{s"storage": \{i: resource\.int64Amount\{value: 85899345920\}, Format: "BinarySI"\}\},\n/);
  });

  it('strings are quoted as Go does, with a raw literal when shorter', () => {
    const s = (value: string): GoValue => ({ kind: 'struct', type: 'x.T', fields: [{ name: 'A', value: { kind: 'string', value } }] });
    assert.match(cmpDiff(s('a'), s('say "hi"')), /\+ \tA: `say "hi"`,/);
  });
});
