// StatefulSets (pkg/registry/apps/statefulset): SetDefaults_StatefulSet, the strategy and
// printStatefulSet. MaxUnavailableStatefulSet is beta but off in v1.36: rollingUpdate.maxUnavailable
// is neither defaulted nor kept, unless the stored object already uses it.
import { fieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { defaultPersistentVolumeClaim } from '../../core/persistentvolumeclaim/persistentvolumeclaim.ts';
import { pvcSpecWarnings } from '../../core/persistentvolumeclaim/warnings.ts';
import { defaultPodSpec } from '../../core/pod/defaults.ts';
import { podTemplateWarnings } from '../../core/pod/warnings.ts';
import { containerColumns, replicasScale, workloadOptions, workloadStatusOptions } from '../common.ts';
import type { StatefulSet } from '../v1/types.ts';
import { validateStatefulSet, validateStatefulSetStatusUpdate, validateStatefulSetUpdate } from './validation.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';

export function defaultStatefulSet(s: StatefulSet): void {
  s.spec ??= { template: { spec: { containers: [] } } };
  const spec = s.spec;
  if ((spec.podManagementPolicy ?? '') === '') spec.podManagementPolicy = 'OrderedReady';
  spec.updateStrategy ??= {};
  const us = spec.updateStrategy;
  if ((us.type ?? '') === '') {
    us.type = 'RollingUpdate';
    us.rollingUpdate ??= {};
  }
  if (us.type === 'RollingUpdate' && us.rollingUpdate !== undefined) {
    us.rollingUpdate.partition ??= 0;
  }
  spec.persistentVolumeClaimRetentionPolicy ??= {};
  const retention = spec.persistentVolumeClaimRetentionPolicy;
  if ((retention.whenDeleted ?? '') === '') retention.whenDeleted = 'Retain';
  if ((retention.whenScaled ?? '') === '') retention.whenScaled = 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  spec.template ??= { spec: { containers: [] } };
  spec.template.spec ??= { containers: [] };
  defaultPodSpec(spec.template.spec);
  for (const pvc of spec.volumeClaimTemplates ?? []) {
    defaultPersistentVolumeClaim(pvc);
    // SetDefaults_PersistentVolumeClaim: templates show phase Pending as claims do
    pvc.status ??= {};
    if ((pvc.status.phase ?? '') === '') pvc.status.phase = 'Pending';
  }
}

/** dropStatefulSetDisabledFields: maxUnavailable goes unless the old object has it. */
function dropDisabledFields(s: StatefulSet, old: DeepReadonly<StatefulSet> | undefined): void {
  if (old?.spec.updateStrategy?.rollingUpdate?.maxUnavailable !== undefined) return;
  const ru = s.spec.updateStrategy?.rollingUpdate;
  if (ru !== undefined) delete ru.maxUnavailable;
}

const revisionHistoryWarnings = (s: DeepReadonly<StatefulSet>): string[] =>
  (s.spec.revisionHistoryLimit !== undefined && s.spec.revisionHistoryLimit < 0
    ? ['spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended'] : []);

const statefulSetStrategy = specStatusStrategy(workloadOptions<StatefulSet>({
  validate: validateStatefulSet,
  validateUpdate: validateStatefulSetUpdate,
  prepareForCreate: (s) => dropDisabledFields(s, undefined),
  prepareForUpdate: dropDisabledFields,
  warningsOnCreate: (s) => [
    ...podTemplateWarnings(fieldPath('spec', 'template'), s.spec.template),
    ...(s.spec.volumeClaimTemplates ?? []).flatMap((pvc, i) => pvcSpecWarnings(fieldPath('spec', 'volumeClaimTemplates').index(i), pvc.spec ?? {})),
    ...revisionHistoryWarnings(s),
  ],
  // kube names the claim templates' path `spec.volumeClaimTemplates[i].Spec` on update (sic).
  warningsOnUpdate: (s, old) => [
    ...(s.metadata.generation !== old.metadata.generation ? podTemplateWarnings(fieldPath('spec', 'template'), s.spec.template) : []),
    ...(s.spec.volumeClaimTemplates ?? []).flatMap((pvc, i) => pvcSpecWarnings(fieldPath('spec', 'volumeClaimTemplates').index(i).child('Spec'), pvc.spec ?? {})),
    ...revisionHistoryWarnings(s),
  ],
  // apps/v1 StatefulSetStatus: replicas and availableReplicas have no omitempty.
  goStatus: { always: { replicas: 0, availableReplicas: 0 },
    omitEmpty: ['observedGeneration', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'currentRevision', 'updateRevision', 'conditions'] },
}));

const statefulSetStatusStrategy = statusStrategy(statefulSetStrategy, workloadStatusOptions<StatefulSet>({
  validate: validateStatefulSetStatusUpdate,
}));


export const statefulSets = {
  group: 'apps', kind: 'StatefulSet', resource: 'statefulsets', singular: 'statefulset', shortNames: ['sts'], categories: ['all'],
  goZeroValues: (o) => { for (const [path, v] of [[['spec', 'serviceName'], '']] as const) setZero(o, path, v); },
  namespaced: true,
  strategy: statefulSetStrategy,
  statusStrategy: statefulSetStatusStrategy,
  defaults: defaultStatefulSet,
  scale: replicasScale<StatefulSet>(),
  table: [
    nameColumn<StatefulSet>(),
    { name: 'Ready', type: 'string', cell: (s) => `${s.status?.readyReplicas ?? 0}/${s.spec.replicas ?? 0}` },
    ageColumn<StatefulSet>(),
    ...containerColumns<StatefulSet>(),
  ],
} satisfies ResourceDefinition<StatefulSet>;
