// Pod validation against the reference kube-apiserver: every case of the invalid-pod corpus
// (testing/pod-validation-corpus.ts, one pod per rule of ValidatePodCreate/ValidatePodSpec) and the
// issue's examples inside each workload's pod template are sent to kapi and to the oracle; the
// status code, reason and the set of causes (field, type, message) must agree. Skipped, with the
// reason, when the oracle is not built on this machine (scripts/build-oracle.sh).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import {
  CORPUS_SERVICE_ACCOUNT, POD_CASES, WORKLOAD_CASES, WORKLOAD_FAULTS, caseURL, podOfCase, podOutcome, podSpecOfCase, type PodOutcome,
} from './testing/pod-validation-corpus.ts';
import { POD_UPDATE_CASES } from './testing/pod-update-corpus.ts';
import { startSuite, type Suite } from './testing/suite.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';

const NS = 'default';
const missing = oracleUnavailable();

interface Row { readonly name: string; readonly kube: PodOutcome; readonly kapi: PodOutcome }

const post = (path: string, body: unknown): RawRequest => ({ method: 'POST', path, body: JSON.stringify(body), contentType: 'application/json' });
const same = (r: Row): boolean => JSON.stringify(r.kube) === JSON.stringify(r.kapi);
const show = (o: PodOutcome): string => `${o.code} ${o.reason}${o.causes.map((c) => `\n      ${c}`).join('')}`;

describe('pod validation agrees with kube-apiserver', { skip: missing }, () => {
  let oracle: Oracle;
  let suite: Suite;
  const rows: Row[] = [];

  before(async () => {
    [oracle, suite] = await Promise.all([startOracle(), startSuite()]);
    // the ServiceAccount admission plugin looks up the namespace's default account (no controller makes it here)
    for (const send of [oracle.request, suite.request]) {
      const r = await send(post(`/api/v1/namespaces/${NS}/serviceaccounts`, JSON.parse(CORPUS_SERVICE_ACCOUNT)));
      assert.ok(r.status === 201 || r.status === 409, `service account: ${r.status} ${r.text}`);
    }
  });
  after(async () => {
    const agree = rows.filter(same).length;
    console.log(`pod validation agreement with kube-apiserver ${oracle?.version ?? ''}: ${agree} of ${rows.length}`);
    await Promise.all([oracle?.stop(), suite?.close()]);
  });

  async function both(name: string, req: RawRequest): Promise<Row> {
    const [k, m]: [RawResponse, RawResponse] = await Promise.all([oracle.request(req), suite.request(req)]);
    const row = { name, kube: podOutcome(k.status, k.text), kapi: podOutcome(m.status, m.text) };
    rows.push(row);
    return row;
  }

  it('every corpus case gets the same answer', async () => {
    const differ: Row[] = [];
    for (const [i, c] of POD_CASES.entries()) {
      const row = await both(c.name, post(caseURL(c, NS), podOfCase(c, `corpus-${i}`)));
      if (!same(row)) differ.push(row);
    }
    assert.deepEqual(differ.map((r) => `${r.name}\n    kube: ${show(r.kube)}\n    kapi: ${show(r.kapi)}`), []);
  });

  it('every workload validates its pod template as kube does', async () => {
    const differ: Row[] = [];
    for (const w of WORKLOAD_CASES) {
      for (const [i, c] of WORKLOAD_FAULTS.entries()) {
        const row = await both(`${w.name}: ${c.name}`, post(w.path(NS), w.body(`wl-${i}`, podSpecOfCase(c))));
        assert.equal(row.kube.code, 422, `${row.name}: kube accepted it`);
        if (!same(row)) differ.push(row);
      }
    }
    assert.deepEqual(differ.map((r) => `${r.name}\n    kube: ${show(r.kube)}\n    kapi: ${show(r.kapi)}`), []);
  });

  it('every pod update gets the same answer', async () => {
    const differ: Row[] = [];
    for (const [i, c] of POD_UPDATE_CASES.entries()) {
      const name = `update-${i}`;
      const base = podOfCase({ name: c.name, ...(c.base === undefined ? {} : { spec: c.base }) }, name);
      const path = `/api/v1/namespaces/${NS}/pods`;
      const outcomes: PodOutcome[] = [];
      for (const send of [oracle.request, suite.request]) {
        const created = await send(post(path, base));
        assert.equal(created.status, 201, `${c.name}: ${created.text}`);
        const pod = JSON.parse(created.text) as Parameters<typeof c.mutate>[0];
        c.mutate(pod);
        const sub = c.subresource === undefined ? '' : `/${c.subresource}`;
        const r = await send({ method: 'PUT', path: `${path}/${name}${sub}?dryRun=All`, body: JSON.stringify(pod), contentType: 'application/json' });
        outcomes.push(podOutcome(r.status, r.text));
        await send({ method: 'DELETE', path: `${path}/${name}?gracePeriodSeconds=0` });
      }
      const row = { name: `update: ${c.name}`, kube: outcomes[0]!, kapi: outcomes[1]! };
      rows.push(row);
      if (!same(row)) differ.push(row);
    }
    assert.deepEqual(differ.map((r) => `${r.name}\n    kube: ${show(r.kube)}\n    kapi: ${show(r.kapi)}`), []);
  });

  it('both servers stay healthy', async () => {
    for (const send of [oracle.request, suite.request]) assert.equal((await send({ method: 'GET', path: '/readyz' })).status, 200);
  });
});
