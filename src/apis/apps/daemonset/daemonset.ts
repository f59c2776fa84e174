// DaemonSets (pkg/registry/apps/daemonset): SetDefaults_DaemonSet, the strategy with its
// template generation (kept by apps/v1 in an annotation) and printDaemonSet.
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';
import { deepEqual } from '../../../apimachinery/validation/object-meta.ts';
import type { ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { fieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { defaultPodSpec } from '../../core/pod/defaults.ts';
import { podTemplateWarnings } from '../../core/pod/warnings.ts';
import { formatLabels } from '../../core/printers/format.ts';
import { containerColumns, selectorColumn, workloadOptions, workloadStatusOptions } from '../common.ts';
import type { DaemonSet } from '../v1/types.ts';
import {
  TEMPLATE_GENERATION_ANNOTATION, templateGenerationOf, validateDaemonSet, validateDaemonSetStatusUpdate, validateDaemonSetUpdate,
} from './validation.ts';

export function defaultDaemonSet(ds: DaemonSet): void {
  ds.spec ??= { template: { spec: { containers: [] } } };
  const spec = ds.spec;
  spec.updateStrategy ??= {};
  const us = spec.updateStrategy;
  if ((us.type ?? '') === '') us.type = 'RollingUpdate';
  if (us.type === 'RollingUpdate') {
    us.rollingUpdate ??= {};
    us.rollingUpdate.maxUnavailable ??= 1;
    us.rollingUpdate.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  spec.template ??= { spec: { containers: [] } };
  spec.template.spec ??= { containers: [] };
  defaultPodSpec(spec.template.spec);
}

function setTemplateGeneration(ds: DaemonSet, generation: number): void {
  ds.metadata.annotations = { ...ds.metadata.annotations, [TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
}

const daemonSetStrategy = specStatusStrategy(workloadOptions<DaemonSet>({
  validate: validateDaemonSet,
  validateUpdate: validateDaemonSetUpdate,
  // apps/v1 DaemonSetStatus: the four scheduling counters have no omitempty.
  goStatus: { always: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
    omitEmpty: ['observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'conditions'] },
  warningsOnCreate: (ds) => podTemplateWarnings(fieldPath('spec', 'template'), ds.spec.template),
  warningsOnUpdate: (ds, old) => (templateGenerationOf(ds) !== templateGenerationOf(old) ? podTemplateWarnings(fieldPath('spec', 'template'), ds.spec.template) : []),
  prepareForCreate(ds) {
    setTemplateGeneration(ds, Math.max(templateGenerationOf(ds), 1));
  },
  bumpGeneration(ds, old) {
    // clients may not set the template generation: it follows template changes
    const oldGeneration = templateGenerationOf(old);
    const generation = old.metadata.generation ?? 0;
    if (!deepEqual(ds.spec.template, old.spec.template)) {
      setTemplateGeneration(ds, oldGeneration + 1);
      ds.metadata.generation = generation + 1;
      return;
    }
    setTemplateGeneration(ds, oldGeneration);
    if (!deepEqual(ds.spec, old.spec)) ds.metadata.generation = generation + 1;
  },
}));

const daemonSetStatusStrategy = statusStrategy(daemonSetStrategy, workloadStatusOptions<DaemonSet>({
  validate: validateDaemonSetStatusUpdate,
  prepareForUpdate: (ds, old) => setTemplateGeneration(ds, templateGenerationOf(old)),
}));

export const daemonSets = {
  group: 'apps', kind: 'DaemonSet', resource: 'daemonsets', singular: 'daemonset', shortNames: ['ds'], categories: ['all'],
  namespaced: true,
  strategy: daemonSetStrategy,
  statusStrategy: daemonSetStatusStrategy,
  defaults: defaultDaemonSet,
  // The internal DaemonSet keeps the template generation in its spec; only the apps/v1
  // conversion writes the annotation, so metadata-only views (taken from the internal object) lack it.
  metadataView: (ds) => {
    const meta = structuredClone(ds.metadata) as ObjectMeta;
    if (meta.annotations !== undefined) delete meta.annotations[TEMPLATE_GENERATION_ANNOTATION];
    if (meta.annotations !== undefined && Object.keys(meta.annotations).length === 0) delete meta.annotations;
    return meta;
  },
  table: [
    nameColumn<DaemonSet>(),
    { name: 'Desired', type: 'integer', cell: (ds) => ds.status?.desiredNumberScheduled ?? 0 },
    { name: 'Current', type: 'integer', cell: (ds) => ds.status?.currentNumberScheduled ?? 0 },
    { name: 'Ready', type: 'integer', cell: (ds) => ds.status?.numberReady ?? 0 },
    { name: 'Up-to-date', type: 'integer', cell: (ds) => ds.status?.updatedNumberScheduled ?? 0 },
    { name: 'Available', type: 'integer', cell: (ds) => ds.status?.numberAvailable ?? 0 },
    { name: 'Node Selector', type: 'string', cell: (ds) => formatLabels(ds.spec.template?.spec?.nodeSelector) },
    ageColumn<DaemonSet>(),
    ...containerColumns<DaemonSet>(),
    selectorColumn<DaemonSet>(),
  ],
} satisfies ResourceDefinition<DaemonSet>;
