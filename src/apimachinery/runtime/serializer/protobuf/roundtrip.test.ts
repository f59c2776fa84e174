// JSON → protobuf → JSON is the identity for a filled object of every built-in kind that has a
// protobuf message, generated from the kind's OpenAPI schema.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getDefinitions } from '../../../openapi/index.ts';
import { canEncode, decodeProtobuf, encodeProtobuf } from './index.ts';
import { sampleObject } from './testing/sample-object.ts';

const kinds: { definition: string; apiVersion: string; kind: string }[] = [];
for (const [definition, def] of Object.entries(getDefinitions())) {
  const gvks = def['x-kubernetes-group-version-kind'] ?? [];
  const gvk = gvks[0];
  if (gvks.length !== 1 || gvk === undefined) continue;
  const apiVersion = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
  if (!definition.startsWith('io.k8s.api.') && !definition.startsWith('io.k8s.apimachinery.')) continue;
  kinds.push({ definition, apiVersion, kind: gvk.kind });
}

describe('protobuf round trip of every built-in kind', () => {
  it('covers the built-in kinds', () => {
    const encodable = kinds.filter((k) => canEncode(k.apiVersion, k.kind));
    // Every k8s.io/api and meta kind in the v1.36 OpenAPI has a message (CRDs and APIServices: apiextensions.test.ts).
    assert.deepEqual(kinds.filter((k) => !canEncode(k.apiVersion, k.kind)).map((k) => `${k.apiVersion} ${k.kind}`), []);
    assert.ok(encodable.length >= 180, `only ${encodable.length} kinds`);
  });

  for (const k of kinds) {
    it(`${k.apiVersion} ${k.kind}`, () => {
      const obj = sampleObject(k.definition, k.apiVersion, k.kind);
      const buf = encodeProtobuf(obj);
      const got = decodeProtobuf(buf);
      assert.equal(got.apiVersion, k.apiVersion);
      assert.equal(got.kind, k.kind);
      assert.deepEqual(got.obj, obj);
      // Encoding is deterministic: the decoded object encodes to the same bytes.
      assert.deepEqual(encodeProtobuf(got.obj), buf);
    });
  }
});
