import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type {
  MatchResources, ValidatingAdmissionPolicyBinding, ValidatingAdmissionPolicySpec,
} from '../../../generated/types/admissionregistrationv1.gen.ts';
import { auditAnnotations } from '../../audit-annotations.ts';
import { attrs } from '../../testing/attributes.ts';
import { compilePolicy } from './compile.ts';
import { collectParams, type ParamSource } from '../generic.ts';
import { dispatch, type PolicyHook } from './dispatcher.ts';
import { matches } from '../matching.ts';

const RULES = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }], namespaceSelector: {}, objectSelector: {} };
const cm = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', labels }, data } as KubeObject);
const request = (o: KubeObject) => attrs(o, { resource: 'configmaps', kind: 'ConfigMap' });
const namespaces = async (name: string): Promise<KubeObject | undefined> =>
  (name === 'ns' ? { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { env: 'test' } } } : undefined);

function params(objs: KubeObject[], namespaced = true): ParamSource {
  return {
    namespaced,
    get: async (ns, name) => objs.find((o) => o.metadata.name === name && (o.metadata.namespace ?? '') === ns),
    list: async (ns) => objs.filter((o) => (o.metadata.namespace ?? '') === ns),
  };
}

function hook(spec: Partial<ValidatingAdmissionPolicySpec>, bindings: Partial<ValidatingAdmissionPolicyBinding['spec']>[], source?: ParamSource): PolicyHook {
  return {
    compiled: compilePolicy({ metadata: { name: 'p' }, spec: { failurePolicy: 'Fail', matchConstraints: RULES, ...spec } }),
    bindings: bindings.map((b, i) => ({ metadata: { name: `b${String(i)}` }, spec: { policyName: 'p', validationActions: ['Deny'], ...b } })),
    params: source,
  };
}

async function outcome(h: PolicyHook, o: KubeObject): Promise<{ status?: unknown; warnings: string[]; audit: Readonly<Record<string, string>> }> {
  const warnings: string[] = [];
  const ctx = { ...systemContext('ns'), warnings: { addWarning: (w: string) => { warnings.push(w); } } };
  try {
    await dispatch(ctx, request(o), [h], { getNamespace: namespaces, authorizer: { authorize: () => ({ decision: 'allow', reason: '' }) } });
    return { warnings, audit: auditAnnotations(ctx) };
  } catch (err) {
    const st = (err as { status: { code: number; reason: string; message: string; details?: unknown } }).status;
    return { status: { code: st.code, reason: st.reason, message: st.message, details: st.details }, warnings, audit: auditAnnotations(ctx) };
  }
}

describe('ValidatingAdmissionPolicy dispatch (dispatcher.go)', () => {
  it('denies with kube\'s message, reason, code and cause', async () => {
    const r = await outcome(hook({ validations: [{ expression: 'false', message: 'no', reason: 'Forbidden' }] }, [{}]), cm('c'));
    const message = 'configmaps "c" is forbidden: ValidatingAdmissionPolicy \'p\' with binding \'b0\' denied request: no';
    assert.deepEqual(r.status, { code: 403, reason: 'Forbidden', message, details: { name: 'c', kind: 'configmaps', causes: [{ message: "ValidatingAdmissionPolicy 'p' with binding 'b0' denied request: no" }] } });
  });

  const codes: { reason?: string; code: number; want: string }[] = [
    { code: 422, want: 'Invalid' }, { reason: 'Invalid', code: 422, want: 'Invalid' }, { reason: 'RequestEntityTooLarge', code: 413, want: 'RequestEntityTooLarge' },
  ];
  for (const c of codes) {
    it(`reason ${c.reason ?? 'absent'} answers ${String(c.code)}`, async () => {
      const r = await outcome(hook({ validations: [{ expression: 'false', ...(c.reason !== undefined ? { reason: c.reason } : {}) }] }, [{}]), cm('c'));
      assert.deepEqual([(r.status as { code: number }).code, (r.status as { reason: string }).reason], [c.code, c.want]);
    });
  }

  it('Warn and Audit admit with a warning and an audit annotation', async () => {
    const r = await outcome(hook({ validations: [{ expression: 'false', message: 'bad <= & >' }], auditAnnotations: [{ key: 'seen', valueExpression: "'yes'" }] },
      [{ validationActions: ['Warn', 'Audit'] }]), cm('c'));
    assert.equal(r.status, undefined);
    assert.deepEqual(r.warnings, ["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b0': bad <= & >"]);
    assert.deepEqual(r.audit, {
      'validation.policy.admission.k8s.io/validation_failure':
        '[{"message":"bad \\u003c= \\u0026 \\u003e","policy":"p","binding":"b0","expressionIndex":0,"validationActions":["Warn","Audit"]}]',
      'p/seen': 'yes',
    });
  });

  it('a param selector evaluates once per param', async () => {
    const src = params([cm('a', { role: 'p' }, { max: '1' }), cm('b', { role: 'p' }, { max: '2' }), cm('c', {}, { max: '0' })]);
    const r = await outcome(hook({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'false', messageExpression: 'string(params.data.max)' }] },
      [{ validationActions: ['Warn'], paramRef: { selector: { matchLabels: { role: 'p' } }, parameterNotFoundAction: 'Allow' } }], src), cm('x'));
    assert.deepEqual(r.warnings, ["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b0': 1",
      "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b0': 2"]);
  });

  it('a binding whose selectors do not match is skipped', async () => {
    const r = await outcome(hook({ validations: [{ expression: 'false' }] }, [{ matchResources: { namespaceSelector: {}, objectSelector: { matchLabels: { x: 'y' } } } }]), cm('c'));
    assert.equal(r.status, undefined);
  });

  it('one authorizer check per distinct question within a request', async () => {
    let calls = 0;
    const h = hook({ validations: [{ expression: "authorizer.group('').resource('secrets').check('get').allowed()" },
      { expression: "authorizer.group('').resource('secrets').check('get').allowed()" }, { expression: "authorizer.group('').resource('pods').check('get').allowed()" }] }, [{}, {}]);
    await dispatch(systemContext('ns'), request(cm('c')), [h], {
      getNamespace: namespaces, authorizer: { authorize: () => { calls++; return { decision: 'allow', reason: '' }; } },
    });
    assert.equal(calls, 2);
  });

  it('configuration errors go through failurePolicy', async () => {
    const src = params([]);
    const spec = { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }] };
    const r = await outcome(hook(spec, [{ paramRef: { name: 'none', parameterNotFoundAction: 'Deny' } }], src), cm('c'));
    assert.equal((r.status as { message: string }).message, 'configmaps "c" is forbidden: ValidatingAdmissionPolicy \'p\' with binding \'b0\' denied request: '
      + 'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction');
    const ignored = await outcome(hook({ ...spec, failurePolicy: 'Ignore' }, [{ paramRef: { name: 'none', parameterNotFoundAction: 'Deny' } }], src), cm('c'));
    assert.equal(ignored.status, undefined);
  });
});

describe('CollectParams', () => {
  const kind = { apiVersion: 'v1', kind: 'ConfigMap' };
  const cases: { name: string; ref?: Parameters<typeof collectParams>[2]; namespaced?: boolean; namespace?: string; want: unknown }[] = [
    { name: 'no paramRef: one null param', want: [null] },
    { name: 'by name', ref: { name: 'a' }, want: ['a'] },
    { name: 'missing, Allow', ref: { name: 'z', parameterNotFoundAction: 'Allow' }, want: [] },
    { name: 'missing, Deny', ref: { name: 'z', parameterNotFoundAction: 'Deny' }, want: 'no params found for policy binding with `Deny` parameterNotFoundAction' },
    { name: 'name and selector', ref: { name: 'a', selector: {} }, want: 'paramRef.name and paramRef.selector are mutually exclusive' },
    { name: 'neither', ref: {}, want: 'one of name or selector must be provided' },
    { name: 'namespaced params for a cluster-scoped request', ref: { name: 'a' }, namespace: '', want: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' },
    { name: 'a namespace for cluster-scoped params', ref: { name: 'a', namespace: 'ns' }, namespaced: false, want: 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const got = await collectParams(kind, params([cm('a')], c.namespaced ?? true), c.ref, c.namespace ?? 'ns');
      assert.deepEqual(Array.isArray(got) ? got.map((p) => p?.metadata.name ?? null) : got, c.want);
    });
  }
});

describe('matchConstraints (matching.go)', () => {
  const rule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] };
  const cases: { name: string; m: MatchResources; o?: KubeObject; want: boolean | string }[] = [
    { name: 'rules match', m: RULES, want: true },
    { name: 'no rules match everything', m: { namespaceSelector: {}, objectSelector: {} }, want: true },
    { name: 'excluded', m: { ...RULES, excludeResourceRules: [rule] }, want: false },
    { name: 'resourceNames', m: { ...RULES, resourceRules: [{ ...rule, resourceNames: ['other'] }] }, want: false },
    { name: 'object selector', m: { ...RULES, objectSelector: { matchLabels: { a: 'b' } } }, o: cm('c', { a: 'b' }), want: true },
    { name: 'namespace selector', m: { ...RULES, namespaceSelector: { matchLabels: { env: 'prod' } } }, want: false },
    { name: 'a namespace that does not exist', m: { ...RULES, namespaceSelector: { matchLabels: { env: 'prod' } } },
      o: { ...cm('c'), metadata: { name: 'c', namespace: 'gone' } } as KubeObject, want: 'namespaces "gone" not found' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await matches(c.m, request(c.o ?? cm('c')), namespaces);
      assert.deepEqual(r instanceof Error ? r.message : r !== undefined, c.want);
    });
  }
});
