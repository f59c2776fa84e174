// CronJobs (pkg/registry/batch/cronjob): defaults, strategy and printer columns.
import { formatLabelSelector, type LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { ResourceDefinition, TableColumn } from '../../../registry/rest/strategy.ts';
import { ageColumn, bumpGenerationIfChanged, copyOf, nameColumn, setOptional, specStatusStrategy, statusStrategy, translateTimestampSince } from '../../../registry/rest/kit.ts';
import { fieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { defaultPodSpec } from '../../core/pod/defaults.ts';
import { dropDisabledTemplateFields } from '../../core/pod/disabled-fields.ts';
import { workloadNameWarnings } from '../../core/pod/warnings.ts';
import { jobSpecWarnings } from '../job/warnings.ts';
import { layoutContainerCells } from '../../core/printers/format.ts';
import type { CronJob } from '../v1/types.ts';
import { validateCronJob, validateCronJobUpdate } from './validation.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';

/** SetDefaults_CronJob, plus the pod spec defaults of the job template (not the Job defaults). */
export function defaultCronJob(cj: CronJob): void {
  cj.spec ??= { schedule: '', jobTemplate: { spec: { template: { spec: { containers: [] } } } } };
  const spec = cj.spec;
  if ((spec.concurrencyPolicy ?? '') === '') spec.concurrencyPolicy = 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  spec.jobTemplate ??= { spec: { template: { spec: { containers: [] } } } };
  spec.jobTemplate.spec ??= { template: { spec: { containers: [] } } };
  spec.jobTemplate.spec.template ??= { spec: { containers: [] } };
  spec.jobTemplate.spec.template.spec ??= { containers: [] };
  defaultPodSpec(spec.jobTemplate.spec.template.spec);
}

const notMetadata = (e: { field: string }): boolean => !e.field.startsWith('metadata.');

export const cronJobStrategy = specStatusStrategy<CronJob>({
  prepareForCreate(_ctx, cj) {
    cj.status = {};
    cj.metadata.generation = 1;
    dropDisabledTemplateFields(cj.spec.jobTemplate?.spec?.template, undefined);
  },
  validate: (cj) => validateCronJob(cj),
  warningsOnCreate: (cj) => [...workloadNameWarnings(cj.metadata.name), ...jobSpecWarnings(fieldPath('spec', 'jobTemplate', 'spec'), cj.spec.jobTemplate?.spec)],
  prepareForUpdate(_ctx, cj, old) {
    setOptional(cj, 'status', old.status === undefined ? undefined : copyOf<CronJob['status']>(old.status));
    cj.metadata.generation = old.metadata.generation ?? 1;
    dropDisabledTemplateFields(cj.spec.jobTemplate?.spec?.template, old.spec.jobTemplate?.spec?.template);
    bumpGenerationIfChanged(cj.metadata, cj.spec, old.spec);
  },
  revalidateOnUpdate: false,
  validateUpdate: (cj, old) => validateCronJobUpdate(cj, old).filter(notMetadata),
  warningsOnUpdate: (cj, old) => [
    ...(cj.metadata.generation !== old.metadata.generation ? jobSpecWarnings(fieldPath('spec', 'jobTemplate', 'spec'), cj.spec.jobTemplate?.spec) : []),
    // A schedule with TZ kept from before it became invalid (kube prints the path spec.spec.schedule, sic).
    ...((cj.spec.schedule ?? '').includes('TZ')
      ? ['cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details'] : []),
  ],
});

export const cronJobStatusStrategy = statusStrategy<CronJob>(cronJobStrategy, { warningsOnUpdate: null });

/** printBoolPtr. */
const boolCell = (v: boolean | undefined): string => (v === undefined ? '<unset>' : v ? 'True' : 'False');

const cronJobTable: readonly TableColumn<CronJob>[] = [
  nameColumn<CronJob>(),
  { name: 'Schedule', type: 'string', cell: (cj) => cj.spec.schedule ?? '' },
  { name: 'Timezone', type: 'string', cell: (cj) => cj.spec.timeZone ?? '<none>' },
  { name: 'Suspend', type: 'boolean', cell: (cj) => boolCell(cj.spec.suspend) },
  { name: 'Active', type: 'integer', cell: (cj) => (cj.status?.active ?? []).length },
  { name: 'Last Schedule', type: 'string',    cell: (cj, now) => (cj.status?.lastScheduleTime === undefined ? '<none>' : translateTimestampSince(cj.status.lastScheduleTime, now)) },
  ageColumn<CronJob>(),
  { name: 'Containers', type: 'string', priority: 1,    cell: (cj) => layoutContainerCells(cj.spec.jobTemplate?.spec?.template?.spec?.containers ?? []).names },
  { name: 'Images', type: 'string', priority: 1,    cell: (cj) => layoutContainerCells(cj.spec.jobTemplate?.spec?.template?.spec?.containers ?? []).images },
  { name: 'Selector', type: 'string', priority: 1,    cell: (cj) => formatLabelSelector(cj.spec.jobTemplate?.spec?.selector as LabelSelector | undefined) },
];

export const cronJobs = {
  group: 'batch', kind: 'CronJob', resource: 'cronjobs', singular: 'cronjob', shortNames: ['cj'], categories: ['all'], namespaced: true,
  goZeroValues: (o) => { for (const [path, v] of [[['spec', 'jobTemplate', 'metadata'], {}], [['spec', 'jobTemplate', 'spec', 'template', 'metadata'], {}]] as const) setZero(o, path, v); },
  strategy: cronJobStrategy,
  statusStrategy: cronJobStatusStrategy,
  defaults: defaultCronJob,
  table: cronJobTable,
} satisfies ResourceDefinition<CronJob>;
