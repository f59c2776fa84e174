import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { Attributes } from '../interfaces.ts';
import { defaultTolerationSeconds } from './default-toleration-seconds.ts';
import { priorityAdmission } from './priority.ts';
import { serviceAccountAdmission, type ServiceAccountLike } from './service-account.ts';

type Spec = Record<string, unknown> & { containers: { name: string; volumeMounts?: { mountPath: string }[] }[] };
const pod = (spec: Partial<Spec> = {}): KubeObject & { spec: Spec } =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'c' }], ...spec } });
const create = (obj: KubeObject): Attributes => ({
  operation: 'CREATE', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
  subresource: '', name: 'p', namespace: 'ns', object: obj, oldObject: undefined, dryRun: false,
});
const ctx = systemContext('ns');

describe('ServiceAccount admission', () => {
  const accounts: Record<string, ServiceAccountLike> = {
    default: { metadata: { name: 'default' } },
    nomount: { metadata: { name: 'nomount' }, automountServiceAccountToken: false },
  };
  const plugin = serviceAccountAdmission(async (_ns, name) => accounts[name], { retryDelayMs: 0 });
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

describe('ServiceAccount admission, as kube', () => {
  const accounts: Record<string, ServiceAccountLike> = {
    default: { metadata: { name: 'default' }, imagePullSecrets: [{ name: 'regcred' }] },
    strict: { metadata: { name: 'strict', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'ok' }] },
  };
  const plugin = serviceAccountAdmission(async (_ns, name) => accounts[name], { retryDelayMs: 0 });
  const forbidden = (p: Promise<void> | undefined, message: string) => assert.rejects(p ?? Promise.resolve(), (err: unknown) => {
    const st = (err as { status: { code: number; reason: string; message: string } }).status;
    assert.deepEqual([st.code, st.reason, st.message], [403, 'Forbidden', message]);
    return true;
  });
  const refusals = [
    { name: 'a service account that does not exist', spec: { serviceAccountName: 'ghost' },
      want: 'pods "p" is forbidden: error looking up service account ns/ghost: serviceaccount "ghost" not found' },
    { name: 'a secret volume the enforcing service account does not list', spec: { serviceAccountName: 'strict', volumes: [{ name: 'v', secret: { secretName: 'other' } }] },
      want: 'pods "p" is forbidden: volume with secret.secretName="other" is not allowed because service account strict does not reference that secret' },
    { name: 'an env secret the enforcing service account does not list',
      spec: { serviceAccountName: 'strict', automountServiceAccountToken: false, containers: [{ name: 'c', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'other', key: 'k' } } }] }] },
      want: 'pods "p" is forbidden: container c with envVar E referencing secret.secretName="other" is not allowed because service account strict does not reference that secret' },
  ];
  for (const c of refusals) it(`refuses ${c.name}`, () => forbidden(plugin.admit?.(ctx, create(pod(c.spec))), c.want));
  const mirror = [
    { name: 'a service account', spec: { serviceAccountName: 'default' }, want: 'pods "p" is forbidden: a mirror pod may not reference service accounts' },
    { name: 'secrets', spec: { volumes: [{ name: 'v', secret: { secretName: 's' } }] }, want: 'pods "p" is forbidden: a mirror pod may not reference secrets' },
  ];
  for (const c of mirror) {
    it(`refuses a mirror pod with ${c.name}`, () => {
      const p = pod(c.spec);
      p.metadata.annotations = { 'kubernetes.io/config.mirror': 'x' };
      return forbidden(plugin.admit?.(ctx, create(p)), c.want);
    });
  }
  it('copies the service account\'s image pull secrets to a pod without any', async () => {
    const p = pod();
    await plugin.admit?.(ctx, create(p));
    assert.deepEqual(p.spec['imagePullSecrets'], [{ name: 'regcred' }]);
  });
  it('reuses an existing kube-api-access volume and skips containers that mount the path already', async () => {
    const p = pod({ volumes: [{ name: 'kube-api-access-abcde', emptyDir: {} }],
      containers: [{ name: 'a' }, { name: 'b', volumeMounts: [{ mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] }] });
    await plugin.admit?.(ctx, create(p));
    assert.deepEqual(p.spec['volumes'], [{ name: 'kube-api-access-abcde', emptyDir: {} }]);
    assert.deepEqual(p.spec.containers[0]?.volumeMounts, [{ name: 'kube-api-access-abcde', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
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
  it('uses the flags\' seconds for each taint (--default-not-ready/unreachable-toleration-seconds)', async () => {
    const p = pod({});
    await defaultTolerationSeconds(60, 120).admit?.(ctx, create(p));
    assert.deepEqual(p.spec['tolerations'], [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
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
