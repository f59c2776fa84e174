// kapi's audit events against the oracle kube-apiserver's for the same requests under the same
// policy, field by field: level, stages, verb, URI, user, source IPs, objectRef, responseStatus,
// request and response bodies (what the store makes differently removed: uid, resourceVersion,
// timestamps) and annotations. Skips with the reason when the oracle is not built here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventsOf, type EventJSON } from './testing/audit-log.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';
import { configMap } from './testing/objects.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/readyz*", "/healthz*", "/livez*"]
- level: None
  users: ["system:apiserver"]
- level: RequestResponse
  resources: [{group: "", resources: ["configmaps"]}]
- level: Request
  resources: [{group: "", resources: ["secrets"]}]
- level: Metadata
`;
const CM = '/api/v1/namespaces/default/configmaps';
const MICRO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const VOLATILE = new Set(['uid', 'resourceVersion', 'creationTimestamp', 'time']);

/** A copy without what two stores make differently. */
function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => !VOLATILE.has(k)).map(([k, x]) => [k, normalize(x)]));
}

function comparable(evs: readonly EventJSON[]): unknown[] {
  return evs.map((e) => {
    assert.match(e.requestReceivedTimestamp, MICRO);
    assert.match(e.stageTimestamp, MICRO);
    const { auditID: _a, requestReceivedTimestamp: _r, stageTimestamp: _s, ...rest } = e;
    return { keys: Object.keys(e), ...(normalize(rest) as object) };
  });
}

const cases: { name: string; req: RawRequest; stage?: string }[] = [
  { name: 'create a configmap (RequestResponse)', req: { method: 'POST', path: CM, body: configMap('audited', { a: 'b' }) } },
  { name: 'get it', req: { method: 'GET', path: `${CM}/audited` } },
  { name: 'merge-patch it', req: { method: 'PATCH', path: `${CM}/audited`, contentType: 'application/merge-patch+json', body: '{"data":{"c":"d"}}' } },
  { name: 'get a missing one (404)', req: { method: 'GET', path: `${CM}/missing` } },
  { name: 'create a secret (Request)', req: { method: 'POST', path: '/api/v1/namespaces/default/secrets', body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'audited' }, stringData: { a: 'b' } }) } },
  { name: 'list pods (Metadata)', req: { method: 'GET', path: '/api/v1/pods?limit=1' } },
  { name: 'delete the configmap', req: { method: 'DELETE', path: `${CM}/audited` } },
  { name: 'a non-resource URL', req: { method: 'GET', path: '/version' } },
  { name: 'refused credentials', req: { method: 'GET', path: '/api/v1/namespaces', auth: false, headers: { authorization: 'Bearer not-a-token' } }, stage: 'ResponseStarted' },
];

describe('audit events against kube-apiserver', { skip: oracleUnavailable() }, () => {
  let oracle: Oracle;
  let kapi: Suite;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-audit-diff-'));
    await writeFile(join(dir, 'policy.yaml'), POLICY);
    const flags = (name: string): string[] => ['--audit-policy-file', join(dir, 'policy.yaml'), '--audit-log-path', join(dir, `${name}.log`)];
    oracle = await startOracle({ flags: flags('oracle') });
    kapi = await startSuite({ flags: flags('kapi') });
  });
  after(async () => {
    await kapi?.close();
    await oracle?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  for (const c of cases) {
    it(c.name, async () => {
      const send = async (target: { request(r: RawRequest): Promise<RawResponse> }, log: string): Promise<EventJSON[]> => {
        const r = await target.request({ contentType: 'application/json', ...c.req });
        return eventsOf(join(dir, log), String(r.headers['audit-id']), c.stage);
      };
      const want = comparable(await send(oracle, 'oracle.log'));
      const got = comparable(await send(kapi, 'kapi.log'));
      assert.deepEqual(got, want);
    });
  }
});
