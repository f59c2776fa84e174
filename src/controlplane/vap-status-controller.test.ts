import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { typeCheck } from '../admission/policy/validating/typechecking.ts';
import type { DiscoveryGroup } from '../endpoints/discovery/types.ts';
import type { ValidatingAdmissionPolicy } from '../generated/types/admissionregistrationv1.gen.ts';
import type { KubeObject, Unstructured } from '../apimachinery/meta/types.ts';
import { applyStatus, typeCheckDeps } from './vap-status-controller.ts';

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

// kube-controller-manager v1.36.3 against the oracle: the entries its ApplyStatus leaves (recorded
// from a policy created by a client without fieldManager, then given a failing expression).
describe('ValidatingAdmissionPolicy status written as kube\'s ApplyStatus', () => {
  const AV = 'admissionregistration.k8s.io/v1';
  const created: KubeObject = { apiVersion: AV, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p', uid: 'u', generation: 1, managedFields: [
    { manager: 'unknown', operation: 'Update', apiVersion: AV, time: '2026-11-25T11:44:46Z', fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:failurePolicy': {}, 'f:matchConstraints': {}, 'f:validations': {} } } },
  ] }, spec: { failurePolicy: 'Fail' } } as KubeObject;
  const status = (generation: number, typeChecking: Record<string, unknown>): Unstructured =>
    ({ apiVersion: AV, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' }, status: { observedGeneration: generation, typeChecking } });
  const entry = (fields: Record<string, unknown>) => ({ manager: 'validatingadmissionpolicy-status', operation: 'Apply', apiVersion: AV,
    time: '2026-11-25T11:44:47Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:observedGeneration': {}, 'f:typeChecking': fields } }, subresource: 'status' });
  const time = new Date('2026-11-25T11:44:47Z');
  const warnings = [{ fieldRef: 'spec.validations[0].expression', warning: 'w' }];

  const cases: { name: string; live: KubeObject; patch: Unstructured; want: unknown[]; status?: unknown }[] = [
    { name: 'no warnings: typeChecking owned as an empty object', live: created, patch: status(1, {}), want: [entry({}), created.metadata.managedFields?.[0]] },
    { name: 'warnings: the atomic list owned', live: created, patch: status(1, { expressionWarnings: warnings }),
      want: [entry({ 'f:expressionWarnings': {} }), created.metadata.managedFields?.[0]] },
    // SMD removes the list it no longer applies, and with it the map left empty (kube: status {observedGeneration: 3}).
    { name: 'warnings gone: the list and the emptied typeChecking are removed, the entry shrinks',
      live: applyStatus(created, status(1, { expressionWarnings: warnings }), time), patch: status(2, {}), want: [entry({}), created.metadata.managedFields?.[0]],
      status: { observedGeneration: 2 } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const out = applyStatus(c.live, c.patch, time) as KubeObject & { status?: unknown; spec?: unknown };
      assert.deepEqual(out.metadata.managedFields, c.want);
      assert.deepEqual(out.status, c.status ?? c.patch['status']);
      assert.deepEqual(out.spec, { failurePolicy: 'Fail' });
    });
  }
});
