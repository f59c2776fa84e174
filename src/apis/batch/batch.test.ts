import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { cronJobs, defaultCronJob } from './cronjob/cronjob.ts';
import { cronScheduleError } from './cronjob/schedule.ts';
import { defaultJob, generateSelector, jobs } from './job/job.ts';
import type { CronJob, Job } from './v1/types.ts';

const ctx = systemContext('default');
const UID = '0f1e2d3c-0000-4000-8000-000000000001';

function newJob(mut: (j: Job) => void = () => {}): Job {
  const j: Job = {
    metadata: { name: 'pi', namespace: 'default' },
    spec: { template: { spec: { containers: [{ name: 'pi', image: 'perl' }], restartPolicy: 'Never' } } },
  };
  mut(j);
  defaultJob(j);
  jobs.strategy.prepareForCreate(ctx, j);
  j.metadata.uid = UID;
  if (j.spec.manualSelector !== true) generateSelector(j);
  return j;
}

describe('jobs', () => {
  it('defaults a minimal job as SetDefaults_Job does', () => {
    const j = newJob();
    assert.equal(j.spec.completions, 1);
    assert.equal(j.spec.parallelism, 1);
    assert.equal(j.spec.backoffLimit, 6);
    assert.equal(j.spec.completionMode, 'NonIndexed');
    assert.equal(j.spec.suspend, false);
    assert.equal(j.spec.manualSelector, false);
    assert.equal(j.spec.podReplacementPolicy, 'TerminatingOrFailed');
    assert.equal(j.spec.template.spec.dnsPolicy, 'ClusterFirst');
    assert.deepEqual(j.status, {});
    assert.equal(j.metadata.generation, 1);
  });

  it('defaults parallelism only when completions is set, and podReplacementPolicy Failed with a podFailurePolicy', () => {
    const j = newJob((x) => { x.spec.completions = 5; x.spec.podFailurePolicy = { rules: [{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget' }] }] }; });
    assert.equal(j.spec.completions, 5);
    assert.equal(j.spec.parallelism, 1);
    assert.equal(j.spec.podReplacementPolicy, 'Failed');
    assert.equal(j.spec.podFailurePolicy?.rules[0]?.onPodConditions?.[0]?.status, 'True');
  });

  it('generates the selector and the four template labels from uid and name', () => {
    const j = newJob();
    assert.deepEqual(j.spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': UID } });
    assert.deepEqual(j.spec.template.metadata?.labels, {
      'job-name': 'pi', 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': UID, 'batch.kubernetes.io/controller-uid': UID,
    });
    assert.deepEqual(jobs.strategy.validate(ctx, j), []);
  });

  const invalidCases: { name: string; mut: (j: Job) => void; want: string[] }[] = [
    { name: 'restartPolicy Always', mut: (j) => { j.spec.template.spec.restartPolicy = 'Always'; },
      want: ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'] },
    { name: 'negative counters', mut: (j) => { j.spec.parallelism = -1; j.spec.backoffLimit = -2; },
      want: ['spec.parallelism: Invalid value: -1: must be greater than or equal to 0', 'spec.backoffLimit: Invalid value: -2: must be greater than or equal to 0'] },
    { name: 'bad completion mode', mut: (j) => { j.spec.completionMode = 'Sometimes'; },
      want: ['spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"'] },
    { name: 'indexed without completions', mut: (j) => { j.spec.completionMode = 'Indexed'; j.spec.parallelism = 2; },
      want: ['spec.completions: Required value: when completion mode is Indexed'] },
    { name: 'manual selector that does not match', mut: (j) => { j.spec.manualSelector = true; j.spec.selector = { matchLabels: { a: 'b' } }; },
      want: ['spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`'] },
    { name: 'manual selector missing', mut: (j) => { j.spec.manualSelector = true; },
      want: ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`'] },
  ];
  for (const c of invalidCases) {
    it(`rejects ${c.name}`, () => {
      const j = newJob((x) => { c.mut(x); });
      if (c.name === 'indexed without completions') delete j.spec.completions;
      assert.deepEqual(jobs.strategy.validate(ctx, j).map(formatFieldError), c.want);
    });
  }

  it('rejects generated labels that conflict', () => {
    const j = newJob((x) => { x.spec.template.metadata = { labels: { 'job-name': 'other' } }; });
    assert.deepEqual(jobs.strategy.validate(ctx, j).map(formatFieldError), [
      'spec.template.metadata.labels[job-name]: Invalid value: {"batch.kubernetes.io/controller-uid":"0f1e2d3c-0000-4000-8000-000000000001",' +
        '"batch.kubernetes.io/job-name":"pi","controller-uid":"0f1e2d3c-0000-4000-8000-000000000001","job-name":"other"}: must be \'pi\'',
    ]);
  });

  it('keeps status, bumps generation on spec change and makes the template immutable', () => {
    const old = newJob();
    old.status = { active: 1 };
    const next = structuredClone(old);
    next.status = {};
    next.spec.template.spec.containers[0]!.image = 'perl:2';
    jobs.strategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.status, { active: 1 });
    assert.equal(next.metadata.generation, 2);
    assert.deepEqual(jobs.strategy.validateUpdate(ctx, next, old).map((e) => `${e.field}: ${e.detail}`), ['spec.template: field is immutable']);
  });

  it('lets a suspended job that never started change its node selector', () => {
    const old = newJob((x) => { x.spec.suspend = true; });
    const next = structuredClone(old);
    next.spec.template.spec.nodeSelector = { zone: 'a' };
    assert.deepEqual(jobs.strategy.validateUpdate(ctx, next, old), []);
  });

  it('status updates keep the spec', () => {
    const old = newJob();
    const next = structuredClone(old);
    next.spec.parallelism = 9;
    next.status = { succeeded: 1 };
    jobs.statusStrategy.prepareForUpdate(ctx, next, old);
    assert.equal(next.spec.parallelism, 1);
    assert.deepEqual(jobs.statusStrategy.validateUpdate(ctx, { ...next, status: { failed: -1 } }, old).map(formatFieldError),
      // kube reports the decrease from the stored 0 as well (RejectDecreasingFailedCounter).
      ['status.failed: Invalid value: -1: must be greater than or equal to 0', 'status.failed: Invalid value: -1: cannot decrease the failed counter']);
  });

  it('prints the job columns', () => {
    const j = newJob();
    j.metadata.creationTimestamp = '2024-01-01T00:00:00Z';
    j.status = { succeeded: 1, startTime: '2024-01-01T00:00:00Z', completionTime: '2024-01-01T00:00:42Z',
      conditions: [{ type: 'Complete', status: 'True' }] };
    const now = Date.parse('2024-01-01T01:00:00Z');
    assert.deepEqual(jobs.table.map((c) => c.cell(j, now)),
      ['pi', 'Complete', '1/1', '42s', '60m', 'pi', 'perl', `batch.kubernetes.io/controller-uid=${UID}`]);
    assert.deepEqual(jobs.table.map((c) => c.priority ?? 0), [0, 0, 0, 0, 0, 1, 1, 1]);
  });
});

describe('cron schedules', () => {
  const cases: { name: string; schedule: string; want: string | undefined }[] = [
    { name: 'every minute', schedule: '* * * * *', want: undefined },
    { name: 'ranges, steps, names', schedule: '*/5 1-3 1,15 jan-mar MON-fri', want: undefined },
    { name: 'descriptor', schedule: '@hourly', want: undefined },
    { name: 'every', schedule: '@every 1h30m', want: undefined },
    { name: 'too few fields', schedule: '* * *', want: 'expected exactly 5 fields, found 3: [* * *]' },
    { name: 'minute out of range', schedule: '60 * * * *', want: 'end of range (60) above maximum (59): 60' },
    { name: 'day of month below minimum', schedule: '* * 0 * *', want: 'beginning of range (0) below minimum (1): 0' },
    { name: 'not a number', schedule: 'x * * * *', want: 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax' },
    { name: 'unknown descriptor', schedule: '@sometimes', want: 'unrecognized descriptor: @sometimes' },
    { name: 'reversed range', schedule: '* 5-2 * * *', want: 'beginning of range (5) beyond end of range (2): 5-2' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(cronScheduleError(c.schedule), c.want));
});

describe('cronjobs', () => {
  function newCronJob(mut: (c: CronJob) => void = () => {}): CronJob {
    const cj: CronJob = {
      metadata: { name: 'hello', namespace: 'default' },
      spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'OnFailure' } } } } },
    };
    mut(cj);
    defaultCronJob(cj);
    cronJobs.strategy.prepareForCreate(ctx, cj);
    return cj;
  }

  it('defaults concurrencyPolicy, suspend and history limits but not the job spec', () => {
    const cj = newCronJob();
    assert.equal(cj.spec.concurrencyPolicy, 'Allow');
    assert.equal(cj.spec.suspend, false);
    assert.equal(cj.spec.successfulJobsHistoryLimit, 3);
    assert.equal(cj.spec.failedJobsHistoryLimit, 1);
    assert.equal(cj.spec.jobTemplate.spec.backoffLimit, undefined);
    assert.equal(cj.spec.jobTemplate.spec.template.spec.schedulerName, 'default-scheduler');
    assert.deepEqual(cronJobs.strategy.validate(ctx, cj), []);
  });

  const invalidCases: { name: string; mut: (c: CronJob) => void; want: string[] }[] = [
    { name: 'bad schedule', mut: (c) => { c.spec.schedule = '* * *'; },
      want: ['spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]'] },
    { name: 'TZ in schedule', mut: (c) => { c.spec.schedule = 'TZ=UTC * * * * *'; },
      want: ['spec.schedule: Invalid value: "TZ=UTC * * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead'] },
    { name: 'unknown time zone', mut: (c) => { c.spec.timeZone = 'Mars/Olympus'; },
      want: ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus'] },
    { name: 'bad concurrency policy', mut: (c) => { c.spec.concurrencyPolicy = 'Sometimes'; },
      want: ['spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"'] },
    { name: 'template selector', mut: (c) => { c.spec.jobTemplate.spec.selector = { matchLabels: { a: 'b' } }; },
      want: ['spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated'] },
    { name: 'name too long', mut: (c) => { c.metadata.name = 'a'.repeat(53); },
      want: [`metadata.name: Invalid value: "${'a'.repeat(53)}": must be no more than 52 characters`] },
  ];
  for (const c of invalidCases) {
    it(`rejects ${c.name}`, () => assert.deepEqual(cronJobs.strategy.validate(ctx, newCronJob(c.mut)).map(formatFieldError), c.want));
  }

  it('prints the cronjob columns', () => {
    const cj = newCronJob();
    cj.metadata.creationTimestamp = '2024-01-01T00:00:00Z';
    const now = Date.parse('2024-01-01T00:00:30Z');
    assert.deepEqual(cronJobs.table.map((c) => c.cell(cj, now)), ['hello', '*/1 * * * *', '<none>', 'False', 0, '<none>', '30s', 'c', 'busybox', '<none>']);
    assert.deepEqual(cronJobs.table.map((c) => c.name), ['Name', 'Schedule', 'Timezone', 'Suspend', 'Active', 'Last Schedule', 'Age', 'Containers', 'Images', 'Selector']);
  });
});
