// Bad input over raw HTTPS is refused with kube-apiserver's Status and never stored: malformed JSON,
// a body whose kind does not match the endpoint, an invalid name, an oversized body, no credentials,
// timestamps that metav1.Time or MicroTime cannot parse. Errors are negotiated like objects
// (protobuf, YAML, or indented JSON when nothing fits), discovery is served in protobuf, a PUT's
// UID is a storage precondition, and failed patches answer as kube's handlers do.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYAML } from 'yaml';
import { decodeProtobuf } from '../apimachinery/runtime/serializer/protobuf/index.ts';
import { asStatus, type RawResponse } from './testing/https-client.ts';
import { createNamespace, ownConfigMaps } from './testing/objects.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-raw';
const CM_PATH = `/api/v1/namespaces/${NS}/configmaps`;

interface List { metadata: { resourceVersion: string }; items: { metadata: { name: string } }[] }

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const MEDIA = 'application/json, application/yaml, application/vnd.kubernetes.protobuf';

/** A protobuf answer: its Content-Type and the `k8s\0` envelope's apiVersion, kind and object. */
function protobufBody(r: RawResponse, contentType = PROTOBUF): { apiVersion: string; kind: string; obj: Record<string, unknown> } {
  assert.equal(r.headers['content-type'], contentType);
  assert.deepEqual([...r.body.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
  return decodeProtobuf(r.body);
}

describe('raw HTTPS requests with bad input', () => {
  let s: Suite;
  /** Names of the stored configmaps of the test namespace. */
  const stored = async (): Promise<string[]> => {
    const r = await s.request({ method: 'GET', path: CM_PATH });
    assert.equal(r.status, 200, r.text);
    return ownConfigMaps((r.json() as List).items.map((i) => i.metadata.name)) as string[];
  };

  before(async () => {
    s = await startSuite();
    await createNamespace(s, NS);
  });
  after(async () => { await s?.close(); });

  it('a valid create answers 201 with the stored object', async () => {
    const r = await s.request({ method: 'POST', path: CM_PATH,
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'good' }, data: { a: 'b' } }) });
    assert.equal(r.status, 201, r.text);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    const obj = r.json() as { kind: string; apiVersion: string; metadata: { name: string; namespace: string; resourceVersion: string } };
    assert.equal(obj.kind, 'ConfigMap');
    assert.equal(obj.apiVersion, 'v1');
    assert.equal(obj.metadata.namespace, NS);
    assert.deepEqual(await stored(), ['good']);
  });

  it('refuses bad bodies with 400 BadRequest and stores nothing', async () => {
    const cases = [
      { name: 'malformed JSON', body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"broken"',
        message: /^the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error: / },
      { name: 'not an object', body: '[1,2,3]',
        message: /^the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error: / },
      { name: 'kind of another resource', body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'wrongkind' } }),
        message: /^Secret in version "v1" cannot be handled as a ConfigMap: / },
      { name: 'apiVersion of another group', body: JSON.stringify({ apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'wronggroup' } }),
        message: /^ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps\/v1"/ },
      { name: 'unknown field with fieldValidation=Strict', body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'strict' }, bogus: 1 }),
        query: '?fieldValidation=Strict', message: /^ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"$/ },
      { name: 'duplicate field with fieldValidation=Strict', body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dupfield"},"data":{"a":"1"},"data":{"a":"2"}}',
        query: '?fieldValidation=Strict', message: /^ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data"$/ },
    ];
    for (const c of cases) {
      const r = await s.request({ method: 'POST', path: CM_PATH + (c.query ?? ''), body: c.body });
      assert.equal(r.status, 400, `${c.name}: ${r.text}`);
      const st = asStatus(r.json());
      assert.equal(st.kind, 'Status', c.name);
      assert.equal(st.apiVersion, 'v1', c.name);
      assert.equal(st.status, 'Failure', c.name);
      assert.equal(st.reason, 'BadRequest', c.name);
      assert.equal(st.code, 400, c.name);
      assert.match(String(st.message), c.message, c.name);
    }
    assert.deepEqual(await stored(), ['good']);
  });

  it('refuses a non-DNS-1123 name with 422 Invalid and the field cause', async () => {
    const r = await s.request({ method: 'POST', path: CM_PATH,
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' } }) });
    assert.equal(r.status, 422, r.text);
    const detail = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    assert.deepEqual(r.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${detail}`,
      reason: 'Invalid',
      details: { name: 'Bad_Name', kind: 'ConfigMap', causes: [
        { reason: 'FieldValueInvalid', message: `Invalid value: "Bad_Name": ${detail}`, field: 'metadata.name' },
      ] },
      code: 422,
    });
    assert.deepEqual(await stored(), ['good']);
  });

  it('refuses a body over 3 MiB with 413', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024 + 512 * 1024);
    const r = await s.request({ method: 'POST', path: CM_PATH,
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'huge' }, data: { big } }) });
    assert.equal(r.status, 413, r.text.slice(0, 500));
    const st = asStatus(r.json());
    assert.equal(st.kind, 'Status');
    assert.equal(st.status, 'Failure');
    assert.equal(st.reason, 'RequestEntityTooLarge');
    assert.equal(st.code, 413);
    assert.equal(st.message, 'Request entity too large: limit is 3145728');
    assert.deepEqual(await stored(), ['good']);
  });

  it('refuses requests without credentials with a 401 Status', async () => {
    const cases = [
      { name: 'list', method: 'GET', path: CM_PATH, body: undefined },
      { name: 'create', method: 'POST', path: CM_PATH,
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'anon' } }) },
      { name: 'namespaces', method: 'GET', path: '/api/v1/namespaces', body: undefined },
    ];
    for (const c of cases) {
      const r = await s.request({ method: c.method, path: c.path, auth: false, ...(c.body === undefined ? {} : { body: c.body }) });
      assert.equal(r.status, 401, c.name);
      assert.deepEqual(r.json(), {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401,
      }, c.name);
    }
    const wrong = await s.request({ method: 'GET', path: CM_PATH, auth: false, headers: { Authorization: 'Bearer not-the-token' } });
    assert.equal(wrong.status, 401);
    assert.equal(asStatus(wrong.json()).reason, 'Unauthorized');
    assert.deepEqual(await stored(), ['good']);
  });

  it('a GET of a missing object is a 404 NotFound Status with details', async () => {
    const r = await s.request({ method: 'GET', path: `${CM_PATH}/nope` });
    assert.equal(r.status, 404);
    assert.deepEqual(r.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "nope" not found',
      reason: 'NotFound', details: { name: 'nope', kind: 'configmaps' }, code: 404,
    });
  });

  it('timestamps: a Time or MicroTime Go cannot parse is a 400 and stores nothing; others are kept in UTC, as Go marshals them', async () => {
    const lease = (name: string, renewTime: string): string => JSON.stringify({
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: 'a', renewTime },
    });
    const leases = `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`;
    // MicroTime takes exactly six fractional digits (RFC3339Micro).
    const ms = await s.request({ method: 'POST', path: leases, body: lease('ms', '2024-01-02T03:04:05.123Z') });
    assert.equal(ms.status, 400, ms.text);
    assert.equal(asStatus(ms.json()).message, 'Lease in version "v1" cannot be handled as a Lease: parsing time "2024-01-02T03:04:05.123Z" '
      + 'as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".123Z" as ".000000"');
    assert.equal((await s.request({ method: 'GET', path: `${leases}/ms` })).status, 404);
    const micro = await s.request({ method: 'POST', path: leases, body: lease('micro', '2024-01-02T03:04:05.123456+02:00') });
    assert.equal(micro.status, 201, micro.text);
    assert.equal((micro.json() as { spec: { renewTime: string } }).spec.renewTime, '2024-01-02T01:04:05.123456Z');

    const ns = (name: string, lastTransitionTime: string): string => JSON.stringify({
      apiVersion: 'v1', kind: 'Namespace', metadata: { name },
      status: { conditions: [{ type: 'NamespaceDeletionDiscoveryFailure', status: 'False', lastTransitionTime }] },
    });
    const bad = await s.request({ method: 'POST', path: '/api/v1/namespaces', body: ns('e2e-raw-bad-time', 'yesterday') });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(asStatus(bad.json()).reason, 'BadRequest');
    assert.equal(asStatus(bad.json()).message, 'Namespace in version "v1" cannot be handled as a Namespace: '
      + 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
    const month = await s.request({ method: 'POST', path: leases, body: lease('month', '2024-13-02T03:04:05.000000Z') });
    assert.equal(asStatus(month.json()).message, 'Lease in version "v1" cannot be handled as a Lease: parsing time "2024-13-02T03:04:05.000000Z": month out of range');
    // A Time keeps whole seconds in UTC.
    const ev = await s.request({ method: 'POST', path: `/api/v1/namespaces/${NS}/events`, body: JSON.stringify({
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'timed' }, involvedObject: { kind: 'ConfigMap', name: 'good', namespace: NS },
      reason: 'Tested', message: 'm', type: 'Normal', count: 1, lastTimestamp: '2024-01-02T03:04:05.987-01:00',
    }) });
    assert.equal(ev.status, 201, ev.text);
    assert.equal((ev.json() as { lastTimestamp: string }).lastTimestamp, '2024-01-02T04:04:05Z');
  });

  it('a create in a missing namespace is a 404 for the namespace', async () => {
    const r = await s.request({ method: 'POST', path: '/api/v1/namespaces/nope/configmaps',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }) });
    assert.equal(r.status, 404, r.text);
    assert.deepEqual(r.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'namespaces "nope" not found',
      reason: 'NotFound', details: { name: 'nope', kind: 'namespaces' }, code: 404,
    });
  });

  it('errors are negotiated like objects: protobuf, YAML, else indented JSON with the error\'s code', async () => {
    const notFound = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "nope" not found',
      reason: 'NotFound', details: { name: 'nope', kind: 'configmaps' }, code: 404 };
    const pb = await s.request({ method: 'GET', path: `${CM_PATH}/nope`, headers: { Accept: `${PROTOBUF}, application/json` } });
    assert.equal(pb.status, 404);
    assert.deepEqual(protobufBody(pb), { apiVersion: 'v1', kind: 'Status', obj: notFound });
    const cm = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice' } });
    assert.equal((await s.request({ method: 'POST', path: CM_PATH, body: cm })).status, 201);
    const dup = await s.request({ method: 'POST', path: CM_PATH, headers: { Accept: PROTOBUF }, body: cm });
    assert.equal(dup.status, 409);
    assert.equal(protobufBody(dup).obj['message'], 'configmaps "twice" already exists');
    const invalid = await s.request({ method: 'POST', path: CM_PATH, headers: { Accept: PROTOBUF },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' } }) });
    assert.equal(invalid.status, 422);
    assert.equal(protobufBody(invalid).obj['reason'], 'Invalid');
    const anon = await s.request({ method: 'GET', path: CM_PATH, auth: false, headers: { Accept: PROTOBUF } });
    assert.equal(anon.status, 401);
    assert.equal(protobufBody(anon).obj['reason'], 'Unauthorized');

    const yaml = await s.request({ method: 'GET', path: `${CM_PATH}/nope`, headers: { Accept: 'application/yaml' } });
    assert.equal(yaml.status, 404);
    assert.equal(yaml.headers['content-type'], 'application/yaml');
    assert.deepEqual(parseYAML(yaml.text), notFound);

    // Only a Table is accepted: the handler serves Tables, but a Status is never transformed (WriteRawJSON).
    const table = await s.request({ method: 'GET', path: `${CM_PATH}/nope`, headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    assert.equal(table.status, 404);
    assert.equal(table.headers['content-type'], 'application/json');
    assert.equal(table.text, JSON.stringify(notFound, null, 2));
  });

  it('an Accept nothing produces is a 406: go-restful\'s text on built-in routes, the handler\'s otherwise', async () => {
    const cases = [
      { name: 'text/plain on an object', path: `${CM_PATH}/nope`, accept: 'text/plain',
        message: `406: Not Acceptable\n\nAvailable representations: ${MEDIA}` },
      { name: 'text/plain on a list', path: CM_PATH, accept: 'text/plain',
        message: `406: Not Acceptable\n\nAvailable representations: ${MEDIA}, application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch` },
      { name: 'an unknown transform', path: `${CM_PATH}/nope`, accept: 'application/json;as=Foo;g=example.com;v=v1',
        message: `only the following media types are accepted: ${MEDIA}` },
      { name: 'text/plain on /api', path: '/api', accept: 'text/plain', message: `406: Not Acceptable\n\nAvailable representations: ${MEDIA}` },
      { name: 'text/plain on /apis (the aggregator\'s handler)', path: '/apis', accept: 'text/plain',
        message: `only the following media types are accepted: ${MEDIA}` },
      { name: 'v2beta1 aggregated discovery is no longer served', path: '/apis/apps', accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
        message: `only the following media types are accepted: ${MEDIA}` },
    ];
    // application/* is no route's bare type; the Status itself is then negotiated as JSON.
    const wildcard = await s.request({ method: 'GET', path: `${CM_PATH}/nope`, headers: { Accept: 'application/*' } });
    assert.equal(wildcard.status, 406);
    assert.equal(wildcard.headers['content-type'], 'application/json');
    assert.equal(asStatus(wildcard.json()).message, `406: Not Acceptable\n\nAvailable representations: ${MEDIA}`);
    for (const c of cases) {
      const r = await s.request({ method: 'GET', path: c.path, headers: { Accept: c.accept } });
      assert.equal(r.status, 406, c.name);
      assert.equal(r.headers['content-type'], 'application/json', c.name);
      // go-restful's errors come through NewGenericServerResponse (empty details), the handlers' without details.
      const details = c.message.startsWith('406: ') ? { details: {} } : {};
      assert.equal(r.text, JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: c.message,
        reason: 'NotAcceptable', ...details, code: 406 }, null, 2), c.name);
    }
  });

  it('discovery is served in protobuf, legacy and aggregated', async () => {
    const cases = [
      { path: '/api', apiVersion: '', kind: 'APIVersions' },
      { path: '/api/v1', apiVersion: '', kind: 'APIResourceList' },
      { path: '/apis', apiVersion: 'v1', kind: 'APIGroupList' },
      { path: '/apis/apps', apiVersion: 'v1', kind: 'APIGroup' },
      { path: '/apis/apps/v1', apiVersion: 'v1', kind: 'APIResourceList' },
    ];
    for (const c of cases) {
      const r = await s.request({ method: 'GET', path: c.path, headers: { Accept: PROTOBUF } });
      assert.equal(r.status, 200, c.path);
      const got = protobufBody(r);
      assert.equal(got.apiVersion, c.apiVersion, c.path);
      assert.equal(got.kind, c.kind, c.path);
      const json = await s.request({ method: 'GET', path: c.path });
      assert.deepEqual({ ...got.obj, kind: c.kind }, json.json(), c.path);
    }
    const aggType = `${PROTOBUF};g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`;
    for (const path of ['/api', '/apis']) {
      // Any clause asking for aggregated discovery wins, even after plain JSON.
      const r = await s.request({ method: 'GET', path, headers: { Accept: `application/json;q=0.9, ${aggType}` } });
      assert.equal(r.status, 200, path);
      const got = protobufBody(r, aggType);
      assert.equal(got.kind, 'APIGroupDiscoveryList', path);
      const json = await s.request({ method: 'GET', path, headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
      const versions = (doc: unknown): unknown => (doc as { items: { versions: unknown }[] }).items.map((i) => i.versions);
      assert.deepEqual(versions(got.obj), versions(json.json()), path);
    }
    const beta = await s.request({ method: 'GET', path: '/api', headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json' } });
    assert.equal((beta.json() as { kind: string }).kind, 'APIVersions');
  });

  it('a PUT whose metadata.uid differs from the stored one fails the storage precondition with 409', async () => {
    const created = await s.request({ method: 'POST', path: CM_PATH, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pa' } }) });
    const uid = (created.json() as { metadata: { uid: string } }).metadata.uid;
    const put = (name: string, extra: Record<string, unknown>): Promise<RawResponse> => s.request({ method: 'PUT', path: `${CM_PATH}/${name}`,
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, uid: 'abc', ...extra }, data: { a: 'b' } }) });
    const conflict = (name: string, objUID: string): unknown => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `Operation cannot be fulfilled on configmaps "${name}": StorageError: invalid object, Code: 4, Key: /registry/configmaps/${NS}/${name}, `
        + `ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: abc, UID in object meta: ${objUID}`,
      reason: 'Conflict', details: { name, kind: 'configmaps' }, code: 409 });
    const r = await put('pa', {});
    assert.equal(r.status, 409, r.text);
    assert.deepEqual(r.json(), conflict('pa', uid));
    // The precondition is checked before validation and before the object is known to be missing.
    assert.deepEqual((await put('pa', { labels: { 'bad key!': 'x' } })).json(), conflict('pa', uid));
    const missing = await put('nothere', {});
    assert.equal(missing.status, 409);
    assert.deepEqual(missing.json(), conflict('nothere', ''));
    const same = await s.request({ method: 'PUT', path: `${CM_PATH}/pa`,
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pa', uid }, data: { a: 'b' } }) });
    assert.equal(same.status, 200, same.text);
  });

  it('patch failures: 422 without causes for a failed operation, 400 with Go\'s decoding texts, 404 first for a missing object', async () => {
    const patch = (name: string, type: string, body: string, query = ''): Promise<RawResponse> =>
      s.request({ method: 'PATCH', path: `${CM_PATH}/${name}${query}`, contentType: `application/${type}+json`, body });
    const rejected = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422 };
    const failing = [
      { name: 'test fails', ops: [{ op: 'test', path: '/data/a', value: 'x' }] },
      { name: 'remove a missing key', ops: [{ op: 'remove', path: '/data/zz' }] },
      { name: 'add under a missing parent', ops: [{ op: 'add', path: '/spec/x/y', value: 1 }] },
      { name: 'move from a missing key', ops: [{ op: 'move', from: '/data/zz', path: '/data/b' }] },
      { name: 'an index past the end', ops: [{ op: 'add', path: '/metadata/finalizers', value: [] }, { op: 'add', path: '/metadata/finalizers/3', value: 'f' }] },
      { name: 'an unknown op', ops: [{ op: 'frob', path: '/data' }] },
    ];
    for (const c of failing) {
      const r = await patch('pa', 'json-patch', JSON.stringify(c.ops));
      assert.equal(r.status, 422, `${c.name}: ${r.text}`);
      assert.deepEqual(r.json(), rejected, c.name);
    }
    // evanphx v4 accepts what a strict RFC 6902 implementation refuses: replace adds a missing key, copy of a missing key copies null.
    const lenient = await patch('pa', 'json-patch', JSON.stringify([{ op: 'replace', path: '/data/new', value: 'n' }, { op: 'test', path: '/data/none', value: null }]));
    assert.equal(lenient.status, 200, lenient.text);
    assert.equal((lenient.json() as { data: Record<string, string> }).data['new'], 'n');

    const bad = [
      { name: 'json patch syntax', type: 'json-patch', body: '[{"op": "add"', message: 'error decoding patch: unexpected end of JSON input' },
      { name: 'json patch object', type: 'json-patch', body: '{}', message: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp' },
      { name: 'json patch object, Ignore', type: 'json-patch', body: '{}', query: '?fieldValidation=Ignore', message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' },
      { name: 'merge patch syntax', type: 'merge-patch', body: '{bad}', message: "error decoding patch: invalid character 'b' looking for beginning of object key string" },
      { name: 'merge patch array', type: 'merge-patch', body: '[1]', message: 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}' },
      { name: 'merge patch syntax, Ignore', type: 'merge-patch', body: '{bad}', query: '?fieldValidation=Ignore', message: 'Invalid JSON Patch' },
      { name: 'strategic merge patch syntax', type: 'strategic-merge-patch', body: '{bad}', message: "invalid character 'b' looking for beginning of object key string" },
    ];
    for (const c of bad) {
      const r = await patch('pa', c.type, c.body, c.query);
      assert.equal(r.status, 400, `${c.name}: ${r.text}`);
      assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: c.message, reason: 'BadRequest', code: 400 }, c.name);
    }
    assert.equal((await patch('nothere', 'merge-patch', '{bad}')).status, 404);
    const media = await s.request({ method: 'PATCH', path: `${CM_PATH}/pa`, contentType: 'text/plain', body: '{}' });
    assert.equal(media.status, 415);
    assert.deepEqual(media.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: '415: Unsupported Media Type',
      reason: 'UnsupportedMediaType', details: {}, code: 415 });
  });

  it('a method no route has is a 405 with empty details, as go-restful\'s error handler sends it', async () => {
    const r = await s.request({ method: 'DELETE', path: '/api/v1/nodes/n1/status' });
    assert.equal(r.status, 405);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 });
  });
});
