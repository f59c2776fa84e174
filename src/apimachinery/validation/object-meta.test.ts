import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../errors/field-errors.ts';
import type { ObjectMeta } from '../meta/types.ts';
import { nameIsDNSLabel, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.ts';

const SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('validateObjectMeta', () => {
  const cases: { name: string; meta: ObjectMeta; namespaced?: boolean; want: string[] }[] = [
    { name: 'valid', meta: { name: 'a', namespace: 'default' }, want: [] },
    { name: 'no name', meta: { namespace: 'default' }, want: ['metadata.name: Required value: name or generateName is required'] },
    { name: 'bad name', meta: { name: 'A', namespace: 'default' }, want: [`metadata.name: Invalid value: "A": ${SUBDOMAIN_MSG}`] },
    { name: 'generateName with dash is fine', meta: { name: 'x', generateName: 'web-', namespace: 'default' }, want: [] },
    { name: 'bad generateName', meta: { name: 'x', generateName: 'Web-', namespace: 'default' },
      want: [`metadata.generateName: Invalid value: "Web-": ${SUBDOMAIN_MSG}`] },
    { name: 'missing namespace', meta: { name: 'a' }, want: ['metadata.namespace: Required value'] },
    { name: 'namespace on cluster scoped', meta: { name: 'a', namespace: 'x' }, namespaced: false,
      want: ['metadata.namespace: Forbidden: not allowed on this type'] },
    { name: 'bad label value', meta: { name: 'a', namespace: 'd', labels: { app: 'a b' } },
      want: ["metadata.labels: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"] },
    { name: 'bad label key', meta: { name: 'a', namespace: 'd', labels: { '/x': 'y' } },
      want: ['metadata.labels: Invalid value: "/x": prefix part must be non-empty'] },
    { name: 'annotations too large', meta: { name: 'a', namespace: 'd', annotations: { a: 'x'.repeat(256 * 1024) } },
      want: ['metadata.annotations: Too long: may not be more than 262144 bytes'] },
    { name: 'owner reference fields', meta: { name: 'a', namespace: 'd', ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] },
      want: [
        'metadata.ownerReferences[0].apiVersion: Required value: must not be empty',
        'metadata.ownerReferences[0].kind: Required value: must not be empty',
        'metadata.ownerReferences[0].name: Required value: must not be empty',
        'metadata.ownerReferences[0].uid: Required value: must not be empty',
      ] },
    { name: 'finalizers conflict', meta: { name: 'a', namespace: 'd', finalizers: ['orphan', 'foregroundDeletion'] },
      want: ['metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set'] },
    { name: 'negative generation', meta: { name: 'a', namespace: 'd', generation: -1 },
      want: ['metadata.generation: Invalid value: -1: must be greater than or equal to 0'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errs = validateObjectMeta(c.meta, { namespaced: c.namespaced ?? true });
      assert.deepEqual(errs.map(formatFieldError), c.want);
    });
  }
  it('uses the name function', () => {
    const errs = validateObjectMeta({ name: 'a.b' }, { namespaced: false, nameFn: nameIsDNSLabel });
    assert.deepEqual(errs.map(formatFieldError), ['metadata.name: Invalid value: "a.b": must not contain dots']);
  });
});

describe('validateObjectMetaUpdate', () => {
  const old: ObjectMeta = { name: 'a', namespace: 'd', uid: 'u1', resourceVersion: '5', creationTimestamp: '2024-01-01T00:00:00Z', generation: 2 };
  const cases: { name: string; meta: ObjectMeta; old?: ObjectMeta; want: string[] }[] = [
    { name: 'same', meta: { ...old }, want: [] },
    { name: 'no resourceVersion', meta: { ...old, resourceVersion: '' },
      want: ['metadata.resourceVersion: Invalid value: "": must be specified for an update'] },
    { name: 'name changed', meta: { ...old, name: 'b' }, want: ['metadata.name: Invalid value: "b": field is immutable'] },
    { name: 'uid changed', meta: { ...old, uid: 'u2' }, want: ['metadata.uid: Invalid value: "u2": field is immutable'] },
    { name: 'generation decremented', meta: { ...old, generation: 1 },
      want: ['metadata.generation: Invalid value: 1: must not be decremented'] },
    { name: 'new finalizer while deleting', meta: { ...old, deletionTimestamp: 't', finalizers: ['a/b'] },
      old: { ...old, deletionTimestamp: 't' },
      want: ['metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a/b"}'] },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(validateObjectMetaUpdate(c.meta, c.old ?? old).map(formatFieldError), c.want));
  }
});
