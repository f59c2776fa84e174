// CustomResourceDefinitions in protobuf over raw HTTPS, as client-go's apiextensions clientset
// sends them: a create with a protobuf body, read back as protobuf and as JSON. Against the
// reference kube-apiserver (when built), the bytes kapi's encoder writes must create the same CRD
// there, and kube's protobuf answer must decode in kapi to kube's own JSON.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobuf, encodeProtobuf } from '../apimachinery/runtime/serializer/protobuf/index.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

type Obj = Record<string, unknown>;

/** A valid (structural) CRD using JSON values (default, example, enum), additionalProperties, items and validations. */
function gadgetCRD(group: string): Obj {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        default: { size: 3 },
        properties: {
          size: { type: 'integer', minimum: 1, maximum: 10, default: 3, example: 5 },
          ratio: { type: 'number', minimum: 0, maximum: 2.5, multipleOf: 0.25 },
          mode: { type: 'string', enum: ['fast', 'slow'], default: 'fast' },
          tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          port: { 'x-kubernetes-int-or-string': true },
          extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
        'x-kubernetes-validations': [{ rule: 'self.size <= 10', message: 'too big' }],
      },
      status: { type: 'object', properties: { ready: { type: 'boolean' } } },
    },
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gadgets.${group}` },
    spec: {
      group,
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
      scope: 'Namespaced',
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, subresources: { status: {} } },
        { name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: schema } },
      ],
      // Webhook conversion needs a webhook server (crd-conversion-webhook.test.ts); the unit
      // tests cover its fields.
      conversion: { strategy: 'None' },
    },
  };
}

type Send = (req: RawRequest) => Promise<RawResponse>;

async function createInProtobuf(send: Send, body: Buffer): Promise<RawResponse> {
  return send({ method: 'POST', path: CRDS, body, contentType: PROTOBUF, headers: { Accept: PROTOBUF } });
}

function protobufAnswer(r: RawResponse, status: number): Obj {
  assert.equal(r.status, status, r.text);
  assert.equal(r.headers['content-type'], PROTOBUF);
  const d = decodeProtobuf(r.body);
  assert.equal(d.apiVersion, 'apiextensions.k8s.io/v1');
  assert.equal(d.kind, 'CustomResourceDefinition');
  return d.obj;
}

/**
 * The object as protobuf and as JSON, read while it did not change: a new CRD's status moves on
 * by itself (Established), so both reads must see the same resourceVersion.
 */
async function getBoth(send: Send, name: string): Promise<{ pb: Obj; bytes: Buffer; json: Obj }> {
  const getJSON = async (): Promise<Obj> => {
    const r = await send({ method: 'GET', path: `${CRDS}/${name}` });
    assert.equal(r.status, 200, r.text);
    return r.json() as Obj;
  };
  const rv = (o: Obj): unknown => (o['metadata'] as Obj | undefined)?.['resourceVersion'];
  return eventually(`${name} read unchanged in protobuf and JSON`, async () => {
    const first = await getJSON();
    const answer = await send({ method: 'GET', path: `${CRDS}/${name}`, headers: { Accept: PROTOBUF } });
    const pb = protobufAnswer(answer, 200);
    const json = await getJSON();
    return rv(first) === rv(json) && rv(pb) === rv(json) ? { pb, bytes: answer.body, json } : undefined;
  });
}

const specOf = (o: Obj): unknown => o['spec'];

describe('CustomResourceDefinitions in protobuf', () => {
  let s: Suite;
  before(async () => { s = await startSuite(); });
  after(async () => { await s?.close(); });

  it('creates a CRD from a protobuf body and reads it back as protobuf', async () => {
    const crd = gadgetCRD('pb.example.com');
    const created = protobufAnswer(await createInProtobuf(s.request, encodeProtobuf(crd)), 201);
    assert.deepEqual(specOf(created), specOf(crd));
    const { pb, json } = await getBoth(s.request, 'gadgets.pb.example.com');
    // The protobuf answer decodes to exactly what the JSON answer says, status included.
    assert.deepEqual(pb, json);
    assert.deepEqual(specOf(pb), specOf(crd));
  });

  it('refuses a protobuf body that is not a CRD message', async () => {
    const cm = encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    const r = await createInProtobuf(s.request, cm);
    assert.equal(r.status, 400, r.text);
  });
});

describe('CRD protobuf bytes against the reference kube-apiserver', { skip: oracleUnavailable() ?? false }, () => {
  let s: Suite;
  let oracle: Oracle;
  before(async () => {
    const [k, o] = await Promise.allSettled([startSuite(), startOracle()]);
    if (k.status === 'fulfilled') s = k.value;
    if (o.status === 'fulfilled') oracle = o.value;
    if (k.status === 'rejected') throw k.reason;
    if (o.status === 'rejected') throw o.reason;
  });
  after(async () => { await Promise.all([s?.close(), oracle?.stop()]); });

  it('kube stores what kapi encodes, and kapi decodes what kube encodes', async () => {
    const crd = gadgetCRD('oracle.example.com');
    const body = encodeProtobuf(crd);
    const [fromKapi, fromKube] = await Promise.all([createInProtobuf(s.request, body), createInProtobuf(oracle.request, body)]);
    protobufAnswer(fromKapi, 201);
    protobufAnswer(fromKube, 201);
    const kapi = await getBoth(s.request, 'gadgets.oracle.example.com');
    const kube = await getBoth(oracle.request, 'gadgets.oracle.example.com');
    // kube's JSON of the CRD it decoded from kapi's bytes is the CRD kapi stored.
    assert.deepEqual(specOf(kube.json), specOf(kapi.json));
    assert.deepEqual(specOf(kube.json), specOf(crd));
    // kube's protobuf answer, decoded by kapi, is kube's JSON answer.
    assert.deepEqual(kube.pb, kube.json);
    // kube writes every empty non-pointer string, kapi leaves them out: the bytes differ, the objects do not.
    assert.deepEqual(decodeProtobuf(encodeProtobuf(kube.json)).obj, decodeProtobuf(kube.bytes).obj);
  });
});
