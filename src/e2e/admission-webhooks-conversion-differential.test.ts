// matchPolicy Equivalent for a custom resource whose CRD converts by webhook, kapi against the
// reference kube-apiserver: admission webhooks registered for v1 get a v2 request converted by
// the CRD's conversion webhook, and a mutating webhook's patch (made to the v1 form) comes back
// converted to v2. The same AdmissionReviews and the same stored object on both servers.
// Skipped, with the reason printed, when the oracle is not built.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newTestPKI } from '../webhook/testing.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import { GROUP, PLURAL, startConversionWebhook, widgetCRD, type ConversionWebhook } from './testing/conversion-webhook.ts';
import { patchResponse, startScriptedWebhook, type ScriptedWebhook } from './testing/admission-webhook-server.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';

type Json = Record<string, unknown>;
const skip = oracleUnavailable();
if (skip !== undefined) console.log(`admission-webhooks-conversion-differential: skipped: ${skip}`);

function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => normalize(x));
  if (typeof v === 'string') return v.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>');
  if (v === null || typeof v !== 'object') return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v as Json)) {
    if (['uid', 'resourceVersion', 'creationTimestamp', 'time', 'managedFields', 'generation'].includes(k)) continue;
    out[k] = normalize(x);
  }
  return out;
}

const path = (version: string): string => `/apis/${GROUP}/${version}/namespaces/default/${PLURAL}`;

describe('admission webhooks and a CRD converted by webhook, against kube-apiserver', { skip }, () => {
  let conversion: ConversionWebhook;
  let hook: ScriptedWebhook;
  let kapi: Suite;
  let kube: Oracle;
  const targets: { name: string; request(r: RawRequest): Promise<RawResponse> }[] = [];

  before(async () => {
    const pki = await newTestPKI();
    conversion = await startConversionWebhook(pki);
    hook = await startScriptedWebhook();
    hook.on('/v1-mutate', (req) => ((req['object'] as { metadata: { labels?: Json } }).metadata.labels?.['seen'] === undefined
      ? patchResponse([{ op: 'add', path: '/metadata/labels', value: { seen: String((req['object'] as { spec?: { port?: number } }).spec?.port ?? 'none') } }])
      : { allowed: true }));
    [kapi, kube] = await Promise.all([startSuite(), startOracle()]);
    targets.push({ name: 'kapi', request: (r) => kapi.request(r) }, { name: 'kube', request: (r) => kube.request(r) });
    const rule = { operations: ['CREATE'], apiGroups: [GROUP], apiVersions: ['v1'], resources: [PLURAL] };
    const w = (name: string, p: string): Json => ({ name, clientConfig: hook.clientConfig(p), sideEffects: 'None', admissionReviewVersions: ['v1'],
      matchPolicy: 'Equivalent', rules: [rule] });
    for (const t of targets) {
      const crd = await t.request({ method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', contentType: 'application/json',
        body: JSON.stringify(widgetCRD({ url: `${conversion.server.url}/convert`, caBundle: pki.caBundle })) });
      assert.equal(crd.status, 201, `${t.name}: ${crd.text}`);
      for (const [plural, kind, hooks] of [['mutatingwebhookconfigurations', 'MutatingWebhookConfiguration', [w('v1-mutate.conv.test', '/v1-mutate')]],
        ['validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', [w('v1-record.conv.test', '/v1-record')]]] as const) {
        const r = await t.request({ method: 'POST', path: `/apis/admissionregistration.k8s.io/v1/${plural}`, contentType: 'application/json',
          body: JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name: 'conv-equivalent' }, webhooks: hooks }) });
        assert.equal(r.status, 201, `${t.name}: ${r.text}`);
      }
      await eventually(`${t.name}: widgets served and the webhooks in effect`, async () => {
        const n = hook.reviews('/v1-record').length;
        const r = await t.request({ method: 'POST', path: `${path('v2')}?dryRun=All`, contentType: 'application/json',
          body: JSON.stringify({ apiVersion: `${GROUP}/v2`, kind: 'Widget', metadata: { name: 'probe' }, spec: { address: 'p:1' } }) });
        return r.status === 201 && hook.reviews('/v1-record').length > n ? true : undefined;
      });
    }
  });
  after(async () => {
    await kapi?.close();
    await kube?.stop();
    await hook?.close();
    await conversion?.close();
  });

  it('a v2 create is sent to v1 webhooks converted by the CRD\'s webhook, and their patch comes back as v2', async () => {
    const res: RawResponse[] = [];
    const reviews: Json[][] = [];
    for (const t of targets) {
      const n = hook.received.length;
      res.push(await t.request({ method: 'POST', path: path('v2'), contentType: 'application/json',
        body: JSON.stringify({ apiVersion: `${GROUP}/v2`, kind: 'Widget', metadata: { name: 'w' }, spec: { address: 'h:80' } }) }));
      reviews.push(hook.received.slice(n).map((r) => r.request));
    }
    assert.deepEqual(res.map((r) => r.status), [201, 201], res[0]?.text);
    assert.deepEqual(normalize(reviews[0]), normalize(reviews[1]));
    // The webhooks saw the v1 form (host and port), as kube's conversion made it.
    const first = reviews[1]?.[0]?.['object'] as { apiVersion: string; spec: Json } | undefined;
    assert.deepEqual([first?.apiVersion, first?.spec], [`${GROUP}/v1`, { host: 'h', port: 80 }]);
    assert.deepEqual(normalize(res[0]?.json()), normalize(res[1]?.json()));
  });
});
