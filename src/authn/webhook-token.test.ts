import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newWebhookTokenAuthenticator } from './webhook-token.ts';
import { ClientManager, type Backoff } from '../webhook/index.ts';
import { newTestPKI, startTestWebhookServer, type TestPKI, type TestWebhookServer } from '../webhook/testing.ts';

const NO_WAIT: Backoff = { durationMs: 0, factor: 1, jitter: 0, steps: 5 };

describe('webhook token authenticator', () => {
  let pki: TestPKI;
  let server: TestWebhookServer;
  let status: Record<string, unknown> | number = {};
  const bodies: Record<string, unknown>[] = [];
  before(async () => {
    pki = await newTestPKI();
    server = await startTestWebhookServer(pki, (_req, body, res) => {
      const review = JSON.parse(body) as Record<string, unknown>;
      bodies.push(review);
      if (typeof status === 'number') { res.writeHead(status, { 'content-type': 'text/plain' }); res.end('failed'); return; }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: review['apiVersion'], kind: 'TokenReview', status }));
    });
  });
  after(async () => { await server.close(); });

  const authn = (version: 'v1' | 'v1beta1' = 'v1') => newWebhookTokenAuthenticator({
    client: new ClientManager().hookClient({ name: 't', url: server.url, caBundle: pki.caBundle }), version, implicitAudiences: ['api'], backoff: NO_WAIT,
  });
  const user = { username: 'alice', uid: 'u', groups: ['g'], extra: { 'example.com/k': ['v'] } };

  const cases = [
    { name: 'authenticated without audiences: holds for the API audiences', status: { authenticated: true, user }, audiences: ['api'],
      want: { user: { name: 'alice', uid: 'u', groups: ['g'], extra: { 'example.com/k': ['v'] } }, audiences: ['api'] } },
    { name: 'authenticated for the wanted audience', status: { authenticated: true, user, audiences: ['x', 'other'] }, audiences: ['other', 'api'],
      want: { user: { name: 'alice', uid: 'u', groups: ['g'], extra: { 'example.com/k': ['v'] } }, audiences: ['other'] } },
    { name: 'authenticated for other audiences only: unknown', status: { authenticated: true, user, audiences: ['x'] }, audiences: ['api'], want: undefined },
    { name: 'not authenticated: unknown', status: { authenticated: false }, audiences: ['api'], want: undefined },
    { name: 'a user with only a name', status: { authenticated: true, user: { username: 'bob' } }, audiences: ['api'], want: { user: { name: 'bob', groups: [] }, audiences: ['api'] } },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      status = c.status;
      assert.deepEqual(await authn().authenticateToken('tok', c.audiences), c.want);
    });
  }

  it('not authenticated with an error: rejects with it', async () => {
    status = { authenticated: false, error: 'token expired' };
    await assert.rejects(authn().authenticateToken('tok', ['api']), /^Error: token expired$/);
  });

  it('sends the token and audiences in the version asked for', async () => {
    status = { authenticated: false };
    await authn('v1beta1').authenticateToken('tok', ['api']);
    assert.deepEqual(bodies.at(-1), {
      kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1beta1', metadata: {}, spec: { token: 'tok', audiences: ['api'] }, status: { user: {} },
    });
  });

  it('a webhook answering 500 is tried five times, then the request fails', async () => {
    status = 500;
    const before = bodies.length;
    await assert.rejects(authn().authenticateToken('tok', ['api']), /an error on the server \("failed"\) has prevented the request from succeeding/);
    assert.equal(bodies.length - before, 5);
  });
});
