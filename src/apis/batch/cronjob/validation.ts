// CronJob validation (pkg/apis/batch/validation): schedule, time zone, policy, job template.
import {
  fieldPath, invalid, notSupported, required, type FieldError, type FieldPath,
} from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateNonnegativeField, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { goLabelSelector, goSyntax } from '../../apps/validation/go-syntax.ts';
import { validateJobSpecCommon } from '../job/validation.ts';
import type { CronJob, CronJobSpec, JobTemplateSpec } from '../v1/types.ts';
import { cronScheduleError, isKnownTimeZone } from './schedule.ts';

type RO<T> = DeepReadonly<T>;

/** Jobs are named `<cronjob>-<11 characters>`, and job names are DNS-1035 labels (63). */
const MAX_CRONJOB_NAME_LENGTH = 63 - 11;
const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'];
const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

function validateScheduleFormat(schedule: string, allowTZInSchedule: boolean, timeZone: string | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const parseErr = cronScheduleError(schedule);
  if (parseErr !== undefined) errs.push(invalid(p, schedule, parseErr));
  const hasTZ = schedule.includes('TZ');
  if (allowTZInSchedule && hasTZ && timeZone !== undefined) {
    errs.push(invalid(p, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  } else if (!allowTZInSchedule && hasTZ) {
    errs.push(invalid(p, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  return errs;
}

function validateTimeZone(tz: string | undefined, p: FieldPath): FieldError[] {
  if (tz === undefined) return [];
  if (tz.length === 0) return [invalid(p, tz, 'timeZone must be nil or non-empty string')];
  for (const part of tz.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part)) {
      return [invalid(p, tz, `unknown time zone ${tz}`)];
    }
  }
  if (tz.toLowerCase() === 'local') {
    return [invalid(p, tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
  }
  return isKnownTimeZone(tz) ? [] : [invalid(p, tz, `unknown time zone ${tz}`)];
}

/** ValidateJobTemplateSpec: job spec checks; the selector is always generated for templates. */
function validateJobTemplateSpec(t: RO<JobTemplateSpec>, p: FieldPath): FieldError[] {
  const spec = t.spec ?? { template: { spec: { containers: [] } } };
  const errs = validateJobSpecCommon(spec, p.child('spec'));
  if (spec.selector !== undefined) errs.push(invalid(p.child('spec', 'selector'), goSyntax(goLabelSelector(spec.selector)), '`selector` will be auto-generated'));
  if (spec.manualSelector === true) errs.push(notSupported(p.child('spec', 'manualSelector'), true, ['nil', 'false']));
  return errs;
}

function validateCronJobSpec(spec: RO<CronJobSpec>, old: RO<CronJobSpec> | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const schedule = spec.schedule ?? '';
  if (schedule.length === 0) errs.push(required(p.child('schedule')));
  else errs.push(...validateScheduleFormat(schedule, old?.schedule?.includes('TZ') ?? false, spec.timeZone, p.child('schedule')));
  if (spec.startingDeadlineSeconds !== undefined) {
    errs.push(...validateNonnegativeField(spec.startingDeadlineSeconds, p.child('startingDeadlineSeconds')));
  }
  if (old === undefined || old.timeZone !== spec.timeZone) errs.push(...validateTimeZone(spec.timeZone, p.child('timeZone')));
  const policy = spec.concurrencyPolicy ?? '';
  if (policy === '') errs.push(required(p.child('concurrencyPolicy')));
  else if (!CONCURRENCY_POLICIES.includes(policy)) errs.push(notSupported(p.child('concurrencyPolicy'), policy, CONCURRENCY_POLICIES));
  errs.push(...validateJobTemplateSpec(spec.jobTemplate ?? { spec: { template: { spec: { containers: [] } } } }, p.child('jobTemplate')));
  if (spec.successfulJobsHistoryLimit !== undefined) {
    errs.push(...validateNonnegativeField(spec.successfulJobsHistoryLimit, p.child('successfulJobsHistoryLimit')));
  }
  if (spec.failedJobsHistoryLimit !== undefined) {
    errs.push(...validateNonnegativeField(spec.failedJobsHistoryLimit, p.child('failedJobsHistoryLimit')));
  }
  return errs;
}

export function validateCronJob(cj: RO<CronJob>): FieldError[] {
  const errs = validateObjectMeta(cj.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const name = cj.metadata.name ?? '';
  if (name.length > MAX_CRONJOB_NAME_LENGTH) {
    errs.push(invalid(fieldPath('metadata', 'name'), name, `must be no more than ${MAX_CRONJOB_NAME_LENGTH} characters`));
  }
  errs.push(...validateCronJobSpec(cj.spec, undefined, fieldPath('spec')));
  return errs;
}

/** ValidateCronJobUpdate: the name length limit is skipped so old long-named cronjobs stay editable. */
export function validateCronJobUpdate(cj: RO<CronJob>, old: RO<CronJob>): FieldError[] {
  return validateCronJobSpec(cj.spec, old.spec, fieldPath('spec'));
}
