// A CRD converting by webhook, kapi against the reference kube-apiserver, where another version
// than the request's matters: server-side apply compares managers recorded in another version in
// theirs (kube's versionConverter calls the conversion webhook), a failing webhook fails an apply
// and strips an update's managedFields (v1.36), and ValidatingAdmissionPolicy /
// MutatingAdmissionPolicy registered for v1 (matchPolicy Equivalent) see a v2 request converted.
// Skipped, with the reason printed, when the oracle is not built.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newTestPKI } from '../webhook/testing.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import { GROUP, PLURAL, startConversionWebhook, widgetCRD, type ConversionWebhook, type Mode } from './testing/conversion-webhook.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';

type Json = Record<string, unknown>;
const skip = oracleUnavailable();
if (skip !== undefined) console.log(`crd-conversion-versions-differential: skipped: ${skip}`);

const path = (version: string, name = ''): string => `/apis/${GROUP}/${version}/namespaces/default/${PLURAL}${name === '' ? '' : `/${name}`}`;
const AR = '/apis/admissionregistration.k8s.io/v1';
const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';

/** What is compared: a failure's Status, or the object's spec and managedFields without times. */
function view(r: RawResponse): unknown {
  const text = r.text.replace(/https:\/\/127\.0\.0\.1:\d+/g, '<url>');
  if (r.status >= 300) return { status: r.status, body: JSON.parse(text) as unknown };
  const o = JSON.parse(text) as { spec?: unknown; metadata: { managedFields?: Json[] } };
  const managed = (o.metadata.managedFields ?? []).map((e) => [e['manager'], e['operation'], e['apiVersion'], e['fieldsV1']]);
  return { status: r.status, spec: o.spec, managed };
}

interface Target { readonly name: string; request(r: RawRequest): Promise<RawResponse> }

describe('a CRD converting by webhook, across versions, against kube-apiserver', { skip }, () => {
  let conversion: ConversionWebhook;
  let kapi: Suite;
  let kube: Oracle;
  const targets: Target[] = [];

  /** Sends `req` to both servers with the conversion webhook in `mode`; the two answers. */
  async function both(req: RawRequest, mode: Mode = 'ok'): Promise<RawResponse[]> {
    const out: RawResponse[] = [];
    for (const t of targets) {
      conversion.mode = mode;
      try {
        out.push(await t.request(req));
      } finally {
        conversion.mode = 'ok';
      }
    }
    return out;
  }

  async function create(t: Target, p: string, body: Json): Promise<void> {
    const r = await t.request({ method: 'POST', path: p, contentType: 'application/json', body: JSON.stringify(body) });
    assert.equal(r.status, 201, `${t.name}: ${r.text}`);
  }

  before(async () => {
    const pki = await newTestPKI();
    conversion = await startConversionWebhook(pki);
    [kapi, kube] = await Promise.all([startSuite(), startOracle()]);
    targets.push({ name: 'kapi', request: (r) => kapi.request(r) }, { name: 'kube', request: (r) => kube.request(r) });
    for (const t of targets) {
      await create(t, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', widgetCRD({ url: `${conversion.server.url}/convert`, caBundle: pki.caBundle }));
      await eventually(`${t.name}: widgets served`, async () => ((await t.request({ method: 'GET', path: path('v2') })).status === 200 ? true : undefined));
    }
  });
  after(async () => {
    await kapi?.close();
    await kube?.stop();
    await conversion?.close();
  });

  it('server-side apply compares managers recorded in another version in theirs', async () => {
    const steps: { name: string; version: string; manager: string; spec: Json; force?: boolean; type?: string; mode?: Mode; want: number }[] = [
      { name: 'alice applies host and port in v1', version: 'v1', manager: 'alice', spec: { host: 'h', port: 80 }, want: 201 },
      { name: 'bob applies another address in v2: conflicts with alice\'s host and port', version: 'v2', manager: 'bob', spec: { address: 'x:81' }, want: 409 },
      { name: 'bob applies the same address in v2: no conflict, both own it', version: 'v2', manager: 'bob', spec: { address: 'h:80' }, want: 200 },
      { name: 'carol changes the port in v1: conflicts with alice (v1) and bob (v2)', version: 'v1', manager: 'carol', spec: { port: 99 }, want: 409 },
      { name: 'alice stops applying the port in v1: pruned, unless bob\'s address keeps it', version: 'v1', manager: 'alice', spec: { host: 'h' }, want: 200 },
      { name: 'bob forces a new address in v2: alice loses what changed in v1', version: 'v2', manager: 'bob', spec: { address: 'z:5' }, force: true, want: 200 },
      { name: 'alice applies in v1 with the webhook failing: 500 with its text', version: 'v1', manager: 'alice', spec: { host: 'z' }, mode: 'failure', want: 500 },
      { name: 'a merge patch with the webhook failing: stored without managedFields (v1.36)', version: 'v1', manager: 'carol', spec: { host: 'y' },
        type: MERGE, mode: 'failure', want: 200 },
      { name: 'an update of an untracked object records nothing', version: 'v2', manager: 'dave', spec: { address: 'q:3' }, type: MERGE, want: 200 },
      { name: 'alice applies in v1: conflicts with before-first-apply', version: 'v1', manager: 'alice', spec: { host: 'h' }, want: 409 },
    ];
    for (const s of steps) {
      const res = await both({
        method: 'PATCH', path: `${path(s.version, 'a')}?fieldManager=${s.manager}${s.force === true ? '&force=true' : ''}`, contentType: s.type ?? APPLY,
        body: JSON.stringify({ apiVersion: `${GROUP}/${s.version}`, kind: 'Widget', metadata: { name: 'a' }, spec: s.spec }),
      }, s.mode);
      assert.deepEqual(res.map((r) => r.status), [s.want, s.want], `${s.name}: ${res.map((r) => r.text).join('\n')}`);
      assert.deepEqual(view(res[0] as RawResponse), view(res[1] as RawResponse), s.name);
    }
  });

  it('the conflict names the field in the other manager\'s version', async () => {
    await both({ method: 'PATCH', path: `${path('v1', 'b')}?fieldManager=alice`, contentType: APPLY,
      body: JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'b' }, spec: { host: 'h', port: 1 } }) });
    const res = await both({ method: 'PATCH', path: `${path('v2', 'b')}?fieldManager=bob`, contentType: APPLY,
      body: JSON.stringify({ apiVersion: `${GROUP}/v2`, kind: 'Widget', metadata: { name: 'b' }, spec: { address: 'h:2' } }) });
    for (const r of res) {
      const st = r.json() as { message: string; details: { causes: Json[] } };
      assert.equal(st.message, 'Apply failed with 1 conflict: conflict with "alice": .spec.port');
      assert.deepEqual(st.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.port' }]);
    }
  });

  it('admission policies registered for v1 see a v2 request converted by the webhook', async () => {
    const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: [GROUP], apiVersions: ['v1'], resources: [PLURAL] }];
    const widget = (name: string, address: string): string => JSON.stringify({ apiVersion: `${GROUP}/v2`, kind: 'Widget', metadata: { name }, spec: { address } });
    const post = (name: string, address: string, dryRun = false): RawRequest =>
      ({ method: 'POST', path: `${path('v2')}${dryRun ? '?dryRun=All' : ''}`, contentType: 'application/json', body: widget(name, address) });
    for (const t of targets) {
      await create(t, `${AR}/validatingadmissionpolicies`, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'port-limit' }, spec: { failurePolicy: 'Fail', matchConstraints: { matchPolicy: 'Equivalent', resourceRules: rules },
          validations: [{ expression: 'object.spec.port < 1000', messageExpression: '\'port \' + string(object.spec.port) + \' seen in \' + object.apiVersion' }] } });
      await create(t, `${AR}/validatingadmissionpolicybindings`, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'port-limit' }, spec: { policyName: 'port-limit', validationActions: ['Deny'] } });
      await eventually(`${t.name}: the validating policy in effect`, async () => ((await t.request(post('probe', 'h:5000', true))).status === 422 ? true : undefined));
    }
    const denied = await both(post('big', 'h:5000'));
    assert.deepEqual(denied.map((r) => r.status), [422, 422], denied.map((r) => r.text).join('\n'));
    assert.deepEqual(view(denied[0] as RawResponse), view(denied[1] as RawResponse));
    assert.match((denied[0]?.json() as { message: string }).message, /denied request: port 5000 seen in conv\.example\.com\/v1$/);
    const failed = await both(post('down', 'h:80'), 'failure');
    assert.deepEqual(failed.map((r) => r.status), [failed[1]?.status, failed[1]?.status]);
    assert.deepEqual(view(failed[0] as RawResponse), view(failed[1] as RawResponse));

    for (const t of targets) {
      await create(t, `${AR}/mutatingadmissionpolicies`, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicy',
        metadata: { name: 'port-bump' }, spec: { failurePolicy: 'Fail', reinvocationPolicy: 'Never', matchConstraints: { matchPolicy: 'Equivalent', resourceRules: rules },
          matchConditions: [{ name: 'seven', expression: 'object.spec.port == 7' }],
          mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[JSONPatch{op: \'replace\', path: \'/spec/port\', value: 8}]' } }] } });
      await create(t, `${AR}/mutatingadmissionpolicybindings`, { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding',
        metadata: { name: 'port-bump' }, spec: { policyName: 'port-bump' } });
      await eventually(`${t.name}: the mutating policy in effect`, async () => {
        const r = await t.request(post('probe', 'h:7', true));
        return r.status === 201 && (r.json() as { spec: Json }).spec['address'] === 'h:8' ? true : undefined;
      });
    }
    // The policy changed the v1 port; the object is stored and answered in v2.
    const mutated = await both(post('seven', 'h:7'));
    assert.deepEqual(mutated.map((r) => [r.status, (r.json() as { spec?: unknown }).spec]), [[201, { address: 'h:8' }], [201, { address: 'h:8' }]]);
    const mutateFailed = await both(post('down', 'h:7'), 'failure');
    assert.deepEqual(mutateFailed.map((r) => r.status), [403, 403], mutateFailed.map((r) => r.text).join('\n'));
    assert.deepEqual(view(mutateFailed[0] as RawResponse), view(mutateFailed[1] as RawResponse));
    assert.equal((mutateFailed[0]?.json() as { message: string }).message,
      'policy "port-bump" denied request: failed to configure policy: conversion webhook for conv.example.com/v2, Kind=Widget failed: widgets cannot be converted today');
    // Nothing the refused requests asked for was stored.
    for (const t of targets) assert.equal((await t.request({ method: 'GET', path: path('v2', 'down') })).status, 404, t.name);
  });
});
