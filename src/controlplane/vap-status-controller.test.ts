import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { typeCheck } from '../admission/policy/validating/typechecking.ts';
import type { DiscoveryGroup } from '../endpoints/discovery/types.ts';
import type { ValidatingAdmissionPolicy } from '../generated/types/admissionregistrationv1.gen.ts';
import { typeCheckDeps } from './vap-status-controller.ts';

const discovery = [
  { name: 'apps', versions: [{ version: 'v1', resources: [{ name: 'deployments', kind: 'Deployment', namespaced: true }] }] },
  { name: '', versions: [{ version: 'v1', resources: [{ name: 'configmaps', kind: 'ConfigMap', namespaced: true }, { name: 'pods', kind: 'Pod', namespaced: true }] }] },
] as unknown as DiscoveryGroup[];
const deps = typeCheckDeps(() => discovery, () => []);

const policy = (validations: { expression: string; messageExpression?: string }[], more: Record<string, unknown> = {}): ValidatingAdmissionPolicy => ({
  metadata: { name: 'p' },
  spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] },
    validations, ...more },
});

describe('ValidatingAdmissionPolicy type checking (typechecking.go)', () => {
  it('a valid expression has no warning', () => {
    assert.deepEqual(typeCheck(policy([{ expression: 'object.spec.replicas > 1', messageExpression: "'replicas: ' + string(object.spec.replicas)" }]), deps), []);
  });

  it('an undefined field, in kube\'s words', () => {
    assert.deepEqual(typeCheck(policy([{ expression: 'object.foo == 1' }]), deps), [{
      fieldRef: 'spec.validations[0].expression',
      warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'foo'\n | object.foo == 1\n | ......^\n",
    }]);
  });

  it('a type mismatch in a messageExpression', () => {
    const w = typeCheck(policy([{ expression: 'true', messageExpression: "object.spec.replicas > '1' ? 'a' : 'b'" }]), deps);
    assert.equal(w.length, 1);
    assert.equal(w[0]?.fieldRef, 'spec.validations[0].messageExpression');
    assert.match(w[0]?.warning ?? '', /found no matching overload for '_>_' applied to '\(int, string\)'/);
  });

  it('every kind the rules name, each with its own warning', () => {
    const p = policy([{ expression: 'object.spec.replicas > 1' }], { matchConstraints: { resourceRules: [
      { apiGroups: ['', 'apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments', 'pods', 'configmaps'] },
    ] } });
    const w = typeCheck(p, deps);
    assert.equal(w.length, 1);
    assert.deepEqual(w[0]?.warning.split('\n\n').map((s) => s.split(':')[0]), ['/v1, Kind=ConfigMap', '/v1, Kind=Pod']);
  });

  it('wildcards are not checked', () => {
    const p = policy([{ expression: 'object.foo == 1' }], { matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] } });
    assert.deepEqual(typeCheck(p, deps), []);
  });

  it('variables typed from the kind; one holding an object is dyn, as kube converts types', () => {
    const p = policy([{ expression: "variables.r + 'x' == 'y'" }, { expression: 'variables.spec.replicaz > 1' }],
      { variables: [{ name: 'r', expression: 'object.spec.replicas' }, { name: 'spec', expression: 'object.spec' }] });
    const w = typeCheck(p, deps);
    assert.deepEqual(w.map((x) => x.fieldRef), ['spec.validations[0].expression']);
    assert.match(w[0]?.warning ?? '', /found no matching overload for '_\+_' applied to '\(int, string\)'/);
  });

  it('params typed from the paramKind', () => {
    const p = policy([{ expression: "params.data.max == '1' && params.nothing == 1" }], { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } });
    assert.match(typeCheck(p, deps)[0]?.warning ?? '', /undefined field 'nothing'/);
  });
});
