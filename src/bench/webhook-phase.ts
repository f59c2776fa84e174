// The cost of admission webhooks: ConfigMap creates in a namespace that one mutating webhook (a
// JSON patch adding a label) and one validating webhook (allow) match, against creates in a
// namespace they do not match, in the same run, alternating rounds; and the same pair on
// kube-apiserver when the oracle is cached. The webhooks are an HTTPS server of the bench's own
// (own CA, 127.0.0.1) in this process.
// No Go counterpart: the bench.
import { newTestPKI, startTestWebhookServer, type TestWebhookServer } from '../webhook/testing.ts';
import { sendOk, type HttpTarget } from './http-client.ts';
import { runLoad } from './load.ts';
import { figure, type Figure } from './report.ts';
import { median } from './stats.ts';

const MATCHED = 'bench-wh';
const UNMATCHED = 'bench-wh-none';
const LABEL = 'bench.kapi.dev/webhooks';
const REG = '/apis/admissionregistration.k8s.io/v1';
const DURATION_MS = 3_000;
const MAX_OPS = 20_000;
const ROUNDS = 3;
/** A guard against configurations that never take effect, not a timing assertion. */
const EFFECT_GUARD_MS = 60_000;

type Json = Record<string, unknown>;

/** The webhooks' answers: the mutating one adds a label by JSON patch, the validating one allows. */
async function startWebhooks(): Promise<{ server: TestWebhookServer; caBundle: string; calls: () => number }> {
  const pki = await newTestPKI();
  let calls = 0;
  const patch = Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }])).toString('base64');
  const server = await startTestWebhookServer(pki, (req, body, res) => {
    calls++;
    const review = JSON.parse(body) as { apiVersion?: string; request?: { uid?: string } };
    const uid = review.request?.uid ?? '';
    const response: Json = req.url === '/mutate' ? { uid, allowed: true, patchType: 'JSONPatch', patch } : { uid, allowed: true };
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }));
  });
  return { server, caBundle: pki.caBundle, calls: () => calls };
}

function configuration(kind: 'Mutating' | 'Validating', url: string, caBundle: string): string {
  return JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: `${kind}WebhookConfiguration`, metadata: { name: `bench-${kind.toLowerCase()}` },
    webhooks: [{
      name: `${kind.toLowerCase()}.bench.kapi.dev`, clientConfig: { url, caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'],
      failurePolicy: 'Fail', namespaceSelector: { matchLabels: { [LABEL]: 'on' } },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    }],
  });
}

const cm = (ns: string, name: string): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data: { key: 'value' } });

async function setUp(t: HttpTarget, url: string, caBundle: string, calls: () => number): Promise<void> {
  for (const [ns, labels] of [[MATCHED, { [LABEL]: 'on' }], [UNMATCHED, {}]] as const) {
    await sendOk(t, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels } }), [201, 409]);
  }
  await sendOk(t, 'POST', `${REG}/mutatingwebhookconfigurations`, configuration('Mutating', `${url}/mutate`, caBundle), [201, 409]);
  await sendOk(t, 'POST', `${REG}/validatingwebhookconfigurations`, configuration('Validating', `${url}/validate`, caBundle), [201, 409]);
  // In effect once a create reaches both webhooks.
  const until = Date.now() + EFFECT_GUARD_MS;
  for (let i = 0; ; i++) {
    const before = calls();
    await sendOk(t, 'POST', `/api/v1/namespaces/${MATCHED}/configmaps?dryRun=All`, cm(MATCHED, `probe-${i}`), [201]);
    if (calls() - before >= 2) return;
    if (Date.now() > until) throw new Error(`webhooks: the configurations took no effect within ${EFFECT_GUARD_MS} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function creates(t: HttpTarget, workers: number, ns: string, prefix: string): Promise<number> {
  const r = await runLoad({
    workers, durationMs: DURATION_MS, maxOps: MAX_OPS,
    op: async (_w, seq) => { await sendOk(t, 'POST', `/api/v1/namespaces/${ns}/configmaps`, cm(ns, `${prefix}-${seq}`), [201]); },
  });
  return r.perSecond;
}

async function measureOne(t: HttpTarget, workers: number, prefix: string, hooks: { url: string; caBundle: string; calls: () => number }):
  Promise<{ none: number; hooked: number }> {
  await setUp(t, hooks.url, hooks.caBundle, hooks.calls);
  // A warm-up round: webhook clients connected and code paths hot before the counted ones.
  await creates(t, workers, MATCHED, `${prefix}-warm`);
  const none: number[] = [];
  const hooked: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    none.push(await creates(t, workers, UNMATCHED, `${prefix}-${i}`));
    hooked.push(await creates(t, workers, MATCHED, `${prefix}-${i}`));
  }
  return { none: median(none), hooked: median(hooked) };
}

/**
 * cm-create-no-webhook: ConfigMap creates/s no webhook matches (no baseline);
 * cm-create-2-webhooks: creates one mutating and one validating webhook admit, against the
 * former as its baseline. kube's figures beside, when measured.
 */
export async function measureWebhooks(kapi: HttpTarget, kube: HttpTarget | undefined, workers: number, log: (m: string) => void): Promise<Figure[]> {
  log('webhooks: ConfigMap creates with one mutating and one validating webhook, and without…');
  const hooks = await startWebhooks();
  try {
    const target = { url: hooks.server.url, caBundle: hooks.caBundle, calls: hooks.calls };
    const k = await measureOne(kapi, workers, 'kapi', target);
    const ref = kube === undefined ? undefined : await measureOne(kube, workers, 'kube', target);
    return [
      figure('cm-create-no-webhook', 'ops/s', k.none, undefined, ref?.none),
      figure('cm-create-2-webhooks', 'ops/s', k.hooked, k.none, ref?.hooked),
    ];
  } finally {
    await hooks.server.close();
  }
}
