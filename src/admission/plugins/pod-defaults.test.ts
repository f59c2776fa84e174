import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { Attributes } from '../interfaces.ts';
import { defaultTolerationSeconds } from './default-toleration-seconds.ts';
import { priorityAdmission } from './priority.ts';
import { serviceAccountAdmission } from './service-account.ts';

type Spec = Record<string, unknown> & { containers: { name: string; volumeMounts?: { mountPath: string }[] }[] };
const pod = (spec: Partial<Spec> = {}): KubeObject & { spec: Spec } =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'c' }], ...spec } });
const create = (obj: KubeObject): Attributes => ({
  operation: 'CREATE', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
  subresource: '', name: 'p', namespace: 'ns', object: obj, oldObject: undefined, dryRun: false,
});
const ctx = systemContext('ns');

describe('ServiceAccount admission', () => {
  const plugin = serviceAccountAdmission(async (_ns, name) => (name === 'nomount' ? false : name === 'default' ? true : undefined));
  it('runs pods as default and mounts the API access volume in every container', async () => {
    const p = pod({ initContainers: [{ name: 'i' }] });
    await plugin.admit?.(ctx, create(p));
    assert.equal(p.spec['serviceAccountName'], 'default');
    assert.equal(p.spec['serviceAccount'], 'default');
    const volumes = p.spec['volumes'] as { name: string }[];
    assert.match(volumes[0]?.name ?? '', /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    for (const c of [...p.spec.containers, ...(p.spec['initContainers'] as Spec['containers'])]) {
      assert.deepEqual(c.volumeMounts, [{ name: volumes[0]?.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
    }
  });
  it('mounts nothing when the pod or its service account opts out', async () => {
    const optOut = pod({ automountServiceAccountToken: false });
    await plugin.admit?.(ctx, create(optOut));
    assert.equal(optOut.spec['volumes'], undefined);
    const viaSA = pod({ serviceAccountName: 'nomount' });
    await plugin.admit?.(ctx, create(viaSA));
    assert.equal(viaSA.spec['volumes'], undefined);
    assert.equal(viaSA.spec['serviceAccount'], 'nomount');
  });
});

describe('DefaultTolerationSeconds admission', () => {
  it('adds not-ready and unreachable tolerations of 300s, keeping the pod\'s own', async () => {
    const p = pod({ tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }] });
    await defaultTolerationSeconds().admit?.(ctx, create(p));
    assert.deepEqual(p.spec['tolerations'], [
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });
  it('adds nothing when an Exists toleration without a key tolerates everything', async () => {
    const p = pod({ tolerations: [{ operator: 'Exists' }] });
    await defaultTolerationSeconds().admit?.(ctx, create(p));
    assert.deepEqual(p.spec['tolerations'], [{ operator: 'Exists' }]);
  });
});

describe('Priority admission', () => {
  const classes = new Map([['high', { name: 'high', value: 1000, preemptionPolicy: 'Never' }]]);
  const plugin = priorityAdmission({ get: async (n) => classes.get(n), globalDefault: async () => undefined });
  it('sets priority 0 without a class, and the class value with one', async () => {
    const none = pod();
    await plugin.admit?.(ctx, create(none));
    assert.deepEqual([none.spec['priority'], none.spec['preemptionPolicy']], [0, 'PreemptLowerPriority']);
    const high = pod({ priorityClassName: 'high' });
    await plugin.admit?.(ctx, create(high));
    assert.deepEqual([high.spec['priority'], high.spec['preemptionPolicy']], [1000, 'Never']);
  });
  it('keeps the priority set at creation when an update leaves it out', async () => {
    const cases = [
      { name: 'omitted: the old values', spec: {}, want: [1000, 'Never'] },
      { name: 'given: left as sent (validation judges it)', spec: { priority: 5, preemptionPolicy: 'PreemptLowerPriority' }, want: [5, 'PreemptLowerPriority'] },
    ];
    for (const c of cases) {
      const next = pod(c.spec);
      await plugin.admit?.(ctx, { ...create(next), operation: 'UPDATE', oldObject: pod({ priority: 1000, preemptionPolicy: 'Never' }) });
      assert.deepEqual([next.spec['priority'], next.spec['preemptionPolicy']], c.want, c.name);
    }
  });
  it('refuses a missing class with 403', async () => {
    await assert.rejects(plugin.admit?.(ctx, create(pod({ priorityClassName: 'nope' }))) ?? Promise.resolve(), (err: unknown) => {
      const st = (err as { status: { code: number; reason: string; message: string } }).status;
      assert.deepEqual([st.code, st.reason, st.message], [403, 'Forbidden', 'pods "p" is forbidden: no PriorityClass with name nope was found']);
      return true;
    });
  });
});
