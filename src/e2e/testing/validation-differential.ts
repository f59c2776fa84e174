// One harness for the invalid-object corpora of issue 12: each case is a short sequence of requests
// (create a valid object, then the faulty create/update/status update); the last answer is reduced
// to code, reason and sorted causes and compared with (1) what kube-apiserver v1.36.3 answered,
// recorded in a JSON fixture so the comparison runs on machines without the oracle, and (2) when the
// oracle is built, the live kube-apiserver, which also checks that the recording is current.
// KAPI_RECORD=1 with the oracle built rewrites the fixture from the oracle's answers.
// No Go counterpart: the e2e test harness.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { oracleUnavailable, startOracle, type Oracle } from './oracle.ts';
import { startSuite, type Suite } from './suite.ts';
import type { RawRequest, RawResponse } from './https-client.ts';

export type Send = (req: RawRequest) => Promise<RawResponse>;

/** A request, or one built from the previous answer (e.g. the created object, changed and PUT back). */
export type Step = RawRequest | ((previous: RawResponse) => RawRequest);

/** A case: the steps to send, built from a name unique to the case; the last one's answer counts. */
export interface ValidationCase {
  readonly name: string;
  readonly requests: (name: string, namespace: string) => readonly Step[];
  /** For an accepted request, the part of the answered object compared too (defaults, mutations). */
  readonly keep?: (object: Record<string, unknown>) => unknown;
}

/**
 * What is compared: the code, for refusals the reason and the causes as `field | reason | message`,
 * sorted (kube lists map-derived causes in random order), or the message when there are none; and the
 * Warning headers, sorted.
 */
export interface Outcome {
  readonly code: number;
  readonly reason?: string;
  readonly causes?: readonly string[];
  readonly message?: string;
  readonly warnings?: readonly string[];
  /** What the case's `keep` took of an accepted object. */
  readonly object?: unknown;
}

export interface ValidationCorpus {
  /** The describe() title, e.g. "workload validation". */
  readonly title: string;
  readonly cases: readonly ValidationCase[];
  /** The JSON fixture holding kube's recorded answers (a URL next to the test, e.g. new URL('./testing/fixtures/x-kube.json', import.meta.url)). */
  readonly fixture: URL;
  /** Requests sent once to each server before the cases (namespaces, service accounts); 409 is fine. */
  readonly setup?: (namespace: string) => readonly RawRequest[];
  /** Work after the setup requests that must wait for the server (a CRD becoming served, seed objects). */
  readonly prepare?: (send: Send, namespace: string) => Promise<void>;
  /** Rewrites each cause's message before comparing (e.g. to drop a Go struct diff kapi cannot print). */
  readonly causeMessage?: (message: string) => string;
  /** kapi flags beyond the defaults, and the same for the oracle (e.g. a second service CIDR). */
  readonly kapiFlags?: readonly string[];
  readonly oracleFlags?: readonly string[];
}

export const NAMESPACE = 'vdiff';

export const post = (path: string, body: unknown): RawRequest => ({ method: 'POST', path, body: JSON.stringify(body), contentType: 'application/json' });
export const put = (path: string, body: unknown): RawRequest => ({ method: 'PUT', path, body: JSON.stringify(body), contentType: 'application/json' });
type Obj = Record<string, unknown>;

/** Key order aside (Go writes struct fields in declaration order), the same JSON. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Obj;
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortKeys(o[k])]));
}

/**
 * The created object of a 201 answer, changed by `change` and PUT back to `path`: the object or a
 * subresource of it, or a path built from the created object (when the server chose its name).
 */
export const putBack = (path: string | ((created: Obj) => string), change: (obj: Obj) => void) => (created: RawResponse): RawRequest => {
  if (created.status >= 300) throw new Error(`create for an update case: ${created.status} ${created.text}`);
  const obj = created.json() as Obj;
  const target = typeof path === 'string' ? path : path(obj);
  change(obj);
  return put(target, obj);
};
export const patch = (path: string, body: unknown, type = 'application/merge-patch+json'): RawRequest =>
  ({ method: 'PATCH', path, body: JSON.stringify(body), contentType: type });

interface StatusBody { reason?: string; message?: string; details?: { causes?: { field?: string; reason?: string; message?: string }[] } }

/** Reduces an answer; a refusal without causes keeps its message (e.g. a Forbidden or BadRequest). */
export function outcome(r: RawResponse, causeMessage: (m: string) => string = (m) => m): Outcome {
  // Several Warning headers arrive joined by ", "; kube adds some in random (map) order.
  const warnings = [r.headers['warning'] ?? []].flat().flatMap((w) => w.split(/, (?=\d{3} )/)).sort();
  const withWarnings = (o: Outcome): Outcome => warnings.length === 0 ? o : { ...o, warnings };
  if (r.status < 300) return withWarnings({ code: r.status });
  let body: StatusBody = {};
  try { body = r.json() as StatusBody; } catch { return withWarnings({ code: r.status, message: r.text }); }
  const causes = (body.details?.causes ?? []).map((c) => `${c.field ?? ''} | ${c.reason ?? ''} | ${causeMessage(c.message ?? '')}`).sort();
  const refusal = causes.length > 0 ? { causes } : { message: body.message ?? '' };
  return withWarnings({ code: r.status, reason: body.reason ?? '', ...refusal });
}

async function sendAll(send: Send, corpus: ValidationCorpus): Promise<Record<string, Outcome>> {
  for (const req of corpus.setup?.(NAMESPACE) ?? []) {
    const r = await send(req);
    if (r.status >= 300 && r.status !== 409) throw new Error(`setup ${req.method} ${req.path}: ${r.status} ${r.text}`);
  }
  await corpus.prepare?.(send, NAMESPACE);
  const answers: Record<string, Outcome> = {};
  for (const [i, c] of corpus.cases.entries()) {
    let last: RawResponse | undefined;
    for (const step of c.requests(`vc-${i}`, NAMESPACE)) {
      if (typeof step !== 'function') last = await send(step);
      else if (last === undefined) throw new Error(`case ${c.name}: a step built from an answer comes first`);
      else last = await send(step(last));
    }
    if (last === undefined) throw new Error(`case ${c.name} sends no request`);
    const answer = outcome(last, corpus.causeMessage);
    answers[c.name] = c.keep !== undefined && last.status < 300 ? { ...answer, object: sortKeys(c.keep(last.json() as Obj)) } : answer;
  }
  return answers;
}

const show = (o: Outcome | undefined): string => o === undefined ? 'no answer' :
  `${o.code} ${o.reason ?? ''}${o.message === undefined ? '' : ` ${o.message}`}` +
  [...(o.causes ?? []), ...(o.warnings ?? []).map((w) => `warning: ${w}`), ...(o.object === undefined ? [] : [`object: ${JSON.stringify(o.object)}`])]
    .map((c) => `\n      ${c}`).join('');

function differences(cases: readonly ValidationCase[], kube: Readonly<Record<string, Outcome>>, kapi: Readonly<Record<string, Outcome>>): string[] {
  return cases.filter((c) => JSON.stringify(kube[c.name]) !== JSON.stringify(kapi[c.name]))
    .map((c) => `${c.name}\n    kube: ${show(kube[c.name])}\n    kapi: ${show(kapi[c.name])}`);
}

function readFixture(url: URL): Record<string, Outcome> {
  return existsSync(url) ? JSON.parse(readFileSync(url, 'utf8')) as Record<string, Outcome> : {};
}

/** Declares the corpus's tests: recorded answers always, the live oracle when built. */
export function describeValidationCorpus(corpus: ValidationCorpus): void {
  const names = corpus.cases.map((c) => c.name);
  describe(`${corpus.title} agrees with kube-apiserver v1.36`, () => {
    let suite: Suite;
    let kapi: Record<string, Outcome>;
    before(async () => {
      assert.equal(new Set(names).size, names.length, 'case names are unique');
      suite = await startSuite({ flags: corpus.kapiFlags ?? [] });
      await suite.request(post('/api/v1/namespaces', { metadata: { name: NAMESPACE } }));
      kapi = await sendAll(suite.request, corpus);
    });
    after(async () => { await suite?.close(); });

    const recorded = readFixture(corpus.fixture);
    const recording = process.env['KAPI_RECORD'] === '1' && oracleUnavailable() === undefined;
    const skipRecorded = { skip: recording ? 'KAPI_RECORD=1: the recording is being rewritten from the oracle' : false };
    it('every case has a recorded kube answer', skipRecorded, () => {
      assert.deepEqual(names.filter((n) => recorded[n] === undefined), [], `record with KAPI_RECORD=1 and the oracle built`);
    });

    it('kapi answers every case as kube did (recorded)', skipRecorded, (t) => {
      const diffs = differences(corpus.cases, recorded, kapi);
      t.diagnostic(`agreement with the recorded answers: ${names.length - diffs.length}/${names.length}`);
      assert.deepEqual(diffs, []);
    });

    it('the server stays healthy', async () => {
      assert.equal((await suite.request({ method: 'GET', path: '/readyz' })).status, 200);
    });

    describe('and against the live oracle', { skip: oracleUnavailable() ?? false }, () => {
      let oracle: Oracle;
      let kube: Record<string, Outcome>;
      before(async () => {
        oracle = await startOracle({ flags: corpus.oracleFlags ?? [] });
        await oracle.request(post('/api/v1/namespaces', { metadata: { name: NAMESPACE } }));
        kube = await sendAll(oracle.request, corpus);
        if (recording) writeFileSync(corpus.fixture, `${JSON.stringify(kube, null, 1)}\n`);
      });
      after(async () => { await oracle?.stop(); });

      it('the recording is what the oracle answers now', skipRecorded, () => {
        assert.deepEqual(differences(corpus.cases, kube, recorded), []);
      });

      it('kapi answers every case as the oracle does', (t) => {
        const diffs = differences(corpus.cases, kube, kapi);
        t.diagnostic(`agreement with the oracle: ${names.length - diffs.length}/${names.length}`);
        assert.deepEqual(diffs, []);
      });
    });
  });
}
