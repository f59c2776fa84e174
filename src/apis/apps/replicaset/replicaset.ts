// ReplicaSets (pkg/registry/apps/replicaset): SetDefaults_ReplicaSet, ValidateReplicaSet*,
// the apps/v1 strategy (immutable selector) and printReplicaSet.
import { fieldPath, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateNonnegativeField, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { defaultPodSpec } from '../../core/pod/defaults.ts';
import { podTemplateWarnings, workloadNameWarnings } from '../../core/pod/warnings.ts';
import { containerColumns, replicasScale, selectorColumn, workloadOptions, workloadStatusOptions } from '../common.ts';
import type { ReplicaSet, ReplicaSetSpec, ReplicaSetStatus } from '../v1/types.ts';
import {
  validateImmutableSelector, validateNonnegativeCounters, validateNotGreaterThan, validateSelectorAndTemplate,
} from '../validation/workload.ts';

type RO<T> = DeepReadonly<T>;

export function defaultReplicaSet(rs: ReplicaSet): void {
  rs.spec ??= { template: { spec: { containers: [] } } };
  rs.spec.replicas ??= 1;
  rs.spec.template ??= { spec: { containers: [] } };
  rs.spec.template.spec ??= { containers: [] };
  defaultPodSpec(rs.spec.template.spec);
}

function validateReplicaSetSpec(spec: RO<ReplicaSetSpec>, p: FieldPath): FieldError[] {
  return [
    ...validateNonnegativeField(spec.replicas ?? 0, p.child('replicas')),
    ...validateNonnegativeField(spec.minReadySeconds ?? 0, p.child('minReadySeconds')),
    // kube's message names deployments here too
    ...validateSelectorAndTemplate(spec.selector, spec.template, 'deployment', p),
  ];
}

function validateReplicaSet(rs: RO<ReplicaSet>): FieldError[] {
  return [
    ...validateObjectMeta(rs.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }, fieldPath('metadata')),
    ...validateReplicaSetSpec(rs.spec, fieldPath('spec')),
  ];
}

function validateReplicaSetUpdate(rs: RO<ReplicaSet>, old: RO<ReplicaSet>): FieldError[] {
  return [
    ...validateReplicaSetSpec(rs.spec, fieldPath('spec')),
    ...validateImmutableSelector(rs.spec.selector, old.spec.selector, fieldPath('spec', 'selector')),
  ];
}

/** ValidateReplicaSetStatus (also the shape of a ReplicationController's status). */
export function validateReplicaSetStatus(s: RO<ReplicaSetStatus>, p: FieldPath): FieldError[] {
  const msg = 'cannot be greater than status.replicas';
  return [
    ...validateNonnegativeCounters(s, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration', 'terminatingReplicas'], p),
    ...validateNotGreaterThan(s, [
      ['fullyLabeledReplicas', 'replicas', msg], ['readyReplicas', 'replicas', msg], ['availableReplicas', 'replicas', msg],
      ['availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas'],
    ], p),
  ];
}

const replicaSetStrategy = specStatusStrategy(workloadOptions<ReplicaSet>({
  validate: validateReplicaSet,
  validateUpdate: validateReplicaSetUpdate,
  warningsOnCreate: (rs) => [...workloadNameWarnings(rs.metadata.name), ...podTemplateWarnings(fieldPath('spec', 'template'), rs.spec.template)],
  warningsOnUpdate: (rs, old) => (rs.metadata.generation !== old.metadata.generation ? podTemplateWarnings(fieldPath('spec', 'template'), rs.spec.template) : []),
  // apps/v1 ReplicaSetStatus: replicas has no omitempty.
  goStatus: { always: { replicas: 0 }, omitEmpty: ['fullyLabeledReplicas', 'observedGeneration', 'readyReplicas', 'availableReplicas', 'conditions'] },
}));

const replicaSetStatusStrategy = statusStrategy(replicaSetStrategy, workloadStatusOptions<ReplicaSet>({
  validate: (rs) => validateReplicaSetStatus(rs.status ?? {}, fieldPath('status')),
}));


export const replicaSets = {
  group: 'apps', kind: 'ReplicaSet', resource: 'replicasets', singular: 'replicaset', shortNames: ['rs'], categories: ['all'],
  namespaced: true,
  strategy: replicaSetStrategy,
  statusStrategy: replicaSetStatusStrategy,
  defaults: defaultReplicaSet,
  scale: replicasScale<ReplicaSet>(),
  defaultFieldLabelConversion: true,
  selectableFields: (rs) => ({
    'metadata.name': rs.metadata.name ?? '',
    'metadata.namespace': rs.metadata.namespace ?? '',
    'status.replicas': String(rs.status?.replicas ?? 0),
  }),
  table: [
    nameColumn<ReplicaSet>(),
    { name: 'Desired', type: 'integer', cell: (rs) => rs.spec.replicas ?? 0 },
    { name: 'Current', type: 'integer', cell: (rs) => rs.status?.replicas ?? 0 },
    { name: 'Ready', type: 'integer', cell: (rs) => rs.status?.readyReplicas ?? 0 },
    ageColumn<ReplicaSet>(),
    ...containerColumns<ReplicaSet>(),
    selectorColumn<ReplicaSet>(),
  ],
} satisfies ResourceDefinition<ReplicaSet>;
