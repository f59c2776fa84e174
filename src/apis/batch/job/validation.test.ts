// Job spec rules of pkg/apis/batch/validation that kapi lacked: pod failure and success policies,
// managedBy, the limits of Indexed jobs, restartPolicy, and what an update may change in the pod
// template. Each case is one of kube's rules, with kube v1.36's message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { Job, JobSpec } from '../v1/types.ts';
import { goPodTemplateSpec } from './go-template.ts';
import { defaultJob, generateSelector, jobs } from './job.ts';

const ctx = systemContext('default');

function newJob(spec: Partial<JobSpec> = {}, restartPolicy = 'Never'): Job {
  const j: Job = {
    metadata: { name: 'pi', namespace: 'default' },
    spec: { template: { spec: { containers: [{ name: 'c', image: 'perl' }], restartPolicy } }, ...spec },
  };
  defaultJob(j);
  jobs.strategy.prepareForCreate(ctx, j);
  j.metadata.uid = '0f1e2d3c-0000-4000-8000-000000000001';
  generateSelector(j);
  return j;
}

const indexed = (completions: number, extra: Partial<JobSpec> = {}): Partial<JobSpec> =>
  ({ completionMode: 'Indexed', completions, parallelism: completions, ...extra });
const exitRule = (onExitCodes: Record<string, unknown>, action = 'FailJob'): NonNullable<JobSpec['podFailurePolicy']>['rules'][number] =>
  ({ action, onExitCodes: { operator: 'In', values: [1], ...onExitCodes } as { operator: string; values: number[] } });

describe('job spec validation', () => {
  const cases: { name: string; spec: Partial<JobSpec>; restartPolicy?: string; want: string[] }[] = [
    { name: 'backoffLimitPerIndex needs Indexed', spec: { backoffLimitPerIndex: 1 },
      want: ['spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode'] },
    { name: 'maxFailedIndexes needs backoffLimitPerIndex', spec: indexed(2, { maxFailedIndexes: 1 }),
      want: ['spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified'] },
    { name: 'maxFailedIndexes over completions', spec: indexed(2, { backoffLimitPerIndex: 1, maxFailedIndexes: 3 }),
      want: ['spec.maxFailedIndexes: Invalid value: 3: must be less than or equal to completions'] },
    { name: 'high completions with backoffLimitPerIndex', spec: { completionMode: 'Indexed', completions: 100001, parallelism: 10001, backoffLimitPerIndex: 1 },
      want: ['spec.maxFailedIndexes: Required value: must be specified when completions is above 100000',
        'spec.parallelism: Invalid value: 10001: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index'] },
    { name: 'managedBy not a domain-prefixed path', spec: { managedBy: 'bogus' },
      want: ['spec.managedBy: Invalid value: "bogus": must be a domain-prefixed path (such as "acme.io/foo")'] },
    { name: 'managedBy too long', spec: { managedBy: `example.com/${'x'.repeat(60)}` }, want: ['spec.managedBy: Too long: may not be more than 63 bytes'] },
    { name: 'restartPolicy Always', spec: {}, restartPolicy: 'Always', want: ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'] },
    { name: 'podFailurePolicy with OnFailure', spec: { podFailurePolicy: { rules: [exitRule({})] } }, restartPolicy: 'OnFailure',
      want: ['spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified'] },
    { name: 'action missing', spec: { podFailurePolicy: { rules: [{ ...exitRule({}), action: '' }] } },
      want: ['spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]'] },
    { name: 'FailIndex without backoffLimitPerIndex', spec: { podFailurePolicy: { rules: [exitRule({}, 'FailIndex')] } },
      want: ['spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set'] },
    { name: 'exit codes unordered, duplicate, 0 with In', spec: { podFailurePolicy: { rules: [exitRule({ values: [3, 0, 0] })] } },
      want: ['spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator',
        'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Invalid value: 0: must not be 0 for the In operator',
        'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 0',
        'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [3,0,0]: must be ordered'] },
    { name: 'unknown containerName', spec: { podFailurePolicy: { rules: [exitRule({ containerName: 'x' })] } },
      want: ['spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "x": must be one of the container or initContainer names in the pod template'] },
    { name: 'rule with neither requirement', spec: { podFailurePolicy: { rules: [{ action: 'Ignore' }] } },
      want: ['spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required'] },
    { name: 'successPolicy on a NonIndexed job', spec: { successPolicy: { rules: [{ succeededCount: 1 }] } },
      want: ['spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":null,"SucceededCount":1}]}: requires indexed completion mode'] },
    { name: 'succeededIndexes decreasing', spec: indexed(3, { successPolicy: { rules: [{ succeededIndexes: '2-1' }] } }),
      want: ['spec.successPolicy.rules[0].succeededIndexes: Invalid value: "2-1": error parsing succeededIndexes: non-increasing order, previous: 2, current: 1'] },
    { name: 'succeededCount over its indexes', spec: indexed(3, { successPolicy: { rules: [{ succeededIndexes: '0', succeededCount: 2 }] } }),
      want: ['spec.successPolicy.rules[0].succeededCount: Invalid value: 2: must be less than or equal to 1 (the number of indexes in the specified succeededIndexes field)'] },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(jobs.strategy.validate(ctx, newJob(c.spec, c.restartPolicy)).map(formatFieldError), c.want));
  }

  it('the last pod of an Indexed job must have a DNS label for a name', () => {
    const j = newJob(indexed(100));
    j.metadata.name = `j${'x'.repeat(60)}`;
    generateSelector(j);
    assert.deepEqual(jobs.strategy.validate(ctx, j).map((e) => `${e.field}: ${e.detail}`).filter((e) => e.startsWith('metadata.name')),
      [`metadata.name: will not able to create pod with invalid DNS label: j${'x'.repeat(60)}-99`]);
  });
});

describe('job template updates', () => {
  const update = (old: Job, change: (j: Job) => void): string[] => {
    const next = structuredClone(old);
    change(next);
    return jobs.strategy.validateUpdate(ctx, next, old).map((e) => `${e.field}: ${e.detail}`);
  };
  const image = (j: Job): void => { j.spec.template.spec.containers[0]!.image = 'nginx'; };
  const cpu = (j: Job): void => { j.spec.template.spec.containers[0]!.resources = { requests: { cpu: '1' } }; };

  it('a running job may not change its template', () => assert.deepEqual(update(newJob(), cpu), ['spec.template: field is immutable']));
  it('a suspended job that never ran may change resources', () => assert.deepEqual(update(newJob({ suspend: true }), cpu), []));
  it('...but not its images (reported on spec.template.spec)', () =>
    assert.deepEqual(update(newJob({ suspend: true }), image), ['spec.template.spec: field is immutable']));
  it('a suspended job that ran may not change its template', () => {
    const old = newJob({ suspend: true });
    old.status = { startTime: '2026-01-01T00:00:00Z' };
    assert.deepEqual(update(old, cpu), ['spec.template: field is immutable']);
  });
  it('...unless it is suspended again with no active pods', () => {
    const old = newJob({ suspend: true });
    old.status = { startTime: '2026-01-01T00:00:00Z', conditions: [{ type: 'Suspended', status: 'True' }] };
    assert.deepEqual(update(old, cpu), []);
  });
  it('the spec is validated twice on update, as ValidateJob and ValidateJobSpecUpdate both do', () =>
    assert.deepEqual(update(newJob(), (j) => { j.spec.activeDeadlineSeconds = -1; }),
      ['spec.activeDeadlineSeconds: must be greater than or equal to 0', 'spec.activeDeadlineSeconds: must be greater than or equal to 0']));

  it('prints the template as the internal PodTemplateSpec (Go field names, host switches in the security context)', () => {
    const text = goPodTemplateSpec({ metadata: { labels: { b: '2', a: '1' } }, spec: { containers: [{ name: 'c', image: 'i' }], hostNetwork: true, nodeSelector: { z: 'y' } } });
    assert.match(text, /^\{"labels":\{"a":"1","b":"2"\},"Spec":\{"Volumes":null,"InitContainers":null,"Containers":\[\{"Name":"c","Image":"i","Command":null,/);
    assert.match(text, /"NodeSelector":\{"z":"y"\}/);
    assert.match(text, /"SecurityContext":\{"HostNetwork":true,"HostPID":false,/);
    assert.match(text, /"Resources":\{"Limits":null,"Requests":null,"Claims":null\}/);
    assert.match(text, /"HostnameOverride":null,"SchedulingGroup":null\}\}$/);
  });
});
