import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { StatusError } from '../apimachinery/errors/status-error.ts';
import { ClientManager } from './client.ts';
import { ErrCallingWebhook, WebhookRequestError } from './errors.ts';
import type { ServiceResolver } from './service-resolver.ts';
import { newTestPKI, startTestWebhookServer, type TestPKI, type TestWebhookServer } from './testing.ts';

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try { await p; } catch (e) { if (e instanceof Error) return e; throw e; }
  throw new Error('expected a rejection');
}

describe('webhook client', () => {
  let pki: TestPKI;
  let otherPKI: TestPKI;
  let server: TestWebhookServer;
  let seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[] = [];

  before(async () => {
    pki = await newTestPKI(['hook.ns1.svc']);
    otherPKI = await newTestPKI();
    server = await startTestWebhookServer(pki, () => undefined);
  });
  after(async () => { await server.close(); });

  const echo = (): void => {
    seen = [];
    server.setHandler((req, body, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ got: JSON.parse(body) as unknown }));
    });
  };

  it('POSTs JSON to the URL with the timeout parameter and returns the decoded answer', async () => {
    echo();
    const c = new ClientManager().hookClient({ name: 'w', url: `${server.url}/convert`, caBundle: pki.caBundle });
    assert.deepEqual(await c.post({ a: 1 }), { got: { a: 1 } });
    assert.deepEqual(await c.post({ a: 2 }, { timeoutMs: 10_000 }), { got: { a: 2 } });
    assert.equal(seen[0]?.method, 'POST');
    assert.equal(seen[0]?.url, '/convert?timeout=30s');
    assert.equal(seen[1]?.url, '/convert?timeout=10s');
    assert.equal(seen[0]?.headers['content-type'], 'application/json');
    assert.equal(seen[0]?.headers['user-agent'], 'kube-apiserver-admission');
    assert.equal(seen[0]?.headers['host'], `127.0.0.1:${String(server.port)}`);
  });

  it('resolves a service reference through the resolver and verifies the service DNS name', async () => {
    echo();
    const calls: string[] = [];
    const resolver: ServiceResolver = {
      resolveEndpoint(ns, name, port) {
        calls.push(`${ns}/${name}:${String(port)}`);
        return Promise.resolve(new URL(`https://127.0.0.1:${String(server.port)}`));
      },
    };
    const c = new ClientManager(resolver).hookClient({ name: 'w', service: { namespace: 'ns1', name: 'hook', path: '/v1/convert' }, caBundle: pki.caBundle });
    assert.deepEqual(await c.post({}), { got: {} });
    assert.deepEqual(calls, ['ns1/hook:443']);
    assert.equal(seen[0]?.url, '/v1/convert?timeout=30s');
    assert.equal(seen[0]?.headers['host'], 'hook.ns1.svc:443');
  });

  const failures: { name: string; setup: () => Promise<{ call: Promise<unknown>; url: string }>; want: string; timedOut?: boolean }[] = [
    {
      name: 'connection refused',
      setup: async () => {
        const port = await closedPort();
        const c = new ClientManager().hookClient({ name: 'w', url: `https://127.0.0.1:${String(port)}/x`, caBundle: pki.caBundle });
        return { call: c.post({}), url: `https://127.0.0.1:${String(port)}/x?timeout=30s` };
      },
      want: 'dial tcp 127.0.0.1:PORT: connect: connection refused',
    },
    {
      name: 'a certificate of another CA',
      setup: () => {
        const c = new ClientManager().hookClient({ name: 'w', url: `${server.url}/x`, caBundle: otherPKI.caBundle });
        return Promise.resolve({ call: c.post({}), url: `${server.url}/x?timeout=30s` });
      },
      want: 'tls: failed to verify certificate: x509: certificate signed by unknown authority',
    },
    {
      name: 'no caBundle: the system roots do not know the test CA',
      setup: () => {
        const c = new ClientManager().hookClient({ name: 'w', url: server.url });
        return Promise.resolve({ call: c.post({}), url: `${server.url}/?timeout=30s` });
      },
      want: 'tls: failed to verify certificate: x509: certificate signed by unknown authority',
    },
    {
      name: 'a service whose certificate lacks the service name',
      setup: () => {
        const resolver: ServiceResolver = { resolveEndpoint: () => Promise.resolve(new URL(server.url)) };
        const c = new ClientManager(resolver).hookClient({ name: 'w', service: { namespace: 'other', name: 'hook', port: 8443 }, caBundle: pki.caBundle });
        return Promise.resolve({ call: c.post({}), url: 'https://hook.other.svc:8443/?timeout=30s' });
      },
      want: 'tls: failed to verify certificate: x509: certificate is valid for localhost, hook.ns1.svc, not hook.other.svc',
    },
    {
      name: 'the resolver fails',
      setup: () => {
        const resolver: ServiceResolver = { resolveEndpoint: () => Promise.reject(new Error('service "hook" not found')) };
        const c = new ClientManager(resolver).hookClient({ name: 'w', service: { namespace: 'ns1', name: 'hook' }, caBundle: pki.caBundle });
        return Promise.resolve({ call: c.post({}), url: 'https://hook.ns1.svc:443/?timeout=30s' });
      },
      want: 'service "hook" not found',
    },
    {
      name: 'no answer within the timeout',
      setup: () => {
        server.setHandler(() => undefined);
        const c = new ClientManager().hookClient({ name: 'w', url: `${server.url}/slow`, caBundle: pki.caBundle });
        return Promise.resolve({ call: c.post({}, { timeoutMs: 300 }), url: `${server.url}/slow?timeout=300ms` });
      },
      want: 'context deadline exceeded', timedOut: true,
    },
    {
      name: 'the caller aborts',
      setup: () => {
        server.setHandler(() => undefined);
        const ac = new AbortController();
        const c = new ClientManager().hookClient({ name: 'w', url: `${server.url}/slow`, caBundle: pki.caBundle });
        const call = c.post({}, { signal: ac.signal });
        setTimeout(() => ac.abort(), 50);
        return Promise.resolve({ call, url: `${server.url}/slow?timeout=30s` });
      },
      want: 'context canceled',
    },
    {
      name: 'the server closes the connection without answering',
      setup: () => {
        server.setHandler((req) => req.socket.destroy());
        const c = new ClientManager().hookClient({ name: 'w', url: `${server.url}/x`, caBundle: pki.caBundle });
        return Promise.resolve({ call: c.post({}), url: `${server.url}/x?timeout=30s` });
      },
      want: 'EOF',
    },
  ];
  for (const tc of failures) {
    it(`transport failure: ${tc.name}`, async () => {
      const { call, url } = await tc.setup();
      const err = await rejection(call);
      assert.ok(err instanceof WebhookRequestError, String(err));
      const port = /127\.0\.0\.1:(\d+)/.exec(url)?.[1] ?? '';
      assert.equal(err.message, `Post "${url}": ${tc.want.replace('PORT', port)}`);
      assert.equal(err.timedOut, tc.timedOut ?? false);
    });
  }

  const answers: { name: string; code: number; contentType?: string; body: string; want: { code?: number; reason?: string; message: string; causes?: unknown } }[] = [
    { name: 'a text 500', code: 500, contentType: 'text/plain', body: 'boom\n',
      want: { code: 500, reason: 'InternalError', message: 'an error on the server ("boom") has prevented the request from succeeding',
        causes: [{ reason: 'UnexpectedServerResponse', message: 'boom' }] } },
    { name: 'a JSON 500 that is no Status', code: 500, contentType: 'application/json', body: '{"x":1}',
      want: { code: 500, reason: 'InternalError', message: 'an error on the server ("unknown") has prevented the request from succeeding' } },
    { name: 'a 400', code: 400, contentType: 'application/json', body: '{}',
      want: { code: 400, reason: 'BadRequest', message: 'the server rejected our request for an unknown reason' } },
    { name: 'a 404 without content type', code: 404, body: 'nope',
      want: { code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' } },
    { name: 'a Status', code: 403, contentType: 'application/json',
      body: JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 403, reason: 'Forbidden', message: 'no way' }),
      want: { code: 403, reason: 'Forbidden', message: 'no way' } },
    { name: 'an empty 200', code: 200, contentType: 'application/json', body: '',
      want: { message: '0-length response with status code: 200 and content type: application/json' } },
    // kube's words for these bodies, as a conversion webhook answered them to the oracle
    { name: 'a text 200', code: 200, contentType: 'text/plain', body: 'hello',
      want: { message: 'couldn\'t get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }' } },
    { name: 'broken JSON', code: 200, contentType: 'application/json', body: '{ bad',
      want: { message: 'couldn\'t get version/kind; json parse error: invalid character \'b\' looking for beginning of object key string' } },
  ];
  for (const tc of answers) {
    it(`answer: ${tc.name}`, async () => {
      server.setHandler((_req, _body, res) => {
        if (tc.contentType !== undefined) res.setHeader('content-type', tc.contentType);
        res.statusCode = tc.code;
        res.end(tc.body);
      });
      const c = new ClientManager().hookClient({ name: 'w', url: server.url, caBundle: pki.caBundle });
      const err = await rejection(c.post({}));
      assert.equal(err.message, tc.want.message);
      if (tc.want.code !== undefined) {
        assert.ok(err instanceof StatusError);
        assert.equal(err.status.code, tc.want.code);
        assert.equal(err.status.reason, tc.want.reason);
        if (tc.want.causes !== undefined) assert.deepEqual(err.status.details?.causes, tc.want.causes);
      }
    });
  }

  it('caches clients by address, not by name', () => {
    const m = new ClientManager();
    const a = m.hookClient({ name: 'a', url: server.url, caBundle: pki.caBundle });
    assert.equal(m.hookClient({ name: 'b', url: server.url, caBundle: pki.caBundle }), a);
    assert.notEqual(m.hookClient({ name: 'a', url: server.url, caBundle: otherPKI.caBundle }), a);
    assert.notEqual(m.hookClient({ name: 'a', url: `${server.url}/p`, caBundle: pki.caBundle }), a);
  });

  const badConfigs: { name: string; cc: Parameters<ClientManager['hookClient']>[0]; want: string; calling: boolean }[] = [
    { name: 'neither url nor service', cc: { name: 'w' }, calling: true,
      want: 'failed calling webhook "w": webhook configuration must have either service or URL' },
    { name: 'a CA bundle without certificates', cc: { name: 'w', url: 'https://127.0.0.1', caBundle: Buffer.from('junk').toString('base64') },
      calling: false, want: 'unable to load root certificates: unable to parse bytes as PEM block' },
  ];
  for (const tc of badConfigs) {
    it(`refuses ${tc.name}`, () => {
      assert.throws(() => new ClientManager().hookClient(tc.cc), (e: unknown) => {
        assert.ok(e instanceof Error);
        assert.equal(e instanceof ErrCallingWebhook, tc.calling);
        assert.equal(e.message, tc.want);
        return true;
      });
    });
  }
});

describe('webhook client credentials (kubeconfig users and clusters)', () => {
  let pki: TestPKI;
  let server: TestWebhookServer;
  const seen: (string | undefined)[] = [];
  before(async () => {
    pki = await newTestPKI();
    server = await startTestWebhookServer(pki, (req, _body, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  after(async () => { await server.close(); });

  const cases = [
    { name: 'a bearer token', credentials: { bearerToken: 't0k' }, want: 'Bearer t0k' },
    { name: 'basic auth', credentials: { basicAuth: { username: 'u', password: 'p' } }, want: `Basic ${Buffer.from('u:p').toString('base64')}` },
    { name: 'none', credentials: {}, want: undefined },
  ];
  for (const c of cases) {
    it(`sends ${c.name}`, async () => {
      await new ClientManager().hookClient({ name: 'w', url: server.url, caBundle: pki.caBundle, credentials: c.credentials }).post({});
      assert.equal(seen.at(-1), c.want);
    });
  }

  it('insecure-skip-tls-verify reaches a server no CA verifies', async () => {
    assert.deepEqual(await new ClientManager().hookClient({ name: 'w', url: server.url, credentials: { insecureSkipTLSVerify: true } }).post({}), { ok: true });
  });

  it('tls-server-name is the name verified', async () => {
    const client = new ClientManager().hookClient({ name: 'w', url: server.url, caBundle: pki.caBundle, credentials: { serverName: 'other.example' } });
    await assert.rejects(client.post({}), /x509: certificate is valid for .*, not other\.example$/);
  });
});
