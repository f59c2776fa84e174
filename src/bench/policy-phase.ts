// The cost of a ValidatingAdmissionPolicy on the requests it matches: ConfigMap creates in a
// namespace a Deny binding selects (a policy with three validations, on the object, its data and
// the request), against ConfigMap creates in a namespace no binding selects, in the same run; and
// the same pair on kube-apiserver when the oracle is cached. Part of the cel phase.
// No Go counterpart: the bench.
import { sendOk, sendRaw, type HttpTarget } from './http-client.ts';
import { runLoad } from './load.ts';
import { figure, type Figure } from './report.ts';
import { median } from './stats.ts';

const MATCHED = 'bench-vap-on';
const UNMATCHED = 'bench-vap-off';
const POLICY = 'bench-configmaps';
const V1 = 'admissionregistration.k8s.io/v1';
/** A guard against a policy that never takes effect, not a timing assertion. */
const EFFECT_GUARD_MS = 60_000;
const DURATION_MS = 3_000;
const MAX_OPS = 20_000;
/** Alternating rounds of each kind; the figure is the median (the machine's other work varies). */
const ROUNDS = 3;

const policy = JSON.stringify({
  apiVersion: V1, kind: 'ValidatingAdmissionPolicy', metadata: { name: POLICY },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
    validations: [
      { expression: "object.metadata.name.startsWith('cm-')", message: 'names start with cm-' },
      { expression: "!has(object.data) || object.data.all(k, k.size() < 64 && !k.startsWith('forbidden'))", message: 'no forbidden keys' },
      { expression: "request.userInfo.username != ''", message: 'an authenticated user' },
    ],
  },
});

const binding = JSON.stringify({
  apiVersion: V1, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: POLICY },
  spec: { policyName: POLICY, validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { 'bench-vap': 'on' } } } },
});

const configMap = (ns: string, name: string, data: Record<string, string>): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data });

async function setUp(t: HttpTarget): Promise<void> {
  for (const [ns, on] of [[MATCHED, 'on'], [UNMATCHED, 'off']] as const) {
    await sendOk(t, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'bench-vap': on } } }), [201, 409]);
  }
  await sendOk(t, 'POST', `/apis/${V1}/validatingadmissionpolicies`, policy, [201, 409]);
  await sendOk(t, 'POST', `/apis/${V1}/validatingadmissionpolicybindings`, binding, [201, 409]);
  // The policy takes effect once the server's informers have it: a create it refuses shows that.
  const until = Date.now() + EFFECT_GUARD_MS;
  for (;;) {
    const r = await sendRaw(t, { method: 'POST', path: `/api/v1/namespaces/${MATCHED}/configmaps?dryRun=All`, body: configMap(MATCHED, 'probe', {}) });
    if (r.status === 422) return;
    if (Date.now() > until) throw new Error(`cel: the admission policy did not take effect within ${EFFECT_GUARD_MS} ms (last answer ${r.status})`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** Creates per second of ConfigMaps in `ns` with unique names (the policy admits them). */
async function creates(t: HttpTarget, workers: number, ns: string, prefix: string): Promise<number> {
  const r = await runLoad({
    workers, durationMs: DURATION_MS, maxOps: MAX_OPS,
    op: async (_w, seq) => {
      await sendOk(t, 'POST', `/api/v1/namespaces/${ns}/configmaps`, configMap(ns, `cm-${prefix}-${seq}`, { a: '1', b: '2' }), [201]);
    },
  });
  return r.perSecond;
}

async function measureOne(t: HttpTarget, workers: number, prefix: string): Promise<{ none: number; matched: number }> {
  await setUp(t);
  // A warm-up round, so that the policy is compiled and the code paths hot before the counted ones.
  await creates(t, workers, MATCHED, `${prefix}-warm`);
  const none: number[] = [];
  const matched: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    none.push(await creates(t, workers, UNMATCHED, `${prefix}-${i}`));
    matched.push(await creates(t, workers, MATCHED, `${prefix}-${i}`));
  }
  return { none: median(none), matched: median(matched) };
}

/**
 * policy-create-unmatched: ConfigMap creates/s that no binding selects (no baseline);
 * policy-create-3-validations: creates a policy with three validations judges, against the
 * unmatched ones as its baseline. kube's figures beside, when measured.
 */
export async function measurePolicy(kapi: HttpTarget, kube: HttpTarget | undefined, workers: number, log: (m: string) => void): Promise<Figure[]> {
  log('cel: ConfigMap creates matched by a ValidatingAdmissionPolicy with three validations, and not matched…');
  const k = await measureOne(kapi, workers, 'kapi');
  const ref = kube === undefined ? undefined : await measureOne(kube, workers, 'kube');
  return [
    figure('policy-create-unmatched', 'ops/s', k.none, undefined, ref?.none),
    figure('policy-create-3-validations', 'ops/s', k.matched, k.none, ref?.matched),
  ];
}
