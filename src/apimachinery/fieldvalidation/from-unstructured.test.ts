// Expected texts are kube-apiserver v1.36.3's for a strategic merge patch of a Pod or ConfigMap
// with these values (asked through src/e2e/testing/oracle.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromUnstructuredError } from './from-unstructured.ts';
import { shapeForGVK } from './decode.ts';

const pod = shapeForGVK({ group: '', version: 'v1', kind: 'Pod' });
const configMap = shapeForGVK({ group: '', version: 'v1', kind: 'ConfigMap' });

describe('fromUnstructuredError', () => {
  const cases: { name: string; shape: typeof pod; value: unknown; want: string | undefined }[] = [
    { name: 'a valid pod', shape: pod, value: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] } }, want: undefined },
    { name: 'map from string', shape: pod, value: { metadata: { labels: 'invalid' } }, want: 'cannot restore map from string' },
    { name: 'map from number', shape: pod, value: { metadata: { labels: 5 } }, want: 'cannot restore map from int64' },
    { name: 'map from array', shape: configMap, value: { data: [1] }, want: 'cannot restore map from slice' },
    { name: 'slice from string', shape: pod, value: { metadata: { finalizers: 'x' } }, want: 'cannot restore slice from string' },
    { name: 'slice from object', shape: pod, value: { spec: { tolerations: { a: 1 } } }, want: 'cannot restore slice from map' },
    { name: 'struct from string', shape: pod, value: { metadata: 'x' }, want: 'cannot restore struct from: string' },
    { name: 'struct from array', shape: pod, value: { spec: { securityContext: [] } }, want: 'cannot restore struct from: slice' },
    { name: 'integer into a string', shape: configMap, value: { data: { a: 1 } }, want: 'cannot convert int64 to string' },
    { name: 'integer into a string list', shape: pod, value: { metadata: { finalizers: [1] } }, want: 'cannot convert int64 to string' },
    { name: 'bool into a string', shape: configMap, value: { data: { a: true } }, want: 'unrecognized type: string' },
    { name: 'array into a string', shape: pod, value: { spec: { nodeSelector: { a: [1] } } }, want: 'unrecognized type: string' },
    { name: 'string into an int64', shape: pod, value: { spec: { activeDeadlineSeconds: 'x' } }, want: 'unrecognized type: int64' },
    { name: 'string into an int32', shape: pod, value: { spec: { containers: [{ name: 'c', ports: [{ containerPort: '80' }] }] } }, want: 'unrecognized type: int32' },
    { name: 'bool into an int32', shape: pod, value: { spec: { priority: true } }, want: 'unrecognized type: int32' },
    { name: 'a fraction into an int64', shape: pod, value: { spec: { activeDeadlineSeconds: 1.5 } }, want: 'cannot convert float64 to int64' },
    { name: 'string into a bool', shape: pod, value: { spec: { hostNetwork: 'true' } }, want: 'unrecognized type: bool' },
    { name: 'number into a bool', shape: configMap, value: { immutable: 1 }, want: 'unrecognized type: bool' },
    { name: 'a bad quantity (own UnmarshalJSON)', shape: pod, value: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: 'abc' } } }] } },
      want: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" },
    { name: 'a number as a time', shape: pod, value: { metadata: { creationTimestamp: 5 } }, want: 'json: cannot unmarshal number into Go value of type string' },
    { name: 'nulls convert to zero values', shape: pod, value: { metadata: { labels: null }, spec: null }, want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => { assert.equal(fromUnstructuredError(c.value, c.shape), c.want); });
  }
});
