// ReplicationControllers (pkg/registry/core/replicationcontroller): SetDefaults_ReplicationController
// (selector and labels from the template, one replica), ValidateReplicationController* and
// printReplicationController.
import { fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { selectorFromSet } from '../../../apimachinery/labels/selector.ts';
import { nameIsDNSSubdomain, validateNonnegativeField, validateObjectMeta, type ValidateNameFunc } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { containerColumns, workloadOptions, workloadStatusOptions } from '../../apps/common.ts';
import { validateReplicaSetStatus } from '../../apps/replicaset/replicaset.ts';
import { SELECTOR_MISMATCH } from '../../apps/validation/workload.ts';
import { ageColumn, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { defaultPodSpec } from '../pod/defaults.ts';
import { podTemplateWarnings, workloadNameWarnings } from '../pod/warnings.ts';
import { validatePodTemplateSpec } from '../podtemplate/podtemplate.ts';
import { formatLabels } from '../printers/format.ts';
import type { PodTemplateSpec } from '../v1/types.ts';
import type { ReplicationController, ReplicationControllerSpec } from './types.ts';

type RO<T> = DeepReadonly<T>;

export function defaultReplicationController(rc: ReplicationController): void {
  rc.spec ??= {};
  const labels = rc.spec.template?.metadata?.labels;
  if (labels !== undefined && labels !== null) {
    if (Object.keys(rc.spec.selector ?? {}).length === 0) rc.spec.selector = { ...labels };
    if (Object.keys(rc.metadata.labels ?? {}).length === 0) rc.metadata.labels = { ...labels };
  }
  rc.spec.replicas ??= 1;
  if (rc.spec.template !== undefined && rc.spec.template !== null) {
    rc.spec.template.spec ??= { containers: [] };
    defaultPodSpec(rc.spec.template.spec);
  }
}

function validatePodTemplateSpecForRC(t: RO<PodTemplateSpec> | undefined | null, selectorMap: RO<Record<string, string>> | undefined,
  p: FieldPath): FieldError[] {
  if (t === undefined || t === null) return [required(p)];
  const errs: FieldError[] = [];
  const selector = selectorFromSet(selectorMap ?? {});
  if (!selector.empty && !selector.matches(t.metadata?.labels)) {
    // a map is shown as JSON (field.Error marshals non-scalar values)
    errs.push(invalid(p.child('metadata', 'labels'), t.metadata?.labels ?? null, SELECTOR_MISMATCH));
  }
  errs.push(...validatePodTemplateSpec(t, p));
  const policy = t.spec?.restartPolicy ?? '';
  if (policy !== 'Always') errs.push(notSupported(p.child('spec', 'restartPolicy'), policy, ['Always']));
  if (t.spec?.activeDeadlineSeconds !== undefined) {
    errs.push(forbidden(p.child('spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errs;
}

function validateReplicationControllerSpec(spec: RO<ReplicationControllerSpec>, p: FieldPath): FieldError[] {
  const errs = validateNonnegativeField(spec.minReadySeconds ?? 0, p.child('minReadySeconds'));
  if (Object.keys(spec.selector ?? {}).length === 0) errs.push(required(p.child('selector')));
  errs.push(...validateNonnegativeField(spec.replicas ?? 0, p.child('replicas')));
  errs.push(...validatePodTemplateSpecForRC(spec.template, spec.selector, p.child('template')));
  return errs;
}

/** The declarative `+k8s:longName` check of v1.36: a DNS subdomain, its length counted in bytes. */
const longName: ValidateNameFunc = (name, prefix) => nameIsDNSSubdomain(name, prefix).map((m) => m.replace(/^must be no more than (\d+) characters$/, 'must be no more than $1 bytes'));

function validateReplicationController(rc: RO<ReplicationController>): FieldError[] {
  return [
    ...validateObjectMeta(rc.metadata, { namespaced: true, nameFn: longName }, fieldPath('metadata')),
    ...validateReplicationControllerSpec(rc.spec ?? {}, fieldPath('spec')),
  ];
}

const replicationControllerStrategy = specStatusStrategy(workloadOptions<ReplicationController>({
  validate: validateReplicationController,
  validateUpdate: (rc) => validateReplicationControllerSpec(rc.spec ?? {}, fieldPath('spec')),
  warningsOnCreate: (rc) => [...workloadNameWarnings(rc.metadata.name), ...podTemplateWarnings(fieldPath('spec', 'template'), rc.spec?.template)],
  // kube's rcStrategy passes the templates swapped (old as the template): the warnings are the old one's
  warningsOnUpdate: (rc, old) => (rc.metadata.generation !== old.metadata.generation ? podTemplateWarnings(fieldPath('spec', 'template'), old.spec?.template) : []),
  // core/v1 ReplicationControllerStatus: replicas has no omitempty.
  goStatus: { always: { replicas: 0 }, omitEmpty: ['fullyLabeledReplicas', 'observedGeneration', 'readyReplicas', 'availableReplicas', 'conditions'] },
  // ValidateReplicationControllerUpdate and ...StatusUpdate repeat the metadata update checks
  repeatMetadataOnUpdate: true,
  // rcStrategy.DefaultGarbageCollectionPolicy: v1 orphans the pods unless told otherwise, for backwards compatibility.
  defaultGarbageCollectionPolicy: (ctx) => (ctx.info.apiGroup === '' && ctx.info.apiVersion === 'v1' ? 'OrphanDependents' : 'DeleteDependents'),
}));

const replicationControllerStatusStrategy = statusStrategy(replicationControllerStrategy, workloadStatusOptions<ReplicationController>({
  validate: (rc) => validateReplicaSetStatus(rc.status ?? {}, fieldPath('status')),
  repeatMetadataOnUpdate: true,
}));

export const replicationControllers = {
  group: '', kind: 'ReplicationController', resource: 'replicationcontrollers', singular: 'replicationcontroller',
  shortNames: ['rc'], categories: ['all'], namespaced: true,
  strategy: replicationControllerStrategy,
  statusStrategy: replicationControllerStatusStrategy,
  defaults: defaultReplicationController,
  scale: {
    specReplicas: (rc) => rc.spec?.replicas ?? 1,
    setSpecReplicas: (rc, replicas) => { rc.spec.replicas = replicas; },
    statusReplicas: (rc) => rc.status?.replicas ?? 0,
    selector: (rc) => selectorFromSet(rc.spec?.selector ?? {}).toString(),
  },
  selectableFields: (rc) => ({
    'metadata.name': rc.metadata.name ?? '',
    'metadata.namespace': rc.metadata.namespace ?? '',
    'status.replicas': String(rc.status?.replicas ?? 0),
  }),
  table: [
    nameColumn<ReplicationController>(),
    { name: 'Desired', type: 'integer',      cell: (rc) => rc.spec?.replicas ?? 0 },
    { name: 'Current', type: 'integer',      cell: (rc) => rc.status?.replicas ?? 0 },
    { name: 'Ready', type: 'integer', cell: (rc) => rc.status?.readyReplicas ?? 0 },
    ageColumn<ReplicationController>(),
    ...containerColumns<ReplicationController>(),
    { name: 'Selector', type: 'string', priority: 1,      cell: (rc) => formatLabels(rc.spec?.selector) },
  ],
} satisfies ResourceDefinition<ReplicationController>;
