// Handler tests with no socket: the composed chain of a whole control plane, driven by inject()
// (fastify's inject as the model). Statuses, reasons and texts are kube-apiserver v1.36's.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInProcess, type InProcessServer } from './in-process.ts';

const CMS = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, data: Record<string, string> = {}): object => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

describe('the handler chain, socket-free', () => {
  let server: InProcessServer;
  before(async () => {
    server = await startInProcess({});
    const r = await server.request({ method: 'POST', url: CMS, body: cm('seed', { a: '1' }) });
    assert.equal(r.statusCode, 201, r.text);
  });
  after(async () => { await server.close(); });

  const cases: { name: string; method: string; url: string; body?: string | object; headers?: Record<string, string>;
    code: number; reason?: string; message?: RegExp; contentType?: RegExp; text?: string }[] = [
    { name: 'create', method: 'POST', url: CMS, body: cm('one'), code: 201, contentType: /^application\/json/ },
    { name: 'get', method: 'GET', url: `${CMS}/seed`, code: 200 },
    { name: 'get as YAML', method: 'GET', url: `${CMS}/seed`, headers: { Accept: 'application/yaml' }, code: 200, contentType: /^application\/yaml/ },
    { name: 'get a missing object', method: 'GET', url: `${CMS}/nope`, code: 404, reason: 'NotFound', message: /^configmaps "nope" not found$/ },
    { name: 'create an existing name', method: 'POST', url: CMS, body: cm('seed'), code: 409, reason: 'AlreadyExists', message: /^configmaps "seed" already exists$/ },
    { name: 'create an invalid object', method: 'POST', url: CMS, body: cm('Bad_Name'), code: 422, reason: 'Invalid', message: /^ConfigMap "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name"/ },
    { name: 'create with a body that is no JSON', method: 'POST', url: CMS, body: '{', headers: { 'Content-Type': 'application/json' }, code: 400, reason: 'BadRequest' },
    { name: 'create with an unknown content type', method: 'POST', url: CMS, body: 'x', headers: { 'Content-Type': 'text/plain' }, code: 415, reason: 'UnsupportedMediaType' },
    { name: 'get with an Accept nothing produces', method: 'GET', url: `${CMS}/seed`, headers: { Accept: 'text/html' }, code: 406, reason: 'NotAcceptable' },
    // An unknown group falls through to the NotFound handler (Go's http.NotFound).
    { name: 'a group no server serves', method: 'GET', url: '/apis/nope.example.com/v1/things', code: 404, contentType: /^text\/plain/, text: '404 page not found\n' },
    { name: 'a resource the group does not have', method: 'GET', url: '/api/v1/nopes', code: 404, reason: 'NotFound', message: /^the server could not find the requested resource$/ },
    { name: 'list', method: 'GET', url: `${CMS}?labelSelector=x%3Dy`, code: 200 },
    { name: 'a bad label selector', method: 'GET', url: `${CMS}?labelSelector=%21%21`, code: 400, reason: 'BadRequest' },
    { name: 'healthz', method: 'GET', url: '/healthz', code: 200 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await server.request({ method: c.method, url: c.url, ...(c.body === undefined ? {} : { body: c.body }), ...(c.headers === undefined ? {} : { headers: c.headers }) });
      assert.equal(r.statusCode, c.code, r.text);
      if (c.contentType !== undefined) assert.match(String(r.headers['content-type']), c.contentType);
      if (c.text !== undefined) assert.equal(r.text, c.text);
      if (c.reason !== undefined) {
        const s = r.json() as { kind: string; code: number; reason: string; message: string };
        assert.equal(s.kind, 'Status');
        assert.equal(s.code, c.code);
        assert.equal(s.reason, c.reason);
        if (c.message !== undefined) assert.match(s.message, c.message);
      }
    });
  }

  it('a failed create stores nothing, and the server stays healthy', async () => {
    await server.request({ method: 'POST', url: CMS, body: cm('Bad_Name') });
    const list = (await server.request({ method: 'GET', url: CMS })).json() as { items: { metadata: { name: string } }[] };
    assert.ok(!list.items.some((i) => i.metadata.name === 'Bad_Name'));
    assert.equal((await server.request({ method: 'GET', url: '/readyz' })).statusCode, 200);
  });
});
