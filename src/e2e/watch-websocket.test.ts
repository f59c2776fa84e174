// Watches over WebSocket (kube's serveWatch with an `Upgrade: websocket` request, served through
// golang.org/x/net/websocket): the handshake and its refusals, one message per event (text for
// JSON, binary protobuf without the length prefix), pings, the client's close and the timeout's
// close (1000). fabric8's kubernetes-client watches this way by default; kapi used to answer such
// a request with a chunked 200, which the client waited on for ever. The same cases run against the
// reference kube-apiserver when its build is cached, so the expectations are kube's own.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AdminCredentials, RawRequest, RawResponse } from './testing/https-client.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { backendFromEnv, startSuite, type Suite } from './testing/suite.ts';
import { openWebSocket, type WsFrame } from './testing/websocket-client.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const WATCH = `${CM}?watch=true&fieldSelector=metadata.name%3Dws-a`;
/** RFC 6455's example key and its accept value. */
const ACCEPT = 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=';
const OP = { text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

interface Server { readonly creds: AdminCredentials; request(req: RawRequest): Promise<RawResponse> }

const hasOpcode = (op: number) => (fs: readonly WsFrame[]): boolean => fs.some((f) => f.opcode === op);

interface Case {
  readonly name: string;
  run(s: Server): Promise<void>;
}

const refusals: readonly { name: string; path?: string; headers: Record<string, string>; status: string; body?: RegExp; header?: [string, string] }[] = [
  { name: 'no Origin: 403 and no body', headers: { Origin: '' }, status: 'HTTP/1.1 403 Forbidden', body: /^$/ },
  { name: 'two subprotocols: 400', headers: { 'Sec-WebSocket-Protocol': 'a, b' }, status: 'HTTP/1.1 400 Bad Request', body: /^$/ },
  {
    name: 'a bad label selector is answered before the upgrade', path: `${CM}?watch=true&labelSelector=a%3D%3D%3D`, headers: {},
    status: 'HTTP/1.1 400 Bad Request', body: /"reason":"BadRequest".*"code":400/,
  },
  {
    // Other upgrades take the same path through the server: exec's answer is a Status, as before.
    name: 'exec on a pod without a node is answered with a Status', path: '/api/v1/namespaces/default/pods/ws-p/exec?command=ls&stdout=true',
    headers: { 'Sec-WebSocket-Protocol': 'v5.channel.k8s.io' },
    status: 'HTTP/1.1 400 Bad Request', body: /"message":"pod ws-p does not have a host assigned","reason":"BadRequest"/,
  },
];

const cases: readonly Case[] = [
  ...refusals.map((r): Case => ({
    name: r.name,
    async run(s) {
      const ws = await openWebSocket(s.creds, r.path ?? WATCH, r.headers);
      ws.stop();
      assert.equal(ws.statusLine, r.status);
      if (r.body !== undefined) assert.match(ws.body, r.body);
    },
  })),
  {
    name: 'JSON: one text message per event',
    async run(s) {
      const ws = await openWebSocket(s.creds, WATCH);
      try {
        assert.equal(ws.statusLine, 'HTTP/1.1 101 Switching Protocols');
        assert.equal(ws.headers['sec-websocket-accept'], ACCEPT);
        assert.equal(ws.headers['sec-websocket-protocol'], undefined);
        const [f] = await ws.waitFor((fs) => fs.length > 0, 'the ADDED event');
        assert.equal(f?.opcode, OP.text);
        const ev = JSON.parse(f?.payload.toString() ?? '') as { type: string; object: { metadata: { name: string } } };
        assert.deepEqual([ev.type, ev.object.metadata.name], ['ADDED', 'ws-a']);
      } finally {
        ws.stop();
      }
    },
  },
  {
    name: 'protobuf: one binary message per event, no length prefix',
    async run(s) {
      const ws = await openWebSocket(s.creds, WATCH, { Accept: 'application/vnd.kubernetes.protobuf' });
      try {
        const [f] = await ws.waitFor((fs) => fs.length > 0, 'the ADDED event');
        assert.equal(f?.opcode, OP.binary);
        // WatchEvent field 1 (type), length 5, "ADDED".
        assert.deepEqual([...(f?.payload.subarray(0, 7) ?? [])], [0x0a, 5, ...Buffer.from('ADDED')]);
      } finally {
        ws.stop();
      }
    },
  },
  {
    name: 'one subprotocol is echoed',
    async run(s) {
      const ws = await openWebSocket(s.creds, WATCH, { 'Sec-WebSocket-Protocol': 'kapi.test' });
      ws.stop();
      assert.equal(ws.headers['sec-websocket-protocol'], 'kapi.test');
    },
  },
  {
    name: 'a ping is answered with its payload',
    async run(s) {
      const ws = await openWebSocket(s.creds, WATCH);
      try {
        ws.send(OP.ping, Buffer.from('hi'));
        const fs = await ws.waitFor(hasOpcode(OP.pong), 'the pong');
        assert.equal(fs.find((f) => f.opcode === OP.pong)?.payload.toString(), 'hi');
      } finally {
        ws.stop();
      }
    },
  },
  {
    name: 'the timeout ends the watch with a close message (1000)',
    async run(s) {
      const ws = await openWebSocket(s.creds, `${WATCH}&timeoutSeconds=1`);
      try {
        const fs = await ws.waitFor(hasOpcode(OP.close), 'the close');
        assert.deepEqual([...(fs.find((f) => f.opcode === OP.close)?.payload ?? [])], [0x03, 0xe8]);
      } finally {
        ws.stop();
      }
    },
  },
  {
    name: 'the client\'s close ends the watch, and the server keeps serving',
    async run(s) {
      const ws = await openWebSocket(s.creds, WATCH);
      try {
        ws.send(OP.close, Buffer.from([0x03, 0xe8]));
        await ws.waitFor(hasOpcode(OP.close), 'the close answer');
        assert.equal((await s.request({ method: 'GET', path: `${CM}/ws-a` })).status, 200);
      } finally {
        ws.stop();
      }
    },
  },
];

async function prepare(s: Server): Promise<void> {
  const post = async (path: string, body: unknown, ok: readonly number[] = [201]): Promise<void> => {
    const r = await s.request({ method: 'POST', path, contentType: 'application/json', body: JSON.stringify(body) });
    assert.ok(ok.includes(r.status), `${path}: ${r.status} ${r.text}`);
  };
  await post(CM, { metadata: { name: 'ws-a' } });
  // kube-apiserver alone has no controller making the default ServiceAccount that pods need.
  await post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } }, [201, 409]);
  await post('/api/v1/namespaces/default/pods', { metadata: { name: 'ws-p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
}

describe('watch over WebSocket on kapi', () => {
  let s: Suite | undefined;
  before(async () => {
    s = await startSuite();
    await prepare(s);
  });
  after(async () => { await s?.close(); });

  for (const c of cases) {
    it(c.name, async () => {
      assert.ok(s !== undefined);
      await c.run(s);
    });
  }
});

// The oracle has its own etcd: once per `npm test`, on the sqlite pass.
const oracleSkip = oracleUnavailable() ?? (backendFromEnv() === 'etcd3' ? 'run on the sqlite pass only' : undefined);
describe('watch over WebSocket on kube-apiserver (the same expectations)', { skip: oracleSkip ?? false }, () => {
  let o: Oracle | undefined;
  before(async () => {
    o = await startOracle();
    await prepare(o);
  });
  after(async () => { await o?.stop(); });

  for (const c of cases) {
    it(c.name, async () => {
      assert.ok(o !== undefined);
      await c.run(o);
    });
  }
});
