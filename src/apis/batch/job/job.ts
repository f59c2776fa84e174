// Jobs (pkg/registry/batch/job): defaults, the generated selector, strategy and printer columns.
import { formatLabelSelector, type LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { DeepReadonly, ResourceDefinition, TableColumn } from '../../../registry/rest/strategy.ts';
import { ageColumn, bumpGenerationIfChanged, copyOf, humanDuration, nameColumn, setOptional, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { fieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { defaultPodSpec } from '../../core/pod/defaults.ts';
import { dropDisabledTemplateFields } from '../../core/pod/disabled-fields.ts';
import { workloadNameWarnings } from '../../core/pod/warnings.ts';
import { jobSpecWarnings } from './warnings.ts';
import { layoutContainerCells } from '../../core/printers/format.ts';
import type { Job, JobSpec } from '../v1/types.ts';
import {
  CONTROLLER_UID_LABEL, JOB_NAME_LABEL, LEGACY_CONTROLLER_UID_LABEL, LEGACY_JOB_NAME_LABEL,
  validateJob, validateJobUpdate,
} from './validation.ts';
import { validateJobStatusUpdate } from './status-validation.ts';
import type { JobValidationOptions } from './options.ts';

type RO<T> = DeepReadonly<T>;
const INT32_MAX = 2147483647;

/** SetDefaults_JobSpec parts shared with CronJob job templates (no object labels there). */
function defaultJobSpec(spec: JobSpec): void {
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex !== undefined ? INT32_MAX : 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  for (const rule of spec.podFailurePolicy?.rules ?? []) {
    for (const pattern of rule.onPodConditions ?? []) if ((pattern.status ?? '') === '') pattern.status = 'True';
  }
  spec.podReplacementPolicy ??= spec.podFailurePolicy !== undefined ? 'Failed' : 'TerminatingOrFailed';
  spec.manualSelector ??= false;
  spec.template ??= { spec: { containers: [] } };
  spec.template.spec ??= { containers: [] };
  defaultPodSpec(spec.template.spec);
}

/** SetDefaults_Job: the spec defaults, and the template's labels become the job's when it has none. */
export function defaultJob(job: Job): void {
  job.spec ??= { template: { spec: { containers: [] } } };
  defaultJobSpec(job.spec);
  const labels = job.spec.template.metadata?.labels;
  if (labels !== undefined && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...labels };
}

/**
 * generateSelector: job-name and controller-uid labels (legacy and batch.kubernetes.io/) on the
 * template, and a selector on the prefixed controller-uid. Labels the user set are left alone
 * (validation then reports a mismatch).
 */
export function generateSelector(job: Job): void {
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  job.spec.template.metadata ??= {};
  const labels = (job.spec.template.metadata.labels ??= {});
  for (const k of [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL]) if (!(k in labels)) labels[k] = name;
  for (const k of [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL]) if (!(k in labels)) labels[k] = uid;
  const selector: LabelSelector = (job.spec.selector ??= {});
  const match = (selector.matchLabels ??= {});
  if (!(CONTROLLER_UID_LABEL in match)) match[CONTROLLER_UID_LABEL] = uid;
}

function validationOptions(old: RO<Job> | undefined): JobValidationOptions {
  if (old === undefined) return { requirePrefixedLabels: true, allowMutableSchedulingDirectives: false, allowMutablePodResources: false };
  const labels = old.spec.template?.metadata?.labels;
  // shouldAllowMutablePodTemplate (both of its feature gates are on in v1.36)
  const suspendedAgain = (old.status?.conditions ?? []).some((c) => c.type === 'Suspended' && c.status === 'True');
  const mutable = old.spec.suspend === true && (old.status?.startTime === undefined || suspendedAgain) && (old.status?.active ?? 0) === 0;
  return {
    requirePrefixedLabels: labels?.[JOB_NAME_LABEL] !== undefined && labels[CONTROLLER_UID_LABEL] !== undefined,
    allowMutableSchedulingDirectives: mutable,
    allowMutablePodResources: mutable,
  };
}


export const jobStrategy = specStatusStrategy<Job>({
  prepareForCreate(_ctx, job) {
    job.status = {};
    job.metadata.generation = 1;
    dropDisabledTemplateFields(job.spec.template, undefined);
  },
  validate: (job) => validateJob(job, validationOptions(undefined)),
  warningsOnCreate: (job) => [...workloadNameWarnings(job.metadata.name), ...jobSpecWarnings(fieldPath('spec'), job.spec)],
  prepareForUpdate(_ctx, job, old) {
    setOptional(job, 'status', old.status === undefined ? undefined : copyOf<Job['status']>(old.status));
    job.metadata.generation = old.metadata.generation ?? 1;
    dropDisabledTemplateFields(job.spec.template, old.spec.template);
    bumpGenerationIfChanged(job.metadata, job.spec, old.spec);
  },
  revalidateOnUpdate: false,
  validateUpdate: (job, old) => validateJobUpdate(job, old, validationOptions(old)),
  warningsOnUpdate: (job, old) => (job.metadata.generation !== old.metadata.generation ? jobSpecWarnings(fieldPath('spec'), job.spec) : []),
  // batch/v1 orphans a job's pods unless told otherwise, for backwards compatibility.
  defaultGarbageCollectionPolicy: (ctx) => (ctx.info.apiGroup === 'batch' && ctx.info.apiVersion === 'v1' ? 'OrphanDependents' : 'DeleteDependents'),
});

/** What kube's job REST says when a delete leaves the pods to the default policy (orphaning them). */
const JOB_DELETE_WARNING = 'child pods are preserved by default when jobs are deleted; ' +
  'set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning';

const jobStatusStrategy = statusStrategy<Job>(jobStrategy, {
  validate: (job, old) => validateJobStatusUpdate(job, old),
  warningsOnUpdate: null,
});

const hasCondition = (job: RO<Job>, type: string): boolean =>
  (job.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');

/** printJob's Status cell. */
function jobStatus(job: RO<Job>): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if (job.metadata.deletionTimestamp !== undefined) return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  if (hasCondition(job, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

function completions(job: RO<Job>): string {
  const succeeded = job.status?.succeeded ?? 0;
  if (job.spec.completions !== undefined) return `${succeeded}/${job.spec.completions}`;
  const parallelism = job.spec.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function duration(job: RO<Job>, now: number): string {
  const start = job.status?.startTime;
  if (start === undefined) return '';
  const end = job.status?.completionTime;
  return humanDuration((end === undefined ? now : Date.parse(end)) - Date.parse(start));
}

const containers = (job: RO<Job>): { names: string; images: string } => layoutContainerCells(job.spec.template?.spec?.containers ?? []);

const jobTable: readonly TableColumn<Job>[] = [
  nameColumn<Job>(),
  { name: 'Status', type: 'string', cell: (j) => jobStatus(j) },
  { name: 'Completions', type: 'string', cell: (j) => completions(j) },
  { name: 'Duration', type: 'string', cell: (j, now) => duration(j, now) },
  ageColumn<Job>(),
  { name: 'Containers', type: 'string', priority: 1, cell: (j) => containers(j).names },
  { name: 'Images', type: 'string', priority: 1, cell: (j) => containers(j).images },
  { name: 'Selector', type: 'string', priority: 1, cell: (j) => formatLabelSelector(j.spec.selector as LabelSelector | undefined) },
];

export const jobs = {
  group: 'batch', kind: 'Job', resource: 'jobs', singular: 'job', categories: ['all'], namespaced: true,
  strategy: jobStrategy,
  statusStrategy: jobStatusStrategy,
  deleteWarning: (ctx, opts) => (opts.propagationPolicy === undefined && opts.orphanDependents === undefined &&
    jobStrategy.defaultGarbageCollectionPolicy?.(ctx) === 'OrphanDependents' ? JOB_DELETE_WARNING : undefined),
  defaults: defaultJob,
  table: jobTable,
  // batch/v1's conversion for Job names the kind.
  fieldLabelMessage: (field) => `field label ${JSON.stringify(field)} not supported for Job`,
  selectableFields: (job) => ({
    'metadata.name': job.metadata.name ?? '',
    'metadata.namespace': job.metadata.namespace ?? '',
    'status.successful': String(job.status?.succeeded ?? 0),
  }),
  hooks: {
    // The selector is built from metadata.uid, which the Store assigns after prepareForCreate.
    beginCreate(_ctx, job) {
      if (job.spec.manualSelector !== true) generateSelector(job);
      return Promise.resolve(async () => {});
    },
  },
} satisfies ResourceDefinition<Job>;
