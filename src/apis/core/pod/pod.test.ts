import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { Pod } from '../v1/types.ts';
import { defaultImagePullPolicy, defaultPod } from './defaults.ts';
import { podGracePeriod, pods } from './pod.ts';
import { podQOSClass } from './qos.ts';
import { podCells } from './table.ts';
import { POD_UPDATE_FORBIDDEN } from './update.ts';

const ctx = systemContext('default');

function minimalPod(): Pod {
  return { metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
}

function defaulted(mutate: (p: Pod) => void = () => {}): Pod {
  const p = minimalPod();
  mutate(p);
  defaultPod(p);
  return p;
}

describe('pod defaults', () => {
  it('fills kube defaults on a minimal pod', () => {
    const p = defaulted();
    assert.deepEqual(p.spec, {
      containers: [{
        name: 'app', image: 'nginx', imagePullPolicy: 'Always', resources: {},
        terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
      }],
      restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {},
      schedulerName: 'default-scheduler', enableServiceLinks: true,
    });
  });
  for (const c of [
    { image: 'nginx', want: 'Always' }, { image: 'nginx:latest', want: 'Always' }, { image: 'nginx:1.25', want: 'IfNotPresent' },
    { image: 'localhost:5000/app', want: 'Always' }, { image: 'localhost:5000/app:v1', want: 'IfNotPresent' },
    { image: 'nginx@sha256:abc', want: 'IfNotPresent' },
  ]) it(`imagePullPolicy for ${c.image}`, () => assert.equal(defaultImagePullPolicy(c.image), c.want));
  it('defaults ports, probes, volumes and requests from limits', () => {
    const p = defaulted((p) => {
      const c = p.spec.containers[0];
      if (c === undefined) return;
      c.ports = [{ containerPort: 80 }];
      c.livenessProbe = { httpGet: { port: 80 } };
      c.resources = { limits: { cpu: '1' } };
      p.spec.volumes = [{ name: 'a' }, { name: 'b', configMap: { name: 'cm' } }, { name: 'c', secret: { secretName: 's' } }];
    });
    const c = p.spec.containers[0];
    assert.deepEqual(c?.ports, [{ containerPort: 80, protocol: 'TCP' }]);
    assert.deepEqual(c?.livenessProbe, { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    assert.deepEqual(c?.resources, { limits: { cpu: '1' }, requests: { cpu: '1' } });
    assert.deepEqual(p.spec.volumes, [
      { name: 'a', emptyDir: {} }, { name: 'b', configMap: { name: 'cm', defaultMode: 420 } }, { name: 'c', secret: { secretName: 's', defaultMode: 420 } },
    ]);
  });
});

describe('pod validation', () => {
  const cases: { name: string; mutate: (p: Pod) => void; want: string[] }[] = [
    { name: 'valid', mutate: () => {}, want: [] },
    { name: 'no containers', mutate: (p) => { p.spec.containers = []; }, want: ['spec.containers: Required value'] },
    { name: 'no image', mutate: (p) => { delete p.spec.containers[0]?.image; }, want: ['spec.containers[0].image: Required value'] },
    { name: 'bad container name', mutate: (p) => { (p.spec.containers[0] ?? { name: '' }).name = 'App'; },
      want: ["spec.containers[0].name: Invalid value: \"App\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"] },
    { name: 'duplicate container', mutate: (p) => { p.spec.containers.push({ name: 'app', image: 'x' }); },
      want: ['spec.containers[1].name: Duplicate value: "app"'] },
    { name: 'bad restartPolicy', mutate: (p) => { p.spec.restartPolicy = 'Sometimes'; },
      want: ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"'] },
    { name: 'bad dnsPolicy', mutate: (p) => { p.spec.dnsPolicy = 'X'; },
      want: ['spec.dnsPolicy: Unsupported value: "X": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"'] },
    { name: 'port out of range', mutate: (p) => { (p.spec.containers[0] ?? { name: '' }).ports = [{ containerPort: 70000, protocol: 'TCP' }]; },
      want: ['spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive'] },
    { name: 'mount without volume', mutate: (p) => { (p.spec.containers[0] ?? { name: '' }).volumeMounts = [{ name: 'data', mountPath: '/d' }]; },
      want: ['spec.containers[0].volumeMounts[0].name: Not found: "data"'] },
    { name: 'duplicate volume', mutate: (p) => { p.spec.volumes = [{ name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }]; },
      want: ['spec.volumes[1].name: Duplicate value: "v"'] },
    { name: 'requests above limits', mutate: (p) => { (p.spec.containers[0] ?? { name: '' }).resources = { limits: { cpu: '500m' }, requests: { cpu: '1' } }; },
      want: ['spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m'] },
    { name: 'empty env name', mutate: (p) => { (p.spec.containers[0] ?? { name: '' }).env = [{ name: '' }]; },
      want: ['spec.containers[0].env[0].name: Required value'] },
    // A request without a limit of that name is not compared with Object.prototype's member.
    { name: 'a request named like an Object.prototype member', mutate: (p) => { (p.spec.containers[0] ?? { name: '' }).resources = { requests: { 'example.com/constructor': '1', toString: '1' } }; },
      // kube: an extended resource needs a limit; a name without '/' must be a standard resource (two messages)
      want: ['spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
        'spec.containers[0].resources.requests[toString]: Invalid value: "toString": must be a standard resource type or fully qualified',
        'spec.containers[0].resources.requests[toString]: Invalid value: "toString": must be a standard resource for containers'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = defaulted(c.mutate);
      assert.deepEqual(pods.strategy.validate(ctx, p).map(formatFieldError), c.want);
    });
  }
});

describe('pod strategy', () => {
  it('prepareForCreate resets status to Pending with a QoS class', () => {
    const p = defaulted();
    p.status = { phase: 'Running', podIP: '1.2.3.4' };
    pods.strategy.prepareForCreate(ctx, p);
    assert.deepEqual(p.status, { phase: 'Pending', qosClass: 'BestEffort' });
    assert.equal(p.metadata.generation, 1);
  });
  it('allows an image change and bumps generation', () => {
    const old = defaulted();
    pods.strategy.prepareForCreate(ctx, old);
    const next = structuredClone(old);
    (next.spec.containers[0] ?? { name: '' }).image = 'nginx:2';
    next.status = { phase: 'Running' };
    pods.strategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.status, old.status);
    assert.equal(next.metadata.generation, 2);
    assert.deepEqual(pods.strategy.validateUpdate(ctx, next, old), []);
  });
  it('forbids other spec changes', () => {
    const old = defaulted();
    const next = structuredClone(old);
    (next.spec.containers[0] ?? { name: '' }).args = ['x'];
    const errs = pods.strategy.validateUpdate(ctx, next, old);
    assert.equal(errs.length, 1);
    assert.equal(errs[0]?.field, 'spec');
    assert.ok(errs[0]?.detail.startsWith(`${POD_UPDATE_FORBIDDEN}\n@@ `));
  });
  it('status updates keep the spec', () => {
    const old = defaulted();
    const next = structuredClone(old);
    next.spec.nodeName = 'n1';
    next.status = { phase: 'Running' };
    pods.statusStrategy.prepareForUpdate(ctx, next, old);
    assert.equal(next.spec.nodeName, undefined);
    assert.equal(next.status.phase, 'Running');
  });
  const grace = [
    { name: 'unbound pod', node: '', opts: {}, want: 0 },
    { name: 'bound pod default', node: 'n1', opts: {}, want: 30 },
    { name: 'bound pod explicit', node: 'n1', opts: { gracePeriodSeconds: 5 }, want: 5 },
    { name: 'negative becomes 1', node: 'n1', opts: { gracePeriodSeconds: -1 }, want: 1 },
  ];
  for (const g of grace) {
    it(`grace period: ${g.name}`, () => {
      const p = defaulted((p) => { if (g.node !== '') p.spec.nodeName = g.node; });
      assert.equal(podGracePeriod(p, g.opts), g.want);
    });
  }
  it('terminal pods are deleted at once', () => {
    const p = defaulted((p) => { p.spec.nodeName = 'n1'; p.status = { phase: 'Succeeded' }; });
    assert.equal(podGracePeriod(p, {}), 0);
  });
  it('field selectors', () => {
    const p = defaulted((p) => { p.spec.nodeName = 'n1'; p.status = { phase: 'Running', podIPs: [{ ip: '10.1.0.5' }] }; });
    const f = pods.selectableFields(p);
    assert.equal(f['spec.nodeName'], 'n1');
    assert.equal(f['status.podIP'], '10.1.0.5');
    assert.equal(f['spec.hostNetwork'], 'false');
  });
});

describe('pod QoS and table', () => {
  it('qos classes', () => {
    assert.equal(podQOSClass(defaulted()), 'BestEffort');
    assert.equal(podQOSClass(defaulted((p) => { (p.spec.containers[0] ?? { name: '' }).resources = { requests: { cpu: '100m' } }; })), 'Burstable');
    assert.equal(podQOSClass(defaulted((p) => {
      (p.spec.containers[0] ?? { name: '' }).resources = { limits: { cpu: '1', memory: '1Gi' } };
    })), 'Guaranteed');
  });
  const now = Date.parse('2024-01-01T01:00:00Z');
  const cases: { name: string; status: Pod['status']; deleting?: boolean; want: { ready: string; status: string; restarts: string } }[] = [
    { name: 'pending', status: { phase: 'Pending' }, want: { ready: '0/1', status: 'Pending', restarts: '0' } },
    { name: 'container creating', status: { phase: 'Pending', containerStatuses: [{ name: 'app', ready: false, restartCount: 0, image: '', imageID: '', state: { waiting: { reason: 'ContainerCreating' } } }] },
      want: { ready: '0/1', status: 'ContainerCreating', restarts: '0' } },
    { name: 'running', status: { phase: 'Running', containerStatuses: [{ name: 'app', ready: true, restartCount: 2, image: '', imageID: '', state: { running: {} }, lastState: { terminated: { exitCode: 1, finishedAt: '2024-01-01T00:55:00Z' } } }] },
      want: { ready: '1/1', status: 'Running', restarts: '2 (5m ago)' } },
    { name: 'completed', status: { phase: 'Succeeded', containerStatuses: [{ name: 'app', ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] },
      want: { ready: '0/1', status: 'Completed', restarts: '0' } },
    { name: 'terminating', status: { phase: 'Running' }, deleting: true, want: { ready: '0/1', status: 'Terminating', restarts: '0' } },
  ];
  for (const c of cases) {
    it(`status column: ${c.name}`, () => {
      const p = defaulted((p) => { if (c.status !== undefined) p.status = c.status; if (c.deleting === true) p.metadata.deletionTimestamp = '2024-01-01T00:59:00Z'; });
      assert.deepEqual(podCells(p, now), c.want);
    });
  }
});
