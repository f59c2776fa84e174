// Fuzzing server-side apply and managedFields tracking (issue 9): whatever managedFields entries a
// client sends (hostile fieldsV1 sets, deep nesting, prototype-named fields, wrong types) and
// whatever it applies, the field manager answers or refuses with a 4xx StatusError (a 409 apply
// conflict included), never a crash, and the managedFields it records stay proportional to the
// object and the entries it was given.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { StatusError } from '../errors/status-error.ts';
import type { KubeObject, ManagedFieldsEntry } from '../meta/types.ts';
import { schemaForGVK } from '../openapi/index.ts';
import { clientSafe, fuzz, hostileKey, hostileValue, jsonSize, PROTO_KEYS } from '../testing/fuzz.ts';
import { apply, updateManagedFields } from './field-manager.ts';

const cmScope = { apiVersion: 'v1', kind: 'ConfigMap', schema: schemaForGVK({ group: '', version: 'v1', kind: 'ConfigMap' }) };
const crScope = { apiVersion: 'x.io/v1', kind: 'Blob', schema: undefined };
const T = '2024-05-01T10:00:00Z';

/** A fieldsV1 set nested `depth` levels: {"f:a":{".":{},"f:a":{…}}}. */
function deepFieldsV1(depth: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let cur = root;
  for (let i = 0; i < depth; i++) {
    const next: Record<string, unknown> = { '.': {} };
    cur['f:a'] = next;
    cur = next;
  }
  return root;
}

const fieldsV1: fc.Arbitrary<unknown> = fc.oneof(
  fc.dictionary(fc.oneof(hostileKey.map((k) => `f:${k}`), fc.constantFrom('.', 'k:{"name":"a"}', 'v:"x"', 'i:0', 'x:bad', 'k:{', 'f:')),
    fc.oneof(fc.constant({}), hostileValue), { maxKeys: 5, noNullPrototype: true }),
  fc.constantFrom(...PROTO_KEYS).map((k) => ({ 'f:data': { '.': {}, [`f:${k}`]: {} } })),
  fc.integer({ min: 1, max: 400 }).map(deepFieldsV1),
  hostileValue,
);

const entry: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({
    manager: fc.oneof(fc.constantFrom('kubectl', 'deep', '__proto__', ''), fc.string({ maxLength: 6 })),
    operation: fc.constantFrom('Update', 'Apply', 'Bogus', ''),
    apiVersion: fc.constantFrom('v1', 'x.io/v1', 'bad//v', ''),
    fieldsType: fc.constantFrom('FieldsV1', 'FieldsV2', ''),
    fieldsV1,
    time: fc.constantFrom(T, 'not a time', ''),
    subresource: fc.constantFrom('', 'status'),
  }, { requiredKeys: ['manager', 'operation'] }),
  hostileValue,
);

const data = fc.dictionary(hostileKey, fc.string({ maxLength: 6 }), { maxKeys: 6, noNullPrototype: true });
const configMap = (d: Record<string, string>, managedFields?: unknown[]): KubeObject => ({
  apiVersion: 'v1', kind: 'ConfigMap', data: d,
  metadata: { name: 'cm', namespace: 'ns', ...(managedFields === undefined ? {} : { managedFields: managedFields as ManagedFieldsEntry[] }) },
} as KubeObject);

function assertProportional(out: KubeObject, inputs: unknown[]): void {
  const recorded = jsonSize(out.metadata.managedFields ?? []);
  const budget = 4 * inputs.reduce<number>((n, v) => n + jsonSize(v), 0) + 2_000;
  assert.ok(recorded <= budget, `managedFields of ${recorded} bytes from ${budget} bytes of input`);
}

describe('managedFields fuzzing', () => {
  it('create and update with client-supplied managedFields', () => {
    fuzz(fc.tuple(data, data, fc.array(entry, { maxLength: 3 }), fc.array(entry, { maxLength: 3 })), ([d1, d2, e1, e2]) => {
      const created = clientSafe(() => updateManagedFields({ ...cmScope, live: undefined, updated: configMap(d1, e1), manager: 'm1', time: T }));
      if (created === undefined) return;
      assertProportional(created, [d1, e1]);
      const updated = clientSafe(() => updateManagedFields({ ...cmScope, live: created, updated: configMap(d2, e2), manager: 'm2', time: T }));
      if (updated !== undefined) assertProportional(updated, [d1, d2, e1, e2]);
    }, { seed: 9501, numRuns: 80 });
  });

  it('server-side apply of hostile configurations, with and without a schema', () => {
    const patch = fc.oneof(
      data.map((d) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: d })),
      fc.dictionary(hostileKey, hostileValue, { maxKeys: 4, noNullPrototype: true })
        .map((spec) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, ...spec })),
    );
    fuzz(fc.tuple(data, patch, fc.boolean(), fc.boolean()), ([live, p, force, unstructured]) => {
      const scope = unstructured ? { ...crScope } : cmScope;
      const base = updateManagedFields({ ...scope, live: undefined, updated: configMap(live), manager: 'creator', time: T });
      const out = clientSafe(() => {
        try {
          return apply({ ...scope, live: base, patch: p as never, manager: 'applier', force, time: T });
        } catch (err) {
          // kube passes structured-merge-diff's typing error through unmapped: its ErrorToAPIStatus
          // answers 500 too (only with fieldValidation=Ignore; Strict and Warn refuse unknown
          // fields before). Kube parity, so not counted as a crash here.
          if (err instanceof StatusError && err.status.code === 500 && err.status.message.startsWith('failed to create typed patch object')) return undefined;
          throw err;
        }
      });
      if (out !== undefined) assertProportional(out.object, [live, p]);
    }, { seed: 9502, numRuns: 150 });
  });
});
