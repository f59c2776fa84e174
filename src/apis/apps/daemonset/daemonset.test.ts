import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { DaemonSet } from '../v1/types.ts';
import { daemonSets, defaultDaemonSet } from './daemonset.ts';

const ctx = systemContext('default');
const TG = 'deprecated.daemonset.template.generation';

function ds(mutate: (d: DaemonSet) => void = () => {}): DaemonSet {
  const d: DaemonSet = {
    metadata: { name: 'agent', namespace: 'kube-system' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'agent:v1' }], nodeSelector: { os: 'linux' } } },
    },
  };
  defaultDaemonSet(d);
  mutate(d);
  return d;
}

describe('daemonsets', () => {
  it('defaults RollingUpdate 1/0 and revisionHistoryLimit', () => {
    const d = ds();
    assert.deepEqual(d.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    assert.equal(d.spec.revisionHistoryLimit, 10);
  });

  const cases: { name: string; mutate: (d: DaemonSet) => void; want: string[] }[] = [
    { name: 'valid', mutate: () => {}, want: [] },
    { name: 'no selector matches no template', mutate: (d) => { delete d.spec.selector; },
      want: ['spec.template.metadata.labels: Invalid value: {"app":"agent"}: `selector` does not match template `labels`'] },
    { name: 'empty selector', mutate: (d) => { d.spec.selector = {}; },
      want: ['spec.selector: Invalid value: {}: empty selector is invalid for daemonset'] },
    { name: 'surge and unavailable both set', mutate: (d) => { d.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '10%' } }; },
      want: ['spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "10%": may not be set when maxUnavailable is non-zero'] },
    { name: 'surge and unavailable both 0', mutate: (d) => { d.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } }; },
      want: ['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0'] },
    { name: 'unknown strategy', mutate: (d) => { d.spec.updateStrategy = { type: 'Foo' }; },
      want: ['spec.updateStrategy: Unsupported value: {"Type":"Foo","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"'] },
    { name: 'activeDeadlineSeconds', mutate: (d) => { d.spec.template.spec.activeDeadlineSeconds = 5; },
      want: ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported'] },
  ];
  for (const c of cases) {
    it(`validate: ${c.name}`, () => assert.deepEqual(daemonSets.strategy.validate(ctx, ds(c.mutate)).map(formatFieldError), c.want));
  }

  it('template generation starts at 1 and follows template changes only', () => {
    const created = ds((d) => { d.status = { numberReady: 3 }; });
    daemonSets.strategy.prepareForCreate(ctx, created);
    assert.deepEqual(created.status, {});
    assert.equal(created.metadata.generation, 1);
    assert.equal(created.metadata.annotations?.[TG], '1');

    const specOnly = ds((d) => { d.metadata.generation = 1; d.spec.minReadySeconds = 5; });
    daemonSets.strategy.prepareForUpdate(ctx, specOnly, created);
    assert.equal(specOnly.metadata.generation, 2);
    assert.equal(specOnly.metadata.annotations?.[TG], '1');

    const template = ds((d) => { d.metadata.annotations = { [TG]: '7' }; d.spec.template.spec.containers[0]!.image = 'agent:v2'; });
    daemonSets.strategy.prepareForUpdate(ctx, template, created);
    assert.equal(template.metadata.generation, 2);
    assert.equal(template.metadata.annotations?.[TG], '2');
  });

  it('selector is immutable', () => {
    const next = ds((d) => { d.spec.selector = { matchLabels: { app: 'agent', x: 'y' } }; d.spec.template.metadata = { labels: { app: 'agent', x: 'y' } }; });
    assert.deepEqual(daemonSets.strategy.validateUpdate(ctx, next, ds()).map(formatFieldError), [
      'spec.selector: Invalid value: {"matchLabels":{"app":"agent","x":"y"}}: field is immutable',
    ]);
  });

  it('status updates keep spec and template generation', () => {
    const old = ds((d) => { d.metadata.annotations = { [TG]: '3' }; d.metadata.generation = 4; });
    const next = ds((d) => { d.spec.minReadySeconds = 9; d.status = { numberReady: -1 }; });
    daemonSets.statusStrategy.prepareForUpdate(ctx, next, old);
    assert.equal(next.spec.minReadySeconds, undefined);
    assert.equal(next.metadata.annotations?.[TG], '3');
    assert.deepEqual(daemonSets.statusStrategy.validateUpdate(ctx, next, old).map(formatFieldError),
      ['status.numberReady: Invalid value: -1: must be greater than or equal to 0']);
  });

  it('table cells', () => {
    const d = ds((x) => { x.status = { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 }; });
    assert.deepEqual(daemonSets.table.map((c) => c.name),
      ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', 'Containers', 'Images', 'Selector']);
    assert.deepEqual(daemonSets.table.filter((c) => c.name !== 'Age').map((c) => c.cell(d, 0)),
      ['agent', 3, 3, 2, 3, 2, 'os=linux', 'a', 'agent:v1', 'app=agent']);
  });

  // kube-apiserver v1.36.3: PartialObjectMetadata and Table rows come from the internal object,
  // whose template generation sits in spec: the annotation is not shown there, other ones are.
  const views: { name: string; annotations: Record<string, string> | undefined; want: Record<string, string> | undefined }[] = [
    { name: 'only the template generation', annotations: { [TG]: '3' }, want: undefined },
    { name: 'another annotation too', annotations: { [TG]: '3', a: 'b' }, want: { a: 'b' } },
    { name: 'no annotations', annotations: undefined, want: undefined },
  ];
  for (const c of views) {
    it(`metadata view with ${c.name}`, () => {
      const d = ds((x) => { if (c.annotations !== undefined) x.metadata.annotations = { ...c.annotations }; });
      const meta = daemonSets.metadataView(d);
      assert.deepEqual(meta.annotations, c.want);
      assert.equal(meta.name, 'agent');
      assert.deepEqual(d.metadata.annotations, c.annotations, 'the object itself is left alone');
    });
  }
});
