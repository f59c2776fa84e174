// HTTP/2 as kube-apiserver serves it: ALPN picks h2 (http/1.1 for clients that ask for it or send
// no ALPN, and with --disable-http2-serving), every kind of answer works over h2 (objects, errors,
// watches), the SETTINGS kube sends (--http2-max-streams-per-connection, default 100), and
// --goaway-chance: GOAWAY on about that fraction of h2 requests, never on HTTP/1.1, no request lost.
// No Go counterpart: the e2e test harness (behaviour of secure_serving.go and filters/goaway.go).
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { connect as h2connect, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { Agent, get as httpsGet } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { connect as tlsConnect } from 'node:tls';
import { startServer } from '../cli/serve.ts';
import type { RunningServer } from '../cli/serve.ts';
import { loadAdminCredentials, rawRequest, type AdminCredentials } from './testing/https-client.ts';

interface H2Answer { readonly status: number; readonly headers: IncomingHttpHeaders; readonly text: string }

function h2session(creds: AdminCredentials): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    // Resolved once the server's SETTINGS are in (remoteSettings is Node's default before).
    const s = h2connect(creds.server, { ca: creds.ca });
    s.once('remoteSettings', () => { s.off('error', reject); resolve(s); });
    s.once('error', reject);
  });
}

function h2request(s: ClientHttp2Session, creds: AdminCredentials, method: string, path: string, body?: string): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const st = s.request({
      ':method': method, ':path': path, authorization: `Bearer ${creds.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    });
    let headers: IncomingHttpHeaders = {};
    let text = '';
    st.setEncoding('utf8');
    st.on('response', (h) => { headers = h; });
    st.on('data', (d: string) => { text += d; });
    st.on('end', () => resolve({ status: Number(headers[':status']), headers, text }));
    st.on('error', reject);
    st.end(body);
  });
}

/** The protocol ALPN settles on when the client offers `protocols`. */
function negotiated(creds: AdminCredentials, protocols: string[] | undefined): Promise<string | false> {
  const u = new URL(creds.server);
  return new Promise((resolve, reject) => {
    const sock = tlsConnect({ host: u.hostname, port: Number(u.port), ca: creds.ca, ...(protocols !== undefined ? { ALPNProtocols: protocols } : {}) },
      () => { resolve(sock.alpnProtocol ?? false); sock.end(); });
    sock.on('error', reject);
  });
}

describe('HTTP/2 serving', () => {
  let server: RunningServer;
  let creds: AdminCredentials;
  before(async () => {
    // RBAC: kube turns anonymous requests off with AlwaysAllow.
    server = await startServer({ flags: ['--http2-max-streams-per-connection', '42', '--authorization-mode', 'RBAC'] });
    creds = await loadAdminCredentials(server.kubeconfigPath);
  });
  after(async () => { await server.close(); });

  const alpn: { name: string; offer: string[] | undefined; want: string | false }[] = [
    { name: 'h2 and http/1.1 offered (Go clients): h2', offer: ['h2', 'http/1.1'], want: 'h2' },
    { name: 'http/1.1 only (upgrades): http/1.1', offer: ['http/1.1'], want: 'http/1.1' },
    { name: 'no ALPN: none, HTTP/1.1 is spoken', offer: undefined, want: false },
  ];
  for (const c of alpn) {
    it(`ALPN: ${c.name}`, async () => { assert.equal(await negotiated(creds, c.offer), c.want); });
  }

  it('sends SETTINGS with the --http2-max-streams-per-connection limit', async () => {
    const s = await h2session(creds);
    try {
      assert.equal(s.remoteSettings.maxConcurrentStreams, 42);
      assert.equal(s.remoteSettings.initialWindowSize, 256 * 1024);
      assert.equal(s.remoteSettings.maxFrameSize, 256 * 1024);
    } finally { s.close(); }
  });

  it('serves objects, errors and writes over h2, without connection-specific headers', async () => {
    const s = await h2session(creds);
    try {
      const cases: { name: string; method: string; path: string; body?: string; status: number; check?: (a: H2Answer) => void }[] = [
        { name: 'discovery', method: 'GET', path: '/api', status: 200, check: (a) => assert.match(a.text, /"APIVersions"/) },
        { name: 'create', method: 'POST', path: '/api/v1/namespaces/default/configmaps', status: 201,
          body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'h2' }, data: { a: 'b' } }) },
        { name: 'get', method: 'GET', path: '/api/v1/namespaces/default/configmaps/h2', status: 200, check: (a) => assert.match(a.text, /"a":"b"/) },
        { name: 'not found Status', method: 'GET', path: '/api/v1/namespaces/default/configmaps/nope', status: 404,
          check: (a) => assert.equal((JSON.parse(a.text) as { reason: string }).reason, 'NotFound') },
        { name: 'health', method: 'GET', path: '/readyz', status: 200, check: (a) => assert.equal(a.text, 'ok') },
        { name: 'priority and fairness headers', method: 'GET', path: '/api/v1/namespaces/default', status: 200,
          check: (a) => assert.equal(typeof a.headers['x-kubernetes-pf-flowschema-uid'], 'string') },
        { name: 'metrics count h2 requests', method: 'GET', path: '/metrics', status: 200,
          check: (a) => assert.match(a.text, /apiserver_request_total\{[^}]*resource="configmaps"[^}]*verb="POST"/) },
        { name: 'a body beyond the limit', method: 'POST', path: '/api/v1/namespaces/default/configmaps', status: 413,
          body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { a: 'x'.repeat(4 * 1024 * 1024) } }),
          check: (a) => assert.equal((JSON.parse(a.text) as { reason: string }).reason, 'RequestEntityTooLarge') },
        { name: 'nothing stored', method: 'GET', path: '/api/v1/namespaces/default/configmaps/big', status: 404 },
      ];
      for (const c of cases) {
        const a = await h2request(s, creds, c.method, c.path, c.body);
        assert.equal(a.status, c.status, `${c.name}: ${a.text}`);
        for (const h of ['connection', 'transfer-encoding', 'keep-alive']) assert.equal(a.headers[h], undefined, `${c.name}: ${h}`);
        assert.equal(typeof a.headers['audit-id'], 'string', c.name);
        c.check?.(a);
      }
    } finally { s.close(); }
  });

  // kube's UnauthenticatedHTTP2DOSMitigation: one request per connection for unauthenticated clients.
  const dos: { name: string; authorization?: string; goaway: boolean; status: number }[] = [
    { name: 'anonymous', goaway: true, status: 200 },
    { name: 'a rejected token', authorization: 'Bearer nope', goaway: true, status: 401 },
    { name: 'an authenticated user', authorization: 'admin', goaway: false, status: 200 },
  ];
  for (const c of dos) {
    it(`GOAWAY after the answer to ${c.name}: ${c.goaway}`, async () => {
      const s = await h2session(creds);
      try {
        let goaway = false;
        s.once('goaway', () => { goaway = true; });
        const auth = c.authorization === 'admin' ? `Bearer ${creds.token}` : c.authorization;
        const status = await new Promise<number>((resolve, reject) => {
          const st = s.request({ ':path': '/livez', ...(auth !== undefined ? { authorization: auth } : {}) });
          let code = 0;
          st.on('response', (h) => { code = Number(h[':status']); });
          st.resume();
          st.on('end', () => resolve(code));
          st.on('error', reject);
        });
        assert.equal(status, c.status);
        // A later request on the session tells whether it was told to go away.
        await new Promise((resolve) => setImmediate(resolve));
        assert.equal(goaway, c.goaway);
      } finally { s.close(); }
    });
  }

  it('streams a watch over h2 event by event', async () => {
    const s = await h2session(creds);
    try {
      const st = s.request({ ':path': '/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3Dh2w', authorization: `Bearer ${creds.token}` });
      st.setEncoding('utf8');
      let got = '';
      const added = new Promise<void>((resolve) => { st.on('data', (d: string) => { got += d; if (got.includes('"ADDED"')) resolve(); }); });
      const headers = await new Promise<IncomingHttpHeaders>((resolve) => st.on('response', resolve));
      assert.equal(headers[':status'], 200);
      assert.equal(headers['transfer-encoding'], undefined);
      await h2request(s, creds, 'POST', '/api/v1/namespaces/default/configmaps',
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'h2w' } }));
      await added;
      st.close();
    } finally { s.close(); }
  });
});

describe('--goaway-chance', () => {
  let server: RunningServer;
  let creds: AdminCredentials;
  before(async () => {
    server = await startServer({ flags: ['--goaway-chance', '0.02'] });
    creds = await loadAdminCredentials(server.kubeconfigPath);
  });
  after(async () => { await server.close(); });

  it('sends GOAWAY after about 2% of h2 requests, and every request is answered', async () => {
    const total = 500;
    let goaways = 0;
    let s = await h2session(creds);
    let gone = false;
    const watch = (x: ClientHttp2Session): void => { x.on('goaway', () => { goaways++; gone = true; }); };
    watch(s);
    for (let i = 0; i < total; i++) {
      if (gone || s.closed || s.destroyed) {
        s.close();
        s = await h2session(creds);
        gone = false;
        watch(s);
      }
      const a = await h2request(s, creds, 'GET', '/api/v1/namespaces/default');
      assert.equal(a.status, 200, a.text);
      assert.equal(a.headers['connection'], undefined);
    }
    s.close();
    // 10 expected; a binomial(500, 0.02) is outside [1, 30] with a chance below 1e-4.
    assert.ok(goaways >= 1 && goaways <= 30, `GOAWAYs: ${goaways} of ${total}`);
  });

  it('leaves HTTP/1.1 connections alone', async () => {
    // One kept-alive connection: rawRequest's own connections ask for Connection: close.
    const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: creds.ca });
    try {
      for (let i = 0; i < 200; i++) {
        const r = await new Promise<IncomingMessage>((resolve, reject) => {
          httpsGet(`${creds.server}/api/v1/namespaces/default`, { agent, headers: { authorization: `Bearer ${creds.token}` } }, (res) => {
            res.resume();
            res.on('end', () => resolve(res));
          }).on('error', reject);
        });
        assert.equal(r.statusCode, 200);
        assert.equal(r.headers['connection'], 'keep-alive');
      }
    } finally { agent.destroy(); }
  });
});

describe('--disable-http2-serving', () => {
  let server: RunningServer;
  let creds: AdminCredentials;
  before(async () => {
    server = await startServer({ flags: ['--disable-http2-serving'] });
    creds = await loadAdminCredentials(server.kubeconfigPath);
  });
  after(async () => { await server.close(); });

  it('offers http/1.1 only', async () => {
    assert.equal(await negotiated(creds, ['h2', 'http/1.1']), 'http/1.1');
    const r = await rawRequest(creds, { method: 'GET', path: '/readyz' });
    assert.equal(r.status, 200);
  });
});

describe('HTTP/2 and graceful shutdown', () => {
  it('sends GOAWAY to open sessions, finishes the stream under way and closes', async () => {
    const server = await startServer();
    const creds = await loadAdminCredentials(server.kubeconfigPath);
    const s = await h2session(creds);
    const goaway = new Promise<number>((resolve) => s.once('goaway', (code: number) => resolve(code)));
    // A watch under way when shutdown starts ends cleanly (kapi ends watches first, as kube).
    const st = s.request({ ':path': '/api/v1/namespaces?watch=true', authorization: `Bearer ${creds.token}` });
    st.resume();
    const ended = new Promise<void>((resolve) => { st.on('end', resolve); st.on('close', resolve); });
    await new Promise((resolve) => st.once('response', resolve));
    await server.close();
    assert.equal(await goaway, 0);
    await ended;
    await new Promise<void>((resolve) => { if (s.closed || s.destroyed) resolve(); else s.once('close', () => resolve()); });
  });
});
