import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { Job, JobSpec, JobStatus } from '../v1/types.ts';
import { jobs } from './job.ts';
import { indexesFormatError, indexesOverlap } from './indexes.ts';
import { validateJobStatusUpdate } from './status-validation.ts';

const T0 = '2024-01-01T00:00:00Z';
const T1 = '2024-01-01T01:00:00Z';
const cond = (type: string, status = 'True'): NonNullable<JobStatus['conditions']>[number] => ({ type, status });
const COMPLETE = [cond('SuccessCriteriaMet'), cond('Complete')];
const job = (status: JobStatus, spec: Partial<JobSpec> = {}): Job => ({
  metadata: { name: 'j', namespace: 'default', resourceVersion: '1' },
  spec: { completions: 1, parallelism: 1, template: { spec: { containers: [] } }, ...spec },
  status,
});
const INDEXED: Partial<JobSpec> = { completionMode: 'Indexed', completions: 3, parallelism: 3 };
const PER_INDEX: Partial<JobSpec> = { ...INDEXED, backoffLimitPerIndex: 1 };

describe('Job status update (ValidateJobUpdateStatus)', () => {
  const cases: { name: string; next: Job; old?: Job; want: string[] }[] = [
    { name: 'a valid completion', next: job({ startTime: T0, completionTime: T1, succeeded: 1, conditions: COMPLETE }), want: [] },
    { name: 'negative and decreasing counters', next: job({ succeeded: -1 }), old: job({ failed: 2 }),
      want: ['status.succeeded: Invalid value: -1: must be greater than or equal to 0', 'status.failed: Invalid value: 0: cannot decrease the failed counter',
        'status.succeeded: Invalid value: -1: cannot decrease the succeeded counter'] },
    { name: 'an indexed job with parallelism = completions may lose successes', next: job({ succeeded: 1 }, INDEXED), old: job({ succeeded: 2 }, INDEXED), want: [] },
    { name: 'Complete needs both times', next: job({ conditions: COMPLETE }),
      want: ['status.completionTime: Required value: completionTime is required for Complete jobs', 'status.startTime: Required value: startTime is required for finished job'] },
    { name: 'Complete needs SuccessCriteriaMet', next: job({ startTime: T0, completionTime: T1, conditions: [cond('Complete')] }),
      want: ['status.conditions: Invalid value: cannot set Complete=True condition without the SuccessCriteriaMet=true condition'] },
    { name: 'completionTime needs Complete', next: job({ startTime: T0, completionTime: T1 }),
      want: [`status.completionTime: Invalid value: "${T1}": cannot set completionTime when there is no Complete=True condition`] },
    { name: 'completion before start', next: job({ startTime: T1, completionTime: T0, conditions: COMPLETE }),
      want: [`status.completionTime: Invalid value: "${T0}": must be equal to or after \`startTime\``] },
    { name: 'Failed needs FailureTarget', next: job({ startTime: T0, conditions: [cond('Failed')] }),
      want: ['status.conditions: Invalid value: cannot set Failed=True condition without the FailureTarget=true condition'] },
    { name: 'terminal conditions may not be disabled', next: job({ startTime: T0 }), old: job({ startTime: T0, conditions: [cond('FailureTarget')] }),
      want: ['status.conditions: Invalid value: cannot disable the terminal FailureTarget=True condition'] },
    { name: 'a finished job has no active, terminating or uncounted pods',
      next: job({ startTime: T0, completionTime: T1, active: 1, terminating: 1, uncountedTerminatedPods: { succeeded: ['a'] }, conditions: COMPLETE }),
      want: ['status.active: Invalid value: 1: active>0 is invalid for finished job',
        'status.uncountedTerminatedPods: Invalid value: {"Succeeded":["a"],"Failed":null}: must be empty for finished job',
        'status.terminating: Invalid value: 1: terminating>0 is invalid for finished job'] },
    { name: 'more ready than active', next: job({ active: 1, ready: 2 }), want: ['status.ready: Invalid value: 2: cannot set more ready pods than active'] },
    { name: 'uncounted pods: empty and duplicate UIDs', next: job({ uncountedTerminatedPods: { succeeded: ['a', ''], failed: ['a'] } }),
      want: ['status.uncountedTerminatedPods.succeeded[1]: Invalid value: "": must not be empty', 'status.uncountedTerminatedPods.failed[0]: Duplicate value: "a"'] },
    { name: 'completedIndexes of a non-indexed job', next: job({ completedIndexes: '0' }),
      want: ['status.completedIndexes: Invalid value: "0": cannot set non-empty completedIndexes when non-indexed completion mode'] },
    { name: 'failedIndexes without backoffLimitPerIndex', next: job({ failedIndexes: '' }),
      want: ['status.failedIndexes: Invalid value: "": cannot set non-null failedIndexes when backoffLimitPerIndex is null'] },
    { name: 'completedIndexes beyond completions', next: job({ completedIndexes: '0,5' }, INDEXED),
      want: ['status.completedIndexes: Invalid value: "0,5": error parsing completedIndexes: too large index: "5"'] },
    { name: 'unchanged bad indexes are not checked again', next: job({ completedIndexes: '0,5', active: 1 }, INDEXED), old: job({ completedIndexes: '0,5' }, INDEXED), want: [] },
    { name: 'failed and completed indexes overlap', next: job({ completedIndexes: '0-1', failedIndexes: '1,x' }, PER_INDEX),
      want: ['status.failedIndexes: Invalid value: "1,x": error parsing failedIndexes: cannot convert string to integer for index: "x"',
        'status.failedIndexes: Invalid value: "1,x": failedIndexes and completedIndexes overlap at index: 1'] },
    { name: 'SuccessCriteriaMet with FailureTarget', next: job({ conditions: [cond('SuccessCriteriaMet'), cond('FailureTarget')] }),
      want: ['status.conditions: Invalid value: cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'] },
    { name: 'SuccessCriteriaMet may not be disabled', next: job({}), old: job({ conditions: [cond('SuccessCriteriaMet')] }),
      want: ['status.conditions: Invalid value: cannot disable the SuccessCriteriaMet=True condition'] },
    { name: 'startTime of an unsuspended job is immutable', next: job({ startTime: T1 }), old: job({ startTime: T0 }),
      want: [`status.startTime: Invalid value: "${T1}": field is immutable for unsuspended job once set`] },
    { name: 'startTime of a suspended job may change', next: job({ startTime: T1 }, { suspend: true }), old: job({ startTime: T0 }, { suspend: true }), want: [] },
    { name: 'completionTime is immutable', next: job({ startTime: T0, completionTime: '2024-01-01T02:00:00Z', conditions: COMPLETE }),
      old: job({ startTime: T0, completionTime: T1, conditions: COMPLETE }), want: ['status.completionTime: Invalid value: "2024-01-01T02:00:00Z": field is immutable'] },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(validateJobStatusUpdate(c.next, c.old ?? job({})).map(formatFieldError), c.want));
  }

  it('the status strategy runs it', () => {
    const ctx = systemContext('default');
    const next = job({ active: 1, ready: 2 });
    const old = job({});
    jobs.statusStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(jobs.statusStrategy.validateUpdate(ctx, next, old).map(formatFieldError), ['status.ready: Invalid value: 2: cannot set more ready pods than active']);
  });
});

describe('completed and failed index lists (validateIndexesFormat, parseIndexInterval)', () => {
  const cases: { name: string; indexes: string; want: string | undefined }[] = [
    { name: 'empty', indexes: '', want: undefined },
    { name: 'intervals and single indexes', indexes: '0,2-4,6', want: undefined },
    { name: 'too large', indexes: '7', want: 'too large index: "7"' },
    { name: 'three parts', indexes: '1-2-3', want: 'the fragment "1-2-3" violates the requirement that an index interval can have at most two parts separated by \'-\'' },
    { name: 'not a number', indexes: 'a', want: 'cannot convert string to integer for index: "a"' },
    { name: 'a leading plus is a number', indexes: '+1', want: undefined },
    { name: 'a minus sign splits the interval', indexes: '-1', want: 'cannot convert string to integer for index: ""' },
    { name: 'reversed interval', indexes: '3-2', want: 'non-increasing order, previous: 3, current: 2' },
    { name: 'one-index interval', indexes: '2-2', want: 'non-increasing order, previous: 2, current: 2' },
    { name: 'overlapping intervals', indexes: '0-2,2', want: 'non-increasing order, previous: 2, current: 2' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(indexesFormatError(c.indexes, 7), c.want));
  it('overlap: the first shared index, unparsable intervals skipped', () => {
    assert.equal(indexesOverlap('0-1,4-6', 'x,2-3,5', 7), 5);
    assert.equal(indexesOverlap('0-1', '2-3', 7), undefined);
    assert.equal(indexesOverlap('', '1', 7), undefined);
  });
});
