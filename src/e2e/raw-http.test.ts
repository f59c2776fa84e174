// Bad input over raw HTTPS is refused with kube-apiserver's Status and never stored: malformed JSON,
// a body whose kind does not match the endpoint, an invalid name, an oversized body, no credentials,
// timestamps that metav1.Time or MicroTime cannot parse.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { asStatus } from './testing/https-client.ts';
import { ownConfigMaps } from './testing/objects.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-raw';
const CM_PATH = `/api/v1/namespaces/${NS}/configmaps`;

interface List { metadata: { resourceVersion: string }; items: { metadata: { name: string } }[] }

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
    const r = await s.request({ method: 'POST', path: '/api/v1/namespaces',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }) });
    assert.equal(r.status, 201, r.text);
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
});
