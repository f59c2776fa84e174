// ResourceQuota end to end with kubectl: the quota controller fills in status, admission refuses
// what goes past the hard limits with kube-apiserver's messages, and deleting objects frees quota.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-quota';

interface Quota { status?: { hard?: Record<string, string>; used?: Record<string, string> } }

const podYaml = (name: string, resources: string): string => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: ${NS}}
spec:
  containers:
  - name: c1
    image: busybox
${resources}`;
const withCPU = '    resources: {requests: {cpu: 250m}, limits: {cpu: 500m}}\n';

describe('ResourceQuota', () => {
  let s: Suite;
  const ok = async (args: readonly string[], input?: string): Promise<string> => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const refused = async (args: readonly string[], input?: string): Promise<string> => {
    const r = await s.kubectl(args, input);
    assert.notEqual(r.code, 0, `kubectl ${args.join(' ')} succeeded`);
    return r.stderr;
  };
  const used = async (): Promise<Record<string, string> | undefined> =>
    (JSON.parse(await ok(['get', 'quota', 'q', '-n', NS, '-o', 'json'])) as Quota).status?.used;
  const waitUsed = async (want: Record<string, string>): Promise<void> => {
    let last: Record<string, string> | undefined;
    for (let i = 0; i < 100; i++) {
      last = await used();
      if (JSON.stringify(last) === JSON.stringify(want)) return;
      await sleep(100);
    }
    assert.deepEqual(last, want);
  };

  before(async () => {
    s = await startSuite();
    await ok(['create', 'namespace', NS]);
  });
  after(async () => { await s?.close(); });

  it('the controller counts usage; describe shows Used and Hard', async () => {
    assert.equal(await ok(['create', 'quota', 'q', '-n', NS, '--hard=pods=2,requests.cpu=1,limits.cpu=2,count/configmaps=3']),
      'resourcequota/q created\n');
    // kube-root-ca.crt is the namespace's first configmap.
    await waitUsed({ 'count/configmaps': '1', 'limits.cpu': '0', pods: '0', 'requests.cpu': '0' });
    const q = JSON.parse(await ok(['get', 'quota', 'q', '-n', NS, '-o', 'json'])) as Quota;
    assert.deepEqual(q.status?.hard, { 'count/configmaps': '3', 'limits.cpu': '2', pods: '2', 'requests.cpu': '1' });
    assert.equal(await ok(['describe', 'quota', 'q', '-n', NS]), [
      'Name:             q', `Namespace:        ${NS}`,
      'Resource          Used  Hard', '--------          ----  ----',
      'count/configmaps  1     3', 'limits.cpu        0     2', 'pods              0     2', 'requests.cpu      0     1', ''].join('\n'));
  });

  it('a pod without the tracked compute resources fails the quota', async () => {
    const err = await refused(['apply', '-f', '-'], podYaml('bare', ''));
    assert.match(err, /pods "bare" is forbidden: failed quota: q: must specify limits\.cpu for: c1; requests\.cpu for: c1/);
  });

  it('creates are charged; one past the limit is refused with kube\'s message', async () => {
    await ok(['apply', '-f', '-'], podYaml('p1', withCPU));
    await ok(['apply', '-f', '-'], podYaml('p2', withCPU));
    assert.deepEqual(await used(), { 'count/configmaps': '1', 'limits.cpu': '1', pods: '2', 'requests.cpu': '500m' });
    const err = await refused(['apply', '-f', '-'], podYaml('p3', withCPU));
    assert.match(err, /pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2/);

    await ok(['create', 'configmap', 'a', '-n', NS]);
    await ok(['create', 'configmap', 'b', '-n', NS]);
    assert.equal((await used())?.['count/configmaps'], '3');
    const cm = await refused(['create', 'configmap', 'c', '-n', NS]);
    assert.match(cm, /configmaps "c" is forbidden: exceeded quota: q, requested: count\/configmaps=1, used: count\/configmaps=3, limited: count\/configmaps=3/);
  });

  it('a dry run is checked but not charged', async () => {
    await ok(['delete', 'configmap', 'b', '-n', NS]);
    await waitUsed({ 'count/configmaps': '2', 'limits.cpu': '1', pods: '2', 'requests.cpu': '500m' });
    await ok(['create', 'configmap', 'b', '-n', NS, '--dry-run=server']);
    assert.equal((await used())?.['count/configmaps'], '2');
  });

  it('deleting objects frees quota', async () => {
    await ok(['delete', 'pod', 'p1', '-n', NS, '--wait=false']);
    await waitUsed({ 'count/configmaps': '2', 'limits.cpu': '500m', pods: '1', 'requests.cpu': '250m' });
    await ok(['apply', '-f', '-'], podYaml('p3', withCPU));
  });

  it('raising the hard limits updates status.hard', async () => {
    await ok(['patch', 'quota', 'q', '-n', NS, '-p', '{"spec":{"hard":{"pods":"5"}}}']);
    let hard: Record<string, string> | undefined;
    for (let i = 0; i < 100 && hard?.['pods'] !== '5'; i++) {
      hard = (JSON.parse(await ok(['get', 'quota', 'q', '-n', NS, '-o', 'json'])) as Quota).status?.hard;
      if (hard?.['pods'] !== '5') await sleep(100);
    }
    assert.equal(hard?.['pods'], '5');
    await ok(['apply', '-f', '-'], podYaml('p4', withCPU));
  });
});
