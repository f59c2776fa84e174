import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { attributesRecord, type Attributes } from './authorizer.ts';
import { compileMatchCondition } from './match-conditions.ts';
import { WebhookAuthorizer, type WebhookAuthorizerOptions } from './webhook.ts';
import { ClientManager, type Backoff } from '../webhook/index.ts';
import { newTestPKI, startTestWebhookServer, type TestPKI, type TestWebhookServer } from '../webhook/testing.ts';
import type { Program } from '../cel/index.ts';

/** No pauses between tries: the tests count calls, not time. */
const NO_WAIT: Backoff = { durationMs: 0, factor: 1, jitter: 0, steps: 5 };
const alice = { name: 'alice', groups: ['dev'] };
const getPod = (more: Partial<Attributes> = {}): Attributes => attributesRecord({
  user: alice, verb: 'get', resourceRequest: true, namespace: 'ns', apiVersion: 'v1', resource: 'pods', name: 'p', ...more,
});

type Reply = { code: number; body: string; headers?: Record<string, string> };
const json = (status: Record<string, unknown>): Reply => ({ code: 200, body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status }) });

describe('WebhookAuthorizer', () => {
  let pki: TestPKI;
  let server: TestWebhookServer;
  let reply: Reply = json({ allowed: true });
  const bodies: Record<string, unknown>[] = [];
  before(async () => {
    pki = await newTestPKI();
    server = await startTestWebhookServer(pki, (_req, body, res) => {
      bodies.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(reply.code, { 'content-type': reply.code === 200 ? 'application/json' : 'text/plain', ...reply.headers });
      res.end(reply.body);
    });
  });
  after(async () => { await server.close(); });

  const authorizer = (opts: Partial<WebhookAuthorizerOptions> = {}): WebhookAuthorizer => new WebhookAuthorizer({
    client: new ClientManager().hookClient({ name: 'test', url: `${server.url}/authorize`, caBundle: pki.caBundle }),
    version: 'v1', authorizedTTLMs: 300_000, unauthorizedTTLMs: 30_000, timeoutMs: 5_000, decisionOnError: 'NoOpinion', backoff: NO_WAIT, ...opts,
  });

  const decisions = [
    { name: 'allowed', status: { allowed: true, reason: 'ok' }, want: { decision: 'Allow', reason: 'ok' } },
    { name: 'denied', status: { allowed: false, denied: true, reason: 'no' }, want: { decision: 'Deny', reason: 'no' } },
    { name: 'neither', status: { allowed: false, reason: 'dunno' }, want: { decision: 'NoOpinion', reason: 'dunno' } },
  ];
  for (const c of decisions) {
    it(`a review answered ${c.name}`, async () => {
      reply = json(c.status);
      assert.deepEqual(await authorizer().authorize(getPod()), c.want);
    });
  }

  it('allowed and denied at once is a deny with an error', async () => {
    reply = json({ allowed: true, denied: true, reason: 'both' });
    const r = await authorizer().authorize(getPod());
    assert.equal(r.decision, 'Deny');
    assert.equal(r.error?.message, 'webhook subject access review returned both allow and deny response');
  });

  const retries = [
    { name: 'a 500 without a Status is tried five times', reply: { code: 500, body: 'boom' }, calls: 5, error: 'an error on the server ("boom") has prevented the request from succeeding' },
    { name: 'a 429 is tried five times', reply: { code: 429, body: 'slow down' }, calls: 5, error: 'the server has received too many requests and has asked us to try again later' },
    { name: 'a 504 is tried five times', reply: { code: 504, body: 'late' }, calls: 5, error: 'the server was unable to return a response in the time allotted, but may still be processing the request' },
    { name: 'a 403 is not tried again', reply: { code: 403, body: 'no' }, calls: 1, error: 'no' },
    { name: 'a 400 is not tried again', reply: { code: 400, body: 'bad' }, calls: 1, error: 'the server rejected our request for an unknown reason' },
  ];
  for (const c of retries) {
    it(c.name, async () => {
      reply = c.reply;
      const before = bodies.length;
      const r = await authorizer({ decisionOnError: 'Deny' }).authorize(getPod());
      assert.equal(bodies.length - before, c.calls);
      assert.equal(r.decision, 'Deny');
      assert.equal(r.error?.message, c.error);
    });
  }

  it('a webhook that is down: no opinion with the error under NoOpinion, one try', async () => {
    const dead = new WebhookAuthorizer({
      client: new ClientManager().hookClient({ name: 'dead', url: 'https://127.0.0.1:1/authorize', caBundle: pki.caBundle }),
      version: 'v1', authorizedTTLMs: 1, unauthorizedTTLMs: 1, timeoutMs: 5_000, decisionOnError: 'NoOpinion', backoff: NO_WAIT,
    });
    const r = await dead.authorize(getPod());
    assert.equal(r.decision, 'NoOpinion');
    assert.equal(r.error?.message, 'Post "https://127.0.0.1:1/authorize?timeout=5s": dial tcp 127.0.0.1:1: connect: connection refused');
  });

  const caching = [
    { name: 'an allow is remembered for authorizedTTL', status: { allowed: true }, advanceMs: 299_999, calls: 1 },
    { name: 'an allow is asked again after authorizedTTL', status: { allowed: true }, advanceMs: 300_000, calls: 2 },
    { name: 'a no-opinion is remembered for unauthorizedTTL', status: { allowed: false }, advanceMs: 29_999, calls: 1 },
    { name: 'a deny is asked again after unauthorizedTTL', status: { allowed: false, denied: true }, advanceMs: 30_000, calls: 2 },
  ];
  for (const c of caching) {
    it(c.name, async () => {
      reply = json(c.status);
      let now = 0;
      const a = authorizer({ now: () => now });
      const before = bodies.length;
      await a.authorize(getPod());
      now += c.advanceMs;
      await a.authorize(getPod());
      assert.equal(bodies.length - before, c.calls);
    });
  }

  it('a TTL of 0 (caching off) asks every time', async () => {
    reply = json({ allowed: true });
    const a = authorizer({ authorizedTTLMs: 0 });
    const before = bodies.length;
    await a.authorize(getPod());
    await a.authorize(getPod());
    assert.equal(bodies.length - before, 2);
  });

  it('requester-controlled attributes of 10000 bytes or more are not cached', async () => {
    reply = json({ allowed: true });
    const a = authorizer();
    const before = bodies.length;
    const big = getPod({ name: 'n'.repeat(10_000) });
    await a.authorize(big);
    await a.authorize(big);
    assert.equal(bodies.length - before, 2);
  });

  it('v1beta1 reviews name the groups `group`', async () => {
    reply = json({ allowed: true });
    await authorizer({ version: 'v1beta1' }).authorize(getPod({ user: { name: 'bob', uid: 'u1', groups: ['g'], extra: { k: ['v'] } } }));
    assert.deepEqual(bodies.at(-1), {
      kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1beta1', metadata: {},
      spec: { user: 'bob', group: ['g'], extra: { k: ['v'] }, uid: 'u1', resourceAttributes: { namespace: 'ns', verb: 'get', version: 'v1', resource: 'pods', name: 'p' } },
      status: { allowed: false },
    });
  });

  const programs = (...exprs: string[]): Program[] => exprs.map((e) => {
    const r = compileMatchCondition(e);
    if (r.program === undefined) throw new Error(r.error);
    return r.program;
  });
  const conditions = [
    { name: 'all true: the webhook is asked', exprs: ["request.user == 'alice'", "'dev' in request.groups"], attrs: getPod(), calls: 1, decision: 'Allow' },
    { name: 'one false: no opinion without asking', exprs: ["request.user == 'alice'", "request.resourceAttributes.resource == 'secrets'"], attrs: getPod(), calls: 0, decision: 'NoOpinion' },
    {
      name: 'an error without a false: the failure policy, without asking',
      exprs: ["request.resourceAttributes.resource == 'pods'"], attrs: attributesRecord({ user: alice, verb: 'get', path: '/healthz' }), calls: 0, decision: 'Deny',
    },
    {
      name: 'a false wins over an error',
      exprs: ["request.resourceAttributes.resource == 'pods'", "request.user == 'bob'"], attrs: attributesRecord({ user: alice, verb: 'get', path: '/healthz' }), calls: 0, decision: 'NoOpinion',
    },
  ];
  for (const c of conditions) {
    it(`matchConditions: ${c.name}`, async () => {
      reply = json({ allowed: true });
      const before = bodies.length;
      const r = await authorizer({ matchConditions: programs(...c.exprs), decisionOnError: 'Deny' }).authorize(c.attrs);
      assert.equal(bodies.length - before, c.calls);
      assert.equal(r.decision, c.decision);
      if (c.decision === 'Deny') assert.match(r.error?.message ?? '', /^cel evaluation error: expression 'request\.resourceAttributes\.resource == 'pods'' resulted in error: /);
    });
  }
});
