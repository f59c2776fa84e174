// Differential tests: kapi and the reference kube-apiserver (the oracle, see testing/oracle.ts)
// get the same requests; status codes, Status reasons, messages and causes, the headers clients
// read and the normalised bodies must agree, except for testing/intended-differences.ts. Skipped,
// with the reason, when the oracle is not built on this machine (scripts/build-oracle.sh).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { agreementTable, describeDifferences, runCases, unusedEntries, type CaseResult, type DiffCase } from './testing/differential.ts';
import { intendedDifferences, knownDefects } from './testing/intended-differences.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';

const NS = 'kapi-diff';
const USER_AGENT = 'kapi-differential/v0.0.0 (linux/amd64) kubernetes/none';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const GROUP = 'diff.example.com';
const CT = `/apis/${GROUP}/v1/namespaces/${NS}/crontabs`;
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

const json = (v: unknown): string => JSON.stringify(v);
const cm = (name: string, data: Record<string, string>, meta: Record<string, unknown> = {}): string =>
  json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, data });
const ct = (name: string, spec: Record<string, unknown>, meta: Record<string, unknown> = {}): string =>
  json({ apiVersion: `${GROUP}/v1`, kind: 'CronTab', metadata: { name, ...meta }, spec });

function field(v: unknown, ...path: string[]): string | undefined {
  let x = v;
  for (const p of path) x = typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>)[p] : undefined;
  return typeof x === 'string' ? x : undefined;
}
const rememberRV = (key: string) => (v: unknown): Record<string, string> => {
  const rv = field(v, 'metadata', 'resourceVersion');
  return rv === undefined ? {} : { [key]: rv };
};
const rememberContinue = (key: string) => (v: unknown): Record<string, string> => {
  const c = field(v, 'metadata', 'continue');
  return c === undefined ? {} : { [key]: c };
};

const CRD = json({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
  metadata: { name: `crontabs.${GROUP}` },
  spec: {
    group: GROUP, scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
        cronSpec: { type: 'string', pattern: '^[-*/0-9 ]+$' },
        image: { type: 'string', maxLength: 20 },
        replicas: { type: 'integer', minimum: 1, default: 1 },
      } } } } },
    }],
  },
});

const setup: readonly DiffCase[] = [
  { resource: 'namespaces', verb: 'create', name: 'valid', method: 'POST', path: '/api/v1/namespaces',
    body: json({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }) },
  { resource: 'customresourcedefinitions', verb: 'create', name: 'valid', method: 'POST',
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: CRD },
];

const configMaps: readonly DiffCase[] = [
  { resource: 'configmaps', verb: 'create', name: 'valid', method: 'POST', path: CM, body: cm('cm-a', { a: '1' }, { labels: { app: 'diff' } }) },
  { resource: 'configmaps', verb: 'create', name: 'second', method: 'POST', path: CM, body: cm('cm-b', { b: '1' }, { labels: { app: 'diff' } }) },
  { resource: 'configmaps', verb: 'create', name: 'generateName', method: 'POST', path: CM, body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'cm-gen-' } }) },
  { resource: 'configmaps', verb: 'create', name: 'already exists', method: 'POST', path: CM, body: cm('cm-a', { a: '2' }) },
  { resource: 'configmaps', verb: 'create', name: 'invalid name', method: 'POST', path: CM, body: cm('Bad_Name', {}) },
  { resource: 'configmaps', verb: 'create', name: 'invalid key', method: 'POST', path: CM, body: cm('cm-bad-key', { 'bad key': 'x', '..': 'y' }) },
  { resource: 'configmaps', verb: 'create', name: 'no name', method: 'POST', path: CM, body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }) },
  { resource: 'configmaps', verb: 'create', name: 'bad JSON', method: 'POST', path: CM, body: '{"apiVersion": "v1", "kind": ' },
  { resource: 'configmaps', verb: 'create', name: 'not UTF-8', method: 'POST', path: CM, body: Buffer.from([0x81, 0x7b]) },
  { resource: 'configmaps', verb: 'create', name: 'wrong kind', method: 'POST', path: CM, body: json({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'cm-s' } }) },
  { resource: 'configmaps', verb: 'create', name: 'other namespace', method: 'POST', path: CM, body: cm('cm-ns', {}, { namespace: 'elsewhere' }) },
  { resource: 'configmaps', verb: 'create', name: 'dryRun=All', method: 'POST', path: `${CM}?dryRun=All`, body: cm('cm-dry', { a: '1' }) },
  { resource: 'configmaps', verb: 'create', name: 'dryRun=Bogus', method: 'POST', path: `${CM}?dryRun=Bogus`, body: cm('cm-dry2', {}) },
  { resource: 'configmaps', verb: 'create', name: 'fieldValidation=Bogus', method: 'POST', path: `${CM}?fieldValidation=Bogus`, body: cm('cm-fv', {}) },
  { resource: 'configmaps', verb: 'create', name: 'unknown field Strict', method: 'POST', path: `${CM}?fieldValidation=Strict`,
    body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-strict' }, bogus: 1 }) },
  { resource: 'configmaps', verb: 'create', name: 'unknown field Warn', method: 'POST', path: `${CM}?fieldValidation=Warn`,
    body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-warn' }, bogus: 1 }) },
  { resource: 'configmaps', verb: 'create', name: 'fieldManager too long', method: 'POST', path: `${CM}?fieldManager=${'m'.repeat(129)}`, body: cm('cm-fm', {}) },
  { resource: 'configmaps', verb: 'get', name: 'existing', method: 'GET', path: `${CM}/cm-a`, remember: rememberRV('cmRV') },
  { resource: 'configmaps', verb: 'get', name: 'as YAML', method: 'GET', path: `${CM}/cm-a`, headers: { Accept: 'application/yaml' } },
  { resource: 'configmaps', verb: 'get', name: 'resourceVersion=0', method: 'GET', path: `${CM}/cm-a?resourceVersion=0` },
  { resource: 'configmaps', verb: 'get', name: 'not acceptable', method: 'GET', path: `${CM}/cm-a`, headers: { Accept: 'text/html' } },
  { resource: 'configmaps', verb: 'get', name: 'dry-run object not stored', method: 'GET', path: `${CM}/cm-dry` },
  { resource: 'configmaps', verb: 'get', name: 'missing', method: 'GET', path: `${CM}/nope` },
  { resource: 'configmaps', verb: 'list', name: 'limit=1', method: 'GET', path: `${CM}?limit=1`, remember: rememberContinue('cmContinue') },
  { resource: 'configmaps', verb: 'list', name: 'continue', method: 'GET', path: `${CM}?limit=1&continue={cmContinue}` },
  { resource: 'configmaps', verb: 'list', name: 'labelSelector', method: 'GET', path: `${CM}?labelSelector=app%3Ddiff` },
  { resource: 'configmaps', verb: 'list', name: 'bad labelSelector', method: 'GET', path: `${CM}?labelSelector=a%20in%20(` },
  { resource: 'configmaps', verb: 'list', name: 'bad limit', method: 'GET', path: `${CM}?limit=abc` },
  { resource: 'configmaps', verb: 'list', name: 'bad continue', method: 'GET', path: `${CM}?limit=1&continue=garbage` },
  { resource: 'configmaps', verb: 'update', name: 'current resourceVersion', method: 'PUT', path: `${CM}/cm-a`,
    body: cm('cm-a', { a: '1', u: 'updated' }, { resourceVersion: '{cmRV}', labels: { app: 'diff' } }) },
  { resource: 'configmaps', verb: 'update', name: 'stale resourceVersion', method: 'PUT', path: `${CM}/cm-a`, body: cm('cm-a', { a: '9' }, { resourceVersion: '1' }) },
  { resource: 'configmaps', verb: 'update', name: 'name mismatch', method: 'PUT', path: `${CM}/cm-a`, body: cm('cm-other', { a: '9' }) },
  { resource: 'configmaps', verb: 'patch:merge', name: 'add key', method: 'PATCH', path: `${CM}/cm-a`, contentType: MERGE, body: json({ data: { b: '2' } }) },
  { resource: 'configmaps', verb: 'patch:merge', name: 'bad JSON', method: 'PATCH', path: `${CM}/cm-a`, contentType: MERGE, body: '{' },
  { resource: 'configmaps', verb: 'patch:merge', name: 'missing object', method: 'PATCH', path: `${CM}/nope`, contentType: MERGE, body: json({ data: { b: '2' } }) },
  { resource: 'configmaps', verb: 'patch:merge', name: 'invalid result', method: 'PATCH', path: `${CM}/cm-a`, contentType: MERGE, body: json({ data: { 'bad key': '1' } }) },
  { resource: 'configmaps', verb: 'patch:json', name: 'add key', method: 'PATCH', path: `${CM}/cm-a`, contentType: JSON_PATCH, body: json([{ op: 'add', path: '/data/c', value: '3' }]) },
  { resource: 'configmaps', verb: 'patch:json', name: 'failed test', method: 'PATCH', path: `${CM}/cm-a`, contentType: JSON_PATCH, body: json([{ op: 'test', path: '/data/a', value: 'nope' }]) },
  { resource: 'configmaps', verb: 'patch:json', name: 'remove missing', method: 'PATCH', path: `${CM}/cm-a`, contentType: JSON_PATCH, body: json([{ op: 'remove', path: '/data/zzz' }]) },
  { resource: 'configmaps', verb: 'patch:json', name: 'not an array', method: 'PATCH', path: `${CM}/cm-a`, contentType: JSON_PATCH, body: json({ op: 'add' }) },
  { resource: 'configmaps', verb: 'patch:strategic', name: 'labels', method: 'PATCH', path: `${CM}/cm-a`, contentType: STRATEGIC, body: json({ metadata: { labels: { x: 'y' } } }) },
  { resource: 'configmaps', verb: 'patch:strategic', name: 'bad directive', method: 'PATCH', path: `${CM}/cm-a`, contentType: STRATEGIC, body: json({ $patch: 'bogus' }) },
  { resource: 'configmaps', verb: 'patch:other', name: 'unsupported type', method: 'PATCH', path: `${CM}/cm-a`, contentType: 'application/foo', body: '{}' },
  { resource: 'configmaps', verb: 'apply', name: 'create', method: 'PATCH', path: `${CM}/cm-applied?fieldManager=diff-apply`, contentType: APPLY,
    body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-applied\ndata:\n  k: v\n' },
  { resource: 'configmaps', verb: 'apply', name: 'no fieldManager', method: 'PATCH', path: `${CM}/cm-applied`, contentType: APPLY,
    body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-applied\n' },
  { resource: 'configmaps', verb: 'apply', name: 'conflict', method: 'PATCH', path: `${CM}/cm-a?fieldManager=diff-other`, contentType: APPLY,
    body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-a\ndata:\n  a: other\n' },
  { resource: 'configmaps', verb: 'apply', name: 'force', method: 'PATCH', path: `${CM}/cm-a?fieldManager=diff-other&force=true`, contentType: APPLY,
    body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-a\ndata:\n  a: other\n' },
  { resource: 'configmaps', verb: 'apply', name: 'bad YAML', method: 'PATCH', path: `${CM}/cm-a?fieldManager=diff-other`, contentType: APPLY, body: 'a: [' },
  { resource: 'configmaps', verb: 'delete', name: 'wrong uid precondition', method: 'DELETE', path: `${CM}/cm-a`,
    body: json({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: '00000000-0000-0000-0000-000000000000' } }) },
  { resource: 'configmaps', verb: 'delete', name: 'bad propagationPolicy', method: 'DELETE', path: `${CM}/cm-a?propagationPolicy=Bogus` },
  { resource: 'configmaps', verb: 'delete', name: 'existing', method: 'DELETE', path: `${CM}/cm-a` },
  { resource: 'configmaps', verb: 'delete', name: 'missing', method: 'DELETE', path: `${CM}/cm-a` },
  { resource: 'configmaps', verb: 'list', name: 'after delete', method: 'GET', path: `${CM}?labelSelector=app%3Ddiff` },
  { resource: 'configmaps', verb: 'list', name: 'Exact without resourceVersion', method: 'GET', path: `${CM}?resourceVersionMatch=Exact` },
  { resource: 'configmaps', verb: 'deletecollection', name: 'labelSelector', method: 'DELETE', path: `${CM}?labelSelector=app%3Ddiff` },
  { resource: 'configmaps', verb: 'list', name: 'after deletecollection', method: 'GET', path: `${CM}?labelSelector=app%3Ddiff` },
];

const cronTabs: readonly DiffCase[] = [
  { resource: 'crontabs', verb: 'create', name: 'valid', method: 'POST', path: CT, body: ct('ct-a', { cronSpec: '* * * * */5', image: 'img' }) },
  { resource: 'crontabs', verb: 'create', name: 'second', method: 'POST', path: CT, body: ct('ct-b', { cronSpec: '0 * * * *', replicas: 3 }) },
  { resource: 'crontabs', verb: 'create', name: 'already exists', method: 'POST', path: CT, body: ct('ct-a', {}) },
  { resource: 'crontabs', verb: 'create', name: 'schema violations', method: 'POST', path: CT,
    body: ct('ct-bad', { cronSpec: 'every minute', image: 'x'.repeat(21), replicas: 0 }) },
  { resource: 'crontabs', verb: 'create', name: 'wrong type', method: 'POST', path: CT, body: ct('ct-type', { replicas: 'three' }) },
  { resource: 'crontabs', verb: 'create', name: 'invalid name', method: 'POST', path: CT, body: ct('Bad_Name', {}) },
  { resource: 'crontabs', verb: 'create', name: 'bad JSON', method: 'POST', path: CT, body: '{"apiVersion": ' },
  { resource: 'crontabs', verb: 'create', name: 'unknown field Strict', method: 'POST', path: `${CT}?fieldValidation=Strict`, body: ct('ct-strict', { bogus: 1 }) },
  { resource: 'crontabs', verb: 'create', name: 'unknown field Warn', method: 'POST', path: `${CT}?fieldValidation=Warn`, body: ct('ct-warn', { bogus: 1 }) },
  { resource: 'crontabs', verb: 'create', name: 'dryRun=Bogus', method: 'POST', path: `${CT}?dryRun=Bogus`, body: ct('ct-dry', {}) },
  { resource: 'crontabs', verb: 'get', name: 'existing', method: 'GET', path: `${CT}/ct-a` },
  { resource: 'crontabs', verb: 'get', name: 'missing', method: 'GET', path: `${CT}/nope` },
  { resource: 'crontabs', verb: 'get', name: 'protobuf not acceptable', method: 'GET', path: `${CT}/ct-a`,
    headers: { Accept: 'application/vnd.kubernetes.protobuf' } },
  { resource: 'crontabs', verb: 'list', name: 'limit=1', method: 'GET', path: `${CT}?limit=1`, remember: rememberContinue('ctContinue') },
  { resource: 'crontabs', verb: 'list', name: 'continue', method: 'GET', path: `${CT}?limit=1&continue={ctContinue}` },
  { resource: 'crontabs', verb: 'patch:merge', name: 'replicas', method: 'PATCH', path: `${CT}/ct-a`, contentType: MERGE, body: json({ spec: { replicas: 2 } }) },
  { resource: 'crontabs', verb: 'patch:merge', name: 'schema violation', method: 'PATCH', path: `${CT}/ct-a`, contentType: MERGE, body: json({ spec: { replicas: -1 } }) },
  { resource: 'crontabs', verb: 'patch:json', name: 'image', method: 'PATCH', path: `${CT}/ct-a`, contentType: JSON_PATCH, body: json([{ op: 'replace', path: '/spec/image', value: 'img2' }]) },
  { resource: 'crontabs', verb: 'patch:json', name: 'failed test', method: 'PATCH', path: `${CT}/ct-a`, contentType: JSON_PATCH, body: json([{ op: 'test', path: '/spec/image', value: 'no' }]) },
  { resource: 'crontabs', verb: 'patch:strategic', name: 'not supported', method: 'PATCH', path: `${CT}/ct-a`, contentType: STRATEGIC, body: json({ spec: { replicas: 4 } }) },
  { resource: 'crontabs', verb: 'apply', name: 'create', method: 'PATCH', path: `${CT}/ct-applied?fieldManager=diff-apply`, contentType: APPLY,
    body: `apiVersion: ${GROUP}/v1\nkind: CronTab\nmetadata:\n  name: ct-applied\nspec:\n  cronSpec: "1 * * * *"\n` },
  { resource: 'crontabs', verb: 'apply', name: 'conflict', method: 'PATCH', path: `${CT}/ct-a?fieldManager=diff-other`, contentType: APPLY,
    body: `apiVersion: ${GROUP}/v1\nkind: CronTab\nmetadata:\n  name: ct-a\nspec:\n  image: other\n` },
  { resource: 'crontabs', verb: 'delete', name: 'existing', method: 'DELETE', path: `${CT}/ct-a` },
  { resource: 'crontabs', verb: 'delete', name: 'missing', method: 'DELETE', path: `${CT}/ct-a` },
];

describe('kapi against the reference kube-apiserver', { skip: oracleUnavailable() ?? false }, () => {
  let kapi: Suite;
  let oracle: Oracle;
  const results: CaseResult[] = [];
  before(async () => {
    // Settled, not all: when one fails to start, the other is still stopped by after().
    const [k, o] = await Promise.allSettled([startSuite(), startOracle()]);
    if (k.status === 'fulfilled') kapi = k.value;
    if (o.status === 'fulfilled') oracle = o.value;
    if (k.status === 'rejected') throw k.reason;
    if (o.status === 'rejected') throw o.reason;
  });
  after(async () => {
    if (results.length > 0) {
      const known = results.flatMap((r) => r.known);
      const unused = unusedEntries(results, [...intendedDifferences, ...knownDefects]);
      console.log([
        `\nkapi vs kube-apiserver ${oracle.version}:`, agreementTable(results),
        ...(known.length > 0 ? ['known defects seen:', describeDifferences(known)] : []),
        ...unused.map((e) => `listed but not seen (fixed? then drop it): ${String(e.cases)} ${String(e.where)}`),
      ].join('\n'));
    }
    await Promise.all([kapi?.close(), oracle?.stop()]);
  });

  const send = (which: () => (req: RawRequest) => Promise<RawResponse>) => (req: RawRequest): Promise<RawResponse> => which()(req);
  const run = async (cases: readonly DiffCase[]): Promise<CaseResult[]> => {
    const rs = await runCases(cases, send(() => kapi.request), send(() => oracle.request), USER_AGENT);
    results.push(...rs);
    return rs;
  };
  const assertAgree = (rs: readonly CaseResult[]): void => {
    const unexpected = rs.flatMap((r) => r.unexpected);
    assert.equal(unexpected.length, 0, `unexpected differences:\n${describeDifferences(unexpected)}`);
  };

  it('agrees on creating a namespace and a CRD', async () => {
    assertAgree(await run(setup));
  });

  it('agrees on ConfigMaps', async () => {
    assertAgree(await run(configMaps));
  });

  it('agrees on a custom resource', async () => {
    // Both must serve the CRD before its resources are compared.
    for (const request of [kapi.request, oracle.request]) {
      await eventually('crontabs served', async () => ((await request({ method: 'GET', path: CT })).status === 200 ? true : undefined));
    }
    assertAgree(await run(cronTabs));
  });
});
