// CRD conversion webhooks, kapi against the reference kube-apiserver: the same webhook (a server
// of the test's own on 127.0.0.1) misbehaving in each way, and the same requests to both servers,
// which must answer the same status and message; and the same invalid conversion blocks refused
// with the same causes. Skipped, with the reason printed, when the oracle is not built.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newTestPKI } from '../webhook/testing.ts';
import { startConversionWebhook, GROUP, PLURAL, widgetCRD, type ConversionWebhook, type Mode } from './testing/conversion-webhook.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const skip = oracleUnavailable();
if (skip !== undefined) console.log(`skipping the conversion webhook differential: ${skip}`);

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const path = (version: string, name = ''): string => `/apis/${GROUP}/${version}/namespaces/default/${PLURAL}${name === '' ? '' : `/${name}`}`;

/** Status code and message, with what differs by run (uids, ports) masked. */
function answer(r: RawResponse): string {
  let body: unknown;
  try { body = r.json(); } catch { body = r.text; }
  const b = body as { kind?: string; message?: string; reason?: string; details?: { causes?: unknown } };
  const text = b.kind === 'Status' ? `${b.reason ?? ''}: ${b.message ?? ''} ${JSON.stringify(b.details?.causes ?? null)}` : 'object';
  return `${String(r.status)} ${text}`.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UID');
}

describe('CRD conversion webhooks against the reference kube-apiserver', { skip: skip ?? false }, () => {
  let oracle: Oracle;
  let s: Suite;
  let hook: ConversionWebhook;
  let caBundle = '';
  const both = async (req: RawRequest): Promise<{ kube: string; kapi: string }> =>
    ({ kube: answer(await oracle.request(req)), kapi: answer(await s.request(req)) });

  before(async () => {
    const pki = await newTestPKI();
    caBundle = pki.caBundle;
    hook = await startConversionWebhook(pki);
    [oracle, s] = await Promise.all([startOracle(), startSuite()]);
    const crd = JSON.stringify(widgetCRD({ url: `${hook.server.url}/convert`, caBundle }));
    for (const send of [oracle.request, s.request]) {
      const r = await send({ method: 'POST', path: CRDS, body: crd });
      assert.equal(r.status, 201, r.text);
    }
    // Both serve the CRD, and each stores the same objects.
    for (const send of [oracle.request, s.request]) {
      for (let i = 0; ; i++) {
        const r = await send({ method: 'POST', path: path('v1'), body: JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'a' }, spec: { host: 'h', port: 80 } }) });
        if (r.status === 201) break;
        if (i > 100) assert.fail(r.text);
        await new Promise((res) => setTimeout(res, 100));
      }
    }
  });
  after(async () => {
    await Promise.all([oracle.stop(), s.close()]);
    await hook.close();
  });

  const modes: Mode[] = ['ok', 'failure', 'failureNoMessage', 'status500', 'empty200', 'text200', 'wrongCount', 'uidMismatch', 'v1beta1Review',
    'noKind', 'noResponse', 'changedName', 'changedUID', 'changedLabels', 'invalidLabels', 'changedOtherMeta', 'wrongApiVersion', 'wrongKind', 'noMetadata'];
  const requests: { name: string; req: RawRequest }[] = [
    { name: 'get in v2', req: { method: 'GET', path: path('v2', 'a') } },
    { name: 'dry-run create in v2', req: { method: 'POST', path: `${path('v2')}?dryRun=All`,
      body: JSON.stringify({ apiVersion: `${GROUP}/v2`, kind: 'Widget', metadata: { name: 'c' }, spec: { address: 'x:9' } }) } },
    { name: 'dry-run patch in v2', req: { method: 'PATCH', path: `${path('v2', 'a')}?dryRun=All`, contentType: 'application/merge-patch+json',
      body: JSON.stringify({ metadata: { annotations: { x: 'y' } } }) } },
    { name: 'get in v1', req: { method: 'GET', path: path('v1', 'a') } },
  ];
  for (const mode of modes) {
    it(`answers the same when the webhook answers ${mode}`, async () => {
      hook.mode = mode;
      try {
        for (const { name, req } of requests) {
          const { kube, kapi } = await both(req);
          assert.equal(kapi, kube, name);
        }
      } finally { hook.mode = 'ok'; }
    });
  }

  const base = widgetCRD({ url: 'https://127.0.0.1/convert' }) as { metadata: { name: string }; spec: Record<string, unknown> };
  const invalidConversions: { name: string; conversion: unknown }[] = [
    { name: 'no webhook', conversion: { strategy: 'Webhook' } },
    { name: 'neither url nor service', conversion: { strategy: 'Webhook', webhook: { clientConfig: {}, conversionReviewVersions: ['v1'] } } },
    { name: 'an http url with a query', conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'http://h/p?q' }, conversionReviewVersions: ['v1'] } } },
    { name: 'a bad service', conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { name: '', namespace: 'n', port: 70000, path: '/A' } }, conversionReviewVersions: ['v1'] } } },
    { name: 'unknown review versions', conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://h' }, conversionReviewVersions: ['v9', 'v9'] } } },
    { name: 'None with a webhook', conversion: { strategy: 'None', webhook: { conversionReviewVersions: ['v1'] } } },
  ];
  for (const tc of invalidConversions) {
    it(`refuses a CRD with ${tc.name} as kube does`, async () => {
      const crd = { ...base, metadata: { name: `gadgets.${GROUP}` },
        spec: { ...base.spec, names: { plural: 'gadgets', kind: 'Gadget' }, conversion: tc.conversion } };
      const { kube, kapi } = await both({ method: 'POST', path: `${CRDS}?dryRun=All`, body: JSON.stringify(crd) });
      assert.match(kube, /^422 /);
      assert.equal(kapi, kube);
    });
  }
});
