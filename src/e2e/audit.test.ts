// Audit as kube-apiserver v1.36 writes it: a policy of every level checked field by field in the
// JSON log, stages (RequestReceived, ResponseStarted for watches and failed authentication,
// ResponseComplete), omitStages and omitManagedFields, the Audit-Id header naming the event,
// annotations of authorization, impersonation, and a webhook backend of the test's own receiving
// EventList batches.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventsOf, readEvents, type EventJSON } from './testing/audit-log.ts';
import { configMap, createNamespace } from './testing/objects.ts';
import { startSuite, type Suite } from './testing/suite.ts';
import { openWatch } from './testing/watch-stream.ts';

const NS = 'e2e-audit';
const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: []
rules:
- level: None
  nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
- level: None
  users: ["system:apiserver"]
- level: RequestResponse
  resources: [{group: "", resources: ["configmaps"]}]
  namespaces: ["${NS}"]
- level: RequestResponse
  omitManagedFields: true
  omitStages: ["RequestReceived"]
  resources: [{group: "", resources: ["services"]}]
- level: Request
  resources: [{group: "", resources: ["secrets"]}]
- level: Metadata
`;
const MICRO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const stages = (evs: readonly EventJSON[]): string[] => evs.map((e) => e.stage);

describe('audit log', () => {
  let s: Suite;
  let dir: string;
  let logPath: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-audit-'));
    logPath = join(dir, 'logs', 'audit.log');
    await writeFile(join(dir, 'policy.yaml'), POLICY);
    await writeFile(join(dir, 'tokens.csv'), 'alice-token,alice,u2,devs\n');
    s = await startSuite({ flags: ['--audit-policy-file', join(dir, 'policy.yaml'), '--audit-log-path', logPath, '--token-auth-file', join(dir, 'tokens.csv')] });
    await createNamespace(s, NS);
  });
  after(async () => {
    await s?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  const request = async (method: string, path: string, body?: string, headers?: Record<string, string>): Promise<{ status: number; auditID: string }> => {
    const r = await s.request({ method, path, ...(body !== undefined ? { body } : {}), ...(headers !== undefined ? { headers } : {}) });
    return { status: r.status, auditID: String(r.headers['audit-id']) };
  };

  it('RequestResponse: both bodies, the objectRef completed, authorization annotations', async () => {
    const r = await request('POST', `/api/v1/namespaces/${NS}/configmaps`, configMap('cm1', { a: 'b' }), { 'user-agent': 'audit-e2e/1.0' });
    assert.equal(r.status, 201);
    const evs = await eventsOf(logPath, r.auditID);
    assert.deepEqual(stages(evs), ['RequestReceived', 'ResponseComplete']);
    const [received, done] = evs as [EventJSON, EventJSON];
    for (const e of evs) {
      assert.equal(e['kind'], 'Event');
      assert.equal(e['apiVersion'], 'audit.k8s.io/v1');
      assert.equal(e.level, 'RequestResponse');
      assert.equal(e.verb, 'create');
      assert.equal(e.requestURI, `/api/v1/namespaces/${NS}/configmaps`);
      assert.deepEqual(e.user, { username: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] });
      assert.deepEqual(e.sourceIPs, ['127.0.0.1']);
      assert.equal(e.userAgent, 'audit-e2e/1.0');
      assert.match(e.requestReceivedTimestamp, MICRO);
      assert.match(e.stageTimestamp, MICRO);
    }
    assert.equal(received.stageTimestamp, received.requestReceivedTimestamp);
    assert.deepEqual(received.objectRef, { resource: 'configmaps', namespace: NS, apiVersion: 'v1' });
    assert.equal(received.responseStatus, undefined);
    assert.equal(received.requestObject, undefined);
    assert.deepEqual(Object.keys(done), ['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs', 'userAgent',
      'objectRef', 'responseStatus', 'requestObject', 'responseObject', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations']);
    assert.deepEqual(done.objectRef, { resource: 'configmaps', namespace: NS, name: 'cm1', apiVersion: 'v1' });
    assert.deepEqual(done.responseStatus, { metadata: {}, code: 201 });
    assert.deepEqual(done.requestObject, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'b' } });
    assert.equal((done.responseObject?.['metadata'] as { namespace: string }).namespace, NS);
    assert.deepEqual(done.annotations, { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' });
  });

  it('RequestResponse of an error: the Status in responseStatus and responseObject', async () => {
    const r = await request('GET', `/api/v1/namespaces/${NS}/configmaps/nope`);
    assert.equal(r.status, 404);
    const done = (await eventsOf(logPath, r.auditID)).find((e) => e.stage === 'ResponseComplete');
    assert.deepEqual(done?.responseStatus, { metadata: {}, status: 'Failure', message: 'configmaps "nope" not found', reason: 'NotFound', details: { name: 'nope', kind: 'configmaps' }, code: 404 });
    assert.equal(done?.responseObject?.['kind'], 'Status');
  });

  it('Request: the request body only', async () => {
    const r = await request('POST', `/api/v1/namespaces/${NS}/secrets`, JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, stringData: { a: 'b' } }));
    assert.equal(r.status, 201);
    const done = (await eventsOf(logPath, r.auditID)).find((e) => e.stage === 'ResponseComplete');
    assert.equal(done?.level, 'Request');
    assert.equal(done?.requestObject?.['kind'], 'Secret');
    assert.equal(done?.responseObject, undefined);
    assert.equal(done?.objectRef?.['name'], 's1');
  });

  it('Metadata: no bodies, a non-resource URL without objectRef', async () => {
    const r = await request('GET', '/version');
    const evs = await eventsOf(logPath, r.auditID);
    assert.deepEqual(stages(evs), ['RequestReceived', 'ResponseComplete']);
    for (const e of evs) {
      assert.equal(e.level, 'Metadata');
      assert.equal(e.verb, 'get');
      assert.equal(e.objectRef, undefined);
      assert.equal(e.requestObject, undefined);
      assert.equal(e.responseObject, undefined);
    }
  });

  it('None: nothing is written', async () => {
    const r = await request('GET', '/readyz');
    assert.equal(r.status, 200);
    const marker = await request('GET', '/version');
    await eventsOf(logPath, marker.auditID);
    assert.deepEqual((await readEvents(logPath)).filter((e) => e.auditID === r.auditID), []);
  });

  it('omitStages and omitManagedFields of a rule', async () => {
    const svc = JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { ports: [{ port: 80 }] } });
    const r = await request('POST', `/api/v1/namespaces/${NS}/services`, svc);
    assert.equal(r.status, 201);
    const evs = await eventsOf(logPath, r.auditID);
    assert.deepEqual(stages(evs), ['ResponseComplete']);
    assert.equal((evs[0]?.responseObject?.['metadata'] as Record<string, unknown>)['managedFields'], undefined);
  });

  it('the client\'s Audit-ID names the event', async () => {
    const r = await request('GET', '/version', undefined, { 'audit-id': 'my-own-audit-id' });
    assert.equal(r.auditID, 'my-own-audit-id');
    assert.deepEqual(stages(await eventsOf(logPath, 'my-own-audit-id')), ['RequestReceived', 'ResponseComplete']);
  });

  it('failed authentication: a ResponseStarted event with the 401 and no user', async () => {
    const res = await s.request({ method: 'GET', path: '/api/v1/namespaces', auth: false, headers: { authorization: 'Bearer not-a-token' } });
    assert.equal(res.status, 401);
    const evs = await eventsOf(logPath, String(res.headers['audit-id']), 'ResponseStarted');
    assert.equal(evs.length, 1);
    assert.deepEqual(evs[0]?.user, {});
    assert.deepEqual(evs[0]?.responseStatus, { metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    assert.deepEqual(evs[0]?.objectRef, { resource: 'namespaces', apiVersion: 'v1' });
  });

  it('impersonation: the user and the impersonated user', async () => {
    const r = await request('GET', '/version', undefined, { 'impersonate-user': 'alice' });
    const done = (await eventsOf(logPath, r.auditID)).find((e) => e.stage === 'ResponseComplete');
    assert.equal(done?.user.username, 'kapi-admin');
    assert.equal(done?.impersonatedUser?.username, 'alice');
  });

  it('a watch: ResponseStarted when it starts, ResponseComplete when it ends', async () => {
    const w = await openWatch(s.creds, `/api/v1/namespaces/${NS}/configmaps?watch=1&resourceVersion=0&timeoutSeconds=1`);
    await w.waitEnded('the watch to time out');
    const all = await readEvents(logPath);
    const id = all.find((e) => e.verb === 'watch' && e.requestURI.includes('timeoutSeconds=1'))?.auditID ?? '';
    const evs = await eventsOf(logPath, id);
    assert.deepEqual(stages(evs), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    assert.deepEqual(evs[1]?.responseStatus, { metadata: {}, code: 200 });
  });
});

describe('audit webhook backend', () => {
  let s: Suite;
  let dir: string;
  let receiver: Server;
  const batches: { kind: string; apiVersion: string; items: EventJSON[] }[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-audit-webhook-'));
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        batches.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof batches)[number]);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as AddressInfo).port;
    await writeFile(join(dir, 'policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  users: ["system:apiserver"]\n- level: Metadata\n');
    await writeFile(join(dir, 'webhook.kubeconfig'), `apiVersion: v1
kind: Config
clusters: [{name: audit, cluster: {server: "http://127.0.0.1:${port}/audit"}}]
users: [{name: kapi, user: {token: "webhook-token"}}]
contexts: [{name: default, context: {cluster: audit, user: kapi}}]
current-context: default
`);
    s = await startSuite({ flags: ['--audit-policy-file', join(dir, 'policy.yaml'), '--audit-webhook-config-file', join(dir, 'webhook.kubeconfig'),
      '--audit-webhook-batch-max-size', '3', '--audit-webhook-batch-max-wait', '100ms'] });
  });
  after(async () => {
    await s?.close();
    await new Promise((r) => receiver?.close(r));
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('receives EventList batches of at most the batch size holding every stage', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(String((await s.request({ method: 'GET', path: '/version' })).headers['audit-id']));
    const items = (): EventJSON[] => batches.flatMap((b) => b.items);
    for (let t = 0; t < 200 && !ids.every((id) => items().some((e) => e.auditID === id && e.stage === 'ResponseComplete')); t++) await sleep(50);
    for (const b of batches) {
      assert.equal(b.kind, 'EventList');
      assert.equal(b.apiVersion, 'audit.k8s.io/v1');
      assert.ok(b.items.length >= 1 && b.items.length <= 3, `batch of ${b.items.length}`);
    }
    for (const id of ids) assert.deepEqual(items().filter((e) => e.auditID === id).map((e) => e.stage), ['RequestReceived', 'ResponseComplete'], id);
  });
});
