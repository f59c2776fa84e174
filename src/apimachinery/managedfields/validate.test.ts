// The typed validation of an applied configuration rejects values of the wrong shape with
// structured-merge-diff's texts, as kube-apiserver v1.36.3 answers a server-side apply (asked
// through src/e2e/testing/oracle.ts): 500 "failed to create typed patch object (...): <errors>".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../errors/status-error.ts';
import type { Unstructured } from '../meta/types.ts';
import { schemaForGVK } from '../openapi/index.ts';
import { apply } from './field-manager.ts';

const scope = (group: string, version: string, kind: string) =>
  ({ apiVersion: group === '' ? version : `${group}/${version}`, kind, schema: schemaForGVK({ group, version, kind }) });

describe('typed validation of an applied configuration', () => {
  const cases: { name: string; kind: string; body: Record<string, unknown>; message: string | undefined }[] = [
    { name: 'a string where a map is', kind: 'ResourceQuota', body: { spec: { hard: 'x' } },
      message: 'failed to create typed patch object (/o; /v1, Kind=ResourceQuota): .spec.hard: expected map, got &{x}' },
    { name: 'a string where a list is', kind: 'ResourceQuota', body: { spec: { scopes: 'x' } },
      message: 'failed to create typed patch object (/o; /v1, Kind=ResourceQuota): .spec.scopes: expected list, got &{x}' },
    { name: 'a number where a string is', kind: 'ResourceQuota', body: { spec: { scopes: [1] } },
      message: 'failed to create typed patch object (/o; /v1, Kind=ResourceQuota): .spec.scopes[0]: expected string, got &value.valueUnstructured{Value:1}' },
    { name: 'a map where a string is', kind: 'ResourceQuota', body: { spec: { scopes: [{ a: [1, 'x'] }] } },
      message: 'failed to create typed patch object (/o; /v1, Kind=ResourceQuota): .spec.scopes[0]: expected string, got &value.valueUnstructured{Value:map[string]interface {}{"a":[]interface {}{1, "x"}}}' },
    { name: 'a list where a quantity is', kind: 'ResourceQuota', body: { spec: { hard: { cpu: [1] } } },
      message: 'failed to create typed patch object (/o; /v1, Kind=ResourceQuota): .spec.hard.cpu: expected any scalar, got &{[1]}' },
    { name: 'a number as a quantity is fine', kind: 'ResourceQuota', body: { spec: { hard: { cpu: 1 } } }, message: undefined },
    { name: 'a string where a number is', kind: 'Service', body: { spec: { ports: [{ port: '80' }] } },
      message: 'failed to create typed patch object (/o; /v1, Kind=Service): .spec.ports[port="80",protocol="TCP"].port: expected numeric (int or float), got string' },
    { name: 'a string where a boolean is', kind: 'Service', body: { spec: { publishNotReadyAddresses: 'yes' } },
      message: 'failed to create typed patch object (/o; /v1, Kind=Service): .spec.publishNotReadyAddresses: expected boolean, got &{yes}' },
    { name: 'a list where an IntOrString is is left to decoding', kind: 'Service', body: { spec: { ports: [{ port: 80, targetPort: [1] }] } }, message: undefined },
    { name: 'a number where a time is is left to decoding', kind: 'Service', body: { metadata: { name: 'o', creationTimestamp: 5 } }, message: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = scope('', 'v1', c.kind);
      const patch = { apiVersion: 'v1', kind: c.kind, metadata: { name: 'o' }, ...c.body } as unknown as Unstructured;
      const run = (): unknown => apply({ ...s, live: undefined, patch, manager: 'm', force: false, time: '2026-01-01T00:00:00Z' });
      if (c.message === undefined) { run(); return; }
      assert.throws(run, (err: unknown) => err instanceof StatusError && err.status.code === 500 && err.status.reason === '' && err.message === c.message);
    });
  }
});
