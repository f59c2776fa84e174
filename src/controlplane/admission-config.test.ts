import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAdmissionConfiguration } from './admission-config.ts';

// Messages as kube-apiserver v1.36.3 printed them after "failed to read plugin config: ".
describe('readAdmissionConfiguration', () => {
  let dir: string;
  before(async () => { dir = await mkdtemp(join(tmpdir(), 'kapi-admission-config-')); });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  const errors = [
    { name: 'malformed YAML', text: 'nonsense: [', want: 'yaml: line 1: did not find expected node content' },
    { name: 'unknown fields', text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nfoo: 1\nplugins:\n- name: X\n  bar: 2',
      want: 'strict decoding error: unknown field "foo", unknown field "plugins[0].bar"' },
    { name: 'duplicate keys', text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins: []\nplugins: []',
      want: 'strict decoding error: yaml: unmarshal errors:\n  line 4: key "plugins" already set in map' },
    { name: 'no kind', text: 'apiVersion: apiserver.config.k8s.io/v1\nplugins: []\n',
      want: "Object 'Kind' is missing in 'apiVersion: apiserver.config.k8s.io/v1\nplugins: []\n'" },
    { name: 'no apiVersion', text: 'kind: AdmissionConfiguration\nplugins: []\n',
      want: "Object 'apiVersion' is missing in 'kind: AdmissionConfiguration\nplugins: []\n'" },
    { name: 'JSON without kind', text: '{"apiVersion":"apiserver.config.k8s.io/v1"}\n',
      want: "Object 'Kind' is missing in '{\"apiVersion\":\"apiserver.config.k8s.io/v1\"}\n'" },
    { name: 'empty file', text: '\n', want: "Object 'Kind' is missing in '\n'" },
    { name: 'an unregistered version', text: 'apiVersion: apiserver.config.k8s.io/v2\nkind: AdmissionConfiguration',
      want: 'no kind "AdmissionConfiguration" is registered for version "apiserver.config.k8s.io/v2" in scheme "pkg/runtime/scheme.go:111"' },
    { name: 'v1beta1 has no AdmissionConfiguration', text: 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AdmissionConfiguration',
      want: 'no kind "AdmissionConfiguration" is registered for version "apiserver.config.k8s.io/v1beta1" in scheme "pkg/runtime/scheme.go:111"' },
    { name: 'v1alpha1 is apiserver.k8s.io, not the config group', text: 'apiVersion: apiserver.config.k8s.io/v1alpha1\nkind: AdmissionConfiguration',
      want: 'no kind "AdmissionConfiguration" is registered for version "apiserver.config.k8s.io/v1alpha1" in scheme "pkg/runtime/scheme.go:111"' },
    { name: 'another kind of the group', text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration',
      want: 'unexpected type: *apiserver.AuthenticationConfiguration' },
    { name: 'plugins of the wrong type', text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins: 3',
      want: 'json: cannot unmarshal number into Go struct field AdmissionConfiguration.plugins of type []v1.AdmissionPluginConfiguration' },
    { name: 'a plugin entry of the wrong type', text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- 3',
      want: 'json: cannot unmarshal number into Go struct field AdmissionConfiguration.plugins of type v1.AdmissionPluginConfiguration' },
    { name: 'a name of the wrong type', text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: [1]',
      want: 'json: cannot unmarshal array into Go struct field AdmissionPluginConfiguration.plugins.name of type string' },
  ];
  for (const c of errors) {
    it(`refuses ${c.name}`, async () => {
      const f = join(dir, `${c.name.replace(/\W+/g, '-')}.yaml`);
      await writeFile(f, c.text);
      assert.throws(() => readAdmissionConfiguration([], f), { message: c.want });
    });
  }

  it('refuses a missing file with the OS error', () => {
    assert.throws(() => readAdmissionConfiguration([], '/nonexistent/admission.yaml'),
      { message: 'unable to read admission control configuration from "/nonexistent/admission.yaml" [open /nonexistent/admission.yaml: no such file or directory]' });
  });

  const accepted = [
    { name: 'v1 YAML with inline configuration', file: 'v1.yaml',
      text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodNodeSelector\n  configuration:\n    podNodeSelectorPluginConfig:\n      clusterDefaultNodeSelector: a=b\n',
      plugin: 'PodNodeSelector', want: '{"podNodeSelectorPluginConfig":{"clusterDefaultNodeSelector":"a=b"}}' },
    { name: 'v1alpha1 JSON', file: 'alpha.json',
      text: '{"apiVersion":"apiserver.k8s.io/v1alpha1","kind":"AdmissionConfiguration","plugins":[{"name":"X","configuration":{"a":1}}]}',
      plugin: 'X', want: '{"a":1}' },
    { name: 'a relative path, from the configuration file\'s folder', file: 'rel.yaml',
      text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: P\n  path: p.yaml\n',
      plugin: 'P', want: 'from the file\n' },
    { name: 'a plugin the file does not name', file: 'none.yaml',
      text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins: []\n', plugin: 'P', want: undefined },
    { name: 'the legacy format configures PodNodeSelector with the whole file', file: 'legacy.yaml',
      text: 'podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: a=b\n',
      plugin: 'PodNodeSelector', want: 'podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: a=b\n' },
  ];
  for (const c of accepted) {
    it(`reads ${c.name}`, async () => {
      await writeFile(join(dir, 'p.yaml'), 'from the file\n');
      const f = join(dir, c.file);
      await writeFile(f, c.text);
      assert.equal(readAdmissionConfiguration(['PodNodeSelector'], f).configFor(c.plugin), c.want);
    });
  }

  it('reads a plugin\'s missing file only when asked, then fails as kube does', async () => {
    const f = join(dir, 'missing-path.yaml');
    await writeFile(f, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: NoSuchPlugin\n  path: gone.yaml\n');
    const p = readAdmissionConfiguration([], f);
    assert.throws(() => p.configFor('NoSuchPlugin'),
      { message: `Couldn't open admission plugin configuration ${join(dir, 'gone.yaml')}: &fs.PathError{Op:"open", Path:"${join(dir, 'gone.yaml')}", Err:0x2}` });
  });

  it('keeps a plugin path relative to a relative configuration path, as kube prints it', async () => {
    await mkdir(join(dir, 'sub'), { recursive: true });
    await writeFile(join(dir, 'sub', 'c.yaml'), 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: P\n  path: missing.yaml\n');
    assert.throws(() => readAdmissionConfiguration([], 'sub/c.yaml', dir).configFor('P'),
      { message: 'Couldn\'t open admission plugin configuration sub/missing.yaml: &fs.PathError{Op:"open", Path:"sub/missing.yaml", Err:0x2}' });
  });
});
