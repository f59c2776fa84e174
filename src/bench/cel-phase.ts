// The cost of CRD validation rules: creates of a custom resource whose CRD has five
// x-kubernetes-validations rules (on the object, a string, a list and its items, a map), against
// creates of the same resource under the same schema without rules, in the same run; and the same
// pair on kube-apiserver when the oracle is cached; then creates a ValidatingAdmissionPolicy
// matches (policy-phase.ts).
// No Go counterpart: the bench.
import { sendOk, sendRaw, type HttpTarget } from './http-client.ts';
import { runLoad } from './load.ts';
import { figure, type Figure } from './report.ts';
import { measurePolicy } from './policy-phase.ts';
import { median } from './stats.ts';

const GROUP = 'celbench.example.com';
const NS = 'bench-cel';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
/** A guard against a CRD that is never served, not a timing assertion. */
const SERVED_GUARD_MS = 60_000;
const DURATION_MS = 3_000;
const MAX_OPS = 20_000;
/** Alternating rounds of each kind; the figure is the median (the machine's other work varies). */
const ROUNDS = 3;

type Json = Record<string, unknown>;
const rule = (r: string): Json => ({ rule: r, message: 'invalid' });

function schema(withRules: boolean): Json {
  const rules = (...r: string[]): Json => (withRules ? { 'x-kubernetes-validations': r.map(rule) } : {});
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object', ...rules('self.replicas <= self.maxReplicas'),
        properties: {
          replicas: { type: 'integer' }, maxReplicas: { type: 'integer' },
          image: { type: 'string', maxLength: 128, ...rules("self.contains(':')") },
          ports: { type: 'array', maxItems: 16, ...rules('self.all(p, p.port > 0)'),
            items: { type: 'object', properties: { name: { type: 'string', maxLength: 16 }, port: { type: 'integer' } }, ...rules('size(self.name) > 0') } },
          labels: { type: 'object', maxProperties: 16, additionalProperties: { type: 'string', maxLength: 63 }, ...rules("self.all(k, k != '')") },
        },
      },
    },
  };
}

function crd(plural: string, kind: string, withRules: boolean): string {
  return JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${GROUP}` },
    spec: { group: GROUP, scope: 'Namespaced', names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema(withRules) } }] },
  });
}

const body = (kind: string, name: string): string => JSON.stringify({
  apiVersion: `${GROUP}/v1`, kind, metadata: { name, namespace: NS },
  spec: { replicas: 2, maxReplicas: 5, image: 'registry.example.com/app:1.0', ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }],
    labels: { app: 'web', tier: 'frontend' } },
});

async function setUp(t: HttpTarget): Promise<void> {
  await sendOk(t, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }), [201, 409]);
  for (const [plural, kind, withRules] of [['plains', 'Plain', false], ['ruleds', 'Ruled', true]] as const) {
    await sendOk(t, 'POST', CRDS, crd(plural, kind, withRules), [201, 409]);
    const until = Date.now() + SERVED_GUARD_MS;
    while ((await sendRaw(t, { method: 'GET', path: `/apis/${GROUP}/v1/namespaces/${NS}/${plural}` })).status !== 200) {
      if (Date.now() > until) throw new Error(`cel: the ${kind} CRD was not served within ${SERVED_GUARD_MS} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Creates per second of `kind` with unique names. */
async function creates(t: HttpTarget, workers: number, plural: string, kind: string, prefix: string): Promise<number> {
  const r = await runLoad({
    workers, durationMs: DURATION_MS, maxOps: MAX_OPS,
    op: async (_w, seq) => { await sendOk(t, 'POST', `/apis/${GROUP}/v1/namespaces/${NS}/${plural}`, body(kind, `${prefix}-${seq}`), [201]); },
  });
  return r.perSecond;
}

async function measureOne(t: HttpTarget, workers: number, prefix: string): Promise<{ plain: number; ruled: number }> {
  await setUp(t);
  // A warm-up round, so that the rules are compiled and the code paths hot before the counted ones.
  await creates(t, workers, 'ruleds', 'Ruled', `${prefix}-warm`);
  const plain: number[] = [];
  const ruled: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    plain.push(await creates(t, workers, 'plains', 'Plain', `${prefix}-${i}`));
    ruled.push(await creates(t, workers, 'ruleds', 'Ruled', `${prefix}-${i}`));
  }
  return { plain: median(plain), ruled: median(ruled) };
}

/**
 * cr-create: creates/s of the resource without rules (no baseline); cr-create-5-rules: with the five
 * rules, against the creates without them as its baseline. kube's figures beside, when measured.
 */
export async function measureCEL(kapi: HttpTarget, kube: HttpTarget | undefined, workers: number, log: (m: string) => void): Promise<Figure[]> {
  log('cel: custom resource creates with and without five validation rules…');
  const k = await measureOne(kapi, workers, 'kapi');
  const ref = kube === undefined ? undefined : await measureOne(kube, workers, 'kube');
  return [
    figure('cr-create', 'ops/s', k.plain, undefined, ref?.plain),
    figure('cr-create-5-rules', 'ops/s', k.ruled, k.plain, ref?.ruled),
    ...await measurePolicy(kapi, kube, workers, log),
  ];
}
