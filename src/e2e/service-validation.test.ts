// Service validation against the reference kube-apiserver: every case of the invalid-Service
// corpus (testing/service-validation-corpus.ts, one Service per rule of ValidateServiceCreate,
// ValidateServiceUpdate and ValidateServiceStatusUpdate) and of the Endpoints/EndpointSlice corpus
// (testing/endpoints-validation-corpus.ts) is sent to kapi and to the oracle; the
// status code, reason and the set of causes (field, type, message) must agree, and for Service
// creates the Warning headers too. Skipped, with the
// reason, when the oracle is not built on this machine (scripts/build-oracle.sh).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { podOutcome, type PodOutcome } from './testing/pod-validation-corpus.ts';
import { ENDPOINTS_CASES, ENDPOINTS_UPDATE_CASES, endpointsOfCase } from './testing/endpoints-validation-corpus.ts';
import { SERVICE_CASES, SERVICE_UPDATE_CASES, serviceOfCase } from './testing/service-validation-corpus.ts';
import { startSuite, type Suite } from './testing/suite.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';

const NS = 'default';
const PATH = `/api/v1/namespaces/${NS}/services`;
const missing = oracleUnavailable();
if (missing !== undefined) console.log(`service validation vs kube-apiserver skipped: ${missing}`);

interface Row { readonly name: string; readonly kube: PodOutcome; readonly kapi: PodOutcome }

const json = (method: string, path: string, body: unknown): RawRequest => ({ method, path, body: JSON.stringify(body), contentType: 'application/json' });
const same = (r: Row): boolean => JSON.stringify(r.kube) === JSON.stringify(r.kapi);
const show = (o: PodOutcome): string => `${o.code} ${o.reason}${o.causes.map((c) => `\n      ${c}`).join('')}`;
/** The outcome, with the Warning headers as causes of their own (kube's GetWarningsForService). */
const withWarnings = (r: RawResponse): PodOutcome => {
  const o = podOutcome(r.status, r.text);
  const warnings = [r.headers['warning'] ?? []].flat().map((w) => `warning|${w}`);
  return { ...o, causes: [...o.causes, ...warnings.sort()] };
};
const report = (rows: readonly Row[]): string[] => rows.map((r) => `${r.name}\n    kube: ${show(r.kube)}\n    kapi: ${show(r.kapi)}`);

describe('service validation agrees with kube-apiserver', { skip: missing }, () => {
  let oracle: Oracle;
  let suite: Suite;
  const rows: Row[] = [];

  before(async () => {
    [oracle, suite] = await Promise.all([startOracle(), startSuite()]);
  });
  after(async () => {
    const agree = rows.filter(same).length;
    console.log(`service validation agreement with kube-apiserver ${oracle?.version ?? ''}: ${agree} of ${rows.length}`);
    await Promise.all([oracle?.stop(), suite?.close()]);
  });

  it('every create case gets the same answer', async () => {
    const differ: Row[] = [];
    for (const [i, c] of SERVICE_CASES.entries()) {
      const req = json('POST', `${PATH}?dryRun=All`, serviceOfCase(c, `corpus-${i}`));
      const [k, m]: [RawResponse, RawResponse] = await Promise.all([oracle.request(req), suite.request(req)]);
      const row = { name: c.name, kube: withWarnings(k), kapi: withWarnings(m) };
      rows.push(row);
      if (!same(row)) differ.push(row);
    }
    assert.deepEqual(report(differ), []);
  });

  it('every update and status update gets the same answer', async () => {
    const differ: Row[] = [];
    for (const [i, c] of SERVICE_UPDATE_CASES.entries()) {
      const name = `update-${i}`;
      const outcomes: PodOutcome[] = [];
      for (const send of [oracle.request, suite.request]) {
        const created = await send(json('POST', PATH, serviceOfCase(c, name)));
        assert.equal(created.status, 201, `${c.name}: ${created.text}`);
        const svc = JSON.parse(created.text) as Parameters<typeof c.mutate>[0];
        c.mutate(svc);
        const sub = c.subresource === undefined ? '' : `/${c.subresource}`;
        const r = await send(json('PUT', `${PATH}/${name}${sub}?dryRun=All`, svc));
        outcomes.push(podOutcome(r.status, r.text));
        await send({ method: 'DELETE', path: `${PATH}/${name}` });
      }
      const row = { name: `update: ${c.name}`, kube: outcomes[0]!, kapi: outcomes[1]! };
      rows.push(row);
      if (!same(row)) differ.push(row);
    }
    assert.deepEqual(report(differ), []);
  });

  it('every Endpoints and EndpointSlice case gets the same answer', async () => {
    const differ: Row[] = [];
    for (const [i, c] of ENDPOINTS_CASES.entries()) {
      const { path, body } = endpointsOfCase(c, `corpus-${i}`, NS);
      const req = json('POST', path, body);
      const [k, m]: [RawResponse, RawResponse] = await Promise.all([oracle.request(req), suite.request(req)]);
      const row = { name: `${c.kind}: ${c.name}`, kube: podOutcome(k.status, k.text), kapi: podOutcome(m.status, m.text) };
      rows.push(row);
      if (!same(row)) differ.push(row);
    }
    assert.deepEqual(report(differ), []);
  });

  it('every Endpoints and EndpointSlice update gets the same answer', async () => {
    const differ: Row[] = [];
    for (const [i, c] of ENDPOINTS_UPDATE_CASES.entries()) {
      const name = `update-${i}`;
      const { path, body } = endpointsOfCase(c, name, NS);
      const collection = path.replace('?dryRun=All', '');
      const outcomes: PodOutcome[] = [];
      for (const send of [oracle.request, suite.request]) {
        const created = await send(json('POST', collection, body));
        assert.equal(created.status, 201, `${c.name}: ${created.text}`);
        const obj = JSON.parse(created.text) as Record<string, unknown>;
        c.mutate(obj);
        const r = await send(json('PUT', `${collection}/${name}?dryRun=All`, obj));
        outcomes.push(podOutcome(r.status, r.text));
        await send({ method: 'DELETE', path: `${collection}/${name}` });
      }
      const row = { name: `${c.kind} update: ${c.name}`, kube: outcomes[0]!, kapi: outcomes[1]! };
      rows.push(row);
      if (!same(row)) differ.push(row);
    }
    assert.deepEqual(report(differ), []);
  });

  it('both servers stay healthy', async () => {
    for (const send of [oracle.request, suite.request]) assert.equal((await send({ method: 'GET', path: '/readyz' })).status, 200);
  });
});
