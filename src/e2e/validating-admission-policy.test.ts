// ValidatingAdmissionPolicy end to end with kubectl, kapi against the reference kube-apiserver: a
// policy with ConfigMap params, variables, messages and audit annotations; bindings with object
// and namespace selectors, params by name and by selector, each validation action. kubectl's exit
// codes, errors and warnings, and the raw Status of denials, must be equal. Skips with a reason
// when the oracle is not built on this machine.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { kubectl, type KubectlResult } from './testing/kubectl.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const skip = oracleUnavailable();
if (skip !== undefined) console.log(`validating-admission-policy: skipped: ${skip}`);

const NS = 'vap-e2e';

const SETUP = `
apiVersion: v1
kind: Namespace
metadata: {name: ${NS}, labels: {env: test}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: limits, namespace: ${NS}, labels: {role: limits}}
data: {maxReplicas: "3"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: strict, namespace: ${NS}, labels: {role: limits}}
data: {maxReplicas: "1"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replica-limit}
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
  variables:
  - {name: replicas, expression: "object.spec.replicas"}
  validations:
  - expression: "variables.replicas <= int(params.data.maxReplicas)"
    messageExpression: "'replicas ' + string(variables.replicas) + ' exceed ' + params.data.maxReplicas"
    reason: Forbidden
  - expression: "object.metadata.name.startsWith('app-')"
    message: "name must start with app-"
  - expression: "request.operation == 'CREATE' ? namespaceObject.metadata.labels['env'] == 'test' : true"
  auditAnnotations:
  - {key: replicas, valueExpression: "string(variables.replicas)"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: deny-by-name}
spec:
  policyName: replica-limit
  validationActions: [Deny]
  paramRef: {name: limits, parameterNotFoundAction: Deny}
  matchResources:
    objectSelector: {matchLabels: {action: deny}}
    namespaceSelector: {matchLabels: {env: test}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: warn-by-selector}
spec:
  policyName: replica-limit
  validationActions: [Warn]
  paramRef: {selector: {matchLabels: {role: limits}}, parameterNotFoundAction: Allow}
  matchResources:
    objectSelector: {matchLabels: {action: warn}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: audit-and-warn}
spec:
  policyName: replica-limit
  validationActions: [Audit, Warn]
  paramRef: {name: limits, parameterNotFoundAction: Allow}
  matchResources:
    objectSelector: {matchLabels: {action: audit}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: missing-param}
spec:
  policyName: replica-limit
  validationActions: [Deny]
  paramRef: {name: nothing, parameterNotFoundAction: Deny}
  matchResources:
    objectSelector: {matchLabels: {action: missing}}
`;

const deployment = (name: string, action: string, replicas: number): string => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${NS}, labels: {action: ${action}}}
spec:
  replicas: ${String(replicas)}
  selector: {matchLabels: {app: x}}
  template:
    metadata: {labels: {app: x}}
    spec: {containers: [{name: c, image: nginx}]}
`;

interface Target { readonly name: string; run(args: readonly string[], input?: string): Promise<KubectlResult> }

describe('ValidatingAdmissionPolicy with kubectl against kube-apiserver', { skip }, () => {
  let kapi: Suite;
  let kube: Oracle;
  let targets: Target[] = [];

  before(async () => {
    [kapi, kube] = await Promise.all([startSuite(), startOracle()]);
    const kubeTarget = { kubeconfigPath: kube.kubeconfigPath, home: mkdtempSync(join(tmpdir(), 'vap-kube-')) };
    targets = [
      { name: 'kapi', run: (a, i) => kapi.kubectl(a, i) },
      { name: 'kube', run: (a, i) => kubectl(kubeTarget, a, i) },
    ];
    for (const t of targets) {
      const r = await t.run(['apply', '-f', '-'], SETUP);
      assert.equal(r.code, 0, `${t.name}: ${r.stderr}`);
      // In effect once a dry-run create that breaks the policy is denied.
      await eventually(`${t.name}: policy in effect`, async () => {
        const p = await t.run(['create', '--dry-run=server', '-f', '-'], deployment('probe', 'deny', 1));
        return p.code !== 0 ? true : undefined;
      });
    }
  });
  after(async () => {
    await kapi?.close();
    await kube?.stop();
  });

  const cases: { name: string; args: string[]; input?: string }[] = [
    { name: 'Deny: a messageExpression with reason Forbidden and a message', args: ['create', '-f', '-'], input: deployment('big', 'deny', 5) },
    { name: 'Deny: allowed within the params', args: ['create', '-f', '-'], input: deployment('app-small', 'deny', 2) },
    { name: 'Deny: update over the limit', args: ['scale', `--namespace=${NS}`, 'deployment/app-small', '--replicas=4'] },
    { name: 'Warn: params by selector, one warning per param', args: ['create', '-f', '-'], input: deployment('app-warned', 'warn', 2) },
    { name: 'Audit and Warn: admitted with a warning', args: ['create', '-f', '-'], input: deployment('audited', 'audit', 9) },
    { name: 'a param that does not exist with parameterNotFoundAction Deny', args: ['create', '-f', '-'], input: deployment('app-nothing', 'missing', 1) },
    { name: 'no binding matches the labels', args: ['create', '-f', '-'], input: deployment('free', 'none', 9) },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const [a, b] = await Promise.all(targets.map(async (t) => {
        const r = await t.run(c.args, c.input);
        return { code: r.code, stdout: r.stdout, stderr: r.stderr };
      }));
      assert.deepEqual(a, b);
    });
  }

  it('kapi type checks policies into status.typeChecking (kube-controller-manager\'s controller; the oracle runs none)', async () => {
    const policy = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: typecheck}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - {expression: "object.spec.replicaz > 1"}
  - {expression: "object.spec.replicas > 1", messageExpression: "'has ' + string(object.spec.replicas)"}
`;
    const r = await kapi.kubectl(['apply', '-f', '-'], policy);
    assert.equal(r.code, 0, r.stderr);
    const status = await eventually('typecheck status', async () => {
      const g = await kapi.kubectl(['get', 'validatingadmissionpolicy', 'typecheck', '-o', 'jsonpath={.status}']);
      const st = g.stdout === '' ? {} : JSON.parse(g.stdout) as { observedGeneration?: number };
      return st.observedGeneration === 1 ? st : undefined;
    });
    assert.deepEqual(status, { observedGeneration: 1, typeChecking: { expressionWarnings: [{
      fieldRef: 'spec.validations[0].expression',
      warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicaz'\n | object.spec.replicaz > 1\n | ...........^\n",
    }] } });
    const ok = await eventually('replica-limit status', async () => {
      const g = await kapi.request({ method: 'GET', path: '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/replica-limit' });
      const st = (g.json() as { status?: { observedGeneration?: number } }).status;
      return st?.observedGeneration === 1 ? st : undefined;
    });
    assert.deepEqual(ok, { observedGeneration: 1, typeChecking: {} });
  });

  it('the denial Status: code, reason, message and causes', async () => {
    const req = {
      method: 'POST', path: `/apis/apps/v1/namespaces/${NS}/deployments?dryRun=All`, contentType: 'application/json',
      body: JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'raw', labels: { action: 'deny' } },
        spec: { replicas: 7, selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } }),
    };
    const [a, b] = await Promise.all([kapi.request(req), kube.request(req)]);
    assert.equal(a.status, 403);
    assert.deepEqual({ status: a.status, body: a.json() }, { status: b.status, body: b.json() });
  });
});
