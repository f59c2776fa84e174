import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { StatusError } from '../../apimachinery/errors/status-error.ts';
import { legacyRegistry } from '../../apimachinery/metrics/registry.ts';
import { auditAnnotations } from '../audit-annotations.ts';
import { AdmissionChain, type Attributes, type ObjectInterfaces } from '../interfaces.ts';
import { verifyAdmissionResponse } from './admission-review.ts';
import type { WebhookCaller } from './call.ts';
import { toStatusError } from './errors.ts';
import { mutatingAdmissionWebhook, validatingAdmissionWebhook } from './plugin.ts';
import { staticWebhookSource, type WebhookSource } from './source.ts';
import type { WebhookSpec } from './types.ts';

type Json = Record<string, unknown>;
type Answer = (req: Json) => Json | Error;

/** A caller that answers from a script per webhook name and records the requests. */
function fakeCaller(script: Record<string, Answer>): WebhookCaller & { calls: { name: string; req: Json; apiVersion: string }[] } {
  const calls: { name: string; req: Json; apiVersion: string }[] = [];
  return {
    calls,
    post(name, _cfg, body) {
      const review = body as { request: Json; apiVersion: string };
      calls.push({ name, req: review.request, apiVersion: review.apiVersion });
      const out = (script[name] ?? (() => ({ allowed: true })))(review.request);
      if (out instanceof Error) return Promise.reject(out);
      return Promise.resolve({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request['uid'], ...out } });
    },
  };
}

const patch = (ops: Json[]): Json => ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });

/** Only `add` of an object member: enough for these tests. */
const interfaces: ObjectInterfaces = {
  convert: (o) => o,
  decode: (v) => structuredClone(v) as KubeObject,
  jsonPatch: (doc, ops) => {
    const out = structuredClone(doc) as Json;
    for (const op of ops as { path: string; value: unknown }[]) {
      const keys = op.path.split('/').slice(1);
      let cur = out;
      for (const k of keys.slice(0, -1)) cur = (cur[k] ??= {}) as Json;
      cur[keys.at(-1) ?? ''] = op.value;
    }
    return out;
  },
  goJSON: (o) => o,
  equivalentResources: (r) => [r],
  kindFor: () => undefined,
};

const configMap = (): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' } });

function attrs(more: Partial<Attributes> = {}): Attributes {
  return {
    operation: 'CREATE', kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { group: '', version: 'v1', resource: 'configmaps' },
    subresource: '', name: 'cm', namespace: 'ns', object: configMap(), oldObject: undefined, dryRun: false, interfaces, ...more,
  };
}

const spec = (name: string, more: Partial<WebhookSpec> = {}): WebhookSpec => ({
  name, sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail', timeoutSeconds: 10,
  rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }], ...more,
});

const source = (type: 'Mutating' | 'Validating', configs: Record<string, WebhookSpec[]>): WebhookSource =>
  staticWebhookSource(type, Object.entries(configs).map(([name, webhooks]) => ({ metadata: { name }, webhooks })));

const getNamespace = (): Promise<KubeObject | undefined> => Promise.resolve({ metadata: { name: 'ns' } });

async function rejection(p: Promise<unknown>): Promise<StatusError> {
  try { await p; } catch (e) { if (e instanceof StatusError) return e; throw e; }
  return assert.fail('expected a StatusError');
}

describe('mutating webhooks', () => {
  it('apply patches in order, in place, each webhook seeing the previous one\'s result', async () => {
    const caller = fakeCaller({
      first: () => patch([{ op: 'add', path: '/metadata/labels/first', value: '1' }]),
      second: (req) => patch([{ op: 'add', path: '/data/sawFirst', value: String((req['object'] as { metadata: { labels?: Json } }).metadata.labels?.['first']) }]),
    });
    const plugin = mutatingAdmissionWebhook({ source: source('Mutating', { b: [spec('second')], a: [spec('first')] }), getNamespace, caller });
    const a = attrs();
    const obj = a.object;
    await plugin.admit?.(systemContext('ns'), a);
    assert.equal(a.object, obj);
    assert.deepEqual(a.object, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns', labels: { first: '1' } }, data: { sawFirst: '1' } });
    assert.deepEqual(caller.calls.map((c) => c.name), ['first', 'second']);
  });

  it('reinvocation: an IfNeeded webhook is called again once, after a later one changed the object; Never is not', async () => {
    const caller = fakeCaller({
      early: () => ({ allowed: true }),
      never: () => ({ allowed: true }),
      late: (req) => ((req['object'] as { data?: Json }).data === undefined ? patch([{ op: 'add', path: '/data', value: { x: 'y' } }]) : { allowed: true }),
    });
    const plugin = mutatingAdmissionWebhook({
      source: source('Mutating', { a: [spec('early', { reinvocationPolicy: 'IfNeeded' }), spec('never', { reinvocationPolicy: 'Never' })], b: [spec('late')] }),
      getNamespace, caller,
    });
    const ctx = systemContext('ns');
    await new AdmissionChain([plugin]).admit(ctx, attrs());
    assert.deepEqual(caller.calls.map((c) => c.name), ['early', 'never', 'late', 'early']);
    assert.deepEqual(auditAnnotations(ctx), {
      'mutation.webhook.admission.k8s.io/round_0_index_0': '{"configuration":"a","webhook":"early","mutated":false}',
      'mutation.webhook.admission.k8s.io/round_0_index_1': '{"configuration":"a","webhook":"never","mutated":false}',
      'mutation.webhook.admission.k8s.io/round_0_index_2': '{"configuration":"b","webhook":"late","mutated":true}',
      'mutation.webhook.admission.k8s.io/round_1_index_0': '{"configuration":"a","webhook":"early","mutated":false}',
    });
  });

  it('a patch for an operation without an object is refused', async () => {
    const plugin = mutatingAdmissionWebhook({ source: source('Mutating', { a: [spec('w')] }), getNamespace,
      caller: fakeCaller({ w: () => patch([{ op: 'add', path: '/x', value: 1 }]) }) });
    const err = await rejection(plugin.admit?.(systemContext('ns'), attrs({ operation: 'DELETE', object: undefined, oldObject: configMap() })) ?? Promise.resolve());
    assert.equal(err.code, 500);
    assert.equal(err.message, 'Internal error occurred: admission webhook "w" attempted to modify the object, which is not supported for this operation');
  });
});

describe('failures', () => {
  const down = (): Error => new Error('Post "https://127.0.0.1:1/x?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused');
  const cases: { name: string; hook: Partial<WebhookSpec>; answer: Answer; dryRun?: boolean; want: { code: number; message: string } | 'allowed' }[] = [
    { name: 'Fail: down', hook: {}, answer: down, want: { code: 500,
      message: 'Internal error occurred: failed calling webhook "w": failed to call webhook: Post "https://127.0.0.1:1/x?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused' } },
    { name: 'Ignore: down', hook: { failurePolicy: 'Ignore' }, answer: down, want: 'allowed' },
    { name: 'Ignore does not cover a denial', hook: { failurePolicy: 'Ignore' }, answer: () => ({ allowed: false }),
      want: { code: 400, message: 'admission webhook "w" denied the request without explanation' } },
    { name: 'no known review version', hook: { admissionReviewVersions: ['v2'] }, answer: () => ({ allowed: true }), want: { code: 500,
      message: 'Internal error occurred: failed calling webhook "w": could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)' } },
    { name: 'dry run to a webhook with side effects', hook: { sideEffects: 'Some', failurePolicy: 'Ignore' }, dryRun: true, answer: () => ({ allowed: true }),
      want: { code: 400, message: 'admission webhook "w" does not support dry run' } },
    { name: 'dry run to NoneOnDryRun', hook: { sideEffects: 'NoneOnDryRun' }, dryRun: true, answer: () => ({ allowed: true }), want: 'allowed' },
    { name: 'an undecodable patch', hook: {}, answer: () => ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from('{').toString('base64') }),
      want: { code: 500, message: 'Internal error occurred: failed calling webhook "w": received undecodable patch in webhook response: Expected property name or \'}\' in JSON at position 1' } },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const plugin = mutatingAdmissionWebhook({ source: source('Mutating', { a: [spec('w', c.hook)] }), getNamespace, caller: fakeCaller({ w: c.answer }) });
      const p = plugin.admit?.(systemContext('ns'), attrs({ dryRun: c.dryRun === true })) ?? Promise.resolve();
      if (c.want === 'allowed') { await p; return; }
      const err = await rejection(p);
      assert.deepEqual({ code: err.code, message: err.message }, c.want);
    });
  }
});

describe('review versions', () => {
  it('the first version of the webhook\'s list that kapi knows is sent', async () => {
    const caller = fakeCaller({});
    const plugin = validatingAdmissionWebhook({ source: source('Validating', { c: [
      spec('beta', { admissionReviewVersions: ['v2', 'v1beta1', 'v1'] }), spec('v1', { admissionReviewVersions: ['v1', 'v1beta1'] }),
    ] }), getNamespace, caller });
    await plugin.validate?.(systemContext('ns'), attrs());
    assert.deepEqual(caller.calls.map((c) => [c.name, c.apiVersion]).sort(), [['beta', 'admission.k8s.io/v1beta1'], ['v1', 'admission.k8s.io/v1']]);
  });
});

describe('validating webhooks', () => {
  it('are all called; the first refusal in order is the answer', async () => {
    const caller = fakeCaller({ ok: () => ({ allowed: true }), no1: () => ({ allowed: false, status: { message: 'one' } }), no2: () => ({ allowed: false, status: { message: 'two' } }) });
    const plugin = validatingAdmissionWebhook({ source: source('Validating', { c: [spec('ok'), spec('no1'), spec('no2')] }), getNamespace, caller });
    const err = await rejection(plugin.validate?.(systemContext('ns'), attrs()) ?? Promise.resolve());
    assert.equal(err.message, 'admission webhook "no1" denied the request: one');
    assert.deepEqual(caller.calls.map((c) => c.name).sort(), ['no1', 'no2', 'ok']);
  });

  it('do not handle requests when none is configured, and never see webhook configurations', async () => {
    const none = validatingAdmissionWebhook({ source: source('Validating', {}), getNamespace, caller: fakeCaller({}) });
    assert.equal(none.handles('CREATE'), false);
    const caller = fakeCaller({});
    const one = validatingAdmissionWebhook({ source: source('Validating', { c: [spec('w')] }), getNamespace, caller });
    assert.equal(one.handles('CREATE'), true);
    await one.validate?.(systemContext(''), attrs({ kind: { group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingWebhookConfiguration' },
      resource: { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations' }, namespace: '' }));
    assert.equal(caller.calls.length, 0);
  });
});

describe('responses', () => {
  const cases: { name: string; mutating: boolean; review: unknown; want: string }[] = [
    { name: 'absent', mutating: false, review: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }, want: 'webhook response was absent' },
    { name: 'uid', mutating: false, review: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'x' } }, want: 'expected response.uid="u", got "x"' },
    { name: 'kind', mutating: false, review: { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: 'u' } },
      want: 'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview' },
    { name: 'patch without type', mutating: true, review: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u', patch: 'W10=' } },
      want: 'webhook returned response.patch but not response.patchType' },
    { name: 'type without patch', mutating: true, review: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u', patchType: 'JSONPatch' } },
      want: 'webhook returned response.patchType but not response.patch' },
    { name: 'validating patch', mutating: false, review: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u', patch: 'W10=' } },
      want: 'validating webhook may not return response.patch' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.throws(() => verifyAdmissionResponse('v1', 'u', c.mutating, c.review), { message: c.want }));
  }

  it('denials keep the webhook\'s status with a code of at least 400', () => {
    assert.deepEqual(toStatusError('w', { code: 200, message: 'm' }).status, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 400, reason: '', message: 'admission webhook "w" denied the request: m' });
    assert.equal(toStatusError('w', { code: 422, reason: 'Invalid' }).message, 'admission webhook "w" denied the request: Invalid');
    assert.equal(toStatusError('w', { code: 422, reason: 'Invalid' }).code, 422);
  });
});

describe('webhook metrics', () => {
  /** The value of one series of a metric in the process registry (0 when absent). */
  const value = async (name: string, labels: Record<string, string>): Promise<number> => {
    const m = (await legacyRegistry.getMetricsAsJSON()).find((x) => x.name === name);
    const v = m?.values.find((x) => Object.entries(labels).every(([k, want]) => String(x.labels[k]) === want));
    return v?.value ?? 0;
  };
  const down = (): Error => new Error('connection refused');
  const cases = [
    { name: 'an allowed call', hook: 'm-ok', answer: () => ({ allowed: true }), policy: {},
      series: [['apiserver_admission_webhook_request_total', { name: 'm-ok', type: 'admit', operation: 'CREATE', code: '200', rejected: 'false' }]] },
    { name: 'a denial', hook: 'm-no', answer: () => ({ allowed: false, status: { code: 403 } }), policy: {},
      series: [['apiserver_admission_webhook_request_total', { name: 'm-no', code: '200', rejected: 'true' }],
        ['apiserver_admission_webhook_rejection_count', { name: 'm-no', error_type: 'no_error', rejection_code: '403' }]] },
    { name: 'a call failing open', hook: 'm-down', answer: down, policy: { failurePolicy: 'Ignore' as const },
      series: [['apiserver_admission_webhook_rejection_count', { name: 'm-down', error_type: 'calling_webhook_error', rejection_code: '0' }],
        ['apiserver_admission_webhook_fail_open_count', { name: 'm-down', type: 'admit' }]] },
  ] as const;
  for (const c of cases) {
    it(c.name, async () => {
      const before = await Promise.all(c.series.map(([n, l]) => value(n, l)));
      const plugin = mutatingAdmissionWebhook({ source: source('Mutating', { a: [spec(c.hook, c.policy)] }), getNamespace, caller: fakeCaller({ [c.hook]: c.answer }) });
      await (plugin.admit?.(systemContext('ns'), attrs()) ?? Promise.resolve()).catch(() => {});
      const after = await Promise.all(c.series.map(([n, l]) => value(n, l)));
      assert.deepEqual(after.map((a, i) => a - (before[i] ?? 0)), c.series.map(() => 1), c.name);
    });
  }
});
