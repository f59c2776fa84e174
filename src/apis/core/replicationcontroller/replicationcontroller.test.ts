import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import { defaultReplicationController, replicationControllers } from './replicationcontroller.ts';
import type { ReplicationController } from './types.ts';

const ctx = systemContext('default');

function rc(mutate: (r: ReplicationController) => void = () => {}): ReplicationController {
  const r: ReplicationController = {
    metadata: { name: 'frontend', namespace: 'default' },
    spec: { template: { metadata: { labels: { app: 'fe' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
  defaultReplicationController(r);
  mutate(r);
  return r;
}

describe('replicationcontrollers', () => {
  it('defaults selector, labels and replicas from the template', () => {
    const r = rc();
    assert.deepEqual(r.spec.selector, { app: 'fe' });
    assert.deepEqual(r.metadata.labels, { app: 'fe' });
    assert.equal(r.spec.replicas, 1);
    assert.equal(r.spec.template?.spec.restartPolicy, 'Always');
  });

  it('keeps an explicit selector and labels', () => {
    const r: ReplicationController = { metadata: { name: 'x', labels: { own: 'y' } },
      spec: { selector: { app: 'fe' }, template: { metadata: { labels: { app: 'fe', v: '1' } }, spec: { containers: [] } } } };
    defaultReplicationController(r);
    assert.deepEqual(r.spec.selector, { app: 'fe' });
    assert.deepEqual(r.metadata.labels, { own: 'y' });
  });

  const cases: { name: string; mutate: (r: ReplicationController) => void; want: string[] }[] = [
    { name: 'valid', mutate: () => {}, want: [] },
    { name: 'no template', mutate: (r) => { delete r.spec.template; }, want: ['spec.template: Required value'] },
    { name: 'empty selector', mutate: (r) => { r.spec.selector = {}; }, want: ['spec.selector: Required value'] },
    { name: 'selector mismatch', mutate: (r) => { r.spec.selector = { app: 'be' }; },
      want: ['spec.template.metadata.labels: Invalid value: {"app":"fe"}: `selector` does not match template `labels`'] },
    { name: 'negative replicas', mutate: (r) => { r.spec.replicas = -2; }, want: ['spec.replicas: Invalid value: -2: must be greater than or equal to 0'] },
    { name: 'activeDeadlineSeconds', mutate: (r) => { r.spec.template!.spec.activeDeadlineSeconds = 3; },
      want: ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported'] },
  ];
  for (const c of cases) {
    it(`validate: ${c.name}`, () => assert.deepEqual(replicationControllers.strategy.validate(ctx, rc(c.mutate)).map(formatFieldError), c.want));
  }

  it('strategies: status reset, generation, status-only updates', () => {
    const created = rc((r) => { r.status = { replicas: 2 }; });
    replicationControllers.strategy.prepareForCreate(ctx, created);
    assert.deepEqual(created.status, {});
    assert.equal(created.metadata.generation, 1);
    const scaled = rc((r) => { r.metadata.generation = 1; r.spec.replicas = 3; });
    replicationControllers.strategy.prepareForUpdate(ctx, scaled, created);
    assert.equal(scaled.metadata.generation, 2);
    const status = rc((r) => { r.spec.replicas = 8; r.status = { replicas: 1, readyReplicas: 1, availableReplicas: 2 }; });
    replicationControllers.statusStrategy.prepareForUpdate(ctx, status, created);
    assert.equal(status.spec.replicas, 1);
    assert.deepEqual(replicationControllers.statusStrategy.validateUpdate(ctx, status, created).map(formatFieldError), [
      'status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas',
    ]);
  });

  it('table, field selectors and scale', () => {
    const r = rc((x) => { x.spec.replicas = 2; x.status = { replicas: 2, readyReplicas: 1 }; });
    assert.deepEqual(replicationControllers.table.map((c) => c.name), ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector']);
    assert.deepEqual(replicationControllers.table.filter((c) => c.name !== 'Age').map((c) => c.cell(r, 0)), ['frontend', 2, 2, 1, 'c', 'nginx', 'app=fe']);
    assert.equal(replicationControllers.selectableFields(r)['status.replicas'], '2');
    assert.equal(replicationControllers.scale.selector(r), 'app=fe');
    assert.equal(replicationControllers.scale.specReplicas(r), 2);
  });
});
