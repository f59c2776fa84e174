// Job validation (pkg/apis/batch/validation): spec checks shared with CronJob job templates,
// the generated selector and labels, and what an update may change.
import {
  fieldPath, invalid, notSupported, required, tooLong, type FieldError, type FieldPath,
} from '../../../apimachinery/errors/field-errors.ts';
import { labelSelectorAsSelector, type LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import {
  deepEqual, FIELD_IMMUTABLE_ERROR_MSG, nameIsDNSSubdomain, validateImmutableField, validateNonnegativeField, validateObjectMeta,
} from '../../../apimachinery/validation/object-meta.ts';
import { isDomainPrefixedPath } from '../../../apimachinery/validation/domain-prefixed-path.ts';
import { isDNS1123Label } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { goLabelSelector, goStringMap, goSyntax } from '../../apps/validation/go-syntax.ts';
import { validatePodTemplateSpec } from '../../core/podtemplate/podtemplate.ts';
import { validateLabelSelector } from '../../../apimachinery/validation/label-selector.ts';
import type { Job, JobSpec, JobStatus } from '../v1/types.ts';
import { goPodFailurePolicy, goSuccessPolicy, validatePodFailurePolicy, validateSuccessPolicy } from './policy-validation.ts';
import type { JobValidationOptions } from './options.ts';
import { validateJobTemplateUpdate } from './template-update.ts';

type RO<T> = DeepReadonly<T>;

export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
export const LEGACY_JOB_NAME_LABEL = 'job-name';

const MAX_PARALLELISM_FOR_INDEXED_JOB = 100000;
const MAX_FAILED_INDEXES_FOR_INDEXED_JOB = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_MANAGED_BY_LENGTH = 63;
const COMPLETION_MODES = ['NonIndexed', 'Indexed'];
const POD_REPLACEMENT_POLICIES = ['Failed', 'TerminatingOrFailed'];

/** Whether the selector matches; undefined when it cannot be parsed (LabelSelectorAsSelector fails); a nil one matches nothing. */
function selectorMatches(sel: RO<LabelSelector> | undefined, labels: Readonly<Record<string, string>>): boolean | undefined {
  if (sel === undefined) return false;
  try {
    return labelSelectorAsSelector(sel as LabelSelector).matches(labels);
  } catch {
    return undefined;
  }
}

/** ValidateHasLabel. */
function validateHasLabel(labels: RO<Record<string, string>> | undefined, p: FieldPath, key: string, want: string): FieldError[] {
  const got = labels?.[key];
  if (got === undefined) return [required(p.child('labels').key(key), want)];
  if (got !== want) return [invalid(p.child('labels').key(key), goSyntax(goStringMap(labels)), `must be '${want}'`)];
  return [];
}

/** validateGeneratedSelector: unless manualSelector, the template carries the generated labels. */
function validateGeneratedSelector(job: RO<Job>, requirePrefixed: boolean): FieldError[] {
  if (job.spec.manualSelector === true || job.spec.selector === undefined) return [];
  const errs: FieldError[] = [];
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  if (uid === '') errs.push(required(fieldPath('metadata', 'uid')));
  const tmpl = fieldPath('spec', 'template', 'metadata');
  const labels = job.spec.template?.metadata?.labels;
  errs.push(...validateHasLabel(labels, tmpl, LEGACY_CONTROLLER_UID_LABEL, uid));
  errs.push(...validateHasLabel(labels, tmpl, LEGACY_JOB_NAME_LABEL, name));
  const expected: Record<string, string> = { [LEGACY_CONTROLLER_UID_LABEL]: uid, [LEGACY_JOB_NAME_LABEL]: name };
  if (requirePrefixed) {
    errs.push(...validateHasLabel(labels, tmpl, CONTROLLER_UID_LABEL, uid));
    errs.push(...validateHasLabel(labels, tmpl, JOB_NAME_LABEL, name));
    expected[CONTROLLER_UID_LABEL] = uid;
    expected[JOB_NAME_LABEL] = name;
  }
  if (selectorMatches(job.spec.selector, expected) === false) {
    errs.push(invalid(fieldPath('spec', 'selector'), goSyntax(goLabelSelector(job.spec.selector)), '`selector` not auto-generated'));
  }
  return errs;
}

/** validateJobSpec: the checks a Job and a CronJob's job template share. */
export function validateJobSpecCommon(spec: RO<JobSpec>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const nonneg = (v: number | undefined, name: string): void => {
    if (v !== undefined) errs.push(...validateNonnegativeField(v, p.child(name)));
  };
  nonneg(spec.parallelism, 'parallelism');
  nonneg(spec.completions, 'completions');
  nonneg(spec.activeDeadlineSeconds, 'activeDeadlineSeconds');
  nonneg(spec.backoffLimit, 'backoffLimit');
  nonneg(spec.ttlSecondsAfterFinished, 'ttlSecondsAfterFinished');
  nonneg(spec.backoffLimitPerIndex, 'backoffLimitPerIndex');
  if (spec.maxFailedIndexes !== undefined) {
    errs.push(...validateNonnegativeField(spec.maxFailedIndexes, p.child('maxFailedIndexes')));
    if (spec.backoffLimitPerIndex === undefined) errs.push(required(p.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  if (spec.managedBy !== undefined) {
    errs.push(...isDomainPrefixedPath(p.child('managedBy'), spec.managedBy));
    if (spec.managedBy.length > MAX_MANAGED_BY_LENGTH) errs.push(tooLong(p.child('managedBy'), '', MAX_MANAGED_BY_LENGTH));
  }
  if (spec.completionMode !== undefined) {
    if (!COMPLETION_MODES.includes(spec.completionMode)) {
      errs.push(notSupported(p.child('completionMode'), spec.completionMode, COMPLETION_MODES));
    }
    if (spec.completionMode === 'Indexed') errs.push(...validateIndexedSpec(spec, p));
  }
  if (spec.completionMode === undefined || spec.completionMode === 'NonIndexed') {
    if (spec.backoffLimitPerIndex !== undefined) {
      errs.push(invalid(p.child('backoffLimitPerIndex'), spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    }
    if (spec.maxFailedIndexes !== undefined) {
      errs.push(invalid(p.child('maxFailedIndexes'), spec.maxFailedIndexes, 'requires indexed completion mode'));
    }
  }
  if (spec.podFailurePolicy !== undefined) errs.push(...validatePodFailurePolicy(spec, p.child('podFailurePolicy')));
  if (spec.successPolicy !== undefined) {
    if (spec.completionMode !== 'Indexed') {
      errs.push(invalid(p.child('successPolicy'), goSuccessPolicy(spec.successPolicy), 'requires indexed completion mode'));
    } else {
      errs.push(...validateSuccessPolicy(spec, p.child('successPolicy')));
    }
  }
  if (spec.podReplacementPolicy !== undefined) {
    const pr = p.child('podReplacementPolicy');
    if (spec.podFailurePolicy !== undefined) {
      if (spec.podReplacementPolicy !== 'Failed') errs.push(notSupported(pr, spec.podReplacementPolicy, ['Failed']));
    } else if (!POD_REPLACEMENT_POLICIES.includes(spec.podReplacementPolicy)) {
      errs.push(notSupported(pr, spec.podReplacementPolicy, POD_REPLACEMENT_POLICIES));
    }
  }
  const template = spec.template ?? { spec: { containers: [] } };
  errs.push(...validatePodTemplateSpec(template, p.child('template')));
  const rp = template.spec?.restartPolicy ?? '';
  const rpPath = p.child('template', 'spec', 'restartPolicy');
  if (rp === 'Always' || rp === '') errs.push(required(rpPath, 'valid values: "OnFailure", "Never"'));
  else if (rp !== 'OnFailure' && rp !== 'Never') errs.push(notSupported(rpPath, rp, ['OnFailure', 'Never']));
  else if (spec.podFailurePolicy !== undefined && rp !== 'Never') errs.push(invalid(rpPath, rp, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}

/** The limits of an Indexed job: completions required, parallelism and failed indexes bounded. */
function validateIndexedSpec(spec: RO<JobSpec>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const { completions, parallelism, maxFailedIndexes, backoffLimitPerIndex } = spec;
  if (completions === undefined) errs.push(required(p.child('completions'), 'when completion mode is Indexed'));
  if (parallelism !== undefined && parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB) {
    errs.push(invalid(p.child('parallelism'), parallelism, `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed`));
  }
  if (completions !== undefined && maxFailedIndexes !== undefined && maxFailedIndexes > completions) {
    errs.push(invalid(p.child('maxFailedIndexes'), maxFailedIndexes, 'must be less than or equal to completions'));
  }
  if (maxFailedIndexes !== undefined && maxFailedIndexes > MAX_FAILED_INDEXES_FOR_INDEXED_JOB) {
    errs.push(invalid(p.child('maxFailedIndexes'), maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES_FOR_INDEXED_JOB}`));
  }
  if (completions !== undefined && completions > COMPLETIONS_SOFT_LIMIT && backoffLimitPerIndex !== undefined) {
    const high = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
    if (maxFailedIndexes === undefined) errs.push(required(p.child('maxFailedIndexes'), `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`));
    if (parallelism !== undefined && parallelism > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
      errs.push(invalid(p.child('parallelism'), parallelism, `must be less than or equal to ${PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} ${high}`));
    }
    if (maxFailedIndexes !== undefined && maxFailedIndexes > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS) {
      errs.push(invalid(p.child('maxFailedIndexes'), maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} ${high}`));
    }
  }
  return errs;
}

/** ValidateJobSpec: the common checks plus a required selector that matches the template. */
function validateJobSpec(spec: RO<JobSpec>, p: FieldPath): FieldError[] {
  const errs = validateJobSpecCommon(spec, p);
  if (spec.selector === undefined) errs.push(required(p.child('selector')));
  else errs.push(...validateLabelSelector(spec.selector, {}, p.child('selector')));
  const labels = spec.template?.metadata?.labels ?? {};
  if (selectorMatches(spec.selector, labels) === false) {
    errs.push(invalid(p.child('template', 'metadata', 'labels'), goSyntax(goStringMap(spec.template?.metadata?.labels)),
      '`selector` does not match template `labels`'));
  }
  return errs;
}

/** ValidateJob; an update leaves the object metadata to the Store (`withObjectMeta` false). */
export function validateJob(job: RO<Job>, opts: JobValidationOptions, withObjectMeta = true): FieldError[] {
  const errs = withObjectMeta ? validateObjectMeta(job.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }) : [];
  errs.push(...validateGeneratedSelector(job, opts.requirePrefixedLabels));
  errs.push(...validateJobSpec(job.spec, fieldPath('spec')));
  const { completionMode, completions } = job.spec;
  if (completionMode === 'Indexed' && completions !== undefined && completions > 0) {
    // the pods of an indexed job are named <job>-<index>, which must make a DNS label
    const name = job.metadata.name ?? '';
    const last = `${name}-${completions - 1}`;
    if (isDNS1123Label(last).length > 0) errs.push(invalid(fieldPath('metadata', 'name'), name, `will not able to create pod with invalid DNS label: ${last}`));
  }
  return errs;
}

/**
 * The job strategy's ValidateUpdate: ValidateJob, then ValidateJobSpecUpdate, which validates the
 * spec a second time (kube reports those causes twice) and keeps the selector, the template (but
 * what a suspended job may change) and the modes immutable.
 */
export function validateJobUpdate(job: RO<Job>, old: RO<Job>, opts: JobValidationOptions): FieldError[] {
  const p = fieldPath('spec');
  const spec = job.spec;
  const errs = validateJob(job, opts, false);
  errs.push(...validateJobSpec(spec, p));
  const indexed = spec.completionMode === 'Indexed';
  if (!indexed) {
    errs.push(...validateImmutableField(spec.completions, old.spec.completions, p.child('completions')));
  } else if (spec.completions !== old.spec.completions && spec.completions !== undefined && spec.completions !== spec.parallelism) {
    // Elastic indexed jobs: completions may change only together with parallelism.
    errs.push(invalid(p.child('completions'), spec.completions, 'can only be modified in tandem with spec.parallelism'));
  }
  if (!deepEqual(spec.selector, old.spec.selector)) {
    errs.push(invalid(p.child('selector'), goSyntax(goLabelSelector(spec.selector)), FIELD_IMMUTABLE_ERROR_MSG));
  }
  errs.push(...validateJobTemplateUpdate(spec, old.spec, opts, p));
  errs.push(...validateImmutableField(spec.completionMode, old.spec.completionMode, p.child('completionMode')));
  if (!deepEqual(spec.podFailurePolicy, old.spec.podFailurePolicy)) {
    errs.push(invalid(p.child('podFailurePolicy'), goPodFailurePolicy(spec.podFailurePolicy), FIELD_IMMUTABLE_ERROR_MSG));
  }
  errs.push(...validateImmutableField(spec.backoffLimitPerIndex, old.spec.backoffLimitPerIndex, p.child('backoffLimitPerIndex')));
  errs.push(...validateImmutableField(spec.managedBy, old.spec.managedBy, p.child('managedBy')));
  if (!deepEqual(spec.successPolicy, old.spec.successPolicy)) {
    errs.push(invalid(p.child('successPolicy'), goSuccessPolicy(spec.successPolicy), FIELD_IMMUTABLE_ERROR_MSG));
  }
  return errs;
}

/** ValidateJobStatus: the counters are never negative. */
export function validateJobStatus(status: RO<JobStatus> | undefined): FieldError[] {
  const p = fieldPath('status');
  const errs: FieldError[] = [];
  for (const k of ['active', 'succeeded', 'failed', 'ready', 'terminating'] as const) {
    const v = status?.[k];
    if (v !== undefined) errs.push(...validateNonnegativeField(v, p.child(k)));
  }
  return errs;
}
