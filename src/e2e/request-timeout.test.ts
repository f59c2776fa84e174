// The request deadline (--request-timeout, or less with ?timeout=) ends requests whose handler is
// still computing, not only those waiting on I/O: kube's 504 Timeout Status, nothing written after
// it, and the server keeps answering.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { asStatus } from './testing/https-client.ts';
import { addOps, configMapJSON, manyKeysJSON } from '../apimachinery/testing/hostile-bodies.ts';
import { createNamespace } from './testing/objects.ts';
import { openWatch } from './testing/watch-stream.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-timeout';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
// kube-apiserver v1.36's timeout filter answers every one of these (asked of the oracle).
const MESSAGE = 'Timeout: request did not complete within the allotted timeout';

describe('the request deadline', () => {
  let s: Suite;
  before(async () => {
    s = await startSuite();
    await createNamespace(s, NS);
    const t = await s.request({ method: 'POST', path: CM, body: configMapJSON('target', '{"a":"b"}') });
    assert.equal(t.status, 201, t.text);
  });
  after(async () => { await s?.close(); });

  // Each request needs milliseconds of decoding or patching, far more than its 1ms deadline.
  const cases = [
    { name: 'create of a 100k-key ConfigMap', method: 'POST', path: `${CM}?timeout=1ms`, contentType: 'application/json',
      body: configMapJSON('slow', manyKeysJSON(100_000)), gone: `${CM}/slow` },
    { name: 'JSON patch of 10000 operations', method: 'PATCH', path: `${CM}/target?timeout=1ms`, contentType: 'application/json-patch+json',
      body: addOps(10_000), unchanged: `${CM}/target` },
    { name: 'PUT of a 100k-key ConfigMap', method: 'PUT', path: `${CM}/target?timeout=1ms`, contentType: 'application/json',
      body: configMapJSON('target', manyKeysJSON(100_000)), unchanged: `${CM}/target` },
  ];
  for (const c of cases) {
    it(`${c.name} past its deadline answers 504 and writes nothing`, async () => {
      const before = c.unchanged === undefined ? undefined : await s.request({ method: 'GET', path: c.unchanged });
      const r = await s.request({ method: c.method, path: c.path, contentType: c.contentType, body: c.body });
      assert.equal(r.status, 504, r.text.slice(0, 300));
      const st = asStatus(r.json());
      assert.deepEqual([st.reason, st.message, st.code], ['Timeout', MESSAGE, 504]);
      // Give a handler that kept going every chance to write, then look.
      await new Promise((res) => setTimeout(res, 200));
      if (c.gone !== undefined) assert.equal((await s.request({ method: 'GET', path: c.gone })).status, 404);
      if (c.unchanged !== undefined) {
        const now = await s.request({ method: 'GET', path: c.unchanged });
        assert.ok(now.text === before?.text, `${c.name}: written after the 504 (now ${now.text.length} bytes)`);
      }
      assert.equal((await s.request({ method: 'GET', path: '/readyz' })).status, 200);
    });
  }

  it('a list of many items past its deadline answers 504', async () => {
    // More items than one slice of the paced list encoding (LIST_SLICE), so the list pauses.
    for (let i = 0; i < 600; i += 20) {
      const batch = Array.from({ length: 20 }, (_, j) => s.request({ method: 'POST', path: CM, body: configMapJSON(`item-${i + j}`, '{"a":"b"}') }));
      for (const r of await Promise.all(batch)) assert.equal(r.status, 201, r.text.slice(0, 200));
    }
    const r = await s.request({ method: 'GET', path: `${CM}?timeout=1ms` });
    assert.equal(r.status, 504, r.text.slice(0, 200));
    assert.equal(asStatus(r.json()).message, MESSAGE);
  });

  it('a body still on its way at the deadline answers 504 then, as kube', async () => {
    const u = new URL(s.creds.server);
    const r = await new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
      const req = httpsRequest({
        hostname: u.hostname, port: u.port, path: `${CM}?timeout=1s`, method: 'POST', ca: s.creds.ca, agent: false,
        headers: { Authorization: `Bearer ${s.creds.token}`, 'Content-Type': 'application/json', 'Content-Length': '1000' },
      }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => { text += c; });
        res.on('end', () => { req.destroy(); resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', text }); });
      });
      req.on('error', reject);
      // Part of the body, and never the rest.
      req.write('{"apiVersion":"v1",');
    });
    assert.equal(r.status, 504);
    assert.equal(r.type, 'text/plain; charset=utf-8');
    assert.deepEqual(JSON.parse(r.text), {
      metadata: {}, status: 'Failure', message: MESSAGE, reason: 'Timeout', details: {}, code: 504,
    });
    assert.equal((await s.request({ method: 'GET', path: '/readyz' })).status, 200);
  });
});

describe('--min-request-timeout', () => {
  let s: Suite;
  before(async () => { s = await startSuite({ flags: ['--min-request-timeout', '1'] }); });
  after(async () => { await s?.close(); });

  it('ends a watch without timeoutSeconds after between one and two times its value, cleanly', async () => {
    const w = await openWatch(s.creds, '/api/v1/namespaces/default/podtemplates?watch=1');
    assert.equal(w.status, 200);
    // With kube's default (1800 s) the stream would outlive the hang guard.
    await w.waitEnded('the server ending the watch');
    assert.deepEqual(w.events(), []);
    assert.equal((await s.request({ method: 'GET', path: '/readyz' })).status, 200);
  });
});
