// Job validation (pkg/apis/batch/validation): spec checks shared with CronJob job templates,
// the generated selector and labels, and what an update may change.
import {
  fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath,
} from '../../../apimachinery/errors/field-errors.ts';
import { labelSelectorAsSelector, type LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import {
  nameIsDNSSubdomain, validateImmutableField, validateNonnegativeField, validateObjectMeta,
} from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { validatePodTemplateSpec } from '../../core/podtemplate/podtemplate.ts';
import { validateLabelSelector } from '../../../apimachinery/validation/label-selector.ts';
import type { Job, JobSpec, JobStatus } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;

export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
export const LEGACY_JOB_NAME_LABEL = 'job-name';

const MAX_PARALLELISM_FOR_INDEXED_JOB = 100000;
const COMPLETION_MODES = ['NonIndexed', 'Indexed'];
const POD_REPLACEMENT_POLICIES = ['Failed', 'TerminatingOrFailed'];

export interface JobValidationOptions {
  /** New jobs must carry the batch.kubernetes.io/ labels; older ones may only have the legacy pair. */
  readonly requirePrefixedLabels: boolean;
  /** Suspended jobs that never started may change scheduling directives and template labels. */
  readonly allowMutableSchedulingDirectives: boolean;
}

/** A selector that cannot be parsed matches nothing, as LabelSelectorAsSelector's error path does. */
function selectorMatches(sel: RO<LabelSelector> | undefined, labels: Readonly<Record<string, string>>): boolean | undefined {
  if (sel === undefined) return undefined;
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
  if (got !== want) return [invalid(p.child('labels').key(key), labels, `must be '${want}'`)];
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
  const expected: Record<string, string> = {};
  if (requirePrefixed) {
    errs.push(...validateHasLabel(labels, tmpl, CONTROLLER_UID_LABEL, uid));
    errs.push(...validateHasLabel(labels, tmpl, JOB_NAME_LABEL, name));
    expected[CONTROLLER_UID_LABEL] = uid;
    expected[JOB_NAME_LABEL] = name;
  } else {
    expected[LEGACY_CONTROLLER_UID_LABEL] = uid;
    expected[LEGACY_JOB_NAME_LABEL] = name;
  }
  if (selectorMatches(job.spec.selector, expected) === false) {
    errs.push(invalid(fieldPath('spec', 'selector'), job.spec.selector, '`selector` not auto-generated'));
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
  nonneg(spec.maxFailedIndexes, 'maxFailedIndexes');
  if (spec.completionMode !== undefined) {
    if (!COMPLETION_MODES.includes(spec.completionMode)) {
      errs.push(notSupported(p.child('completionMode'), spec.completionMode, COMPLETION_MODES));
    }
    if (spec.completionMode === 'Indexed') {
      if (spec.completions === undefined) errs.push(required(p.child('completions'), 'when completion mode is Indexed'));
      if (spec.parallelism !== undefined && spec.parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB) {
        errs.push(invalid(p.child('parallelism'), spec.parallelism,
          `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed`));
      }
    }
  }
  if (spec.completionMode !== 'Indexed') {
    if (spec.backoffLimitPerIndex !== undefined) {
      errs.push(forbidden(p.child('backoffLimitPerIndex'), 'requires indexed completion mode'));
    }
    if (spec.maxFailedIndexes !== undefined) {
      errs.push(forbidden(p.child('maxFailedIndexes'), 'requires indexed completion mode'));
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
  if (rp !== 'OnFailure' && rp !== 'Never') {
    errs.push(notSupported(p.child('template', 'spec', 'restartPolicy'), rp, ['OnFailure', 'Never']));
  }
  return errs;
}

/** ValidateJobSpec: the common checks plus a required selector that matches the template. */
export function validateJobSpec(spec: RO<JobSpec>, p: FieldPath): FieldError[] {
  const errs = validateJobSpecCommon(spec, p);
  if (spec.selector === undefined) errs.push(required(p.child('selector')));
  else errs.push(...validateLabelSelector(spec.selector, {}, p.child('selector')));
  const labels = spec.template?.metadata?.labels ?? {};
  if (selectorMatches(spec.selector, labels) === false) {
    errs.push(invalid(p.child('template', 'metadata', 'labels'), spec.template?.metadata?.labels ?? null,
      '`selector` does not match template `labels`'));
  }
  return errs;
}

export function validateJob(job: RO<Job>, opts: JobValidationOptions): FieldError[] {
  const errs = validateObjectMeta(job.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  errs.push(...validateGeneratedSelector(job, opts.requirePrefixedLabels));
  errs.push(...validateJobSpec(job.spec, fieldPath('spec')));
  return errs;
}

/** The template with the fields a suspended, never started job may change copied from the new one. */
function comparableOldTemplate(spec: RO<JobSpec>, old: RO<JobSpec>, opts: JobValidationOptions): unknown {
  if (!opts.allowMutableSchedulingDirectives) return old.template;
  const t = structuredClone(old.template) as { metadata?: Record<string, unknown>; spec?: Record<string, unknown> };
  const next = spec.template as { metadata?: Record<string, unknown>; spec?: Record<string, unknown> } | undefined;
  t.metadata ??= {};
  t.spec ??= {};
  const nextAff = next?.spec?.['affinity'] as Record<string, unknown> | undefined;
  const oldAff = t.spec['affinity'] as Record<string, unknown> | undefined;
  if (nextAff === undefined && oldAff !== undefined) {
    delete oldAff['nodeAffinity'];
    if (Object.keys(oldAff).length === 0) delete t.spec['affinity'];
  } else if (nextAff !== undefined && oldAff === undefined) {
    t.spec['affinity'] = nextAff['nodeAffinity'] === undefined ? {} : { nodeAffinity: nextAff['nodeAffinity'] };
  } else if (nextAff !== undefined && oldAff !== undefined) {
    if (nextAff['nodeAffinity'] === undefined) delete oldAff['nodeAffinity'];
    else oldAff['nodeAffinity'] = nextAff['nodeAffinity'];
  }
  for (const k of ['nodeSelector', 'tolerations', 'schedulingGates']) {
    if (next?.spec?.[k] === undefined) delete t.spec[k];
    else t.spec[k] = next.spec[k];
  }
  for (const k of ['labels', 'annotations']) {
    if (next?.metadata?.[k] === undefined) delete t.metadata[k];
    else t.metadata[k] = next.metadata[k];
  }
  if (next?.metadata === undefined && Object.keys(t.metadata).length === 0) delete t.metadata;
  return t;
}

/** ValidateJobSpecUpdate: selector, template (but scheduling directives) and modes are immutable. */
export function validateJobUpdate(job: RO<Job>, old: RO<Job>, opts: JobValidationOptions): FieldError[] {
  const p = fieldPath('spec');
  const spec = job.spec;
  const errs = validateGeneratedSelector(job, opts.requirePrefixedLabels);
  errs.push(...validateJobSpec(spec, p));
  const indexed = spec.completionMode === 'Indexed';
  if (!indexed) {
    errs.push(...validateImmutableField(spec.completions, old.spec.completions, p.child('completions')));
  } else if (spec.completions !== old.spec.completions && spec.completions !== undefined && spec.completions !== spec.parallelism) {
    // Elastic indexed jobs: completions may change only together with parallelism.
    errs.push(invalid(p.child('completions'), spec.completions, 'can only be modified in tandem with spec.parallelism'));
  }
  errs.push(...validateImmutableField(spec.selector, old.spec.selector, p.child('selector')));
  errs.push(...validateImmutableField(spec.template, comparableOldTemplate(spec, old.spec, opts), p.child('template')));
  errs.push(...validateImmutableField(spec.completionMode, old.spec.completionMode, p.child('completionMode')));
  errs.push(...validateImmutableField(spec.podFailurePolicy, old.spec.podFailurePolicy, p.child('podFailurePolicy')));
  errs.push(...validateImmutableField(spec.backoffLimitPerIndex, old.spec.backoffLimitPerIndex, p.child('backoffLimitPerIndex')));
  errs.push(...validateImmutableField(spec.managedBy, old.spec.managedBy, p.child('managedBy')));
  errs.push(...validateImmutableField(spec.successPolicy, old.spec.successPolicy, p.child('successPolicy')));
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
