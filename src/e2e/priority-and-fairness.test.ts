// API priority and fairness end to end: the bootstrap FlowSchemas and PriorityLevelConfigurations
// with their annotation and Dangling status, the X-Kubernetes-PF-* headers naming what a request
// matched, and a noisy user whose priority level is full getting kube's 429 (plain text,
// Retry-After) while another user and system:masters are served; the dump endpoints show it.
// Requests hold their seat by sending a body slowly (priority and fairness runs before the body
// is read, as in kube).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientRequest } from 'node:http';
import { rawRequest, type AdminCredentials } from './testing/https-client.ts';
import { parsePrometheusText, sampleValue } from './testing/prometheus.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const TOKENS = 'noisy-token,noisy,2001\nquiet-token,quiet,2002\n';
const FC = '/apis/flowcontrol.apiserver.k8s.io/v1';

interface Named { metadata: { name: string; uid: string; annotations?: Record<string, string> }; status?: { conditions?: { type: string; status: string; reason: string }[] } }

/** A create whose body never completes: it holds its seat until the test destroys it. */
function slowCreate(creds: AdminCredentials, token: string): ClientRequest {
  const u = new URL(creds.server);
  const r = httpsRequest({
    hostname: u.hostname, port: u.port, path: '/api/v1/namespaces/default/configmaps', method: 'POST', ca: creds.ca, agent: false,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': '1000' },
  });
  r.on('error', () => {});
  r.write('{"apiVersion":"v1",');
  return r;
}

/** A watch as the token's user: resolves once its answer's headers arrive. */
function openWatchAs(creds: AdminCredentials, token: string): Promise<{ status: number; close: () => void }> {
  const u = new URL(creds.server);
  return new Promise((resolve, reject) => {
    const r = httpsRequest({
      hostname: u.hostname, port: u.port, path: '/api/v1/namespaces/default/configmaps?watch=1', method: 'GET', ca: creds.ca, agent: false,
      headers: { Authorization: `Bearer ${token}` },
    }, (res) => {
      res.on('data', () => {});
      res.on('error', () => {});
      resolve({ status: res.statusCode ?? 0, close: () => r.destroy() });
    });
    r.on('error', reject);
    r.end();
  });
}

describe('API priority and fairness', () => {
  let s: Suite;
  let dir: string;
  const as = (token: string): AdminCredentials => ({ ...s.creds, token });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-apf-'));
    await writeFile(join(dir, 'tokens.csv'), TOKENS);
    s = await startSuite({ flags: ['--token-auth-file', join(dir, 'tokens.csv')] });
  });
  after(async () => {
    await s?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('creates the mandatory and suggested objects, annotated, with a Dangling condition that is False', async () => {
    const fss = await eventually('flow schemas with status', async () => {
      const items = ((await s.request({ method: 'GET', path: `${FC}/flowschemas` })).json() as { items: Named[] }).items;
      return items.length === 11 && items.every((i) => i.status?.conditions !== undefined) ? items : undefined;
    });
    assert.deepEqual(fss.map((f) => f.metadata.name), ['catch-all', 'exempt', 'global-default', 'kube-controller-manager', 'kube-scheduler',
      'kube-system-service-accounts', 'probes', 'service-accounts', 'system-leader-election', 'system-node-high', 'system-nodes']);
    for (const f of fss) {
      assert.equal(f.metadata.annotations?.['apf.kubernetes.io/autoupdate-spec'], 'true', f.metadata.name);
      assert.deepEqual(f.status?.conditions?.map((c) => [c.type, c.status, c.reason]), [['Dangling', 'False', 'Found']], f.metadata.name);
    }
    const pls = ((await s.request({ method: 'GET', path: `${FC}/prioritylevelconfigurations` })).json() as { items: Named[] }).items;
    assert.deepEqual(pls.map((p) => p.metadata.name), ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system',
      'workload-high', 'workload-low']);
  });

  it('names the matched FlowSchema and priority level in the answer headers', async () => {
    const uid = async (kind: string, name: string): Promise<string> =>
      ((await s.request({ method: 'GET', path: `${FC}/${kind}/${name}` })).json() as Named).metadata.uid;
    const cases = [
      { name: 'system:masters: exempt', token: s.creds.token, fs: 'exempt', pl: 'exempt' },
      { name: 'another user: global-default', token: 'quiet-token', fs: 'global-default', pl: 'global-default' },
    ];
    for (const c of cases) {
      const r = await rawRequest(as(c.token), { method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
      assert.equal(r.status, 200, c.name);
      assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], await uid('flowschemas', c.fs), c.name);
      assert.equal(r.headers['x-kubernetes-pf-prioritylevel-uid'], await uid('prioritylevelconfigurations', c.pl), c.name);
    }
  });

  it('rejects a flood from one user with 429 while another user and system:masters are served', async () => {
    // A level of one share (3 of the 600 seats), which neither lends nor borrows, for the noisy user only.
    const pl = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'noisy' },
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse: { type: 'Reject' } } } };
    const fs = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'noisy' },
      spec: { priorityLevelConfiguration: { name: 'noisy' }, matchingPrecedence: 100, distinguisherMethod: { type: 'ByUser' },
        rules: [{ subjects: [{ kind: 'User', user: { name: 'noisy' } }],
          resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }] }] } };
    assert.equal((await s.request({ method: 'POST', path: `${FC}/prioritylevelconfigurations`, body: JSON.stringify(pl) })).status, 201);
    const created = await s.request({ method: 'POST', path: `${FC}/flowschemas`, body: JSON.stringify(fs) });
    assert.equal(created.status, 201);
    const fsUID = (created.json() as Named).metadata.uid;
    await eventually('the noisy FlowSchema in use', async () => {
      const r = await rawRequest(as('noisy-token'), { method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
      return r.headers['x-kubernetes-pf-flowschema-uid'] === fsUID ? true : undefined;
    });

    // A watch holds its seat only until it is established: more watches than seats all start.
    const watches = await Promise.all([0, 1, 2, 3, 4].map(() => openWatchAs(s.creds, 'noisy-token')));
    try {
      assert.deepEqual(watches.map((w) => w.status), [200, 200, 200, 200, 200]);
      assert.equal((await rawRequest(as('noisy-token'), { method: 'GET', path: '/api/v1/namespaces/default/configmaps' })).status, 200);
    } finally {
      for (const w of watches) w.close();
    }

    const held = [0, 1, 2].map(() => slowCreate(s.creds, 'noisy-token'));
    try {
      await eventually('three noisy requests executing', async () => {
        const dump = (await s.request({ method: 'GET', path: '/debug/api_priority_and_fairness/dump_requests' })).text;
        return dump.split('\n').filter((l) => l.startsWith('noisy,')).length === 3 ? true : undefined;
      });
      const rejected = await rawRequest(as('noisy-token'), { method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
      assert.equal(rejected.status, 429);
      assert.equal(rejected.text, 'Too many requests, please try again later.\n');
      assert.equal(rejected.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(rejected.headers['retry-after'], '1');
      assert.equal(rejected.headers['x-kubernetes-pf-flowschema-uid'], fsUID);

      for (const token of ['quiet-token', s.creds.token]) {
        const r = await rawRequest(as(token), { method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
        assert.equal(r.status, 200, `${token}: ${r.text}`);
      }
      const levels = (await s.request({ method: 'GET', path: '/debug/api_priority_and_fairness/dump_priority_levels' })).text;
      const noisy = levels.split('\n').find((l) => l.startsWith('noisy,'))?.split(/,\s*/);
      // name, active queues, idle, quiescing, waiting, executing, dispatched, rejected
      assert.deepEqual(noisy?.slice(4, 6), ['0', '3']);
      assert.ok(Number(noisy?.[7]) >= 1, levels);
      // The apiserver_flowcontrol_* metrics see it too, with kube's names and labels.
      const m = parsePrometheusText((await s.request({ method: 'GET', path: '/metrics' })).text);
      const noisyLabels = { flow_schema: 'noisy', priority_level: 'noisy' };
      assert.ok((sampleValue(m, 'apiserver_flowcontrol_rejected_requests_total', { ...noisyLabels, reason: 'concurrency-limit' }) ?? 0) >= 1);
      // A request the server refused in self-defense (kube's RecordRequestTermination).
      assert.ok((sampleValue(m, 'apiserver_request_terminations_total', { verb: 'LIST', group: '', version: 'v1', resource: 'configmaps',
        subresource: '', scope: 'namespace', component: 'apiserver', code: '429' }) ?? 0) >= 1);
      // Seats re-divided every 10 s: noisy neither lends nor borrows, so it keeps its 3.
      assert.equal(sampleValue(m, 'apiserver_flowcontrol_current_limit_seats', { priority_level: 'noisy' }), 3);
      assert.equal(m.get('apiserver_flowcontrol_demand_seats_smoothed')?.type, 'gauge');
      assert.ok((sampleValue(m, 'apiserver_flowcontrol_work_estimated_seats_count', noisyLabels) ?? 0) >= 1);
      assert.equal(sampleValue(m, 'apiserver_flowcontrol_current_executing_requests', noisyLabels), 3);
      assert.equal(sampleValue(m, 'apiserver_flowcontrol_nominal_limit_seats', { priority_level: 'noisy' }), 3);
      assert.equal(sampleValue(m, 'apiserver_flowcontrol_nominal_limit_seats', { priority_level: 'global-default' }), 49);
      assert.equal(m.get('apiserver_flowcontrol_dispatched_requests_total')?.type, 'counter');
      assert.ok((sampleValue(m, 'apiserver_flowcontrol_request_wait_duration_seconds_count',
        { execute: 'true', flow_schema: 'exempt', priority_level: 'exempt' }) ?? 0) >= 1);
    } finally {
      for (const r of held) r.destroy();
    }
    // The seats come back: the noisy user is served again.
    await eventually('noisy served again', async () => {
      const r = await rawRequest(as('noisy-token'), { method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
      return r.status === 200 ? true : undefined;
    });
  });

  it('marks a FlowSchema whose priority level is gone Dangling, and sends its requests to catch-all', async () => {
    const fs = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'orphan' },
      spec: { priorityLevelConfiguration: { name: 'no-such-level' }, matchingPrecedence: 50,
        rules: [{ subjects: [{ kind: 'User', user: { name: 'quiet' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] } };
    assert.equal((await s.request({ method: 'POST', path: `${FC}/flowschemas`, body: JSON.stringify(fs) })).status, 201);
    const cond = await eventually('a Dangling condition', async () => {
      const got = (await s.request({ method: 'GET', path: `${FC}/flowschemas/orphan` })).json() as Named;
      return got.status?.conditions?.find((c) => c.type === 'Dangling');
    });
    assert.deepEqual([cond.status, cond.reason, (cond as { message?: string }).message], ['True', 'NotFound',
      'This FlowSchema references the PriorityLevelConfiguration object named "no-such-level" but there is no such object']);
    // The dangling schema is skipped: quiet's requests still match global-default.
    const gd = ((await s.request({ method: 'GET', path: `${FC}/flowschemas/global-default` })).json() as Named).metadata.uid;
    const r = await rawRequest(as('quiet-token'), { method: 'GET', path: '/version' });
    assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], gd);
  });
});
