// apiextensions.k8s.io (CustomResourceDefinition) and apiregistration.k8s.io (APIService) kinds
// through protobuf: JSON → protobuf → JSON is the identity, including JSONSchemaProps' JSON
// values and its three unions, whose protobuf messages differ from their JSON forms.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canEncode, decodeProtobuf, encodeProtobuf } from './index.ts';
import { decodeMessage } from './decode.ts';
import { messageByName, type MessageType } from './descriptors.ts';
import { Reader } from './wire.ts';
import { RICH_CRD_GO_PROTOBUF, richCRD, sampleAPIService } from './testing/apiextensions-samples.ts';

const roundTrip = (obj: Record<string, unknown>, sameBytes = true): Record<string, unknown> => {
  const buf = encodeProtobuf(obj);
  const got = decodeProtobuf(buf);
  // Encoding is deterministic: the decoded object encodes to the same bytes (unless the JSON
  // form changed: an empty union prints null, which then encodes as no field at all).
  if (sameBytes) assert.deepEqual(encodeProtobuf(got.obj), buf);
  return got.obj;
};

const schema = (props: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'widgets', kind: 'Widget' },
    scope: 'Namespaced',
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: props } }],
  },
  status: { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: null },
});

describe('protobuf: apiextensions and apiregistration kinds', () => {
  const kinds: [string, string][] = [
    ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'],
    ['apiextensions.k8s.io/v1', 'CustomResourceDefinitionList'],
    ['apiextensions.k8s.io/v1beta1', 'CustomResourceDefinition'],
    ['apiextensions.k8s.io/v1', 'ConversionReview'],
    ['apiregistration.k8s.io/v1', 'APIService'],
    ['apiregistration.k8s.io/v1', 'APIServiceList'],
    ['apiregistration.k8s.io/v1beta1', 'APIService'],
    ['apiextensions.k8s.io/v1', 'Status'],
  ];
  for (const [apiVersion, kind] of kinds) {
    it(`has a message for ${apiVersion} ${kind}`, () => assert.ok(canEncode(apiVersion, kind)));
  }

  it('round-trips a rich CustomResourceDefinition', () => {
    const crd = richCRD();
    assert.deepEqual(roundTrip(crd), crd);
  });

  it('decodes the bytes Go writes for the rich CRD to the same object', () => {
    const bytes = Buffer.from(RICH_CRD_GO_PROTOBUF, 'base64');
    const msg = messageByName('k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition') as MessageType;
    const { apiVersion: _v, kind: _k, ...fields } = richCRD();
    assert.deepEqual(decodeMessage(new Reader(bytes), bytes.length, msg), fields);
  });

  it('round-trips the same CRD as apiextensions.k8s.io/v1beta1 schema unions', () => {
    const props = { type: 'object', additionalProperties: false, items: [{ type: 'string' }], dependencies: { a: ['b'] } };
    const obj = { apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'CustomResourceDefinition', metadata: { name: 'x' },
      spec: { group: 'g', names: { plural: 'xs', kind: 'X' }, scope: 'Cluster', validation: { openAPIV3Schema: props } },
      status: { acceptedNames: { plural: '', kind: '' }, storedVersions: null, conditions: [] } };
    const got = roundTrip(obj) as { spec: { validation: unknown } };
    assert.deepEqual(got.spec.validation, { openAPIV3Schema: props });
  });

  it('round-trips an APIService', () => {
    const svc = sampleAPIService();
    assert.deepEqual(roundTrip(svc), svc);
  });

  // JSON forms Go prints after a protobuf decode that are not the input: named cases.
  // (`changes`: the printed form then encodes differently, as `items: null` is no field in Go too.)
  const normalised: { name: string; in: Record<string, unknown>; out: Record<string, unknown>; changes?: true }[] = [
    { name: 'items: [] prints null (no schema, no list)', in: { type: 'array', items: [] }, out: { type: 'array', items: null }, changes: true },
    { name: 'items that is neither object nor list prints null', in: { items: 'x' }, out: { items: null }, changes: true },
    { name: 'dependencies: [] prints null', in: { dependencies: { a: [] } }, out: { dependencies: { a: null } } },
    { name: 'additionalProperties: true', in: { additionalProperties: true }, out: { additionalProperties: true } },
    { name: 'enum with null members', in: { enum: [null, 1, 'a', { b: [true] }] }, out: { enum: [null, 1, 'a', { b: [true] }] } },
    { name: 'default null is absent', in: { default: null, type: 'string' }, out: { type: 'string' } },
    { name: 'doubles', in: { maximum: 1.5, minimum: -3, multipleOf: 0.25 }, out: { maximum: 1.5, minimum: -3, multipleOf: 0.25 } },
  ];
  for (const c of normalised) {
    it(c.name, () => {
      const got = roundTrip(schema(c.in), c.changes !== true) as { spec: { versions: { schema: { openAPIV3Schema: unknown } }[] } };
      assert.deepEqual(got.spec.versions[0]?.schema.openAPIV3Schema, c.out);
    });
  }

  // JSONSchemaProps is recursive: its decoder counts every JSON level; a union message is none.
  const nested = (key: string, levels: number): Record<string, unknown> => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < levels; i++) deep = { [key]: deep };
    return schema(deep);
  };
  for (const key of ['items', 'additionalProperties', 'not']) {
    it(`decodes a schema nested 480 levels through ${key}, refuses one nested 600`, () => {
      const ok = nested(key, 480);
      assert.deepEqual(decodeProtobuf(encodeProtobuf(ok)).obj, ok);
      assert.throws(() => decodeProtobuf(encodeProtobuf(nested(key, 600))), /nested more than 500 levels deep/);
    });
  }

  it('refuses additionalProperties that is neither a bool nor a schema', () => {
    assert.throws(() => encodeProtobuf(schema({ additionalProperties: 'yes' })), /boolean or JSON schema expected/);
  });
});
