import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import {
  ALL_ORDERED_PLUGINS, DEFAULT_ON_PLUGIN_NAMES, enabledPluginNames, newAdmissionChain, unimplementedEnabledPlugins, validateAdmissionPlugins,
  type AdmissionStores,
} from './admission.ts';

const stores: AdmissionStores = {
  namespaces: () => Promise.resolve(undefined),
  serviceAccounts: {} as ResourceStore<KubeObject>,
  priorityClasses: undefined,
  authorizer: { authorize: () => Promise.resolve({ decision: 'NoOpinion', reason: '' }) },
};

describe('admission plugin selection (kube v1.36 AllOrderedPlugins / DefaultOffAdmissionPlugins)', () => {
  it('knows every plugin kube registers, webhooks, quota and AlwaysDeny last', () => {
    assert.equal(ALL_ORDERED_PLUGINS.length, 41);
    assert.deepEqual(ALL_ORDERED_PLUGINS.slice(-6),
      ['MutatingAdmissionPolicy', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota', 'AlwaysDeny']);
  });

  it('lists kube\'s default-on plugins in chain order', () => {
    assert.deepEqual(DEFAULT_ON_PLUGIN_NAMES, [
      'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'Priority', 'DefaultTolerationSeconds',
      'DefaultStorageClass', 'StorageObjectInUseProtection', 'PodGroupProtection', 'PersistentVolumeClaimResize', 'RuntimeClass',
      'CertificateApproval', 'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction', 'DefaultIngressClass',
      'PodTopologyLabels', 'PodGroupWorkloadExists', 'NodeDeclaredFeatureValidator', 'JobValidation', 'PodResizeValidator',
      'MutatingAdmissionPolicy', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota',
    ]);
  });

  const selections = [
    { name: 'an enabled plugin takes its place in kube\'s order, not the flag\'s', enable: ['AlwaysDeny', 'AlwaysAdmit'], disable: [],
      first: 'AlwaysAdmit', last: 'AlwaysDeny' },
    { name: 'a disabled default-on plugin is gone', enable: [], disable: ['NamespaceLifecycle'], first: 'LimitRanger', last: 'ResourceQuota' },
  ];
  for (const c of selections) {
    it(c.name, () => {
      const names = enabledPluginNames(c);
      assert.equal(names[0], c.first);
      assert.equal(names.at(-1), c.last);
      const chain = newAdmissionChain(c, stores).names;
      assert.equal(chain[0], c.first);
      assert.equal(chain.at(-1), c.last);
    });
  }

  const refusals = [
    { name: 'an unknown name (kube\'s message)', enable: ['Foo'], disable: [], want: ['enable-admission-plugins plugin "Foo" is unknown'] },
    { name: 'a plugin kapi does not implement, by name', enable: ['ImagePolicyWebhook'], disable: [],
      want: ['enable-admission-plugins plugin "ImagePolicyWebhook" is not supported by kapi'] },
    { name: 'an unknown name to disable', enable: [], disable: ['Bar'], want: ['disable-admission-plugins plugin "Bar" is unknown'] },
    { name: 'both enabled and disabled', enable: ['Priority', 'LimitRanger'], disable: ['LimitRanger', 'Priority'],
      want: ['[LimitRanger Priority] in enable-admission-plugins and disable-admission-plugins overlapped'] },
    { name: 'a plugin kube gates off in v1.36 is accepted (a no-op there too)', enable: ['JobValidation'], disable: [], want: [] },
    { name: 'disabling a plugin kapi lacks is accepted', enable: [], disable: ['EventRateLimit'], want: [] },
  ];
  for (const c of refusals) {
    it(`validates ${c.name}`, () => assert.deepEqual(validateAdmissionPlugins(c.enable, c.disable), c.want));
  }

  it('every default-on plugin is built: the chain skips none (MutatingAdmissionPolicy included)', () => {
    assert.deepEqual(unimplementedEnabledPlugins({ enable: [], disable: [] }), []);
  });
});

describe('newAdmissionChain with --admission-control-config-file', () => {
  let dir: string;
  before(async () => { dir = await mkdtemp(join(tmpdir(), 'kapi-admission-')); });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  it('ignores configuration of plugins that are off or do not exist, as kube does', async () => {
    const f = join(dir, 'unknown.yaml');
    await writeFile(f, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: NoSuchPlugin\n  configuration: {a: 1}\n' +
      '- name: PodNodeSelector\n  path: missing.yaml\n');
    assert.ok(newAdmissionChain({ enable: [], disable: [], configFile: f }, stores).names.includes('NamespaceLifecycle'));
  });

  it('fails start-up with kube\'s wording for a bad file', async () => {
    const f = join(dir, 'bad.yaml');
    await writeFile(f, 'nonsense: [');
    assert.throws(() => newAdmissionChain({ enable: [], disable: [], configFile: f }, stores),
      { message: 'failed to apply admission: failed to read plugin config: yaml: line 1: did not find expected node content' });
  });
});
