// MutatingAdmissionPolicy end to end with kubectl: an ApplyConfiguration that sets a label and
// adds a container env var, a JSONPatch, params from a ConfigMap, a failing expression under
// failurePolicy Fail and Ignore, a policy whose expression does not compile refused at create.
// The expected outcomes are kube-apiserver v1.36.3's for the same objects
// (mutating-admission-policy-differential.test.ts compares the two where the oracle is cached).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'map-e2e';

const policy = (name: string, spec: string, binding = ''): string => `
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: ${name}}
spec:
  reinvocationPolicy: IfNeeded
  matchConstraints:
    resourceRules:
    - {apiGroups: ["", apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps, deployments]}
    objectSelector: {matchLabels: {case: ${name}}}
${spec}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: ${name}-binding}
spec:
  policyName: ${name}
${binding}
---`;

const SETUP = `
apiVersion: v1
kind: Namespace
metadata: {name: ${NS}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: ${NS}}
data: {team: blue}
---
${policy('label', `  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"mutated": "yes"}}}'`)}
${policy('env', `  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >-
        Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
          containers: object.spec.template.spec.containers.map(c, Object.spec.template.spec.containers{
            name: c.name, env: [Object.spec.template.spec.containers.env{name: "INJECTED", value: "1"}]})}}}}`)}
${policy('jsonpatch', `  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: '[JSONPatch{op: "add", path: "/metadata/annotations", value: {"example.com/patched": object.metadata.name}}]'`)}
${policy('params', `  paramKind: {apiVersion: v1, kind: ConfigMap}
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"team": params.data.team}}}'`, `  paramRef: {name: settings, namespace: ${NS}, parameterNotFoundAction: Deny}`)}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: requires-mutation}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
    objectSelector: {matchLabels: {case: label}}
  validations:
  - {expression: "object.metadata.?labels.?mutated.orValue('') == 'yes'", message: "validating admission saw the object before the mutation"}
  - {expression: "object.metadata.name != 'vap-probe'", message: "in effect"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: requires-mutation}
spec: {policyName: requires-mutation, validationActions: [Deny]}
---
${policy('fail', `  failurePolicy: Fail
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{data: {"x": object.data.missing}}'`)}
${policy('ignore', `  failurePolicy: Ignore
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{data: {"x": object.data.missing}}'`)}
`;

const configMap = (name: string, kase: string): string => `
apiVersion: v1
kind: ConfigMap
metadata: {name: ${name}, namespace: ${NS}, labels: {case: ${kase}}}
data: {x: "y"}
`;

describe('MutatingAdmissionPolicy with kubectl', () => {
  let kapi: Suite;

  before(async () => {
    kapi = await startSuite();
    const r = await kapi.kubectl(['apply', '-f', '-'], SETUP);
    assert.equal(r.code, 0, r.stderr);
    // In effect once a dry-run create comes back labelled.
    await eventually('policies in effect', async () => {
      const p = await kapi.kubectl(['create', '--dry-run=server', '-o', 'jsonpath={.metadata.labels.mutated}', '-f', '-'], configMap('probe', 'label'));
      return p.stdout === 'yes' ? true : undefined;
    });
    await eventually('the validating policy in effect', async () => {
      const p = await kapi.kubectl(['create', '--dry-run=server', '-f', '-'], configMap('vap-probe', 'label'));
      return p.code !== 0 ? true : undefined;
    });
  });
  after(async () => { await kapi?.close(); });

  const jsonpath = async (args: string[]): Promise<string> => {
    const r = await kapi.kubectl(args);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };

  it('an apply configuration sets a label on create, seen by validating admission and stored', async () => {
    const r = await kapi.kubectl(['create', '-f', '-'], configMap('labelled', 'label'));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await jsonpath(['get', 'configmap', 'labelled', '-n', NS, '-o', 'jsonpath={.metadata.labels}']), '{"case":"label","mutated":"yes"}');
  });

  it('an apply configuration adds an env var to every container, merged by name', async () => {
    const r = await kapi.kubectl(['create', '-f', '-'], `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ${NS}, labels: {case: env}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: a, image: nginx, env: [{name: OLD, value: "0"}]}, {name: b, image: nginx}]}
`);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await jsonpath(['get', 'deployment', 'web', '-n', NS, '-o', 'jsonpath={.spec.template.spec.containers[*].env}']),
      '[{"name":"OLD","value":"0"},{"name":"INJECTED","value":"1"}] [{"name":"INJECTED","value":"1"}]');
  });

  it('a JSON patch adds an annotation, on update too', async () => {
    assert.equal((await kapi.kubectl(['create', '-f', '-'], configMap('patched', 'jsonpatch'))).code, 0);
    assert.equal(await jsonpath(['get', 'configmap', 'patched', '-n', NS, '-o', 'jsonpath={.metadata.annotations.example\\.com/patched}']), 'patched');
    assert.equal((await kapi.kubectl(['annotate', 'configmap', 'patched', '-n', NS, 'example.com/patched-'])).code, 0);
    assert.equal(await jsonpath(['get', 'configmap', 'patched', '-n', NS, '-o', 'jsonpath={.metadata.annotations.example\\.com/patched}']), 'patched');
  });

  it('params come from the bound ConfigMap', async () => {
    assert.equal((await kapi.kubectl(['create', '-f', '-'], configMap('with-params', 'params'))).code, 0);
    assert.equal(await jsonpath(['get', 'configmap', 'with-params', '-n', NS, '-o', 'jsonpath={.metadata.labels.team}']), 'blue');
  });

  it('a failing expression refuses the request under Fail, and nothing is stored', async () => {
    const r = await kapi.kubectl(['create', '-f', '-'], configMap('failing', 'fail'));
    assert.equal(r.code, 1);
    // kubectl's rendering of kube's 403 with reason Invalid and one cause without a field.
    assert.equal(r.stderr.trim(), 'The configmaps "failing" is invalid: : policy \'fail\' with binding \'fail-binding\' denied request: '
      + 'expression \'Object{data: {"x": object.data.missing}}\' resulted in error: no such key: missing');
    assert.equal((await kapi.kubectl(['get', 'configmap', 'failing', '-n', NS])).code, 1);
  });

  it('a failing expression is skipped under Ignore', async () => {
    assert.equal((await kapi.kubectl(['create', '-f', '-'], configMap('ignored', 'ignore'))).code, 0);
    assert.equal(await jsonpath(['get', 'configmap', 'ignored', '-n', NS, '-o', 'jsonpath={.data}']), '{"x":"y"}');
  });

  it('a policy whose mutation does not compile is refused at create', async () => {
    const r = await kapi.kubectl(['create', '-f', '-'], policy('broken', `  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: 'object'}`).split('---')[0] ?? '');
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), 'The MutatingAdmissionPolicy "broken" is invalid: spec.mutations[0].applyConfiguration.expression: Invalid value: "object": must evaluate to Object but got dyn');
  });
});
