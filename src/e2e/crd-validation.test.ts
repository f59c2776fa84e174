// The CRD-validation corpus (testing/crd-corpus.ts: invalid CRD schemas and custom resources, one
// per rule of apiextensions-apiserver's schema validation) sent to kapi, compared with (1) the answers
// kube-apiserver v1.36.3 gave, recorded in testing/fixtures/crd-validation-kube.ts, and (2) when the
// oracle is built, a live kube-apiserver: same code, reason, causes (field, reason, message) and, for
// accepted custom resources, the same stored spec.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sendCorpus, type Answer } from './testing/crd-corpus-client.ts';
import { CR_CASES, CRD_CASES, UPDATE_CASE_NAMES } from './testing/crd-corpus.ts';
import { KUBE_ANSWERS } from './testing/fixtures/crd-validation-kube.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const NAMES = [...CRD_CASES.map((c) => `crd: ${c.name}`), ...CR_CASES.map((c) => `cr: ${c.name}`), ...UPDATE_CASE_NAMES.map((n) => `update: ${n}`)];

/** JSON with keys sorted: the recorded answers were written key-sorted. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v !== 'object' || v === null) return JSON.stringify(v) ?? 'undefined';
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}

function agreement(want: Readonly<Record<string, Answer>>, got: Readonly<Record<string, Answer>>): { agreed: number; diffs: string[] } {
  const diffs: string[] = [];
  for (const n of NAMES) {
    if (canonical(want[n]) !== canonical(got[n])) diffs.push(`${n}\n  kube: ${canonical(want[n])}\n  kapi: ${canonical(got[n])}`);
  }
  return { agreed: NAMES.length - diffs.length, diffs };
}

describe('CRD schema validation against kube-apiserver v1.36', () => {
  let suite: Suite;
  let kapi: Record<string, Answer>;
  before(async () => {
    suite = await startSuite();
    kapi = await sendCorpus((r) => suite.request(r));
  });
  after(async () => { await suite.close(); });

  it('every case has a recorded kube answer', () => {
    assert.deepEqual(NAMES.filter((n) => KUBE_ANSWERS[n] === undefined), []);
  });

  it('kapi answers every case as kube v1.36.3 did (recorded)', (t) => {
    const { agreed, diffs } = agreement(KUBE_ANSWERS, kapi);
    t.diagnostic(`agreement with the recorded kube answers: ${agreed}/${NAMES.length}`);
    assert.deepEqual(diffs, []);
  });

  it('the server stays healthy', async () => {
    assert.equal((await suite.request({ method: 'GET', path: '/readyz' })).status, 200);
  });

  describe('and against the live oracle', { skip: oracleUnavailable() ?? false }, () => {
    let oracle: Oracle;
    before(async () => { oracle = await startOracle(); });
    after(async () => { await oracle.stop(); });

    it('kapi answers every case as the oracle does', async (t) => {
      const kube = await sendCorpus((r) => oracle.request(r));
      const { agreed, diffs } = agreement(kube, kapi);
      t.diagnostic(`agreement with the oracle: ${agreed}/${NAMES.length}`);
      assert.deepEqual(diffs, []);
    });
  });
});
