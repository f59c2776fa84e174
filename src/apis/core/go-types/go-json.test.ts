import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { goCompactJSON, goDiff, goIndentedJSON } from './go-json.ts';

// encoding/json of kube's internal core types (k8s.io/kubernetes v1.36.3 pkg/apis/core/types.go).
describe('go-json: v1 values printed as the internal Go value', () => {
  const cases: { name: string; got: () => string; want: string }[] = [
    { name: 'a struct: Go names, declaration order, zero values', got: () => goCompactJSON({ path: '/x' }, 'HostPathVolumeSource'),
      want: '{"Path":"/x","Type":null}' },
    { name: 'irregular wire names (RBD monitors, ISCSI CHAP flags)', got: () => goCompactJSON({ monitors: ['m'], image: 'i', chapAuthSession: true }, 'RBDPV'),
      want: '{"CephMonitors":["m"],"RBDImage":"i","FSType":"","RBDPool":"","RadosUser":"","Keyring":"","SecretRef":null,"ReadOnly":false}' },
    { name: 'an embedded ObjectMeta keeps its tags, inline, empty fields left out',
      got: () => goCompactJSON({ metadata: { labels: { b: '2', a: '1' }, name: '' }, spec: { volumeName: 'v' } }, 'PersistentVolumeClaimTemplate'),
      want: '{"labels":{"a":"1","b":"2"},"Spec":{"AccessModes":null,"Selector":null,"Resources":{"Limits":null,"Requests":null},"VolumeName":"v",' +
        '"StorageClassName":null,"VolumeMode":null,"DataSource":null,"DataSourceRef":null,"VolumeAttributesClassName":null}}' },
    { name: 'quantities as Quantity marshals them', got: () => goCompactJSON({ requests: { storage: '1024Mi', cpu: '1.5' } }, 'VolumeResourceRequirements'),
      want: '{"Limits":null,"Requests":{"cpu":"1500m","storage":"1Gi"}}' },
    { name: 'MarshalIndent with one space', got: () => goIndentedJSON({ name: 'n' }, 'LocalObjectReference'), want: '{\n "Name": "n"\n}' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(c.got(), c.want));

  it('util/diff.Diff of two values: a hunk of the changed field', () => {
    assert.match(goDiff({ path: '/a' }, { path: '/b' }, 'HostPathVolumeSource'), /^@@ .* @@\n \{\n- "Path": "\/a",\n\+ "Path": "\/b",\n/);
  });
  it('equal values: no diff', () => assert.equal(goDiff({ path: '/a' }, { path: '/a' }, 'HostPathVolumeSource'), ''));
});
