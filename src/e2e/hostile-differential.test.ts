// The hostile-input corpus of issue 9 (testing/hostile-corpus.ts, the list hostile-inputs.test.ts
// asserts on kapi alone) sent to kapi and to the reference kube-apiserver side by side, each with
// the same RBAC-limited tenant (testing/hostile-client.ts). Compared: the status code and the
// Status's reason, message and causes, normalised by the differential harness; both servers must
// answer /readyz 200 after every case. Differences must be listed in testing/intended-differences.ts.
// Skipped, with the reason, when the oracle is not built on this machine.
// HOSTILE_CASES=<regexp> runs only the matching cases (later cases may need earlier ones' objects);
// KAPI_HOSTILE_DIFF_LARGE=1 adds the six 100k-key writes (about 25 s without them, 3 min with).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AdminCredentials, RawResponse } from './testing/https-client.ts';
import { send, setUpAttacker, type HostileRequest } from './testing/hostile-client.ts';
import { hostileCases, type CaseContext, type HostileCase } from './testing/hostile-corpus.ts';
import {
  agreementSummary, agreementTable, classify, describeDifferences, differences, normalise, unusedEntries,
  type CaseResult, type DiffCase, type Observation,
} from './testing/differential.ts';
import { intendedDifferences, knownDefects } from './testing/intended-differences.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const only = process.env['HOSTILE_CASES'];
const selected = (name: string): boolean => only === undefined || only === '' || new RegExp(only).test(name);

/**
 * kube-apiserver needs 15-35 s for each write of 100k ConfigMap keys on a 2-core machine (kapi
 * 3-8 s), which would take this file from about a minute to four: those six cases run only with
 * KAPI_HOSTILE_DIFF_LARGE=1 (hostile-inputs.test.ts runs them on kapi always).
 */
const LARGE = /100k keys/;
const large = process.env['KAPI_HOSTILE_DIFF_LARGE'] === '1';
const skipReason = (name: string): string | boolean => {
  if (!selected(name)) return true;
  if (LARGE.test(name) && !large) return 'kube-apiserver takes 15-35 s per 100k-key write here; KAPI_HOSTILE_DIFF_LARGE=1 runs it';
  return false;
};

/** The agreement table's row and column: the resource the path names, the verb with its patch type. */
function tableCell(req: HostileRequest): Pick<DiffCase, 'resource' | 'verb'> {
  const resource = req.path.includes('/blobs') ? 'blobs' : req.path.includes('/configmaps') ? 'configmaps' : req.path.split('?')[0] ?? '';
  const patch = /^application\/(json-patch|merge-patch|strategic-merge-patch|apply-patch)/.exec(req.contentType ?? '')?.[1];
  const watch = /[?&]watch=(1|true)/.test(req.path);
  const verb = req.method === 'PATCH' ? `patch:${patch ?? 'other'}` : watch ? 'watch' : req.method.toLowerCase();
  return { resource, verb };
}

/**
 * What the comparison looks at: the status code and, for a Status answer, its reason, message and
 * causes. Successful answers are compared by code only (their objects hold per-server metadata
 * and, for these cases, megabytes of data the resource suites already compare).
 */
function observeStatus(r: RawResponse): Observation {
  let body: unknown;
  try { body = r.json(); } catch { body = undefined; }
  const st = typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === 'Status'
    ? body as { reason?: unknown; message?: unknown; details?: { causes?: unknown } }
    : undefined;
  const reduced = st === undefined ? undefined : normalise({
    kind: 'Status', reason: st.reason, message: st.message, details: { causes: st.details?.causes },
  });
  return { status: r.status, headers: {}, body: r.status === 0 ? r.text : reduced };
}

interface Server {
  readonly name: string;
  readonly creds: AdminCredentials;
  readonly ctx: CaseContext;
}

async function serverFor(name: string, creds: AdminCredentials): Promise<Server> {
  const attacker = await setUpAttacker({ creds });
  return { name, creds, ctx: { admin: (req) => send(creds, req), attacker: (req) => send(attacker, req) } };
}

/** The case's request on one server (a request built from an earlier answer reads that server's). */
async function answer(c: HostileCase, s: Server): Promise<{ req: HostileRequest; r: RawResponse }> {
  if (c.setup !== undefined) {
    const r = await s.ctx.admin(c.setup);
    assert.ok(r.status === 201 || r.status === 409, `${s.name}: setup of ${c.name}: ${r.status} ${r.text.slice(0, 300)}`);
  }
  const req = typeof c.request === 'function' ? await c.request(s.ctx) : c.request;
  return { req, r: await s.ctx.attacker(req) };
}

describe('hostile inputs: kapi against the reference kube-apiserver', { skip: oracleUnavailable() ?? false }, () => {
  let kapi: Suite;
  let oracle: Oracle;
  const servers: Server[] = [];
  const results: CaseResult[] = [];
  const started = Date.now();

  before(async () => {
    const [k, o] = await Promise.allSettled([
      startSuite({ backend: 'sqlite', flags: ['--authorization-mode', 'RBAC'] }),
      startOracle({ authorizationModes: ['RBAC'] }),
    ]);
    if (k.status === 'fulfilled') kapi = k.value;
    if (o.status === 'fulfilled') oracle = o.value;
    if (k.status === 'rejected') throw k.reason;
    if (o.status === 'rejected') throw o.reason;
    servers.push(...await Promise.all([serverFor('kapi', kapi.creds), serverFor('kube-apiserver', oracle.creds)]));
  });

  after(async () => {
    if (results.length > 0) {
      const unused = unusedEntries(results, [...intendedDifferences, ...knownDefects]).filter((e) => e.cases.source !== '.');
      console.log([
        `\nhostile inputs, kapi vs kube-apiserver ${oracle.version} (${Math.round((Date.now() - started) / 1000)} s):`,
        agreementTable(results), agreementSummary(results),
        ...(process.env['KAPI_DIFF_VERBOSE'] === '1' ? ['differences:', describeDifferences(results.flatMap((r) => [...r.intended, ...r.known]))] : []),
        ...unused.map((e) => `listed but not seen here: ${String(e.cases)} ${String(e.where)}`),
      ].join('\n'));
    }
    await Promise.all([kapi?.close(), oracle?.stop()]);
  });

  // One list, built once: the megabyte bodies are generated here and sent to both servers.
  for (const c of hostileCases()) {
    it(c.name, { skip: skipReason(c.name) }, async (t) => {
      const [k, o] = servers;
      assert.ok(k !== undefined && o !== undefined);
      // In turn, not at once: both servers share two cores, and a loaded kube-apiserver answers
      // the 100k-key cases with 504 Timeout.
      const { req, r: rk } = await answer(c, k);
      const { r: ro } = await answer(c, o);
      for (const s of servers) {
        const r = await s.ctx.admin({ method: 'GET', path: '/readyz' });
        assert.equal(r.status, 200, `${s.name}: /readyz after ${c.name}: ${r.status} ${r.text}`);
      }
      // Those 100k-key writes sit at kube-apiserver's request deadline here: a 504 from it says
      // nothing about kapi, so the case is reported as inconclusive rather than compared.
      if (LARGE.test(c.name) && ro.status === 504 && rk.status !== 504) {
        t.skip(`kube-apiserver timed out (504) on ${c.name}; kapi answered ${rk.status}`);
        return;
      }
      const dc: DiffCase = { ...tableCell(req), name: c.name, method: req.method, path: req.path };
      const id = `${dc.resource} ${dc.verb} ${dc.name}`;
      const result = classify(dc, { kapi: rk.status, oracle: ro.status }, differences(id, observeStatus(rk), observeStatus(ro)));
      results.push(result);
      assert.equal(result.unexpected.length, 0, `unexpected differences:\n${describeDifferences(result.unexpected)}`);
    });
  }
});
