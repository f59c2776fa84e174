import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeOpenAPIV2Document } from './proto-v2.ts';
import { OpenAPIService } from './service.ts';
import type { ServedResource } from './served.ts';

/** Field number → raw values (Buffers for length-delimited, numbers for varints and doubles). */
type Fields = Map<number, (Buffer | number)[]>;

function readVarint(b: Buffer, pos: number): [number, number] {
  let n = 0;
  let mul = 1;
  for (;;) {
    const byte = b[pos++] ?? 0;
    n += (byte & 0x7f) * mul;
    if ((byte & 0x80) === 0) return [n, pos];
    mul *= 128;
  }
}

function fields(b: Buffer): Fields {
  const out: Fields = new Map();
  let pos = 0;
  while (pos < b.length) {
    const [tag, p] = readVarint(b, pos);
    pos = p;
    let v: Buffer | number;
    switch (tag & 7) {
      case 0: [v, pos] = readVarint(b, pos); break;
      case 1: v = b.readDoubleLE(pos); pos += 8; break;
      case 2: { const [len, q] = readVarint(b, pos); v = b.subarray(q, q + len); pos = q + len; break; }
      default: throw new Error(`wire type ${tag & 7}`);
    }
    const list = out.get(tag >> 3) ?? [];
    list.push(v);
    out.set(tag >> 3, list);
  }
  return out;
}

const one = (f: Fields, no: number): Buffer => {
  const v = f.get(no)?.[0];
  assert.ok(Buffer.isBuffer(v), `field ${no}`);
  return v;
};
const str = (f: Fields, no: number): string | undefined => f.get(no)?.[0]?.toString();
/** A Named* list as name → value fields. */
const named = (list: Fields, no = 1): Map<string, Fields> =>
  new Map((list.get(no) ?? []).map((e) => { const f = fields(e as Buffer); return [str(f, 1) ?? '', fields(one(f, 2))]; }));

test('a Swagger document as a gnostic openapi.v2.Document', () => {
  const doc = {
    swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.36.0' },
    paths: {
      '/api/v1/namespaces/{namespace}/configmaps/{name}': {
        parameters: [{ uniqueItems: true, type: 'string', description: 'name', name: 'name', in: 'path', required: true }],
        patch: {
          consumes: ['application/json-patch+json'], produces: ['application/json'], operationId: 'patchCoreV1NamespacedConfigMap',
          parameters: [
            { name: 'body', in: 'body', required: true, schema: { type: 'object' } },
            { uniqueItems: true, type: 'string', name: 'fieldValidation', in: 'query' },
            { $ref: '#/parameters/pretty' },
          ],
          responses: { 200: { description: 'OK', schema: { $ref: '#/definitions/io.k8s.api.core.v1.ConfigMap' } } },
          'x-kubernetes-action': 'patch',
          'x-kubernetes-group-version-kind': { group: '', kind: 'ConfigMap', version: 'v1' },
        },
      },
    },
    definitions: {
      'io.k8s.api.core.v1.ConfigMap': {
        description: 'ConfigMap holds configuration data.', type: 'object', required: ['metadata'],
        properties: {
          data: { type: 'object', additionalProperties: { type: 'string', default: '' } },
          immutable: { type: 'boolean' },
          items: { type: 'array', items: { type: 'integer', format: 'int32', minimum: -1.5 } },
        },
        'x-kubernetes-group-version-kind': [{ group: '', kind: 'ConfigMap', version: 'v1' }],
      },
    },
    securityDefinitions: { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header', description: 'Bearer Token authentication' } },
    security: [{ BearerToken: [] }],
  };
  const d = fields(encodeOpenAPIV2Document(doc));
  assert.equal(str(d, 1), '2.0');
  const info = fields(one(d, 2));
  assert.equal(str(info, 1), 'Kubernetes');
  assert.equal(str(info, 2), 'v1.36.0');

  const paths = named(fields(one(d, 8)), 2);
  const item = paths.get('/api/v1/namespaces/{namespace}/configmaps/{name}');
  assert.ok(item !== undefined);
  // The path-level parameter: ParametersItem.parameter.non_body_parameter.path_parameter_sub_schema.
  const pathParam = fields(one(fields(one(fields(one(fields(one(item, 9)), 1)), 2)), 4));
  assert.equal(pathParam.get(1)?.[0], 1);
  assert.equal(str(pathParam, 2), 'path');
  assert.equal(str(pathParam, 4), 'name');
  assert.equal(str(pathParam, 5), 'string');
  const patch = fields(one(item, 8));
  assert.equal(str(patch, 5), 'patchCoreV1NamespacedConfigMap');
  const params = (patch.get(8) ?? []).map((p) => fields(p as Buffer));
  assert.equal(params.length, 3);
  assert.equal(str(fields(one(fields(one(params[0] ?? new Map(), 1)), 1)), 2), 'body');
  const query = fields(one(fields(one(fields(one(params[1] ?? new Map(), 1)), 2)), 3));
  assert.equal(str(query, 4), 'fieldValidation');
  assert.equal(str(query, 2), 'query');
  assert.equal(str(fields(one(params[2] ?? new Map(), 2)), 1), '#/parameters/pretty');
  const ok = named(fields(one(patch, 9))).get('200');
  assert.ok(ok !== undefined);
  const schemaRef = fields(one(fields(one(fields(one(ok, 1)), 2)), 1));
  assert.equal(str(schemaRef, 1), '#/definitions/io.k8s.api.core.v1.ConfigMap');
  const ext = named(patch, 13);
  assert.deepEqual([...ext.keys()], ['x-kubernetes-action', 'x-kubernetes-group-version-kind']);
  assert.deepEqual(JSON.parse(str(ext.get('x-kubernetes-group-version-kind') ?? new Map(), 2) ?? ''), { group: '', kind: 'ConfigMap', version: 'v1' });

  const defs = named(fields(one(d, 9)));
  const cm = defs.get('io.k8s.api.core.v1.ConfigMap');
  assert.ok(cm !== undefined);
  assert.equal(str(cm, 4), 'ConfigMap holds configuration data.');
  assert.deepEqual((cm.get(19) ?? []).map(String), ['metadata']);
  assert.equal(str(fields(one(cm, 22)), 1), 'object');
  const props = named(fields(one(cm, 25)));
  assert.deepEqual([...props.keys()], ['data', 'immutable', 'items']);
  const additional = fields(one(fields(one(props.get('data') ?? new Map(), 21)), 1));
  assert.equal(str(fields(one(additional, 22)), 1), 'string');
  assert.equal(str(fields(one(additional, 5)), 2), '""\n');
  const itemSchema = fields(one(fields(one(props.get('items') ?? new Map(), 23)), 1));
  assert.equal(str(itemSchema, 2), 'int32');
  assert.equal(itemSchema.get(9)?.[0], -1.5);
  assert.equal(named(cm, 31).size, 1);

  const sec = named(fields(one(d, 13))).get('BearerToken');
  assert.ok(sec !== undefined);
  const apiKey = fields(one(sec, 2));
  assert.deepEqual([str(apiKey, 1), str(apiKey, 2), str(apiKey, 3)], ['apiKey', 'authorization', 'header']);
  assert.equal(named(fields(one(d, 12))).has('BearerToken'), true);
});

test('/openapi/v2 is served as protobuf when asked, as kube-openapi negotiates it', async () => {
  const served: ServedResource[] = [{ group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: ['get'] }];
  const svc = new OpenAPIService(served);
  const req = (accept: string | undefined) => svc.handle({ method: 'GET', path: '/openapi/v2', query: new URLSearchParams(), accept });
  for (const accept of ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
    'application/com.github.proto-openapi.spec.v2@v1.0+protobuf;q=1, application/json;q=0.5']) {
    const r = await req(accept);
    assert.equal(r?.status, 200, accept);
    assert.equal(r?.headers['Content-Type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf', accept);
    assert.equal(str(fields(r?.body ?? Buffer.alloc(0)), 1), '2.0');
    // kube-openapi reuses the JSON's ETag for the protobuf form (the Vary header tells them apart).
    assert.equal(r?.headers['Etag'], `"${(await svc.v2()).etag}"`);
  }
  for (const accept of [undefined, '*/*', 'application/*', 'application/json']) assert.equal((await req(accept))?.headers['Content-Type'], 'application/json', accept);
  assert.equal((await req('text/plain'))?.status, 406);
});
