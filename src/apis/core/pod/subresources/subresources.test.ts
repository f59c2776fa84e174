import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { formatFieldError } from '../../../../apimachinery/errors/field-errors.ts';
import { StatusError } from '../../../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../../../apimachinery/meta/types.ts';
import { systemContext } from '../../../../apimachinery/request/context.ts';
import type { Connecter, Getter, Updater } from '../../../../registry/rest/capabilities.ts';
import type { Pod } from '../../v1/types.ts';
import { podSubresources } from './index.ts';
import { decrementBudget, EVICTION_VIOLATES_BUDGET } from './eviction.ts';
import { validatePodResize } from './resize.ts';
import { defaultPod } from '../defaults.ts';
import { minimalPod, newFixture, subresourceContext, type Fixture } from './testing.ts';
import type { ResourceDefinition, ResourceStore } from '../../../../registry/rest/strategy.ts';

const ctx = systemContext('default');
const fakeReq = (headers: Record<string, string> = {}): IncomingMessage => ({ headers, method: 'GET', url: '/' }) as unknown as IncomingMessage;
const fakeRes = (): ServerResponse & { status?: number } => {
  const r = { writeHead(s: number) { r.status = s; return r; }, end() { return r; }, status: undefined as number | undefined };
  return r as unknown as ServerResponse & { status?: number };
};

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

function sub(f: Fixture, name: string): object {
  const s = podSubresources(f.store('pods') as unknown as ResourceStore<Pod>, f.lookup).find((x) => x.name === name);
  assert.ok(s !== undefined);
  return s.storage;
}

const pdbDefinition = {
  group: 'policy', kind: 'PodDisruptionBudget', resource: 'poddisruptionbudgets', singular: 'poddisruptionbudget', namespaced: true,
  strategy: { prepareForCreate() {}, validate: () => [], allowCreateOnUpdate: false, allowUnconditionalUpdate: true, prepareForUpdate() {}, validateUpdate: () => [] },
} satisfies ResourceDefinition<KubeObject>;

describe('pod subresources', () => {
  let f: Fixture;
  let port: number;
  before(async () => {
    f = await newFixture([pdbDefinition]);
    port = await closedPort();
    const running = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    for (const [name, extra] of [['unbound', {}], ['bound', { nodeName: 'n1' }], ['orphan', { nodeName: 'ghost' }], ['guarded', {}], ['free', {}]] as const) {
      await f.store('pods').create(ctx, minimalPod(name, extra), undefined, { dryRun: false });
    }
    for (const name of ['guarded']) {
      await f.store('pods').updateUnchecked(ctx, name, (p) => ({ ...p, metadata: { ...p.metadata, labels: { app: 'db' } }, status: running }) as KubeObject, { dryRun: false });
    }
    await f.store('nodes').create(systemContext(), { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' },
      status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: port } } } } as unknown as KubeObject,
    undefined, { dryRun: false });
    await f.store('poddisruptionbudgets.policy').create(ctx, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget',
      metadata: { name: 'db', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'db' } } },
      status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, observedGeneration: 0 } } as unknown as KubeObject, undefined, { dryRun: false });
  });
  after(async () => { await f.backend.close(); });

  const connectCases = [
    { name: 'exec without host', sub: 'exec', pod: 'unbound', headers: {}, code: 400, message: 'pod unbound does not have a host assigned' },
    { name: 'portforward without host', sub: 'portforward', pod: 'unbound', headers: {}, code: 400, message: 'pod unbound does not have a host assigned' },
    { name: 'exec on a missing node', sub: 'exec', pod: 'orphan', headers: {}, code: 404, message: 'nodes "ghost" not found' },
    { name: 'exec without upgrade', sub: 'exec', pod: 'bound', headers: {}, code: 400, message: 'Upgrade request required' },
    { name: 'exec with a bad container', sub: 'exec', pod: 'bound', headers: {}, code: 400, message: 'container x is not valid for pod bound', query: 'container=x' },
    { name: 'exec, kubelet down', sub: 'exec', pod: 'bound', headers: { connection: 'Upgrade', upgrade: 'SPDY/3.1' }, code: 500,
      message: 'error dialing backend: dial tcp 127.0.0.1:PORT: connect: connection refused' },
    { name: 'log, kubelet down', sub: 'log', pod: 'bound', headers: {}, code: 500,
      message: 'Get "https://127.0.0.1:PORT/containerLogs/default/bound/c": dial tcp 127.0.0.1:PORT: connect: connection refused' },
    { name: 'proxy without an IP', sub: 'proxy', pod: 'bound', headers: {}, code: 400, message: 'address not allowed' },
  ];
  for (const c of connectCases) {
    it(`connect: ${c.name}`, async () => {
      const rest = sub(f, c.sub) as Connecter;
      await assert.rejects(rest.connect(subresourceContext('default', 'pods', c.pod, c.sub), c.pod, fakeReq(c.headers), fakeRes(),
        new URLSearchParams(c.query ?? '')), (err: unknown) => {
        assert.ok(err instanceof StatusError);
        assert.equal(err.status.code, c.code);
        assert.equal(err.status.message, c.message.replaceAll('PORT', String(port)));
        return true;
      });
    });
  }

  it('connect: log of a pod without a host is 204 No Content, as kube\'s stream writer answers a nil location', async () => {
    const res = fakeRes();
    await (sub(f, 'log') as Connecter).connect(subresourceContext('default', 'pods', 'unbound', 'log'), 'unbound', fakeReq(), res, new URLSearchParams());
    assert.equal(res.status, 204);
  });

  it('connect methods give discovery verbs', () => {
    assert.deepEqual((sub(f, 'log') as Connecter).connectMethods, ['GET']);
    assert.deepEqual((sub(f, 'proxy') as Connecter).connectMethods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
  });

  it('eviction of a pod a budget protects is 429 with a DisruptionBudget cause', async () => {
    const rest = sub(f, 'eviction') as { create: (...a: never[]) => Promise<KubeObject> };
    const body = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'guarded' } } as unknown as KubeObject;
    await assert.rejects((rest.create as (...a: unknown[]) => Promise<KubeObject>)(subresourceContext('default', 'pods', 'guarded', 'eviction'), body, undefined, { dryRun: false }),
      (err: unknown) => {
        assert.ok(err instanceof StatusError);
        assert.equal(err.status.code, 429);
        assert.equal(err.status.message, EVICTION_VIOLATES_BUDGET);
        assert.deepEqual(err.status.details?.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget db needs 1 healthy pods and has 1 currently' }]);
        return true;
      });
  });

  it('eviction of an unprotected pod deletes it and answers Success', async () => {
    const rest = sub(f, 'eviction') as { create: (...a: unknown[]) => Promise<KubeObject> };
    const out = await rest.create(subresourceContext('default', 'pods', 'free', 'eviction'),
      { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'free' } }, undefined, { dryRun: false });
    assert.equal((out as unknown as { status: string }).status, 'Success');
    await assert.rejects(f.store('pods').get(ctx, 'free', {}), (e: unknown) => e instanceof StatusError && e.status.code === 404);
  });

  it('decrementBudget takes one disruption and records the pod', () => {
    const next = decrementBudget({ metadata: { name: 'b', generation: 1 }, status: { observedGeneration: 1, disruptionsAllowed: 1 } }, 'p', 'T');
    assert.equal(next.status?.disruptionsAllowed, 0);
    assert.deepEqual(next.status?.disruptedPods, { p: 'T' });
    assert.throws(() => decrementBudget({ metadata: { name: 'b', generation: 2 }, status: { observedGeneration: 1, disruptionsAllowed: 1 } }, 'p', 'T'),
      (e: unknown) => e instanceof StatusError && e.status.details?.causes?.[0]?.message === 'The disruption budget b is still being processed by the server.');
  });

  const updateWith = (mutate: (p: Pod) => void) => ({ updatedObject: (_c: unknown, old: KubeObject | undefined) => {
    const p = structuredClone(old) as unknown as Pod;
    mutate(p);
    return p as unknown as KubeObject;
  } });

  it('ephemeralcontainers adds a container and ignores other changes', async () => {
    const rest = sub(f, 'ephemeralcontainers') as Getter & Updater;
    const { object } = await rest.update(subresourceContext('default', 'pods', 'bound', 'ephemeralcontainers'), 'bound', updateWith((p) => {
      p.spec.ephemeralContainers = [{ name: 'debug', image: 'busybox', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }];
      p.spec.containers[0] = { ...p.spec.containers[0], name: 'c', image: 'changed' };
    }), undefined, undefined, false, { dryRun: false });
    const pod = object as unknown as Pod;
    assert.equal(pod.spec.ephemeralContainers?.[0]?.name, 'debug');
    assert.equal(pod.spec.containers[0]?.image, 'nginx');
  });

  it('ephemeralcontainers may not be removed', async () => {
    const rest = sub(f, 'ephemeralcontainers') as Getter & Updater;
    await assert.rejects(rest.update(subresourceContext('default', 'pods', 'bound', 'ephemeralcontainers'), 'bound',
      updateWith((p) => { p.spec.ephemeralContainers = []; }), undefined, undefined, false, { dryRun: false }),
    (e: unknown) => e instanceof StatusError && e.status.code === 422 &&
      (e.status.message ?? '').includes('existing ephemeral containers "debug" may not be removed'));
  });

  it('resize changes only container resources, and not the QoS class', async () => {
    const rest = sub(f, 'resize') as Getter & Updater;
    await assert.rejects(rest.update(subresourceContext('default', 'pods', 'bound', 'resize'), 'bound', updateWith((p) => {
      p.spec.containers[0] = { ...p.spec.containers[0], name: 'c', resources: { requests: { cpu: '100m' } } };
    }), undefined, undefined, false, { dryRun: false }),
    (e: unknown) => e instanceof StatusError && (e.status.message ?? '').includes('Pod QOS Class may not change as a result of resizing'));
  });
});

describe('ValidatePodResize of v1.36, as kube-apiserver answers', () => {
  const burstable = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } };
  const pod = (spec: Partial<Pod['spec']>, annotations?: Record<string, string>): Pod => {
    const p: Pod = {
      metadata: { name: 'p', namespace: 'ns', ...(annotations === undefined ? {} : { annotations }) },
      spec: { containers: [{ name: 'c', image: 'i', resources: structuredClone(burstable) }], serviceAccountName: 'default', ...spec },
      status: { qosClass: 'Burstable' },
    };
    defaultPod(p);
    return p;
  };
  const cases: { name: string; old?: Pod; change: (p: Pod) => void; want: string[] }[] = [
    { name: 'cpu changed', change: (p) => { p.spec.containers[0]!.resources!.limits!['cpu'] = '300m'; }, want: [] },
    { name: 'limit removed', change: (p) => { p.spec.containers[0]!.resources!.limits = { cpu: '200m' }; },
      want: ['spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed'] },
    { name: 'ephemeral-storage changed', change: (p) => { p.spec.containers[0]!.resources!.limits!['ephemeral-storage'] = '1Gi'; },
      want: ['spec: Forbidden: only cpu and memory resources are mutable'] },
    { name: 'container renamed', change: (p) => { p.spec.containers[0]!.name = 'd'; }, want: ['spec.containers[0].name: Forbidden: containers may not be renamed or reordered on resize'] },
    { name: 'static pod', old: pod({}, { 'kubernetes.io/config.mirror': 'x' }), change: () => {}, want: ['[]: Forbidden: static pods cannot be resized'] },
    { name: 'QoS class changes', change: (p) => { p.spec.containers[0]!.resources!.limits = { cpu: '100m', memory: '64Mi' }; },
      want: ['spec: Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing'] },
    { name: 'pod-level limit removed', old: pod({ resources: structuredClone(burstable), containers: [{ name: 'c', image: 'i' }] }),
      change: (p) => { p.spec.resources!.limits = { cpu: '200m' }; }, want: ['spec.resources.limits: Forbidden: pod-level resource limits cannot be removed'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const old = c.old ?? pod({});
      const next = structuredClone(old);
      c.change(next);
      assert.deepEqual(validatePodResize(next, old).map(formatFieldError).sort(), [...c.want].sort());
    });
  }
});
