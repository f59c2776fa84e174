// Catalogue checks of every built-in resource's strategy against kube-apiserver v1.36.3's
// registry (pkg/registry/*/strategy.go): which allow unconditional updates (an update without
// resourceVersion, or with "0"), and the reset fields (GetResetFields) that keep managedFields
// from recording what a write cannot change.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { ResourceDefinition, Strategy } from '../registry/rest/strategy.ts';
import type { Backend } from '../storage/backend.ts';
import { openSqliteBackend } from '../storage/sqlite/sqlite-backend.ts';
import { coreDefinitions } from './core-definitions.ts';
import { builtInGroups } from './groups.ts';

/** Kube's strategies whose AllowUnconditionalUpdate is false (their status strategies embed them). */
const CONDITIONAL_ONLY = new Set([
  'podcertificaterequests.certificates.k8s.io', 'clustertrustbundles.certificates.k8s.io', 'runtimeclasses.node.k8s.io',
  'storageversionmigrations.storagemigration.k8s.io', 'poddisruptionbudgets.policy', 'resourcepoolstatusrequests.resource.k8s.io',
  'storageversions.internal.apiserver.k8s.io', 'csidrivers.storage.k8s.io', 'csistoragecapacities.storage.k8s.io',
  'volumeattachments.storage.k8s.io', 'csinodes.storage.k8s.io', 'leases.coordination.k8s.io', 'leasecandidates.coordination.k8s.io',
  'validatingadmissionpolicies.admissionregistration.k8s.io', 'mutatingadmissionpolicies.admissionregistration.k8s.io',
  'validatingadmissionpolicybindings.admissionregistration.k8s.io', 'mutatingadmissionpolicybindings.admissionregistration.k8s.io',
  'mutatingwebhookconfigurations.admissionregistration.k8s.io', 'validatingwebhookconfigurations.admissionregistration.k8s.io',
  'customresourcedefinitions.apiextensions.k8s.io', 'apiservices.apiregistration.k8s.io',
]);

/** GetResetFields where it differs from the default (status on the main resource, spec on status). */
const RESET_FIELDS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  'deployments.apps/status': [['spec'], ['metadata', 'labels']],
  'pods/status': [['spec'], ['metadata', 'deletionTimestamp'], ['metadata', 'ownerReferences']],
  'certificatesigningrequests.certificates.k8s.io': [['spec'], ['status']],
  'certificatesigningrequests.certificates.k8s.io/status': [['spec'], ['status', 'conditions']],
  'certificatesigningrequests.certificates.k8s.io/approval': [['spec'], ['status', 'certificate']],
  'namespaces/finalize': [['status']],
  'podgroups.scheduling.k8s.io/status': [['spec'], ['metadata']],
  'servicecidrs.networking.k8s.io/status': [['metadata'], ['spec']],
  'storageversionmigrations.storagemigration.k8s.io/status': [['metadata'], ['spec']],
  'resourceclaims.resource.k8s.io/status': [['spec'], ['metadata']],
  'devicetaintrules.resource.k8s.io/status': [['spec'], ['metadata']],
  'resourcepoolstatusrequests.resource.k8s.io/status': [['spec'], ['metadata']],
  'storageversions.internal.apiserver.k8s.io/status': [['metadata'], ['spec']],
  'volumeattachments.storage.k8s.io/status': [['spec'], ['metadata']],
  'flowschemas.flowcontrol.apiserver.k8s.io/status': [['spec'], ['metadata']],
  'prioritylevelconfigurations.flowcontrol.apiserver.k8s.io/status': [['spec'], ['metadata']],
  'validatingadmissionpolicies.admissionregistration.k8s.io/status': [['spec'], ['metadata']],
  'apiservices.apiregistration.k8s.io/status': [['spec'], ['metadata']],
};

const sorted = (paths: readonly (readonly string[])[] | undefined): string[] => (paths ?? []).map((p) => p.join('.')).sort();

describe('built-in strategies as kube declares them', () => {
  let backend: Backend;
  const byKey = new Map<string, ResourceDefinition<KubeObject>>();
  before(async () => {
    backend = await openSqliteBackend({ path: ':memory:' });
    const core = await coreDefinitions({ serviceClusterIPRange: { text: '10.0.0.0/24' }, serviceNodePortRange: { base: 30000, size: 2768 }, eventTTLSeconds: 3600 }, backend, '/registry');
    for (const g of [core, ...builtInGroups({ eventTTLSeconds: 3600, authenticate: () => Promise.resolve(undefined) })]) {
      for (const v of g.versions) {
        for (const d of v.resources) {
          const key = d.group === '' ? d.resource : `${d.resource}.${d.group}`;
          if (!byKey.has(key)) byKey.set(key, d);
        }
      }
    }
  });
  after(async () => { await backend.close(); });

  const strategiesOf = (d: ResourceDefinition<KubeObject>): [string, Strategy<KubeObject>][] => [
    ['', d.strategy],
    ...(d.statusStrategy !== undefined ? [['status', d.statusStrategy] as [string, Strategy<KubeObject>]] : []),
    ...Object.entries(d.updateSubresources ?? {}),
  ];

  it('allowUnconditionalUpdate is false exactly where kube\'s strategy says so', () => {
    const wrong: string[] = [];
    for (const [key, d] of byKey) {
      for (const [sub, s] of strategiesOf(d)) {
        const want = !CONDITIONAL_ONLY.has(key);
        if (s.allowUnconditionalUpdate !== want) wrong.push(`${key}${sub === '' ? '' : `/${sub}`}: ${String(s.allowUnconditionalUpdate)}`);
      }
    }
    assert.deepEqual(wrong, []);
    const unknown = [...CONDITIONAL_ONLY].filter((k) => !byKey.has(k) && !['mutatingadmissionpolicies.admissionregistration.k8s.io', 'mutatingadmissionpolicybindings.admissionregistration.k8s.io'].includes(k));
    assert.deepEqual(unknown, []);
  });

  it('reset fields follow kube\'s GetResetFields', () => {
    for (const [id, want] of Object.entries(RESET_FIELDS)) {
      const [key = '', sub = ''] = id.split('/');
      const d = byKey.get(key);
      assert.ok(d !== undefined, `${key} is not served`);
      const s = strategiesOf(d).find(([name]) => name === sub)?.[1];
      assert.ok(s !== undefined, `${id} has no strategy`);
      assert.deepEqual(sorted(s.resetFields), sorted(want), id);
    }
  });
});
