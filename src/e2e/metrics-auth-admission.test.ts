// The metrics of authentication, authorization, admission policies and the filters that end
// requests, moving as kube-apiserver v1.36's do: attempts by result with the user name
// compressed, a ValidatingAdmissionPolicy's denials and warnings by policy, binding, error type
// and action, a MutatingAdmissionPolicy's mutations, a timed-out request terminated with 504, and
// a write's watchers seen by the priority and fairness work estimator.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configMap, createNamespace } from './testing/objects.ts';
import { parsePrometheusText, sampleValue, type Family } from './testing/prometheus.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import { openWatch } from './testing/watch-stream.ts';

const NS = 'e2e-metrics-auth';
const AR = '/apis/admissionregistration.k8s.io/v1';

async function scrape(s: Suite): Promise<Map<string, Family>> {
  const r = await s.request({ method: 'GET', path: '/metrics' });
  assert.equal(r.status, 200, r.text.slice(0, 300));
  return parsePrometheusText(r.text);
}

describe('metrics of authentication, authorization, admission policies and terminations', () => {
  let s: Suite;
  let dir: string;
  const value = (m: Map<string, Family>, name: string, labels: Record<string, string> = {}): number => sampleValue(m, name, labels) ?? 0;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-metrics-auth-'));
    await writeFile(join(dir, 'tokens.csv'), 'alice-token,alice@example.com,u1\nbob-token,bob,u2\n');
    s = await startSuite({ flags: ['--authorization-mode=RBAC', '--token-auth-file', join(dir, 'tokens.csv')] });
    await createNamespace(s, NS);
  });
  after(async () => {
    await s?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('counts authentication and authorization attempts by result, users by compressed name', async () => {
    const m0 = await scrape(s);
    const bad = await s.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps`, auth: false, headers: { authorization: 'Bearer wrong' } });
    assert.equal(bad.status, 401);
    const denied = await s.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps`, auth: false, headers: { authorization: 'Bearer alice-token' } });
    assert.equal(denied.status, 403);
    const m1 = await scrape(s);
    const delta = (name: string, labels: Record<string, string>): number => value(m1, name, labels) - value(m0, name, labels);
    assert.equal(delta('authentication_attempts', { result: 'failure' }), 1);
    assert.equal(delta('authentication_duration_seconds_count', { result: 'failure' }), 1);
    // alice and the admin's scrape, both authenticated.
    assert.ok(delta('authentication_attempts', { result: 'success' }) >= 2);
    assert.equal(delta('authenticated_user_requests', { username: 'email_id' }), 1);
    // RBAC has no opinion on alice, and so no authorizer allows her.
    assert.equal(delta('authorization_attempts_total', { result: 'no-opinion' }), 1);
    assert.ok(delta('authorization_attempts_total', { result: 'allowed' }) >= 1);
    assert.equal(m1.get('authorization_duration_seconds')?.type, 'histogram');
    const buckets = (m1.get('authorization_duration_seconds')?.samples ?? []).filter((x) => x.name.endsWith('_bucket')).map((x) => x.labels['le']);
    assert.deepEqual([...new Set(buckets)].slice(0, 3), ['0.001', '0.002', '0.004']);
  });

  it('counts a ValidatingAdmissionPolicy\'s denials and warnings by policy, binding, error type and action', async () => {
    const policy = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'no-bad' },
      spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
        validations: [{ expression: "!has(object.data) || !('bad' in object.data)", message: 'bad data' }] } };
    const binding = (name: string, actions: string[], label: string) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name }, spec: { policyName: 'no-bad', validationActions: actions,
        matchResources: { objectSelector: { matchLabels: { check: label } } } } });
    for (const [path, body] of [['validatingadmissionpolicies', policy], ['validatingadmissionpolicybindings', binding('deny-it', ['Deny'], 'deny')],
      ['validatingadmissionpolicybindings', binding('warn-it', ['Warn'], 'warn')]] as const) {
      const r = await s.request({ method: 'POST', path: `${AR}/${path}`, body: JSON.stringify(body) });
      assert.equal(r.status, 201, r.text);
    }
    const create = (name: string, label: string) => s.request({ method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`,
      body: configMap(name, { bad: 'x' }, { labels: { check: label } }) });
    await eventually('the policy denies', async () => ((await create('d', 'deny')).status === 422 ? true : undefined));
    const m0 = await scrape(s);
    assert.equal((await create('d', 'deny')).status, 422);
    assert.equal((await create('w', 'warn')).status, 201);
    const m1 = await scrape(s);
    const labels = (b: string, action: string) => ({ policy: 'no-bad', policy_binding: b, error_type: 'invalid_error', enforcement_action: action });
    const name = 'apiserver_validating_admission_policy_check_total';
    assert.equal(value(m1, name, labels('deny-it', 'deny')) - value(m0, name, labels('deny-it', 'deny')), 1);
    assert.equal(value(m1, name, labels('warn-it', 'warn')) - value(m0, name, labels('warn-it', 'warn')), 1);
    assert.equal(value(m1, 'apiserver_validating_admission_policy_check_duration_seconds_count', labels('warn-it', 'warn')) -
      value(m0, 'apiserver_validating_admission_policy_check_duration_seconds_count', labels('warn-it', 'warn')), 1);
    // A passing check is not counted.
    assert.equal((await s.request({ method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`, body: configMap('ok', { good: 'x' }, { labels: { check: 'deny' } }) })).status, 201);
    const m2 = await scrape(s);
    assert.equal(value(m2, name, labels('deny-it', 'deny')), value(m1, name, labels('deny-it', 'deny')));
    assert.equal(value(m2, name, { policy: 'no-bad', policy_binding: 'deny-it', error_type: 'no_error', enforcement_action: 'allow' }), 0);
  });

  it('terminates a request past its timeout with 504, and counts it', async () => {
    const m0 = await scrape(s);
    // A create whose body stops half way: its one-second deadline passes while the body is read.
    const status = await new Promise<number>((resolve, reject) => {
      const u = new URL(s.creds.server);
      const r = httpsRequest({ hostname: u.hostname, port: u.port, path: `/api/v1/namespaces/${NS}/configmaps?timeout=1s`, method: 'POST',
        ca: s.creds.ca, agent: false, headers: { Authorization: `Bearer ${s.creds.token}`, 'Content-Type': 'application/json', 'Content-Length': '1000' } },
      (res) => { res.resume(); resolve(res.statusCode ?? 0); r.destroy(); });
      r.on('error', reject);
      r.write('{"apiVersion":"v1",');
    });
    assert.equal(status, 504);
    const m1 = await scrape(s);
    const labels = { verb: 'POST', group: '', version: 'v1', resource: 'configmaps', subresource: '', scope: 'resource', component: 'apiserver', code: '504' };
    assert.equal(value(m1, 'apiserver_request_terminations_total', labels) - value(m0, 'apiserver_request_terminations_total', labels), 1);
    assert.equal(m1.get('apiserver_request_aborts_total')?.type, 'counter');
  });

  it('sees the watchers a write wakes: their count, and the seats it held for them', async () => {
    const watches = await Promise.all(Array.from({ length: 12 }, () => openWatch(s.creds, `/api/v1/namespaces/${NS}/configmaps?watch=1&resourceVersion=0`)));
    try {
      const fsLabels = { flow_schema: 'exempt', priority_level: 'exempt' };
      const m0 = await scrape(s);
      assert.equal((await s.request({ method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`, body: configMap('watched', { a: 'b' }) })).status, 201);
      const m1 = await scrape(s);
      const delta = (name: string, labels: Record<string, string>): number => value(m1, name, labels) - value(m0, name, labels);
      assert.equal(delta('apiserver_flowcontrol_watch_count_samples_count', fsLabels), 1);
      assert.equal(delta('apiserver_flowcontrol_watch_count_samples_sum', fsLabels), 12);
      // ceil(12 / 10) = 2 seats: the create is the one request of the two (the create and the
      // first scrape) not in the 1-seat bucket.
      const seats = 'apiserver_flowcontrol_work_estimated_seats';
      assert.equal(delta(`${seats}_count`, fsLabels) - delta(`${seats}_bucket`, { ...fsLabels, le: '1' }), 1);
      assert.equal(delta(`${seats}_bucket`, { ...fsLabels, le: '2' }), delta(`${seats}_count`, fsLabels));
    } finally {
      for (const w of watches) w.stop();
    }
  });
});
