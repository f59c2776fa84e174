// Fuzzing the strategic merge patch engine (issue 9): any patch against a ConfigMap or a
// Deployment (merge keys, $patch/$retainKeys/$setElementOrder directives, prototype-named keys,
// deep nesting) merges or throws PatchError (mapped to a 4xx by interpretStrategicMergePatchError),
// never a crash, and the result is no larger than the document plus the patch.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isStatusError } from '../errors/status-error.ts';
import { MAX_OBJECT_DEPTH } from '../json-depth.ts';
import { schemaForGVK } from '../openapi/index.ts';
import { clientSafe, fuzz, hostileKey, hostileValue, jsonSize, nestedText } from '../testing/fuzz.ts';
import { interpretStrategicMergePatchError, PatchError } from './errors.ts';
import { applyStrategicMergePatch } from './strategic-merge-patch.ts';

const CM = schemaForGVK({ group: '', version: 'v1', kind: 'ConfigMap' });
const DEPLOY = schemaForGVK({ group: 'apps', version: 'v1', kind: 'Deployment' });
const size = jsonSize;

const container = fc.record({
  name: fc.oneof(fc.constantFrom('a', 'b', '__proto__', 'constructor'), fc.string({ maxLength: 4 })),
  image: fc.string({ maxLength: 6 }),
  env: fc.array(fc.record({ name: hostileKey, value: fc.string({ maxLength: 4 }) }), { maxLength: 3 }),
}, { requiredKeys: [] });

const deployment = fc.record({
  metadata: fc.record({ name: fc.constant('d'), labels: fc.dictionary(hostileKey, fc.string({ maxLength: 4 }), { maxKeys: 3, noNullPrototype: true }) }),
  spec: fc.record({ replicas: fc.integer(), template: fc.record({ spec: fc.record({ containers: fc.array(container, { maxLength: 3 }) }) }) }),
});

const directive = fc.oneof(
  fc.constantFrom({ $patch: 'replace' }, { $patch: 'delete' }, { $patch: 'merge' }, { $patch: 'bogus' }, { $retainKeys: ['image'] },
    { $retainKeys: 'x' }, { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] }, { '$deleteFromPrimitiveList/finalizers': ['x'] }),
  hostileValue,
);

const deploymentPatch: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ spec: fc.record({ template: fc.record({ spec: fc.record({ containers: fc.array(fc.oneof(container, directive), { maxLength: 4 }) }) }) }) }),
  fc.record({ metadata: fc.record({ labels: fc.oneof(directive, fc.dictionary(hostileKey, fc.oneof(fc.constant(null), fc.string()), { maxKeys: 3, noNullPrototype: true })) }) }),
  fc.dictionary(hostileKey, directive, { maxKeys: 3, noNullPrototype: true }),
  // The patch handler refuses bodies deeper than MAX_OBJECT_DEPTH before the engine runs.
  fc.integer({ min: 1, max: MAX_OBJECT_DEPTH - 3 }).map((n) => JSON.parse(`{"spec":{"template":${nestedText(n, 'object')}}}`) as unknown),
);

function checkedMerge(original: unknown, patch: unknown, schema: typeof CM): void {
  const out = clientSafe(() => {
    try {
      return applyStrategicMergePatch(original, patch, schema);
    } catch (err) {
      if (err instanceof PatchError) {
        // The handler's mapping gives a Status for every engine error: 4xx for kube's sentinel
        // errors; the others kube passes through unmapped, so its ErrorToAPIStatus answers 500
        // (e.g. "list element types are not identical") and kapi does the same.
        const mapped = interpretStrategicMergePatchError(err);
        assert.ok(isStatusError(mapped), `PatchError ${err.kind} is not mapped to a Status`);
        if (err.kind !== 'Other') assert.ok(mapped.status.code < 500, `PatchError ${err.kind} maps to ${mapped.status.code}`);
      }
      throw err;
    }
  }, [PatchError]);
  if (out !== undefined) assert.ok(size(out) <= size(original) + size(patch) + 64, `merged ${size(out)} bytes from ${size(original)} + ${size(patch)}`);
}

describe('strategic merge patch fuzzing', () => {
  it('Deployments: merge keys and directives', () => {
    fuzz(fc.tuple(deployment, deploymentPatch), ([d, p]) => checkedMerge(d, p, DEPLOY), { seed: 9401, numRuns: 300 });
  });

  it('ConfigMaps: prototype-named data keys and arbitrary values', () => {
    const cm = fc.dictionary(hostileKey, fc.string({ maxLength: 6 }), { maxKeys: 5, noNullPrototype: true })
      .map((data) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data }));
    const patch = fc.oneof(fc.dictionary(hostileKey, fc.oneof(fc.constant(null), fc.string(), directive), { maxKeys: 4, noNullPrototype: true })
      .map((data) => ({ data })), hostileValue);
    fuzz(fc.tuple(cm, patch), ([d, p]) => {
      checkedMerge(d, p, CM);
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    }, { seed: 9402, numRuns: 300 });
  });
});
