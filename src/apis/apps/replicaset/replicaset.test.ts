import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { ReplicaSet } from '../v1/types.ts';
import { defaultReplicaSet, replicaSets } from './replicaset.ts';

const ctx = systemContext('default');

function rs(mutate: (r: ReplicaSet) => void = () => {}): ReplicaSet {
  const r: ReplicaSet = {
    metadata: { name: 'web-1', namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
  };
  defaultReplicaSet(r);
  mutate(r);
  return r;
}

describe('replicasets', () => {
  it('defaults replicas to 1 and the pod template', () => {
    const r = rs();
    assert.equal(r.spec.replicas, 1);
    assert.equal(r.spec.template.spec.containers[0]?.imagePullPolicy, 'Always');
  });

  const cases: { name: string; mutate: (r: ReplicaSet) => void; want: string[] }[] = [
    { name: 'valid', mutate: () => {}, want: [] },
    { name: 'negative minReadySeconds', mutate: (r) => { r.spec.minReadySeconds = -1; },
      want: ['spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0'] },
    { name: 'empty selector (kube names deployments)', mutate: (r) => { r.spec.selector = { matchLabels: {} }; },
      want: ['spec.selector: Invalid value: {}: empty selector is invalid for deployment'] },
    { name: 'In without values', mutate: (r) => { r.spec.selector = { matchExpressions: [{ key: 'app', operator: 'In' }] }; },
      want: [
        "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"In"}]}: invalid label selector',
      ] },
    { name: 'template without labels', mutate: (r) => { delete r.spec.template.metadata; },
      want: ['spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`'] },
    { name: 'activeDeadlineSeconds', mutate: (r) => { r.spec.template.spec.activeDeadlineSeconds = 10; },
      want: ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported'] },
  ];
  for (const c of cases) {
    it(`validate: ${c.name}`, () => assert.deepEqual(replicaSets.strategy.validate(ctx, rs(c.mutate)).map(formatFieldError), c.want));
  }

  it('selector is immutable', () => {
    const next = rs((r) => { r.spec.selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] }; });
    assert.deepEqual(replicaSets.strategy.validateUpdate(ctx, next, rs()).map(formatFieldError), [
      'spec.selector: Invalid value: {"matchLabels":{"app":"web"},"matchExpressions":[{"key":"x","operator":"DoesNotExist"}]}: field is immutable',
    ]);
  });

  it('generation: 1 on create, bumped by spec changes; status kept', () => {
    const created = rs((r) => { r.status = { replicas: 5 }; });
    replicaSets.strategy.prepareForCreate(ctx, created);
    assert.deepEqual(created.status, {});
    assert.equal(created.metadata.generation, 1);
    const next = rs((r) => { r.metadata.generation = 1; r.spec.replicas = 2; r.status = { replicas: 9 }; });
    replicaSets.strategy.prepareForUpdate(ctx, next, created);
    assert.equal(next.metadata.generation, 2);
    assert.deepEqual(next.status, {});
  });

  it('status subresource ignores spec changes and validates counters', () => {
    const old = rs((r) => { r.metadata.generation = 1; });
    const next = rs((r) => { r.spec.replicas = 4; r.status = { replicas: 1, fullyLabeledReplicas: 2 }; });
    replicaSets.statusStrategy.prepareForUpdate(ctx, next, old);
    assert.equal(next.spec.replicas, 1);
    assert.deepEqual(replicaSets.statusStrategy.validateUpdate(ctx, next, old).map(formatFieldError),
      ['status.fullyLabeledReplicas: Invalid value: 2: cannot be greater than status.replicas']);
  });

  it('table, field selectors and scale', () => {
    const r = rs((x) => { x.spec.replicas = 3; x.status = { replicas: 2, readyReplicas: 1 }; });
    assert.deepEqual(replicaSets.table.map((c) => c.name), ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector']);
    assert.deepEqual(replicaSets.table.filter((c) => c.name !== 'Age').map((c) => c.cell(r, 0)), ['web-1', 3, 2, 1, 'c', 'busybox', 'app=web']);
    assert.deepEqual(replicaSets.selectableFields(r), { 'metadata.name': 'web-1', 'metadata.namespace': 'default', 'status.replicas': '2' });
    assert.equal(replicaSets.scale.selector(r), 'app=web');
  });
});
