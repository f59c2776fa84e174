// batch/v1 cases: one per rule of pkg/apis/batch/validation (ValidateJob, ValidateJobUpdate,
// ValidateJobUpdateStatus with the options of the v1.36 job strategy, ValidateCronJobCreate/Update)
// and the CronJob status, which kube does not validate.
import type { ValidationCase } from '../validation-differential.ts';
import { c, create, CRONJOB, JOB, update, type Obj } from './helpers.ts';

const spec = (s: Obj): Obj => ({ spec: s });
const tspec = (s: Obj): Obj => ({ spec: { template: { spec: s } } });
const status = (s: Obj): readonly ['status', Obj] => ['status', { status: s }];
const indexed = (completions: number, extra: Obj = {}): Obj => spec({ completionMode: 'Indexed', completions, parallelism: completions, ...extra });
const pfp = (rules: readonly Obj[], extra: Obj = {}): Obj => spec({ podFailurePolicy: { rules }, ...extra });
const exitRule = (onExitCodes: Obj, action = 'FailJob'): Obj => ({ action, onExitCodes: { operator: 'In', values: [1], ...onExitCodes } });
const cond = (type: string, s = 'True'): Obj => ({ type, status: s });
const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T01:00:00Z';
const complete = { startTime: T0, completionTime: T1, succeeded: 1, conditions: [cond('SuccessCriteriaMet'), cond('Complete')] };

const JOB_CREATE: ValidationCase[] = [
  c('job: valid', create(JOB)),
  c('job: name invalid', create(JOB, { metadata: { name: 'Bad_Name' } })),
  ...['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished']
    .map((f) => c(`job: ${f} -1`, create(JOB, spec({ [f]: -1 })))),
  c('job: backoffLimitPerIndex -1', create(JOB, indexed(2, { backoffLimitPerIndex: -1 }))),
  c('job: maxFailedIndexes -1', create(JOB, indexed(2, { backoffLimitPerIndex: 1, maxFailedIndexes: -1 }))),
  c('job: backoffLimitPerIndex on a NonIndexed job', create(JOB, spec({ backoffLimitPerIndex: 1 }))),
  c('job: maxFailedIndexes without backoffLimitPerIndex', create(JOB, indexed(2, { maxFailedIndexes: 1 }))),
  c('job: maxFailedIndexes over completions', create(JOB, indexed(2, { backoffLimitPerIndex: 1, maxFailedIndexes: 3 }))),
  c('job: completionMode Bogus', create(JOB, spec({ completionMode: 'Bogus' }))),
  c('job: Indexed without completions', create(JOB, spec({ completionMode: 'Indexed', parallelism: 2 }))),
  c('job: Indexed parallelism over 100000', create(JOB, spec({ completionMode: 'Indexed', completions: 3, parallelism: 100001 }))),
  c('job: Indexed high completions without maxFailedIndexes', create(JOB, spec({ completionMode: 'Indexed', completions: 100001, parallelism: 10001, backoffLimitPerIndex: 1 }))),
  c('job: Indexed name too long for the last pod', create(JOB, { metadata: { name: `j${'x'.repeat(60)}` }, ...indexed(100) })),
  c('job: managedBy not a domain-prefixed path', create(JOB, spec({ managedBy: 'bogus' }))),
  c('job: managedBy too long', create(JOB, spec({ managedBy: `example.com/${'x'.repeat(60)}` }))),
  c('job: managedBy valid', create(JOB, spec({ managedBy: 'example.com/ctl' }))),
  c('job: restartPolicy Always', create(JOB, tspec({ restartPolicy: 'Always' }))),
  c('job: restartPolicy missing (defaulted to Always)', create(JOB, tspec({ restartPolicy: null }))),
  c('job: template container name invalid', create(JOB, tspec({ containers: [{ name: 'Bad_Name', image: 'busybox' }] }))),
  c('job: podFailurePolicy with OnFailure', create(JOB, { ...pfp([exitRule({})]), ...tspec({ restartPolicy: 'OnFailure' }) })),
  c('job: podFailurePolicy valid', create(JOB, pfp([exitRule({}), { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }]))),
  c('job: podFailurePolicy action Bogus', create(JOB, pfp([exitRule({}, 'Bogus')]))),
  c('job: podFailurePolicy action missing', create(JOB, pfp([{ onExitCodes: { operator: 'In', values: [1] } }]))),
  c('job: podFailurePolicy FailIndex without backoffLimitPerIndex', create(JOB, pfp([exitRule({}, 'FailIndex')]))),
  c('job: podFailurePolicy operator Bogus', create(JOB, pfp([exitRule({ operator: 'Bogus' })]))),
  c('job: podFailurePolicy operator missing', create(JOB, pfp([exitRule({ operator: null })]))),
  c('job: podFailurePolicy In 0', create(JOB, pfp([exitRule({ values: [0, 1] })]))),
  c('job: podFailurePolicy values unordered and duplicate', create(JOB, pfp([exitRule({ values: [3, 2, 2] })]))),
  c('job: podFailurePolicy values empty', create(JOB, pfp([exitRule({ values: [] })]))),
  c('job: podFailurePolicy containerName unknown', create(JOB, pfp([exitRule({ containerName: 'other' })]))),
  c('job: podFailurePolicy condition status Bogus', create(JOB, pfp([{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'Bogus' }] }]))),
  c('job: podFailurePolicy condition type invalid', create(JOB, pfp([{ action: 'Ignore', onPodConditions: [{ type: 'bad type', status: 'True' }] }]))),
  c('job: podFailurePolicy rule with both', create(JOB, pfp([{ ...exitRule({}), onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }]))),
  c('job: podFailurePolicy rule with neither', create(JOB, pfp([{ action: 'Ignore' }]))),
  c('job: podFailurePolicy 21 rules', create(JOB, pfp(Array.from({ length: 21 }, () => exitRule({}))))),
  c('job: podReplacementPolicy Bogus', create(JOB, spec({ podReplacementPolicy: 'Bogus' }))),
  c('job: podReplacementPolicy TerminatingOrFailed with podFailurePolicy', create(JOB, pfp([exitRule({})], { podReplacementPolicy: 'TerminatingOrFailed' }))),
  c('job: successPolicy on a NonIndexed job', create(JOB, spec({ successPolicy: { rules: [{ succeededCount: 1 }] } }))),
  c('job: successPolicy without rules', create(JOB, indexed(3, { successPolicy: { rules: [] } }))),
  c('job: successPolicy rule empty', create(JOB, indexed(3, { successPolicy: { rules: [{}] } }))),
  c('job: successPolicy succeededIndexes invalid', create(JOB, indexed(3, { successPolicy: { rules: [{ succeededIndexes: '2-1' }] } }))),
  c('job: successPolicy succeededIndexes too large', create(JOB, indexed(3, { successPolicy: { rules: [{ succeededIndexes: '0,5' }] } }))),
  c('job: successPolicy succeededCount over completions', create(JOB, indexed(3, { successPolicy: { rules: [{ succeededCount: 4 }] } }))),
  c('job: successPolicy succeededCount over its indexes', create(JOB, indexed(3, { successPolicy: { rules: [{ succeededIndexes: '0', succeededCount: 2 }] } }))),
  c('job: successPolicy succeededCount -1', create(JOB, indexed(3, { successPolicy: { rules: [{ succeededCount: -1 }] } }))),
  c('job: successPolicy valid', create(JOB, indexed(3, { successPolicy: { rules: [{ succeededIndexes: '0-1', succeededCount: 1 }] } }))),
  c('job: manualSelector without selector', create(JOB, spec({ manualSelector: true }))),
  c('job: manualSelector not matching the template', create(JOB, spec({ manualSelector: true, selector: { matchLabels: { app: 'b' } } }))),
  c('job: manualSelector valid', create(JOB, { spec: { manualSelector: true, selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } } } } })),
  c('job: selector without manualSelector', create(JOB, spec({ selector: { matchLabels: { app: 'a' } } }))),
  c('job: template job-name label wrong', create(JOB, { spec: { template: { metadata: { labels: { 'batch.kubernetes.io/job-name': 'other' } } } } })),
];

const JOB_UPDATE: ValidationCase[] = [
  c('job update: parallelism changed (allowed)', update(JOB, {}, ['', spec({ parallelism: 3 })])),
  c('job update: completions changed', update(JOB, {}, ['', spec({ completions: 3 })])),
  c('job update: selector changed', update(JOB, {}, ['', spec({ selector: { matchLabels: { app: 'b' } } })])),
  c('job update: template image changed', update(JOB, {}, ['', tspec({ containers: [{ name: 'c', image: 'nginx' }] })])),
  c('job update: template label added', update(JOB, {}, ['', { spec: { template: { metadata: { labels: { x: 'y' } } } } }])),
  c('job update: template nodeSelector added', update(JOB, {}, ['', tspec({ nodeSelector: { a: 'b' } })])),
  c('job update: suspended, nodeSelector added (allowed)', update(JOB, spec({ suspend: true }), ['', tspec({ nodeSelector: { a: 'b' } })])),
  c('job update: suspended, label added (allowed)', update(JOB, spec({ suspend: true }), ['', { spec: { template: { metadata: { labels: { x: 'y' } } } } }])),
  c('job update: suspended, resources changed (allowed)', update(JOB, spec({ suspend: true }),
    ['', tspec({ containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '1' } } }] })])),
  c('job update: suspended, image changed', update(JOB, spec({ suspend: true }), ['', tspec({ containers: [{ name: 'c', image: 'nginx' }] })])),
  c('job update: suspended and started, nodeSelector added', update(JOB, spec({ suspend: true }), status({ startTime: T0 }), ['', tspec({ nodeSelector: { a: 'b' } })])),
  c('job update: completionMode changed', update(JOB, {}, ['', spec({ completionMode: 'Indexed' })])),
  c('job update: podFailurePolicy added', update(JOB, {}, ['', pfp([exitRule({})])])),
  c('job update: backoffLimitPerIndex changed', update(JOB, indexed(2, { backoffLimitPerIndex: 1 }), ['', spec({ backoffLimitPerIndex: 2 })])),
  c('job update: managedBy changed', update(JOB, {}, ['', spec({ managedBy: 'example.com/ctl' })])),
  c('job update: successPolicy changed', update(JOB, indexed(3, { successPolicy: { rules: [{ succeededCount: 1 }] } }), ['', spec({ successPolicy: { rules: [{ succeededCount: 2 }] } })])),
  c('job update: indexed completions without parallelism', update(JOB, indexed(2), ['', spec({ completions: 3 })])),
  c('job update: indexed completions with parallelism (allowed)', update(JOB, indexed(2), ['', spec({ completions: 3, parallelism: 3 })])),
  c('job update: activeDeadlineSeconds -1', update(JOB, {}, ['', spec({ activeDeadlineSeconds: -1 })])),
];

const JOB_STATUS: ValidationCase[] = [
  ...['active', 'succeeded', 'failed', 'ready', 'terminating'].map((f) => c(`job status: ${f} -1`, update(JOB, {}, status({ [f]: -1 })))),
  c('job status: uncounted pod uid empty', update(JOB, {}, status({ uncountedTerminatedPods: { succeeded: [''] } }))),
  c('job status: uncounted pod uid twice', update(JOB, {}, status({ uncountedTerminatedPods: { succeeded: ['a'], failed: ['a'] } }))),
  c('job status: complete (valid)', update(JOB, {}, status(complete))),
  c('job status: Complete without SuccessCriteriaMet and times', update(JOB, {}, status({ conditions: [cond('Complete')] }))),
  c('job status: Complete and Failed', update(JOB, {}, status({ ...complete, conditions: [cond('SuccessCriteriaMet'), cond('Complete'), cond('FailureTarget'), cond('Failed')] }))),
  c('job status: Failed without FailureTarget', update(JOB, {}, status({ startTime: T0, conditions: [cond('Failed')] }))),
  c('job status: failed with active pods', update(JOB, {}, status({ startTime: T0, active: 1, conditions: [cond('FailureTarget'), cond('Failed')] }))),
  c('job status: failed with terminating pods', update(JOB, {}, status({ startTime: T0, terminating: 1, conditions: [cond('FailureTarget'), cond('Failed')] }))),
  c('job status: failed with uncounted pods', update(JOB, {}, status({ startTime: T0, uncountedTerminatedPods: { failed: ['a'] }, conditions: [cond('FailureTarget'), cond('Failed')] }))),
  c('job status: completionTime without Complete', update(JOB, {}, status({ startTime: T0, completionTime: T1 }))),
  c('job status: completionTime before startTime', update(JOB, {}, status({ ...complete, startTime: T1, completionTime: T0 }))),
  c('job status: completionTime changed', update(JOB, {}, status(complete), status({ completionTime: '2026-01-01T02:00:00Z' }))),
  c('job status: Complete disabled', update(JOB, {}, status(complete), status({ conditions: [cond('SuccessCriteriaMet')] }))),
  c('job status: SuccessCriteriaMet disabled', update(JOB, {}, status({ conditions: [cond('SuccessCriteriaMet')] }), status({ conditions: [] }))),
  c('job status: SuccessCriteriaMet on a NonIndexed job', update(JOB, {}, status({ conditions: [cond('SuccessCriteriaMet')] }))),
  c('job status: SuccessCriteriaMet with FailureTarget', update(JOB, {}, status({ conditions: [cond('SuccessCriteriaMet'), cond('FailureTarget')] }))),
  c('job status: completedIndexes on a NonIndexed job', update(JOB, {}, status({ completedIndexes: '0' }))),
  c('job status: completedIndexes not increasing', update(JOB, indexed(4), status({ completedIndexes: '1,0' }))),
  c('job status: completedIndexes too large', update(JOB, indexed(4), status({ completedIndexes: '0-7' }))),
  c('job status: completedIndexes not a number', update(JOB, indexed(4), status({ completedIndexes: 'a' }))),
  c('job status: completedIndexes valid', update(JOB, indexed(4), status({ completedIndexes: '0,2-3', succeeded: 3 }))),
  c('job status: failedIndexes without backoffLimitPerIndex', update(JOB, indexed(4), status({ failedIndexes: '1' }))),
  c('job status: failedIndexes invalid', update(JOB, indexed(4, { backoffLimitPerIndex: 1 }), status({ failedIndexes: '1-2-3' }))),
  c('job status: failedIndexes overlap completed', update(JOB, indexed(4, { backoffLimitPerIndex: 1 }), status({ completedIndexes: '0-2', failedIndexes: '2' }))),
  c('job status: ready over active', update(JOB, {}, status({ active: 1, ready: 2 }))),
  c('job status: failed decreased', update(JOB, {}, status({ failed: 2 }), status({ failed: 1 }))),
  c('job status: succeeded decreased', update(JOB, {}, status({ succeeded: 2 }), status({ succeeded: 1 }))),
  c('job status: succeeded decreased, elastic indexed (allowed)', update(JOB, indexed(4), status({ succeeded: 2 }), status({ succeeded: 1 }))),
  c('job status: startTime changed', update(JOB, {}, status({ startTime: T0 }), status({ startTime: T1 }))),
  c('job status: startTime changed while suspended (allowed)', update(JOB, spec({ suspend: true }), status({ startTime: T0 }), status({ startTime: T1 }))),
];

const cspec = (s: Obj): Obj => ({ spec: s });
const jt = (s: Obj): Obj => ({ spec: { jobTemplate: { spec: s } } });

const CRONJOB_CASES: ValidationCase[] = [
  c('cronjob: valid', create(CRONJOB)),
  c('cronjob: name invalid', create(CRONJOB, { metadata: { name: 'Bad_Name' } })),
  c('cronjob: name of 53 characters', create(CRONJOB, { metadata: { name: 'x'.repeat(53) } })),
  c('cronjob: schedule missing', create(CRONJOB, cspec({ schedule: null }))),
  c('cronjob: schedule invalid', create(CRONJOB, cspec({ schedule: '* * *' }))),
  c('cronjob: schedule out of range', create(CRONJOB, cspec({ schedule: '61 * * * *' }))),
  c('cronjob: schedule with TZ', create(CRONJOB, cspec({ schedule: 'TZ=UTC * * * * *' }))),
  c('cronjob: schedule with CRON_TZ and timeZone', create(CRONJOB, cspec({ schedule: 'CRON_TZ=UTC * * * * *', timeZone: 'UTC' }))),
  c('cronjob: schedule @hourly (valid)', create(CRONJOB, cspec({ schedule: '@hourly' }))),
  c('cronjob: timeZone unknown', create(CRONJOB, cspec({ timeZone: 'Bogus/Zone' }))),
  c('cronjob: timeZone empty', create(CRONJOB, cspec({ timeZone: '' }))),
  c('cronjob: timeZone Local', create(CRONJOB, cspec({ timeZone: 'Local' }))),
  c('cronjob: timeZone with ..', create(CRONJOB, cspec({ timeZone: '../etc' }))),
  c('cronjob: timeZone valid', create(CRONJOB, cspec({ timeZone: 'Europe/Paris' }))),
  c('cronjob: startingDeadlineSeconds -1', create(CRONJOB, cspec({ startingDeadlineSeconds: -1 }))),
  c('cronjob: concurrencyPolicy Bogus', create(CRONJOB, cspec({ concurrencyPolicy: 'Bogus' }))),
  c('cronjob: successfulJobsHistoryLimit -1', create(CRONJOB, cspec({ successfulJobsHistoryLimit: -1 }))),
  c('cronjob: failedJobsHistoryLimit -1', create(CRONJOB, cspec({ failedJobsHistoryLimit: -1 }))),
  c('cronjob: jobTemplate selector', create(CRONJOB, jt({ selector: { matchLabels: { a: 'b' } } }))),
  c('cronjob: jobTemplate manualSelector', create(CRONJOB, jt({ manualSelector: true }))),
  c('cronjob: jobTemplate parallelism -1', create(CRONJOB, jt({ parallelism: -1 }))),
  c('cronjob: jobTemplate restartPolicy Always', create(CRONJOB, jt({ template: { spec: { restartPolicy: 'Always' } } }))),
  c('cronjob: jobTemplate Indexed without completions', create(CRONJOB, jt({ completionMode: 'Indexed' }))),
  c('cronjob update: schedule invalid', update(CRONJOB, {}, ['', cspec({ schedule: 'bogus' })])),
  c('cronjob update: timeZone unknown', update(CRONJOB, {}, ['', cspec({ timeZone: 'Bogus/Zone' })])),
  c('cronjob update: concurrencyPolicy Bogus', update(CRONJOB, {}, ['', cspec({ concurrencyPolicy: 'Bogus' })])),
  c('cronjob update: jobTemplate image changed (allowed)', update(CRONJOB, {}, ['', jt({ template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } })])),
  c('cronjob status: active and lastScheduleTime (not validated)', update(CRONJOB, {}, status({ active: [{ name: 'x' }], lastScheduleTime: T0 }))),
];

export const BATCH_CASES: readonly ValidationCase[] = [...JOB_CREATE, ...JOB_UPDATE, ...JOB_STATUS, ...CRONJOB_CASES];
