// Job status updates (ValidateJobUpdateStatus of pkg/apis/batch/validation with the options of
// pkg/registry/batch/job getStatusValidationOptions; JobManagedBy is GA in v1.36). Most rules run
// only when the fields they read changed, so a status that was already wrong can still be updated
// in unrelated fields while a correct one cannot be broken.
import { GoSyntax, OMIT_VALUE, duplicate, fieldPath, invalid, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Job } from '../v1/types.ts';
import { indexesFormatError, indexesOverlap } from './indexes.ts';
import { validateJobStatus } from './validation.ts';

type RO<T> = DeepReadonly<T>;

const conditionIs = (job: RO<Job>, type: string, status: string): boolean =>
  (job.status?.conditions ?? []).some((c) => c.type === type && c.status === status);
const isTrue = (job: RO<Job>, type: string): boolean => conditionIs(job, type, 'True');
const isFinished = (job: RO<Job>): boolean => isTrue(job, 'Complete') || isTrue(job, 'Failed');

export function validateJobStatusUpdate(job: RO<Job>, old: RO<Job>): FieldError[] {
  const s = job.status ?? {};
  const o = old.status ?? {};
  const spec = job.spec;
  const p = fieldPath('status');
  const cond = p.child('conditions');
  const errs = validateJobStatus(job.status);
  const changed = (t: string): boolean => isTrue(old, t) !== isTrue(job, t);
  const finishedChanged = isFinished(old) !== isFinished(job);
  const completedIndexesChanged = (o.completedIndexes ?? '') !== (s.completedIndexes ?? '');
  const failedIndexesChanged = o.failedIndexes !== s.failedIndexes;
  const activeChanged = (o.active ?? 0) !== (s.active ?? 0);
  const startChanged = o.startTime !== s.startTime;
  const completionChanged = o.completionTime !== s.completionTime;
  const indexed = spec.completionMode === 'Indexed';
  const finished = isFinished(job);
  const uncounted = s.uncountedTerminatedPods;
  const uncountedIds = [...(uncounted?.succeeded ?? []), ...(uncounted?.failed ?? [])];

  // The uncounted pods name each pod once, by a non-empty UID.
  const seen = new Set<string>();
  for (const kind of ['succeeded', 'failed'] as const) {
    (uncounted?.[kind] ?? []).forEach((uid, i) => {
      const at = p.child('uncountedTerminatedPods', kind).index(i);
      if (uid === '') errs.push(invalid(at, uid, 'must not be empty'));
      else if (seen.has(uid)) errs.push(duplicate(at, uid));
      else seen.add(uid);
    });
  }
  if ((changed('Complete') || changed('Failed')) && isTrue(job, 'Complete') && isTrue(job, 'Failed')) {
    errs.push(invalid(cond, OMIT_VALUE, 'cannot set Complete=True and Failed=true conditions'));
  }
  if ((changed('Complete') || changed('FailureTarget')) && isTrue(job, 'Complete') && isTrue(job, 'FailureTarget')) {
    errs.push(invalid(cond, OMIT_VALUE, 'cannot set Complete=True and FailureTarget=true conditions'));
  }
  if (changed('Complete') || completionChanged) {
    if (s.completionTime !== undefined && !isTrue(job, 'Complete')) {
      errs.push(invalid(p.child('completionTime'), s.completionTime, 'cannot set completionTime when there is no Complete=True condition'));
    }
    if (s.completionTime === undefined && isTrue(job, 'Complete')) errs.push(required(p.child('completionTime'), 'completionTime is required for Complete jobs'));
  }
  if ((startChanged || completionChanged) && s.startTime !== undefined && s.completionTime !== undefined && Date.parse(s.completionTime) < Date.parse(s.startTime)) {
    errs.push(invalid(p.child('completionTime'), s.completionTime, 'must be equal to or after `startTime`'));
  }
  if ((changed('Failed') || failedIndexesChanged) && isTrue(job, 'Failed') && !isTrue(job, 'FailureTarget')) {
    errs.push(invalid(cond, OMIT_VALUE, 'cannot set Failed=True condition without the FailureTarget=true condition'));
  }
  if ((changed('Complete') || changed('SuccessCriteriaMet')) && isTrue(job, 'Complete') && !isTrue(job, 'SuccessCriteriaMet')) {
    errs.push(invalid(cond, OMIT_VALUE, 'cannot set Complete=True condition without the SuccessCriteriaMet=true condition'));
  }
  if ((finishedChanged || activeChanged) && (s.active ?? 0) > 0 && finished) errs.push(invalid(p.child('active'), s.active, 'active>0 is invalid for finished job'));
  const suspendedWithZeroCompletions = spec.suspend === true && spec.completions === 0;
  if ((finishedChanged || startChanged) && !suspendedWithZeroCompletions && s.startTime === undefined && finished) {
    errs.push(required(p.child('startTime'), 'startTime is required for finished job'));
  }
  if ((finishedChanged || !deepEqual(o.uncountedTerminatedPods, s.uncountedTerminatedPods)) && finished && uncountedIds.length > 0) {
    // kube prints the internal struct as JSON: Go field names, nil lists as null.
    const shown = `{"Succeeded":${JSON.stringify(uncounted?.succeeded ?? null)},"Failed":${JSON.stringify(uncounted?.failed ?? null)}}`;
    errs.push(invalid(p.child('uncountedTerminatedPods'), new GoSyntax(shown), 'must be empty for finished job'));
  }
  const completions = spec.completions;
  if (completedIndexesChanged && completions !== undefined) {
    const e = indexesFormatError(s.completedIndexes ?? '', completions);
    if (e !== undefined) errs.push(invalid(p.child('completedIndexes'), s.completedIndexes ?? '', `error parsing completedIndexes: ${e}`));
  }
  if (failedIndexesChanged && completions !== undefined && spec.backoffLimitPerIndex !== undefined && s.failedIndexes !== undefined) {
    const e = indexesFormatError(s.failedIndexes, completions);
    if (e !== undefined) errs.push(invalid(p.child('failedIndexes'), s.failedIndexes, `error parsing failedIndexes: ${e}`));
  }
  if (completedIndexesChanged && (s.completedIndexes ?? '') !== '' && !indexed) {
    errs.push(invalid(p.child('completedIndexes'), s.completedIndexes, 'cannot set non-empty completedIndexes when non-indexed completion mode'));
  }
  if (failedIndexesChanged && spec.backoffLimitPerIndex === undefined && s.failedIndexes !== undefined) {
    errs.push(invalid(p.child('failedIndexes'), s.failedIndexes, 'cannot set non-null failedIndexes when backoffLimitPerIndex is null'));
  }
  if ((failedIndexesChanged || completedIndexesChanged) && completions !== undefined && s.failedIndexes !== undefined) {
    const at = indexesOverlap(s.completedIndexes ?? '', s.failedIndexes, completions);
    if (at !== undefined) errs.push(invalid(p.child('failedIndexes'), s.failedIndexes, `failedIndexes and completedIndexes overlap at index: ${at}`));
  }
  if ((finishedChanged || o.terminating !== s.terminating) && (s.terminating ?? 0) > 0 && finished) {
    errs.push(invalid(p.child('terminating'), s.terminating, 'terminating>0 is invalid for finished job'));
  }
  if ((o.ready !== s.ready || activeChanged) && s.ready !== undefined && s.ready > (s.active ?? 0)) {
    errs.push(invalid(p.child('ready'), s.ready, 'cannot set more ready pods than active'));
  }
  if (isTrue(job, 'SuccessCriteriaMet') && isTrue(job, 'Failed')) errs.push(invalid(cond, OMIT_VALUE, 'cannot set SuccessCriteriaMet=True and Failed=true conditions'));
  if (isTrue(job, 'SuccessCriteriaMet') && isTrue(job, 'FailureTarget')) errs.push(invalid(cond, OMIT_VALUE, 'cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'));
  if (spec.successPolicy !== undefined && !isTrue(job, 'SuccessCriteriaMet') && isTrue(job, 'Complete')) {
    errs.push(invalid(cond, OMIT_VALUE, 'cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True'));
  }

  // The transitions ValidateJobStatusUpdate adds to the status checks.
  for (const t of ['Failed', 'Complete', 'FailureTarget']) {
    if (isTrue(old, t) && !isTrue(job, t)) errs.push(invalid(cond, OMIT_VALUE, `cannot disable the terminal ${t}=True condition`));
  }
  if ((s.failed ?? 0) < (o.failed ?? 0)) errs.push(invalid(p.child('failed'), s.failed ?? 0, 'cannot decrease the failed counter'));
  // An indexed job whose parallelism equals its completions may be scaled down.
  const mayDecreaseSucceeded = indexed && completions === spec.parallelism;
  if (!mayDecreaseSucceeded && (s.succeeded ?? 0) < (o.succeeded ?? 0)) errs.push(invalid(p.child('succeeded'), s.succeeded ?? 0, 'cannot decrease the succeeded counter'));
  if (s.completionTime !== undefined && o.completionTime !== undefined && s.completionTime !== o.completionTime) {
    errs.push(invalid(p.child('completionTime'), s.completionTime, 'field is immutable'));
  }
  const resuming = isTrue(old, 'Suspended') && conditionIs(job, 'Suspended', 'False');
  if (startChanged && !resuming && o.startTime !== undefined && spec.suspend !== true) {
    errs.push(invalid(p.child('startTime'), s.startTime, 'field is immutable for unsuspended job once set'));
  }
  if (isTrue(old, 'SuccessCriteriaMet') && !isTrue(job, 'SuccessCriteriaMet')) {
    errs.push(invalid(cond, OMIT_VALUE, 'cannot disable the SuccessCriteriaMet=True condition'));
  }
  if (isTrue(old, 'Complete') && !isTrue(old, 'SuccessCriteriaMet') && isTrue(job, 'SuccessCriteriaMet')) {
    errs.push(invalid(cond, OMIT_VALUE, 'cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions'));
  }
  return errs;
}
