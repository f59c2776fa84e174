// Fuzzing the schema-less patch engines (issue 9): JSON patch (evanphx v4 rules) and JSON merge
// patch. Any patch a client sends is applied or refused with a 4xx (JSONPatchError inside the
// engine, a StatusError at the handler's edge), never a crash, and the result is no larger than
// the document plus the patch plus the copies kube allows (JSONPatchMaxCopyBytes, 3 MiB).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { clientSafe, expectClientError, fuzz, fuzzAsync, hostileKey, hostileValue, jsonSize, nestedText } from '../../apimachinery/testing/fuzz.ts';
import { applyJSONPatchOps, JSONPatchError } from './json-patch.ts';
import { applyJSONPatch, applyMergePatch } from './patch-apply.ts';

/** kube-apiserver's JSONPatchMaxCopyBytes: what copy operations may add in total. */
const MAX_COPY_BYTES = 3 * 1024 * 1024;
const size = jsonSize;

const doc: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(hostileKey, hostileValue, { maxKeys: 6, noNullPrototype: true })
  .map((data) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data, list: [1, 2, 3] }));

/** JSON pointers into a ConfigMap-shaped document, escaped and not, with indexes, '-' and garbage. */
const pointer: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.oneof(hostileKey, fc.constantFrom('data', 'list', 'metadata', '-', '0', '1', '-1', '-9', '99', '01', '~0', '~1', '~2', '')), { maxLength: 4 })
    .map((parts) => parts.map((p) => `/${p}`).join('')),
  fc.constantFrom('', '/', 'data', '//', '/data/', '/list/-', '/list/0', '/list/-1', '/metadata/name'),
);

const op: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus', ''), path: pointer, from: pointer, value: hostileValue },
    { requiredKeys: ['op'] }),
  fc.constantFrom(null, 1, 'x', [], { op: 1 }, { op: 'add', path: 1 }, { op: 'copy', from: null, path: '/data/x' }),
);

/** Repeated copies of a growing subtree: each doubles the document (the copy bomb of issue 9). */
const copyBomb: fc.Arbitrary<{ doc: Record<string, unknown>; ops: unknown[] }> = fc.record({
  chunk: fc.integer({ min: 1_000, max: 40_000 }), copies: fc.integer({ min: 2, max: 10 }),
}).map(({ chunk, copies }) => ({
  doc: { data: { big: 'x'.repeat(chunk) } },
  ops: Array.from({ length: copies }, (_, i) => ({ op: 'copy', from: '/data', path: `/data/c${i}` })),
}));

describe('JSON patch fuzzing', () => {
  it('the engine applies or throws JSONPatchError, and the result stays bounded', () => {
    fuzz(fc.tuple(doc, fc.array(op, { maxLength: 8 })), ([d, ops]) => {
      const out = clientSafe(() => applyJSONPatchOps(d, ops), [JSONPatchError]);
      if (out !== undefined) assert.ok(size(out) <= size(d) + size(ops) + MAX_COPY_BYTES, `result of ${size(out)} bytes`);
    }, { seed: 9201, numRuns: 400 });
  });

  it('the handler answers 4xx for any patch text, also deeply nested ones', async () => {
    const text: fc.Arbitrary<string> = fc.oneof(
      fc.array(op, { maxLength: 6 }).map((ops) => JSON.stringify(ops)),
      fc.integer({ min: 1, max: 12_000 }).map((n) => `[{"op":"add","path":"/data/x","value":${nestedText(n, 'array')}}]`),
      fc.constantFrom('', '[', '{}', 'null', '[null]', '[1]', '[{"op":"add","path":"/a","value":1e309}]'),
    );
    await fuzzAsync(fc.tuple(doc, text), async ([d, t]) => {
      try {
        const out = await applyJSONPatch(d, t, 'Strict');
        assert.ok(size(out) <= size(d) + t.length + MAX_COPY_BYTES, `result of ${size(out)} bytes`);
      } catch (err) {
        expectClientError(err);
      }
    }, { seed: 9202, numRuns: 200 });
  });

  it('copies are capped: a copy bomb is refused or bounded by kube\'s copy limit', async () => {
    await fuzzAsync(copyBomb, async ({ doc: d, ops }) => {
      try {
        const out = await applyJSONPatch(d, JSON.stringify(ops), 'Strict');
        assert.ok(size(out) <= size(d) + size(ops) + MAX_COPY_BYTES, `copy bomb grew ${size(d)} bytes to ${size(out)}`);
      } catch (err) {
        expectClientError(err);
      }
    }, { seed: 9203, numRuns: 20 });
  });
});

describe('JSON merge patch fuzzing', () => {
  it('merges or answers 4xx, and the result is no larger than document plus patch', () => {
    const patchText: fc.Arbitrary<string> = fc.oneof(
      hostileValue.map((v) => JSON.stringify(v) ?? 'null'),
      fc.dictionary(hostileKey, hostileValue, { maxKeys: 5, noNullPrototype: true }).map((p) => JSON.stringify({ data: p })),
      fc.integer({ min: 1, max: 12_000 }).map((n) => `{"data":${nestedText(n, 'object')}}`),
      fc.constantFrom('', '{', '[]', 'null', '{"data":null}', '{"__proto__":{"polluted":1}}', '{"a":1e309}'),
    );
    fuzz(fc.tuple(doc, patchText), ([d, t]) => {
      const out = clientSafe(() => applyMergePatch(d, t));
      // Measured as decoded values: a literal like 1e309 decodes to Infinity, longer as text.
      if (out !== undefined) assert.ok(size(out) <= size(d) + size(JSON.parse(t)), `merged ${size(out)} bytes`);
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined, 'Object.prototype polluted');
    }, { seed: 9204, numRuns: 300 });
  });
});
