// kube-apiserver v1.36.3 (asked: the raw etcd value of an object it created) stores
// MutatingAdmissionPolicies and MutatingAdmissionPolicyBindings as admissionregistration.k8s.io/v1beta1
// while serving v1; kapi's values carry the same envelope and read back as v1.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { Scheme } from '../apimachinery/runtime/scheme.ts';
import { storageCodec } from './storage-factory.ts';
import { decodeValue } from '../storage/value-codec.ts';
import { mutatingAdmissionPolicyBindings, validatingAdmissionPolicyBindings } from '../apis/admissionregistration/policy/binding.ts';
import { mutatingAdmissionPolicies, validatingAdmissionPolicies } from '../apis/admissionregistration/policy/policy.ts';

const V1 = { group: 'admissionregistration.k8s.io', version: 'v1' };

const CASES = [
  { name: 'MutatingAdmissionPolicy', def: mutatingAdmissionPolicies, stored: 'admissionregistration.k8s.io/v1beta1',
    obj: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicy', metadata: { name: 'p' }, spec: { reinvocationPolicy: 'Never' } } },
  { name: 'MutatingAdmissionPolicyBinding', def: mutatingAdmissionPolicyBindings, stored: 'admissionregistration.k8s.io/v1beta1',
    obj: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p' } } },
  { name: 'ValidatingAdmissionPolicy (no override)', def: validatingAdmissionPolicies, stored: 'admissionregistration.k8s.io/v1',
    obj: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'v' }, spec: { failurePolicy: 'Fail' } } },
  { name: 'ValidatingAdmissionPolicyBinding (no override)', def: validatingAdmissionPolicyBindings, stored: 'admissionregistration.k8s.io/v1',
    obj: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'vb' }, spec: { policyName: 'v' } } },
];

describe('admission policy storage versions', () => {
  for (const c of CASES) {
    it(`${c.name} is stored as ${c.stored} (protobuf) and read back as v1`, () => {
      const codec = storageCodec(new Scheme(), V1, undefined, 'storageEncoding' in c.def ? c.def.storageEncoding : undefined);
      const value = codec.encode(c.obj as KubeObject);
      assert.ok(value.startsWith('k8s\u0000'), 'a protobuf envelope');
      assert.equal(decodeValue(value).apiVersion, c.stored);
      assert.deepEqual(codec.decode(value), c.obj);
    });
  }
});
