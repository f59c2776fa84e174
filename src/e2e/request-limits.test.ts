// Hostile sizes, query parameters, paths and media types over raw HTTPS, answered as
// kube-apiserver v1.36 answers them: Go's header limit (1 MiB, then a plain 431), strconv's texts
// for numeric options (400), names "." and ".." (400, never another resource), Content-Types
// mime.ParseMediaType refuses (415), reads at a future resourceVersion (504 after kube's 3 s
// wait), and objects beyond etcd's request limit (refused before any backend is called).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:tls';
import { asStatus, type AdminCredentials, type RawResponse } from './testing/https-client.ts';
import { createNamespace, ownConfigMaps } from './testing/objects.ts';
import { startSuite, type Suite } from './testing/suite.ts';
import { openWatch } from './testing/watch-stream.ts';

const NS = 'e2e-limits';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const TEMPLATES = `/api/v1/namespaces/${NS}/podtemplates`;

interface List { metadata: { resourceVersion: string }; items: { metadata: { name: string } }[] }

/** One raw HTTP/1.1 exchange on its own TLS connection: what the server wrote before it closed. */
function rawExchange(creds: AdminCredentials, request: string): Promise<string> {
  const url = new URL(creds.server);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: creds.ca, servername: 'localhost' });
    const chunks: Buffer[] = [];
    socket.on('secureConnect', () => socket.end(request));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

const configMap = (name: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });

/** A PodTemplate whose one env value holds `bytes` bytes: no validation bounds its size. */
const podTemplate = (name: string, bytes: number): Record<string, unknown> => ({
  apiVersion: 'v1', kind: 'PodTemplate', metadata: { name },
  template: { spec: { containers: [{ name: 'c', image: 'busybox', env: [{ name: 'BIG', value: 'x'.repeat(bytes) }] }] } },
});

function expectStatus(r: RawResponse, code: number, reason: string, message: string | RegExp, what: string): void {
  assert.equal(r.status, code, `${what}: ${r.text.slice(0, 400)}`);
  const st = asStatus(r.json());
  assert.equal(st.kind, 'Status', what);
  assert.equal(st.code, code, what);
  assert.equal(st.reason ?? '', reason, what);
  if (typeof message === 'string') assert.equal(st.message, message, what);
  else assert.match(String(st.message), message, what);
}

/** The object-size cases, run on the embedded store and on etcd. */
function objectSizeCases(suite: () => Suite): void {
  const tooLarge = (r: RawResponse, what: string): void =>
    expectStatus(r, 500, '', 'etcdserver: request is too large', what);

  it('an object beyond etcd\'s 1.5 MiB request limit is refused on every write path; nothing is stored', async () => {
    const s = suite();
    const big = 1.6 * 1024 * 1024;
    const names = async (): Promise<string[]> => {
      const r = await s.request({ method: 'GET', path: TEMPLATES });
      assert.equal(r.status, 200, r.text);
      return (r.json() as List).items.map((i) => i.metadata.name).sort();
    };
    tooLarge(await s.request({ method: 'POST', path: TEMPLATES, body: JSON.stringify(podTemplate('huge', big)) }), 'create');
    tooLarge(await s.request({ method: 'PATCH', path: `${TEMPLATES}/huge-apply?fieldManager=t`, contentType: 'application/apply-patch+yaml',
      body: JSON.stringify(podTemplate('huge-apply', big)) }), 'apply create');
    assert.deepEqual(await names(), []);

    const created = await s.request({ method: 'POST', path: TEMPLATES, body: JSON.stringify(podTemplate('small', 10)) });
    assert.equal(created.status, 201, created.text);
    const rv = (created.json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const updated = podTemplate('small', big);
    (updated['metadata'] as Record<string, unknown>)['resourceVersion'] = rv;
    tooLarge(await s.request({ method: 'PUT', path: `${TEMPLATES}/small`, body: JSON.stringify(updated) }), 'update');
    tooLarge(await s.request({ method: 'PATCH', path: `${TEMPLATES}/small`, contentType: 'application/merge-patch+json',
      body: JSON.stringify({ template: podTemplate('small', big)['template'] }) }), 'merge patch');
    tooLarge(await s.request({ method: 'PATCH', path: `${TEMPLATES}/small?fieldManager=t&force=true`,
      contentType: 'application/apply-patch+yaml', body: JSON.stringify(podTemplate('small', big)) }), 'apply');
    const kept = await s.request({ method: 'GET', path: `${TEMPLATES}/small` });
    assert.equal(kept.status, 200, kept.text);
    assert.equal((kept.json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion, rv);

    // Under the limit is stored, on both backends.
    const fits = await s.request({ method: 'POST', path: TEMPLATES, body: JSON.stringify(podTemplate('fits', 1.4 * 1024 * 1024)) });
    assert.equal(fits.status, 201, fits.text.slice(0, 400));
    assert.deepEqual(await names(), ['fits', 'small']);
    // As kube, a create that is too large only with its managedFields is stored without them.
    const data = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${String(i).padStart(5, '0')}`, 'x'.repeat(16)]));
    const many = await s.request({ method: 'POST', path: CMS,
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'many-keys' }, data }) });
    assert.equal(many.status, 201, many.text.slice(0, 400));
    assert.equal((many.json() as { metadata: { managedFields?: unknown } }).metadata.managedFields, undefined);
    assert.equal((await s.request({ method: 'DELETE', path: `${CMS}/many-keys` })).status, 200);
    // The server is healthy and the collection can be deleted.
    assert.equal((await s.request({ method: 'DELETE', path: TEMPLATES })).status, 200);
    assert.equal((await s.request({ method: 'GET', path: '/readyz' })).status, 200);
  });
}

describe('request limits on the embedded store', () => {
  let s: Suite;
  before(async () => {
    s = await startSuite({ backend: 'sqlite' });
    await createNamespace(s, NS);
    assert.equal((await s.request({ method: 'POST', path: CMS, body: configMap('one') })).status, 201);
  });
  after(async () => { await s?.close(); });

  it('numeric query parameters are parsed as strconv.ParseInt(s, 10, 64) with its 400 texts', async () => {
    const bad = (v: string, why = 'invalid syntax'): string => `strconv.ParseInt: parsing ${JSON.stringify(v)}: ${why}`;
    const cases = [
      { name: 'limit with an exponent', method: 'GET', path: `${CMS}?limit=1e30`, message: bad('1e30') },
      { name: 'limit beyond int64', method: 'GET', path: `${CMS}?limit=99999999999999999999`, message: bad('99999999999999999999', 'value out of range') },
      { name: 'limit hex', method: 'GET', path: `${CMS}?limit=0x10`, message: bad('0x10') },
      { name: 'empty limit', method: 'GET', path: `${CMS}?limit=`, message: bad('') },
      { name: 'timeoutSeconds float', method: 'GET', path: `${CMS}?timeoutSeconds=1.5`, message: bad('1.5') },
      { name: 'timeoutSeconds before limit', method: 'GET', path: `${CMS}?limit=x&timeoutSeconds=y`, message: bad('y') },
      { name: 'watch timeoutSeconds', method: 'GET', path: `${CMS}?watch=1&timeoutSeconds=abc`, message: bad('abc') },
      { name: 'gracePeriodSeconds', method: 'DELETE', path: `${CMS}/one?gracePeriodSeconds=1.5`, message: bad('1.5') },
      { name: 'pod log tailLines', method: 'GET', path: `/api/v1/namespaces/${NS}/pods/p/log?tailLines=ten`, message: bad('ten') },
      { name: 'pod log limitBytes', method: 'GET', path: `/api/v1/namespaces/${NS}/pods/p/log?limitBytes=1e3`, message: bad('1e3') },
      { name: 'portforward ports', method: 'GET', path: `/api/v1/namespaces/${NS}/pods/p/portforward?ports=80,http`,
        message: 'cannot convert to []int32: strconv.ParseUint: parsing "http": invalid syntax' },
      { name: 'portforward port beyond 16 bits', method: 'GET', path: `/api/v1/namespaces/${NS}/pods/p/portforward?ports=65536`,
        message: 'cannot convert to []int32: strconv.ParseUint: parsing "65536": value out of range' },
      { name: 'pod log sinceTime', method: 'GET', path: `/api/v1/namespaces/${NS}/pods/p/log?sinceTime=yesterday`,
        message: 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"' },
    ];
    for (const c of cases) expectStatus(await s.request({ method: c.method, path: c.path }), 400, 'BadRequest', c.message, c.name);
    // A DeleteOptions body is typed as Go's decoder types it.
    const unmarshal = (what: string, field: string, type: string): string =>
      `json: cannot unmarshal ${what} into Go struct field DeleteOptions.${field} of type ${type}`;
    const bodies = [
      { name: 'string grace period', body: '{"gracePeriodSeconds":"5"}', message: unmarshal('string', 'gracePeriodSeconds', 'int64') },
      { name: 'fractional grace period', body: '{"gracePeriodSeconds":1.5}', message: unmarshal('number 1.5', 'gracePeriodSeconds', 'int64') },
      { name: 'dryRun not a list', body: '{"dryRun":"All"}', message: unmarshal('string', 'dryRun', '[]string') },
      { name: 'numeric policy', body: '{"propagationPolicy":1}', message: unmarshal('number', 'propagationPolicy', 'v1.DeletionPropagation') },
      { name: 'string orphan', body: '{"orphanDependents":"yes"}', message: unmarshal('string', 'orphanDependents', 'bool') },
      { name: 'numeric uid', body: '{"preconditions":{"uid":5}}', message: unmarshal('number', 'preconditions.uid', 'types.UID') },
    ];
    for (const b of bodies) {
      expectStatus(await s.request({ method: 'DELETE', path: `${CMS}/one`, body: b.body }), 400, 'BadRequest', b.message, b.name);
    }
    // Nothing was deleted.
    assert.equal((await s.request({ method: 'GET', path: `${CMS}/one` })).status, 200);
  });

  it('in-range numbers are served: the largest int64 limit, a negative limit (no limit), a signed one', async () => {
    for (const q of ['limit=9223372036854775807', 'limit=-1', 'limit=%2B5', 'limit=0005', 'timeoutSeconds=-5']) {
      const r = await s.request({ method: 'GET', path: `${CMS}?${q}` });
      assert.equal(r.status, 200, `${q}: ${r.text}`);
      assert.deepEqual(ownConfigMaps((r.json() as List).items.map((i) => i.metadata.name)), ['one'], q);
    }
  });

  it('pod log options out of range are a 422 PodLogOptions before the pod is read', async () => {
    const r = await s.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/pods/p/log?tailLines=-1&limitBytes=0` });
    expectStatus(r, 422, 'Invalid', 'PodLogOptions "p" is invalid: [tailLines: Invalid value: -1: must be greater than or equal to 0, '
      + 'limitBytes: Invalid value: 0: must be greater than 0]', 'log options');
  });

  it('boolean query parameters are true unless "false" or "0", as Go converts them', async () => {
    const w = await openWatch(s.creds, `${CMS}?watch=yes&allowWatchBookmarks=yes&timeoutSeconds=1`);
    try {
      assert.equal(w.status, 200);
      await w.waitEnded('watch with timeoutSeconds=1');
      assert.deepEqual(ownConfigMaps(w.events().filter((e) => e.type === 'ADDED').map((e) => e.object.metadata?.name ?? '')), ['one']);
    } finally {
      w.stop();
    }
  });

  it('names "." and ".." are refused with 400, never resolved to another resource', async () => {
    const cases = [
      { name: '..', path: `${CMS}/..`, message: 'Name parameter invalid: "..": may not be \'..\'' },
      { name: 'encoded ..', path: `${CMS}/%2e%2e`, message: 'Name parameter invalid: "..": may not be \'..\'' },
      { name: '.', path: `${CMS}/.`, message: 'Name parameter invalid: ".": may not be \'.\'' },
      { name: 'encoded %', path: `${CMS}/a%25b`, message: 'Name parameter invalid: "a%b": may not contain \'%\'' },
      { name: 'namespace ..', path: '/api/v1/namespaces/..', message: 'Name parameter invalid: "..": may not be \'..\'' },
    ];
    for (const c of cases) {
      expectStatus(await s.request({ method: 'GET', path: c.path }), 400, 'BadRequest', c.message, c.name);
      expectStatus(await s.request({ method: 'DELETE', path: c.path }), 400, 'BadRequest', c.message, `${c.name} delete`);
    }
    // An encoded slash is a path separator, as in Go's URL.Path: "a/b" is an unknown subresource.
    expectStatus(await s.request({ method: 'GET', path: `${CMS}/a%2Fb` }), 404, 'NotFound', 'the server could not find the requested resource', '%2F');
    // Escapes are decoded: "%6Fne" is "one".
    assert.equal((await s.request({ method: 'GET', path: `${CMS}/%6Fne` })).status, 200);
    assert.equal((await s.request({ method: 'GET', path: `/api/v1/namespaces/${NS}` })).status, 200);
  });

  it('a request target Go cannot parse is a plain 400, and odd targets never stop the server', async () => {
    const bad = await rawExchange(s.creds, `GET ${CMS}/%zz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.creds.token}\r\n\r\n`);
    assert.match(bad, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(bad, /\r\n\r\n400 Bad Request$/);
    const odd = await rawExchange(s.creds, `GET //[ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.creds.token}\r\n\r\n`);
    assert.match(odd, /^HTTP\/1\.1 404 /);
    assert.equal((await s.request({ method: 'GET', path: '/readyz' })).status, 200);
  });

  it('a Content-Type mime.ParseMediaType refuses is a 415 and stores nothing; parameters are not read', async () => {
    const refused = [';;;', 'application/json; foo', 'application/json;;', 'application/json; a=1; a=2', 'application/json/x', '/json'];
    for (const ct of refused) {
      expectStatus(await s.request({ method: 'POST', path: CMS, body: configMap('typed'), contentType: ct }), 415, 'UnsupportedMediaType',
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf', ct);
    }
    assert.equal((await s.request({ method: 'GET', path: `${CMS}/typed` })).status, 404);
    const accepted = [
      { ct: 'application/json; charset=latin1', name: 'charset' },
      { ct: 'application/json;', name: 'trailing-semicolon' },
      { ct: 'APPLICATION/JSON ; a="b;c"', name: 'quoted' },
    ];
    for (const a of accepted) {
      const r = await s.request({ method: 'POST', path: CMS, body: configMap(a.name), contentType: a.ct });
      assert.equal(r.status, 201, `${a.ct}: ${r.text}`);
    }
    // A DeleteOptions body is negotiated the same way.
    const del = await s.request({ method: 'DELETE', path: `${CMS}/charset`, body: '{}', contentType: ';;;' });
    assert.equal(del.status, 415, del.text);
    assert.equal((await s.request({ method: 'GET', path: `${CMS}/charset` })).status, 200);
  });

  it('headers up to Go\'s 1 MiB are served; beyond, Go\'s plain 431', async () => {
    const selector = Array.from({ length: 10_000 }, (_, i) => `k${i}=v`).join(',');
    const long = await s.request({ method: 'GET', path: `${CMS}?labelSelector=${selector}` });
    assert.equal(long.status, 200, long.text.slice(0, 300));
    assert.deepEqual((long.json() as List).items, []);
    const token = await s.request({ method: 'GET', path: CMS, auth: false, headers: { Authorization: `Bearer ${'a'.repeat(64 * 1024)}` } });
    expectStatus(token, 401, 'Unauthorized', 'Unauthorized', '64 KiB token');
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`X-H${i}`, 'v']));
    assert.equal((await s.request({ method: 'GET', path: CMS, headers: many })).status, 200);

    const huge = await rawExchange(s.creds, `GET ${CMS} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(1024 * 1024 + 8192)}\r\n\r\n`);
    assert.equal(huge, 'HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\n'
      + 'Connection: close\r\n\r\n431 Request Header Fields Too Large');
    assert.equal((await s.request({ method: 'GET', path: '/readyz' })).status, 200);
  });

  it('a list or get at a future resourceVersion waits for it, then answers 504 "Too large resource version"', async () => {
    const cur = Number(((await s.request({ method: 'GET', path: CMS })).json() as List).metadata.resourceVersion);
    const ahead = cur + 1000;
    const want = new RegExp(`^Timeout: Too large resource version: ${ahead}, current: \\d+$`);
    for (const q of [`?resourceVersion=${ahead}`, `?resourceVersion=${ahead}&resourceVersionMatch=Exact`, `?resourceVersion=${ahead}&limit=1`]) {
      const r = await s.request({ method: 'GET', path: CMS + q });
      expectStatus(r, 504, 'Timeout', want, q);
      assert.deepEqual(asStatus(r.json()).details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
    }
    expectStatus(await s.request({ method: 'GET', path: `${CMS}/one?resourceVersion=${ahead}` }), 504, 'Timeout', want, 'get');
    // The largest uint64 is named exactly, not as the nearest double.
    expectStatus(await s.request({ method: 'GET', path: `${CMS}?resourceVersion=18446744073709551615` }), 504, 'Timeout',
      /^Timeout: Too large resource version: 18446744073709551615, current: \d+$/, 'max uint64');

    // A revision reached while the list waits is served.
    const next = ((await s.request({ method: 'GET', path: CMS })).json() as List).metadata.resourceVersion;
    const waiting = s.request({ method: 'GET', path: `${CMS}?resourceVersion=${Number(next) + 1}` });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await s.request({ method: 'POST', path: CMS, body: configMap('arrives') })).status, 201);
    const served = await waiting;
    assert.equal(served.status, 200, served.text);
    assert.ok((served.json() as List).items.some((i) => i.metadata.name === 'arrives'));
  });

  it('a watch for initial events at a future resourceVersion ends with one ERROR event (504)', async () => {
    const cur = Number(((await s.request({ method: 'GET', path: CMS })).json() as List).metadata.resourceVersion);
    const w = await openWatch(s.creds, `${CMS}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=${cur + 1000}&allowWatchBookmarks=true`);
    try {
      assert.equal(w.status, 200);
      await w.waitEnded('error watch');
      const events = w.events();
      assert.deepEqual(events.map((e) => e.type), ['ERROR']);
      assert.equal(events[0]?.object.code, 504);
      assert.equal(events[0]?.object.reason, 'Timeout');
    } finally {
      w.stop();
    }
  });

  objectSizeCases(() => s);
});

describe('request limits on etcd', () => {
  let s: Suite;
  before(async () => {
    s = await startSuite({ backend: 'etcd3' });
    await createNamespace(s, NS);
  });
  after(async () => { await s?.close(); });

  objectSizeCases(() => s);
});

describe('request limits on an etcd with a smaller --max-request-bytes', () => {
  let s: Suite;
  before(async () => {
    s = await startSuite({ backend: 'etcd3', etcd: { extraArgs: ['--max-request-bytes', String(256 * 1024)] } });
    await createNamespace(s, NS);
  });
  after(async () => { await s?.close(); });

  it('etcd\'s own refusal is kube\'s answer too, and nothing is stored', async () => {
    const r = await s.request({ method: 'POST', path: TEMPLATES, body: JSON.stringify(podTemplate('over-etcd', 512 * 1024)) });
    expectStatus(r, 500, '', 'etcdserver: request is too large', 'create over etcd\'s limit');
    assert.equal((await s.request({ method: 'GET', path: `${TEMPLATES}/over-etcd` })).status, 404);
    assert.equal((await s.request({ method: 'GET', path: '/readyz' })).status, 200);
  });
});
