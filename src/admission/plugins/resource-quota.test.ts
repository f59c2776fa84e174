import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation } from '../interfaces.ts';
import { persistentVolumeClaimEvaluator, serviceEvaluator, type QuotaObject } from './resource-quota-evaluators.ts';
import { podEvaluator } from './resource-quota-pods.ts';
import { evaluatorFor, evaluatorsFor, resourceQuotaAdmission } from './resource-quota.ts';
import { addUsage, formatQuantity, fromUsage, parseQuantity, toUsage, type Quantity } from './resource-quota-quantity.ts';

const q = (s: string): Quantity => {
  const v = parseQuantity(s);
  assert.ok(v !== undefined, s);
  return v;
};

describe('quota quantities', () => {
  const cases: [string, string][] = [
    ['1000m', '1'], ['1500m', '1500m'], ['2000', '2k'], ['1Gi', '1Gi'], ['1536Mi', '1536Mi'], ['1024', '1024'],
    ['512Ki', '512Ki'], ['0', '0'], ['0.5', '500m'], ['1G', '1G'], ['100u', '100u'], ['1e3', '1e3'], ['2048Ki', '2Mi'],
  ];
  for (const [input, want] of cases) it(`${input} → ${want}`, () => { assert.equal(formatQuantity(q(input)), want); });

  it('sums keep the first format; a zero takes the other one', () => {
    assert.deepEqual(fromUsage(addUsage(toUsage({ memory: '1Gi', cpu: '0' }), toUsage({ memory: '512Mi', cpu: '250m' }))),
      { cpu: '250m', memory: '1536Mi' });
    assert.deepEqual(fromUsage(addUsage(toUsage({ cpu: '500m' }), toUsage({ cpu: '500m' }))), { cpu: '1' });
  });
});

const pod = (containers: { name: string; requests?: Record<string, string>; limits?: Record<string, string> }[],
  extra: Record<string, unknown> = {}, status?: { phase: string }): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' },
  spec: { ...extra, containers: containers.map((c) => ({ name: c.name, image: 'x', resources: {
    ...(c.requests ? { requests: c.requests } : {}), ...(c.limits ? { limits: c.limits } : {}) } })) },
  ...(status ? { status } : {}),
} as KubeObject);

describe('evaluators', () => {
  it('pods: count, compute sums, init containers as a maximum, terminal pods count only as objects', () => {
    const p = pod([{ name: 'a', requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '500m' } },
      { name: 'b', requests: { cpu: '250m', 'example.com/gpu': '1', 'hugepages-2Mi': '2Mi' } }],
    { initContainers: [{ name: 'i', resources: { requests: { cpu: '2' } } }] });
    assert.deepEqual(fromUsage(podEvaluator.usage(p, Date.now())), {
      'count/pods': '1', pods: '1', cpu: '2', 'requests.cpu': '2', memory: '64Mi', 'requests.memory': '64Mi', 'limits.cpu': '500m',
      'hugepages-2Mi': '2Mi', 'requests.hugepages-2Mi': '2Mi', 'requests.example.com/gpu': '1',
    });
    assert.deepEqual(fromUsage(podEvaluator.usage(pod([{ name: 'a', requests: { cpu: '1' } }], {}, { phase: 'Succeeded' }), Date.now())),
      { 'count/pods': '1' });
  });

  it('pods: the constraint message names each missing resource and its containers', () => {
    const p = pod([{ name: 'c2', requests: { cpu: '1' } }, { name: 'c1' }]);
    assert.equal(podEvaluator.constraints(['limits.cpu', 'requests.cpu', 'pods', 'count/pods'], p),
      'must specify limits.cpu for: c1,c2; requests.cpu for: c1');
    assert.equal(podEvaluator.constraints(['pods'], p), undefined);
  });

  it('pods: scopes', () => {
    const be = pod([{ name: 'a' }]);
    const burst = pod([{ name: 'a', requests: { cpu: '1' } }], { activeDeadlineSeconds: 10, priorityClassName: 'high' });
    const scope = (scopeName: string, operator = 'Exists', values?: string[]) => ({ scopeName, operator, ...(values ? { values } : {}) });
    assert.equal(podEvaluator.matchesScope(scope('BestEffort'), be), true);
    assert.equal(podEvaluator.matchesScope(scope('NotBestEffort'), burst), true);
    assert.equal(podEvaluator.matchesScope(scope('Terminating'), burst), true);
    assert.equal(podEvaluator.matchesScope(scope('NotTerminating'), be), true);
    assert.equal(podEvaluator.matchesScope(scope('PriorityClass', 'In', ['high']), burst), true);
    assert.equal(podEvaluator.matchesScope(scope('PriorityClass', 'NotIn', ['high']), be), true);
    assert.equal(podEvaluator.matchesScope(scope('PriorityClass'), be), false);
  });

  it('services and claims', () => {
    const svc = { metadata: { name: 's' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }, { port: 443 }] } } as KubeObject;
    assert.deepEqual(fromUsage(serviceEvaluator.usage(svc, 0)),
      { 'count/services': '1', services: '1', 'services.loadbalancers': '1', 'services.nodeports': '2' });
    const pvc = { metadata: { name: 'c' }, spec: { storageClassName: 'gold', resources: { requests: { storage: '1Gi' } } } } as KubeObject;
    assert.deepEqual(fromUsage(persistentVolumeClaimEvaluator.usage(pvc, 0)), {
      'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', 'requests.storage': '1Gi',
      'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1', 'gold.storageclass.storage.k8s.io/requests.storage': '1Gi',
    });
  });

  it('object counts: count/<resource>.<group> and the legacy names', () => {
    assert.deepEqual(fromUsage(evaluatorFor({ group: '', resource: 'configmaps' }).usage({ metadata: {} }, 0)),
      { configmaps: '1', 'count/configmaps': '1' });
    assert.deepEqual(fromUsage(evaluatorFor({ group: 'apps', resource: 'deployments' }).usage({ metadata: {} }, 0)),
      { 'count/deployments.apps': '1' });
    assert.deepEqual(evaluatorsFor(['pods', 'count/deployments.apps', 'secrets']).map((e) => e.groupResource.resource).sort(),
      ['deployments', 'pods', 'secrets']);
  });
});

describe('ResourceQuota admission', () => {
  const quota = (name: string, hard: Record<string, string>, used: Record<string, string>, rest: Partial<QuotaObject> = {}): QuotaObject =>
    ({ metadata: { name, namespace: 'ns', resourceVersion: '1' }, spec: { hard }, status: { hard, used }, ...rest });
  const attrs = (resource: string, object: KubeObject, op: Operation = 'CREATE', extra: Partial<Attributes> = {}): Attributes => ({
    operation: op, kind: { group: '', version: 'v1', kind: '' }, resource: { group: '', version: 'v1', resource }, subresource: '',
    name: object.metadata.name ?? '', namespace: 'ns', object, oldObject: undefined, dryRun: false, ...extra,
  });
  const run = async (quotas: QuotaObject[], a: Attributes): Promise<{ err: string | undefined; stored: QuotaObject[] }> => {
    const stored = quotas.map((x) => structuredClone(x));
    const plugin = resourceQuotaAdmission({
      list: () => Promise.resolve(stored.map((x) => structuredClone(x))),
      updateStatus: (_ns, name, mutate) => {
        const i = stored.findIndex((x) => x.metadata.name === name);
        stored[i] = mutate(structuredClone(stored[i] as QuotaObject));
        return Promise.resolve();
      },
    });
    try {
      await plugin.validate?.(systemContext('ns'), a);
      return { err: undefined, stored };
    } catch (err) {
      assert.ok(err instanceof StatusError);
      assert.equal(err.status.code, 403);
      return { err: err.status.message, stored };
    }
  };

  it('charges an allowed create and refuses one past the limit with kube\'s message', async () => {
    const p = pod([{ name: 'c1', requests: { cpu: '500m' }, limits: { cpu: '1' } }]);
    const ok = await run([quota('q1', { pods: '2', 'requests.cpu': '1' }, { pods: '1', 'requests.cpu': '0' })], attrs('pods', p));
    assert.equal(ok.err, undefined);
    assert.deepEqual(ok.stored[0]?.status?.used, { pods: '2', 'requests.cpu': '500m' });
    const full = await run([quota('q1', { pods: '2' }, { pods: '2' })], attrs('pods', p));
    assert.equal(full.err, 'pods "p" is forbidden: exceeded quota: q1, requested: pods=1, used: pods=2, limited: pods=2');
  });

  it('refuses a pod without the tracked compute resources, and a quota whose usage is unknown', async () => {
    const p = pod([{ name: 'c1' }]);
    const r = await run([quota('q1', { 'limits.cpu': '2', 'requests.cpu': '1' }, { 'limits.cpu': '0', 'requests.cpu': '0' })], attrs('pods', p));
    assert.equal(r.err, 'pods "p" is forbidden: failed quota: q1: must specify limits.cpu for: c1; requests.cpu for: c1');
    const u = await run([quota('q1', { pods: '2' }, {})], attrs('pods', p));
    assert.equal(u.err, 'pods "p" is forbidden: status unknown for quota: q1, resources: pods');
  });

  it('dry runs are checked but not charged; scoped quotas ignore pods outside the scope', async () => {
    const p = pod([{ name: 'c1' }]);
    const dry = await run([quota('q1', { pods: '2' }, { pods: '0' })], attrs('pods', p, 'CREATE', { dryRun: true }));
    assert.deepEqual(dry.stored[0]?.status?.used, { pods: '0' });
    const scoped = await run([quota('q1', { pods: '0' }, { pods: '0' }, { spec: { hard: { pods: '0' }, scopes: ['NotBestEffort'] } })], attrs('pods', p));
    assert.equal(scoped.err, undefined);
  });

  it('charges the growth of a claim on update and counts configmaps', async () => {
    const claim = (size: string): KubeObject => ({ metadata: { name: 'c', resourceVersion: '5' }, spec: { resources: { requests: { storage: size } } } } as KubeObject);
    const grow = await run([quota('q1', { 'requests.storage': '2Gi' }, { 'requests.storage': '1Gi' })],
      attrs('persistentvolumeclaims', claim('3Gi'), 'UPDATE', { oldObject: claim('1Gi') }));
    assert.equal(grow.err, 'persistentvolumeclaims "c" is forbidden: exceeded quota: q1, requested: requests.storage=2Gi, ' +
      'used: requests.storage=1Gi, limited: requests.storage=2Gi');
    const cm = await run([quota('q1', { 'count/configmaps': '3' }, { 'count/configmaps': '3' })], attrs('configmaps', { metadata: { name: 'x' } }));
    assert.equal(cm.err, 'configmaps "x" is forbidden: exceeded quota: q1, requested: count/configmaps=1, ' +
      'used: count/configmaps=3, limited: count/configmaps=3');
  });
});
