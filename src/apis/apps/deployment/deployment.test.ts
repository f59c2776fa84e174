import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { Deployment } from '../v1/types.ts';
import { defaultDeployment, deployments } from './deployment.ts';

const ctx = systemContext('default');

function deploy(mutate: (d: Deployment) => void = () => {}): Deployment {
  const d: Deployment = {
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
    },
  };
  defaultDeployment(d);
  mutate(d);
  return d;
}

describe('deployments', () => {
  it('defaults a minimal deployment as apps/v1 does', () => {
    const d = deploy();
    assert.equal(d.spec.replicas, 1);
    assert.deepEqual(d.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    assert.equal(d.spec.revisionHistoryLimit, 10);
    assert.equal(d.spec.progressDeadlineSeconds, 600);
    const spec = d.spec.template.spec;
    assert.equal(spec.restartPolicy, 'Always');
    assert.equal(spec.dnsPolicy, 'ClusterFirst');
    assert.equal(spec.containers[0]?.imagePullPolicy, 'IfNotPresent');
  });

  it('leaves Recreate without rollingUpdate', () => {
    const d: Deployment = { metadata: { name: 'x' }, spec: { strategy: { type: 'Recreate' }, template: { spec: { containers: [] } } } };
    defaultDeployment(d);
    assert.deepEqual(d.spec.strategy, { type: 'Recreate' });
  });

  const cases: { name: string; mutate: (d: Deployment) => void; want: string[] }[] = [
    { name: 'valid', mutate: () => {}, want: [] },
    { name: 'selector does not match template labels', mutate: (d) => { d.spec.selector = { matchLabels: { app: 'other' } }; },
      want: ['spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'] },
    { name: 'missing selector', mutate: (d) => { delete d.spec.selector; },
      want: ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'] },
    { name: 'empty selector', mutate: (d) => { d.spec.selector = {}; },
      want: ['spec.selector: Invalid value: {}: empty selector is invalid for deployment'] },
    { name: 'bad selector operator', mutate: (d) => { d.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Foo' }] }; },
      want: [
        'spec.selector.matchExpressions[0].operator: Invalid value: "Foo": not a valid selector operator',
        'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Foo"}]}: invalid label selector',
      ] },
    { name: 'negative replicas', mutate: (d) => { d.spec.replicas = -1; }, want: ['spec.replicas: Invalid value: -1: must be greater than or equal to 0'] },
    { name: 'unknown strategy type', mutate: (d) => { d.spec.strategy = { type: 'Foo' }; },
      want: ['spec.strategy: Unsupported value: {"Type":"Foo","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"'] },
    { name: 'Recreate with rollingUpdate', mutate: (d) => { d.spec.strategy = { type: 'Recreate', rollingUpdate: {} }; },
      want: ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"] },
    { name: 'maxSurge and maxUnavailable both 0', mutate: (d) => { d.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } }; },
      want: ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0'] },
    { name: 'bad percent and over 100%', mutate: (d) => { d.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 'x', maxUnavailable: '110%' } }; },
      want: [
        "spec.strategy.rollingUpdate.maxSurge: Invalid value: \"x\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "110%": must not be greater than 100%',
      ] },
    { name: 'progress deadline not above minReadySeconds', mutate: (d) => { d.spec.minReadySeconds = 600; },
      want: ['spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds'] },
    { name: 'template restartPolicy Never', mutate: (d) => { d.spec.template.spec.restartPolicy = 'Never'; },
      want: ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'] },
    { name: 'template without containers', mutate: (d) => { d.spec.template.spec.containers = []; },
      want: ['spec.template.spec.containers: Required value'] },
    { name: 'bad name', mutate: (d) => { d.metadata.name = 'Web'; },
      want: ["metadata.name: Invalid value: \"Web\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"] },
  ];
  for (const c of cases) {
    it(`validate: ${c.name}`, () => assert.deepEqual(deployments.strategy.validate(ctx, deploy(c.mutate)).map(formatFieldError), c.want));
  }

  it('selector is immutable on update', () => {
    const old = deploy();
    const next = deploy((d) => {
      d.spec.selector = { matchLabels: { app: 'web', tier: 'x' } };
      d.spec.template.metadata = { labels: { app: 'web', tier: 'x' } };
    });
    assert.deepEqual(deployments.strategy.validateUpdate(ctx, next, old).map(formatFieldError), [
      'spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"x"}}: field is immutable',
    ]);
  });

  it('resets status and sets generation 1 on create', () => {
    const d = deploy((x) => { x.status = { replicas: 3 }; x.metadata.generation = 7; });
    deployments.strategy.prepareForCreate(ctx, d);
    assert.deepEqual(d.status, {});
    assert.equal(d.metadata.generation, 1);
  });

  const updates: { name: string; mutate: (d: Deployment) => void; generation: number }[] = [
    { name: 'no change', mutate: () => {}, generation: 1 },
    { name: 'spec change', mutate: (d) => { d.spec.replicas = 3; }, generation: 2 },
    { name: 'annotation change', mutate: (d) => { d.metadata.annotations = { a: 'b' }; }, generation: 2 },
    { name: 'label change', mutate: (d) => { d.metadata.labels = { a: 'b' }; }, generation: 1 },
  ];
  for (const u of updates) {
    it(`update keeps status and bumps generation: ${u.name}`, () => {
      const old = deploy((d) => { d.metadata.generation = 1; d.status = { replicas: 1 }; });
      const next = deploy((d) => { d.metadata.generation = 1; u.mutate(d); d.status = { replicas: 9 }; });
      deployments.strategy.prepareForUpdate(ctx, next, old);
      assert.deepEqual(next.status, { replicas: 1 });
      assert.equal(next.metadata.generation, u.generation);
    });
  }

  it('status updates change only status (and keep labels)', () => {
    const old = deploy((d) => { d.metadata.generation = 2; d.metadata.labels = { a: 'b' }; });
    const next = deploy((d) => { d.metadata.generation = 2; d.spec.replicas = 5; d.metadata.labels = { c: 'd' }; d.status = { replicas: 2, readyReplicas: 1 }; });
    deployments.statusStrategy.prepareForUpdate(ctx, next, old);
    assert.equal(next.spec.replicas, 1);
    assert.deepEqual(next.metadata.labels, { a: 'b' });
    assert.deepEqual(next.status, { replicas: 2, readyReplicas: 1 });
    assert.equal(next.metadata.generation, 2);
  });

  const statusCases: { name: string; status: Deployment['status']; oldCollision?: number; want: string[] }[] = [
    { name: 'valid', status: { replicas: 2, readyReplicas: 2, availableReplicas: 1 }, want: [] },
    { name: 'negative', status: { replicas: -1 }, want: [
      'status.replicas: Invalid value: -1: must be greater than or equal to 0',
      // counters left at 0 are still compared with the negative total, as in kube
      'status.updatedReplicas: Invalid value: 0: cannot be greater than status.replicas',
      'status.readyReplicas: Invalid value: 0: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 0: cannot be greater than status.replicas',
    ] },
    { name: 'ready above replicas', status: { replicas: 1, readyReplicas: 2, availableReplicas: 2 },
      want: ['status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas', 'status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas'] },
    { name: 'available above ready', status: { replicas: 3, readyReplicas: 1, availableReplicas: 2 },
      want: ['status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas'] },
    { name: 'collisionCount decremented', status: { collisionCount: 1 }, oldCollision: 2,
      want: ['status.collisionCount: Invalid value: 1: cannot be decremented'] },
  ];
  for (const c of statusCases) {
    it(`status validation: ${c.name}`, () => {
      const old = deploy((d) => { if (c.oldCollision !== undefined) d.status = { collisionCount: c.oldCollision }; });
      const next = deploy((d) => { if (c.status !== undefined) d.status = c.status; });
      assert.deepEqual(deployments.statusStrategy.validateUpdate(ctx, next, old).map(formatFieldError), c.want);
    });
  }

  it('table cells', () => {
    const d = deploy((x) => {
      x.spec.replicas = 3;
      x.status = { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 };
      x.spec.selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] };
    });
    assert.deepEqual(deployments.table.map((c) => c.name), ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector']);
    assert.deepEqual(deployments.table.map((c) => c.priority ?? 0), [0, 0, 0, 0, 0, 1, 1, 1]);
    assert.deepEqual(deployments.table.filter((c) => c.name !== 'Age').map((c) => c.cell(d, 0)),
      ['web', '2/3', 3, 2, 'nginx', 'nginx:1.27', 'app=web,tier in (a,b)']);
  });

  it('scale reads spec.replicas, status.replicas and the selector', () => {
    const d = deploy((x) => { x.spec.replicas = 4; x.status = { replicas: 2 }; });
    assert.equal(deployments.scale.specReplicas(d), 4);
    assert.equal(deployments.scale.statusReplicas(d), 2);
    assert.equal(deployments.scale.selector(d), 'app=web');
    deployments.scale.setSpecReplicas(d, 7);
    assert.equal(d.spec.replicas, 7);
  });
});
