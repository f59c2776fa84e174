// Every stored resource the server serves (api/all=true, read from discovery, so a new resource
// runs it without being listed anywhere) passes the shared REST conformance cases
// (server/testing/resttest.ts): generated names, AlreadyExists, get, NotFound, label and field
// selectors, update and Conflict, namespace scoping, delete. No socket: the control plane runs in
// this process and requests go through its handler chain by inject(). The objects are the
// every-resource test's: the example of the kind's OpenAPI v3 schema with the resource's hint.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInProcess, type InProcessServer } from '../controlplane/testing/in-process.ts';
import { runRESTConformance } from '../server/testing/resttest.ts';
import { discover, gvPath, type Case } from './testing/discover.ts';
import { FINALIZED_ON_DELETE, HINTS, generateMaterial, type FixtureMaterial } from './testing/fixtures/every-resource.ts';
import { exampleFor, type OpenAPIDocument } from './testing/fixtures/schema-example.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';

interface OpenAPIIndex { paths: Record<string, { serverRelativeURL: string }> }

function adapt(server: InProcessServer): { request(req: RawRequest): Promise<RawResponse> } {
  return {
    async request(req) {
      const headers = { ...(req.headers ?? {}), ...(req.contentType === undefined ? {} : { 'Content-Type': req.contentType }) };
      const r = await server.request({ method: req.method, url: req.path, headers, ...(req.body === undefined ? {} : { body: req.body }) });
      return { status: r.statusCode, headers: r.headers, text: r.text, body: r.body, json: r.json };
    },
  };
}

describe('every stored resource passes the REST conformance cases (in process, no socket)', async () => {
  let server: InProcessServer;
  let material: FixtureMaterial;
  const docs = new Map<string, OpenAPIDocument>();
  before(async () => {
    server = await startInProcess();
    material = await generateMaterial();
    const index = (await server.request({ method: 'GET', url: '/openapi/v3' })).json() as OpenAPIIndex;
    for (const [key, entry] of Object.entries(index.paths)) {
      if (!key.startsWith('api/') && !key.startsWith('apis/')) continue;
      docs.set(key, (await server.request({ method: 'GET', url: entry.serverRelativeURL })).json() as OpenAPIDocument);
    }
    for (const ns of ['rt-objects', 'rt-other']) {
      const r = await server.request({ method: 'POST', url: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
      assert.equal(r.statusCode, 201, r.text);
    }
  });
  after(async () => { await server.close(); });

  // Discovery needs the server; the cases are read once it is up, in the first test.
  let cases: Case[] = [];
  it('discovery lists the stored resources (those with get)', async () => {
    cases = (await discover(adapt(server))).filter((c) => c.verbs.includes('get') && c.verbs.includes('delete'));
    assert.ok(cases.length > 50, `only ${cases.length} resources`);
  });

  it('each one, in its most preferred version', async (t) => {
    for (const c of cases) {
      await t.test(c.key, async () => {
        const [preferred] = c.versions;
        assert.ok(preferred !== undefined);
        const hint = HINTS[c.key] ?? {};
        const namespace = c.namespaced ? 'rt-objects' : '';
        const doc = docs.get(gvPath(c.group, preferred.version).slice(1));
        assert.ok(doc !== undefined, `${c.key}: no OpenAPI document`);
        const ctx = { name: hint.name ?? `rt-${c.resource}`, namespace, material };
        for (const pre of hint.prerequisites?.(ctx) ?? []) await server.request({ method: 'POST', url: pre.path, body: pre.body });
        const sample = exampleFor(doc, { group: c.group, version: preferred.version, kind: preferred.kind }, hint.body?.(ctx) ?? {});
        await runRESTConformance((req) => server.request(req),
          { key: c.key, group: c.group, version: preferred.version, resource: c.resource, kind: preferred.kind, namespaced: c.namespaced },
          { namespace, otherNamespace: 'rt-other', sample, ...(hint.name === undefined ? {} : { fixedName: hint.name }),
            finalizedOnDelete: FINALIZED_ON_DELETE.has(c.key) });
      });
    }
  });
});
