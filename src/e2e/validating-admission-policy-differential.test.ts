// ValidatingAdmissionPolicy edge cases, kapi against the reference kube-apiserver with raw
// requests: compile and runtime errors under each failurePolicy, match conditions, variables that
// fail, messages kube refuses, audit annotations of the wrong type, the authorizer, excluded
// resources and names, cluster-scoped requests with namespaced params. Each case is one ConfigMap
// create selected by its `case` label; status, body and Warning header must be equal.
// Skips with a reason when the oracle is not built on this machine.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';

type Json = Record<string, unknown>;
interface Target { readonly name: string; request(r: RawRequest): Promise<RawResponse> }

const skip = oracleUnavailable();
if (skip !== undefined) console.log(`validating-admission-policy-differential: skipped: ${skip}`);

const NS = 'vapdiff';
const V1 = 'admissionregistration.k8s.io/v1';
const json = (o: unknown): string => JSON.stringify(o);

/** A policy on ConfigMap creates in NS with the label case=<name>, and its Deny binding. */
function policy(name: string, spec: Json, binding: Json = {}): Json[] {
  return [
    { apiVersion: V1, kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec: {
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
        objectSelector: { matchLabels: { case: name } } },
      ...spec,
    } },
    { apiVersion: V1, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: `${name}-binding` },
      spec: { policyName: name, validationActions: ['Deny'], ...binding } },
  ];
}

/** A list literal 0..n-1, for expressions whose runtime cost grows with nested loops. */
const range = (n: number): string => `[${Array.from({ length: n }, (_, i) => String(i)).join(',')}]`;
/** About 1M iterations: over the per-expression limit. */
const OVER_PER_CALL = `${range(100)}.all(a, ${range(100)}.all(b, ${range(100)}.all(c, a + b + c >= 0)))`;
/** About 160k iterations: a dozen of them are over the policy's budget. */
const MEDIUM = `${range(20)}.all(a, ${range(20)}.all(b, ${range(20)}.all(c, ${range(20)}.all(d, a + b + c + d >= 0))))`;

const POLICIES: Json[] = [
  ...policy('per-call-limit', { validations: [{ expression: OVER_PER_CALL }] }),
  ...policy('budget', { validations: Array.from({ length: 12 }, () => ({ expression: MEDIUM })) }),
  ...policy('message-budget', { validations: Array.from({ length: 12 }, () => ({ expression: 'false', messageExpression: `${MEDIUM} ? 'a' : 'b'` })) }),
  ...policy('compile-error', { validations: [{ expression: 'object.data.x ==' }] }),
  ...policy('compile-error-ignore', { failurePolicy: 'Ignore', validations: [{ expression: 'object.data.x ==' }] }),
  ...policy('not-bool', { validations: [{ expression: "'a' + 'b'" }] }),
  ...policy('runtime-error', { validations: [{ expression: "object.data.missing == 'x'" }] }),
  ...policy('runtime-error-ignore', { failurePolicy: 'Ignore', validations: [{ expression: "object.data.missing == 'x'" }, { expression: 'false', message: 'second' }] }),
  ...policy('match-false', { matchConditions: [{ name: 'never', expression: 'false' }], validations: [{ expression: 'false' }] }),
  ...policy('match-error', { matchConditions: [{ name: 'errs', expression: "object.data.missing == 'x'" }], validations: [{ expression: 'false' }] }),
  ...policy('variable-error', {
    variables: [{ name: 'a', expression: 'object.data.missing' }, { name: 'b', expression: "variables.a + 'x'" }, { name: 'ok', expression: "'fine'" }],
    validations: [{ expression: "variables.ok == 'no'", messageExpression: "'ok is ' + variables.ok" }, { expression: "variables.b == 'y'" }],
  }),
  ...policy('bad-messages', { validations: [
    { expression: 'false', messageExpression: "'line1\\nline2'", message: 'fallback message' },
    { expression: 'false', messageExpression: "'   '" },
    { expression: 'false', messageExpression: 'object.data.missing', message: 'static' },
  ] }),
  ...policy('audit-int', { validations: [{ expression: 'true' }], auditAnnotations: [{ key: 'k', valueExpression: "'x'" }, { key: 'n', valueExpression: 'dyn(5)' }] }),
  ...policy('authz', { validations: [
    { expression: "authorizer.group('').resource('secrets').namespace('kube-system').check('get').allowed() == false", message: 'admin can read secrets' },
    { expression: 'authorizer.requestResource.check("create").allowed()', message: 'cannot create' },
  ] }),
  ...policy('reason-large', { validations: [{ expression: 'false', reason: 'RequestEntityTooLarge', message: 'too large' }] }),
  ...policy('request-and-ns', { validations: [{
    expression: "request.kind.kind == 'ConfigMap' && request.resource.resource == 'configmaps' && namespaceObject.metadata.name == 'vapdiff' && request.userInfo.username != ''",
    messageExpression: "request.operation + ' ' + request.namespace + ' ' + request.name + ' ' + string(request.dryRun)",
  }, { expression: 'false', messageExpression: "request.operation + ' ' + request.namespace + ' ' + request.name + ' ' + string(request.dryRun)" }] }),
  ...policy('names', {
    matchConstraints: {
      resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'], resourceNames: ['named-1', 'named-2'] }],
      excludeResourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'], resourceNames: ['named-2'] }],
    },
    validations: [{ expression: 'false', message: 'named' }],
  }),
  ...policy('no-param-kind', { validations: [{ expression: 'false', message: 'no params' }] }, { paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } }),
  ...policy('ns-param-cluster', {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['namespaces'] }], objectSelector: { matchLabels: { case: 'ns-param-cluster' } } },
    validations: [{ expression: 'false' }],
  }, { paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } }),
  ...policy('cluster-param-ns', {
    paramKind: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' },
    validations: [{ expression: 'params.metadata.name == "view"', message: 'not view' }],
  }, { paramRef: { name: 'vap-param', namespace: 'default', parameterNotFoundAction: 'Deny' } }),
  ...policy('cluster-param', {
    paramKind: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' },
    validations: [{ expression: 'params.metadata.name == "view" && params.kind == "ClusterRole"', messageExpression: "'got ' + params.metadata.name + ' ' + params.apiVersion" }],
  }, { paramRef: { name: 'vap-param', parameterNotFoundAction: 'Deny' } }),
  ...policy('unknown-param-kind', { paramKind: { apiVersion: 'example.com/v1', kind: 'Nothing' }, validations: [{ expression: 'true' }] },
    { paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } }),
  ...policy('bad-exprs-1', {
    matchConditions: [{ name: 'vars', expression: 'variables.a == 1' }, { name: 'ok', expression: 'true' }, { name: 'str', expression: "'x'" }],
    variables: [{ name: 'a', expression: 'object.data.' }, { name: 'b', expression: 'variables.c' }, { name: 'c', expression: 'variables.b' }],
    validations: [
      { expression: 'object.data.x' }, { expression: 'true', messageExpression: '1' }, { expression: 'true', messageExpression: "authorizer.requestResource.name == '' ? 'a' : 'b'" },
      { expression: 'params.x == 1' }, { expression: 'variables.nothing == 1' },
    ],
    auditAnnotations: [{ key: 'int', valueExpression: '5' }, { key: 'dyn', valueExpression: 'object.data.x' }, { key: 'bad', valueExpression: ' object. ' }],
  }),
  ...policy('typed-variables', {
    variables: [{ name: 'n', expression: '1' }, { name: 's', expression: "'a'" }, { name: 'l', expression: '[1, 2]' }, { name: 'm', expression: "{'a': [1]}" },
      { name: 'o', expression: 'object.data' }, { name: 't', expression: 'request.kind' }, { name: 'u', expression: 'variables.n + variables.l[0]' }],
    validations: [{ expression: 'variables.n.foo == 1' }, { expression: "variables.n + 'x' == 'y'" }, { expression: "variables.l[0] == 'a'" },
      { expression: "variables.s.startsWith('a')" }, { expression: "variables.m['a'][0] == 'x'" }, { expression: 'variables.o.x == 1' },
      { expression: 'variables.t.kind == 1' }, { expression: "variables.u == 'x'" }],
  }),
  ...policy('typed-variables-ok', {
    variables: [{ name: 'l', expression: '[1, 2]' }, { name: 'n', expression: 'variables.l[1] + 1' }, { name: 'x', expression: 'object.data.x' }],
    validations: [{ expression: "variables.l.size() == 2 && variables.n == 3 && variables.x == 'z'", messageExpression: "'x is ' + variables.x" }],
  }),
  ...policy('bad-exprs-2', { validations: [{ expression: 'variables.x == 1' }], auditAnnotations: [{ key: 'n', valueExpression: 'null' }] }),
  { apiVersion: V1, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'equivalent' }, spec: {
    failurePolicy: 'Fail',
    matchConstraints: { resourceRules: [{ apiGroups: ['vap.example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['widgets'] }] },
    validations: [{ expression: 'false', messageExpression:
      "object.apiVersion + ' ' + request.kind.version + ' ' + request.requestKind.version + ' ' + request.resource.version + ' ' + request.requestResource.version" }],
  } },
  { apiVersion: V1, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'equivalent-binding' }, spec: { policyName: 'equivalent', validationActions: ['Deny'] } },
  { apiVersion: V1, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'exact' }, spec: {
    failurePolicy: 'Fail',
    matchConstraints: { matchPolicy: 'Exact', resourceRules: [{ apiGroups: ['vap.example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['widgets'] }] },
    validations: [{ expression: 'false', message: 'exact' }],
  } },
  { apiVersion: V1, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'exact-binding' }, spec: { policyName: 'exact', validationActions: ['Warn'] } },
  ...policy('old-object', {
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE', 'DELETE'], resources: ['configmaps'] }],
      objectSelector: { matchLabels: { case: 'old-object' } } },
    validations: [{ expression: 'false', messageExpression: "request.operation + ' old=' + oldObject.data.x + ' new=' + (object == null ? 'null' : object.data.x)" }],
  }),
  ...policy('crd-param', {
    paramKind: { apiVersion: 'vap.example.com/v2', kind: 'Limit' },
    validations: [{ expression: 'false', messageExpression: "params.apiVersion + ' ' + params.kind + ' ' + string(params.spec.size)" }],
  }, { paramRef: { name: 'limit', parameterNotFoundAction: 'Deny' } }),
  ...policy('multi-deny', { validations: [{ expression: 'true' }, { expression: 'false', message: 'first' }, { expression: 'false', message: 'second' }] }),
];

describe('ValidatingAdmissionPolicy edge cases against kube-apiserver', { skip }, () => {
  let kapi: Suite;
  let kube: Oracle;
  let targets: Target[] = [];
  /** Each server's answers to the policy and binding creates (kube refuses expressions that do not compile). */
  const created = new Map<string, Json[]>();

  before(async () => {
    [kapi, kube] = await Promise.all([startSuite(), startOracle()]);
    targets = [{ name: 'kapi', request: (r) => kapi.request(r) }, { name: 'kube', request: (r) => kube.request(r) }];
    for (const t of targets) {
      await t.request({ method: 'POST', path: '/api/v1/namespaces', contentType: 'application/json', body: json({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }) });
      for (const [plural, kind, scope] of [['widgets', 'Widget', 'Namespaced'], ['limits', 'Limit', 'Cluster']] as const) {
        const crd = await t.request({ method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', contentType: 'application/json', body: json({
          apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.vap.example.com` },
          spec: { group: 'vap.example.com', scope, names: { plural, singular: kind.toLowerCase(), kind },
            versions: ['v1', 'v2'].map((name) => ({ name, served: true, storage: name === 'v1',
              schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } })) },
        }) });
        assert.equal(crd.status, 201, `${t.name}: ${crd.text}`);
      }
      const old = await t.request({ method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`, contentType: 'application/json',
        body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'old', labels: { case: 'old-object' } }, data: { x: 'before' } }) });
      assert.equal(old.status, 201, `${t.name}: ${old.text}`);
      // The oracle runs without RBAC's bootstrap roles: the cluster-scoped param is the test's own.
      const role = await t.request({ method: 'POST', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles', contentType: 'application/json',
        body: json({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'vap-param' }, rules: [] }) });
      assert.equal(role.status, 201, `${t.name}: ${role.text}`);
      for (const o of POLICIES) {
        const plural = o['kind'] === 'ValidatingAdmissionPolicy' ? 'validatingadmissionpolicies' : 'validatingadmissionpolicybindings';
        const r = await t.request({ method: 'POST', path: `/apis/${V1}/${plural}`, contentType: 'application/json', body: json(o) });
        created.set(t.name, [...(created.get(t.name) ?? []), r.status === 201 ? { status: 201 } : { status: r.status, body: r.json() }]);
      }
      await eventually(`${t.name}: widgets and limits served`, async () => {
        const r = await t.request({ method: 'GET', path: `/apis/vap.example.com/v2/namespaces/${NS}/widgets` });
        const l = await t.request({ method: 'POST', path: '/apis/vap.example.com/v1/limits', contentType: 'application/json',
          body: json({ apiVersion: 'vap.example.com/v1', kind: 'Limit', metadata: { name: 'limit' }, spec: { size: 3 } }) });
        return r.status === 200 && (l.status === 201 || l.status === 409) ? true : undefined;
      });
      await eventually(`${t.name}: policies in effect`, async () => {
        const r = await t.request(create('probe', 'multi-deny'));
        return r.status !== 201 ? true : undefined;
      });
    }
  });
  after(async () => {
    await kapi?.close();
    await kube?.stop();
  });

  function create(name: string, kase: string, path = `/api/v1/namespaces/${NS}/configmaps?dryRun=All`): RawRequest {
    return { method: 'POST', path, contentType: 'application/json',
      body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { case: kase } }, data: { x: 'y' } }) };
  }

  const cases: { name: string; kase: string; object?: string; req?: RawRequest }[] = [
    { name: 'a validation that does not compile (Fail)', kase: 'compile-error' },
    { name: 'a validation that does not compile (Ignore)', kase: 'compile-error-ignore' },
    { name: 'a validation that is not a bool', kase: 'not-bool' },
    { name: 'a runtime error (Fail)', kase: 'runtime-error' },
    { name: 'a runtime error (Ignore) and a denial', kase: 'runtime-error-ignore' },
    { name: 'a false match condition', kase: 'match-false' },
    { name: 'a match condition that errs', kase: 'match-error' },
    { name: 'variables that fail, used and unused', kase: 'variable-error' },
    { name: 'messages kube refuses', kase: 'bad-messages' },
    { name: 'audit annotations of the wrong type', kase: 'audit-int' },
    { name: 'the authorizer', kase: 'authz' },
    { name: 'reason RequestEntityTooLarge', kase: 'reason-large' },
    { name: 'request and namespaceObject', kase: 'request-and-ns' },
    { name: 'resourceNames: matched', kase: 'names', object: 'named-1' },
    { name: 'resourceNames: excluded', kase: 'names', object: 'named-2' },
    { name: 'resourceNames: not named', kase: 'names', object: 'named-3' },
    { name: 'a paramRef without paramKind', kase: 'no-param-kind' },
    { name: 'a namespaced paramKind for a cluster-scoped request', kase: 'ns-param-cluster', req: {
      method: 'POST', path: '/api/v1/namespaces?dryRun=All', contentType: 'application/json',
      body: json({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'nsparam', labels: { case: 'ns-param-cluster' } } }),
    } },
    { name: 'a cluster-scoped paramKind with paramRef.namespace', kase: 'cluster-param-ns' },
    { name: 'a cluster-scoped param', kase: 'cluster-param' },
    { name: 'a paramKind that is not served', kase: 'unknown-param-kind' },
    { name: 'the first of several denials', kase: 'multi-deny' },
    { name: 'a custom resource param in the paramKind\'s version', kase: 'crd-param' },
    { name: 'an expression over the per-call cost limit', kase: 'per-call-limit' },
    { name: 'validations over the policy\'s runtime budget', kase: 'budget' },
    { name: 'messages over what is left of the budget', kase: 'message-budget' },
    { name: 'typed variables at runtime', kase: 'typed-variables-ok' },
    ...['v1', 'v2'].map((v) => ({ name: `a widget in ${v}: matched as v1 (Equivalent) and not at all (Exact) in v2`, kase: 'widget', req: {
      method: 'POST', path: `/apis/vap.example.com/${v}/namespaces/${NS}/widgets?dryRun=All`, contentType: 'application/json',
      body: json({ apiVersion: `vap.example.com/${v}`, kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } }),
    } })),
    { name: 'an update sees oldObject', kase: 'old-object', req: {
      method: 'PUT', path: `/api/v1/namespaces/${NS}/configmaps/old?dryRun=All`, contentType: 'application/json',
      body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'old', labels: { case: 'old-object' } }, data: { x: 'after' } }),
    } },
    { name: 'a delete has no object', kase: 'old-object', req: { method: 'DELETE', path: `/api/v1/namespaces/${NS}/configmaps/old?dryRun=All` } },
  ];
  it('webhook matchConditions are compiled on create as kube compiles them', async () => {
    const req: RawRequest = { method: 'POST', path: `/apis/${V1}/validatingwebhookconfigurations?dryRun=All`, contentType: 'application/json', body: json({
      apiVersion: V1, kind: 'ValidatingWebhookConfiguration', metadata: { name: 'w' }, webhooks: [{
        name: 'a.b.c', sideEffects: 'None', admissionReviewVersions: ['v1'], clientConfig: { url: 'https://127.0.0.1:1/x' },
        matchConditions: [
          { name: 'a', expression: 'object.x ==' }, { name: 'b', expression: 'params.x == 1' }, { name: 'c', expression: "'s'" },
          { name: 'd', expression: 'variables.x' }, { name: 'e', expression: 'object.x' }, { name: 'f', expression: "authorizer.requestResource.check('get').allowed()" },
        ],
      }],
    }) };
    const [a, b] = await Promise.all(targets.map(async (t) => { const r = await t.request(req); return { status: r.status, body: r.json() }; }));
    assert.equal(a?.status, 422);
    assert.deepEqual(a, b);
  });

  it('the policies and bindings are accepted or refused alike', () => {
    assert.deepEqual(created.get('kapi'), created.get('kube'));
  });
  for (const c of cases) {
    it(c.name, async () => {
      const req = c.req ?? create(c.object ?? `cm-${c.kase}`, c.kase);
      const [a, b] = await Promise.all(targets.map(async (t) => {
        const r = await t.request(req);
        return { status: r.status, body: r.status === 201 ? 'created' : r.json(), warning: r.headers['warning'] };
      }));
      assert.deepEqual(a, b);
    });
  }
});
