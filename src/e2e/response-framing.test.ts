// Response framing over raw HTTPS, as kube-apiserver writes it: JSON ends with Go's encoder
// newline, and is indented (without the newline) for ?pretty=true, Accept's pretty=1 and
// curl/Wget/browser user agents; Go's HTML escaping; Cache-Control and Audit-Id on every class of
// answer (objects, lists, Tables, watch, discovery, errors, 404s, health, OpenAPI); `GET /` lists
// the served paths; a path no handler claims is Go's plain-text 404 unless go-restful owns it;
// YAML strings are quoted and folded as go-yaml does.
// Where the oracle (a real kube-apiserver) is cached, the same requests are compared with it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const CURL = { 'User-Agent': 'curl/8.5.0' };
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const NS_PATH = '/api/v1/namespaces/default';

type Framing = 'compact' | 'pretty' | 'watch' | 'text' | 'yaml' | 'raw';

interface Case {
  readonly name: string;
  readonly req: RawRequest;
  readonly status: number;
  readonly contentType: string;
  readonly framing: Framing;
  /** Default "no-cache, private". */
  readonly cacheControl?: string;
}

/** How a body is framed: Encode's compact line, MarshalIndent's layout, a stream of lines, or other. */
function framingOf(r: RawResponse): Framing {
  const ct = String(r.headers['content-type'] ?? '');
  if (ct.startsWith('text/plain')) return 'text';
  if (ct.startsWith('application/yaml')) return 'yaml';
  if (!ct.startsWith('application/json')) return 'raw';
  const lines = r.text.split('\n');
  if (r.text.startsWith('{\n  "') || r.text.startsWith('{\n}')) return r.text.endsWith('}') ? 'pretty' : 'raw';
  if (r.text.endsWith('\n') && lines.slice(0, -1).every((l) => l.startsWith('{"type":'))) return 'watch';
  if (r.text.endsWith('\n') && lines.length === 2) return 'compact';
  return 'raw';
}

const cases: readonly Case[] = [
  { name: 'an object', req: { method: 'GET', path: NS_PATH }, status: 200, contentType: 'application/json', framing: 'compact' },
  { name: 'a list', req: { method: 'GET', path: '/api/v1/namespaces' }, status: 200, contentType: 'application/json', framing: 'compact' },
  { name: 'a NotFound Status', req: { method: 'GET', path: '/api/v1/namespaces/nope' }, status: 404, contentType: 'application/json', framing: 'compact' },
  { name: '?pretty=true', req: { method: 'GET', path: `${NS_PATH}?pretty=true` }, status: 200, contentType: 'application/json', framing: 'pretty' },
  { name: '?pretty=1 on a list', req: { method: 'GET', path: '/api/v1/namespaces?pretty=1' }, status: 200, contentType: 'application/json', framing: 'pretty' },
  { name: '?pretty=True on an error', req: { method: 'GET', path: '/api/v1/namespaces/nope?pretty=True' }, status: 404, contentType: 'application/json', framing: 'pretty' },
  { name: 'curl', req: { method: 'GET', path: NS_PATH, headers: CURL }, status: 200, contentType: 'application/json', framing: 'pretty' },
  { name: 'Wget', req: { method: 'GET', path: NS_PATH, headers: { 'User-Agent': 'Wget/1.21.4' } }, status: 200, contentType: 'application/json', framing: 'pretty' },
  { name: 'a browser', req: { method: 'GET', path: NS_PATH, headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64)' } }, status: 200, contentType: 'application/json', framing: 'pretty' },
  { name: 'an old browser', req: { method: 'GET', path: NS_PATH, headers: { 'User-Agent': 'Mozilla/4.0' } }, status: 200, contentType: 'application/json', framing: 'compact' },
  { name: 'curl with ?pretty=false', req: { method: 'GET', path: `${NS_PATH}?pretty=false`, headers: CURL }, status: 200, contentType: 'application/json', framing: 'compact' },
  { name: 'curl with ?pretty=yes (no boolean)', req: { method: 'GET', path: `${NS_PATH}?pretty=yes`, headers: CURL }, status: 200, contentType: 'application/json', framing: 'compact' },
  { name: 'curl with an empty ?pretty=', req: { method: 'GET', path: `${NS_PATH}?pretty=`, headers: CURL }, status: 200, contentType: 'application/json', framing: 'pretty' },
  { name: 'Accept pretty=1', req: { method: 'GET', path: NS_PATH, headers: { Accept: 'application/json;pretty=1' } }, status: 200, contentType: 'application/json', framing: 'pretty' },
  { name: 'Accept pretty=true is not pretty', req: { method: 'GET', path: NS_PATH, headers: { Accept: 'application/json;pretty=true' } }, status: 200, contentType: 'application/json', framing: 'compact' },
  { name: 'YAML ignores pretty', req: { method: 'GET', path: `${NS_PATH}?pretty=true`, headers: { Accept: 'application/yaml' } }, status: 200, contentType: 'application/yaml', framing: 'yaml' },
  { name: 'a Table', req: { method: 'GET', path: '/api/v1/namespaces', headers: { Accept: TABLE } }, status: 200, contentType: 'application/json', framing: 'compact' },
  { name: 'a Table, pretty', req: { method: 'GET', path: '/api/v1/namespaces?pretty=1', headers: { Accept: TABLE } }, status: 200, contentType: 'application/json', framing: 'pretty' },
  { name: 'PartialObjectMetadata', req: { method: 'GET', path: NS_PATH, headers: { Accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' } }, status: 200, contentType: 'application/json', framing: 'compact' },
  { name: 'PartialObjectMetadataList', req: { method: 'GET', path: '/api/v1/namespaces', headers: { Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' } }, status: 200, contentType: 'application/json', framing: 'compact' },
  { name: 'a watch is never pretty', req: { method: 'GET', path: '/api/v1/watch/namespaces/default?timeoutSeconds=1&pretty=1', headers: CURL }, status: 200, contentType: 'application/json', framing: 'watch' },
  { name: 'a watch has no YAML form', req: { method: 'GET', path: '/api/v1/namespaces?watch=1&timeoutSeconds=1', headers: { Accept: 'application/yaml' } }, status: 406, contentType: 'application/yaml', framing: 'yaml' },
  { name: 'legacy discovery /api', req: { method: 'GET', path: '/api' }, status: 200, contentType: 'application/json', framing: 'compact' },
  { name: 'legacy discovery of a group', req: { method: 'GET', path: '/apis/apps' }, status: 200, contentType: 'application/json', framing: 'compact' },
  { name: 'legacy discovery of a group version, curl', req: { method: 'GET', path: '/apis/apps/v1', headers: CURL }, status: 200, contentType: 'application/json', framing: 'pretty' },
  { name: 'aggregated discovery', req: { method: 'GET', path: '/apis', headers: { Accept: AGGREGATED } }, status: 200, contentType: AGGREGATED, framing: 'compact', cacheControl: 'public' },
  { name: '/version, always indented', req: { method: 'GET', path: '/version' }, status: 200, contentType: 'application/json', framing: 'pretty' },
  { name: 'POST /version', req: { method: 'POST', path: '/version', body: '{}' }, status: 405, contentType: 'application/json', framing: 'compact' },
  { name: 'the index', req: { method: 'GET', path: '/' }, status: 200, contentType: 'application/json', framing: 'pretty' },
  { name: '/healthz', req: { method: 'GET', path: '/healthz' }, status: 200, contentType: 'text/plain; charset=utf-8', framing: 'text' },
  { name: '/readyz?verbose', req: { method: 'GET', path: '/readyz?verbose' }, status: 200, contentType: 'text/plain; charset=utf-8', framing: 'text' },
  { name: '/healthz/ is no path', req: { method: 'GET', path: '/healthz/' }, status: 404, contentType: 'text/plain; charset=utf-8', framing: 'text' },
  { name: 'no credentials', req: { method: 'GET', path: '/api/v1/namespaces', auth: false }, status: 401, contentType: 'application/json', framing: 'compact' },
  { name: 'no credentials, curl', req: { method: 'GET', path: '/api', auth: false, headers: CURL }, status: 401, contentType: 'application/json', framing: 'pretty' },
  { name: 'a method the route lacks', req: { method: 'PUT', path: '/api/v1/namespaces', body: '{}' }, status: 405, contentType: 'application/json', framing: 'compact' },
  { name: 'no acceptable media type: raw indented JSON', req: { method: 'GET', path: NS_PATH, headers: { Accept: 'text/html' } }, status: 406, contentType: 'application/json', framing: 'pretty' },
  { name: 'an unknown top-level path', req: { method: 'GET', path: '/nope' }, status: 404, contentType: 'text/plain; charset=utf-8', framing: 'text' },
  { name: 'an unknown group', req: { method: 'GET', path: '/apis/nope.example.com/v1' }, status: 404, contentType: 'text/plain; charset=utf-8', framing: 'text' },
  { name: 'an unknown version of a built-in group', req: { method: 'GET', path: '/apis/apps/v2' }, status: 404, contentType: 'application/json', framing: 'compact' },
  { name: 'an unknown core path', req: { method: 'GET', path: '/api/v1/nope' }, status: 404, contentType: 'application/json', framing: 'compact' },
  { name: '/openapi/v2', req: { method: 'GET', path: '/openapi/v2' }, status: 200, contentType: 'application/json', framing: 'raw' },
];

describe('response framing and headers', () => {
  let s: Suite;
  before(async () => { s = await startSuite(); });
  after(async () => { await s?.close(); });

  for (const c of cases) {
    it(c.name, async () => {
      const r = await s.request(c.req);
      assert.equal(r.status, c.status, r.text.slice(0, 300));
      assert.equal(r.headers['content-type'], c.contentType);
      assert.equal(framingOf(r), c.framing, JSON.stringify(r.text.slice(0, 120)));
      assert.equal(r.headers['cache-control'], c.cacheControl ?? 'no-cache, private');
      assert.match(String(r.headers['audit-id']), /^[0-9a-f-]{36}$/);
      if (c.framing === 'text' && c.status === 404) assert.equal(r.text, '404 page not found\n');
    });
  }

  it('escapes <, >, & and U+2028/U+2029 as Go does, in objects, lists, watch events and errors', async () => {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'html' }, data: { a: '<b>&\u2028\u2029' } });
    const want = '"a":"\\u003cb\\u003e\\u0026\\u2028\\u2029"';
    const created = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body });
    assert.equal(created.status, 201, created.text);
    assert.ok(created.text.includes(want), created.text);
    const list = await s.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps?fieldSelector=metadata.name%3Dhtml' });
    assert.ok(list.text.includes(want), list.text);
    const watch = await s.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dhtml' });
    assert.ok(watch.text.includes(want), watch.text);
    const invalid = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c<&>' } }) });
    assert.equal(invalid.status, 422);
    assert.ok(invalid.text.includes('ConfigMap \\"c\\u003c\\u0026\\u003e\\" is invalid'), invalid.text);
  });

  it('YAML quotes what go-yaml would read back as another type (booleans, timestamps, numbers)', async () => {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'yaml-quoting' }, data: YAML_DATA });
    assert.equal((await s.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body })).status, 201);
    const r = await s.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/yaml-quoting', headers: { Accept: 'application/yaml' } });
    assert.equal(r.status, 200, r.text);
    assert.match(r.text, /\n {2}creationTimestamp: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"\n/);
    assert.equal(yamlDataBlock(r.text), 'data:\n  date: "2026-01-01"\n  hex: "0x1F"\n  indicator: \'- x\'\n  "n": "no"\n  "on": "yes"\n  tab: "a\\tb"\n');
  });

  it('a watch asking for YAML only is refused with the stream media types, the Status in YAML', async () => {
    const r = await s.request({ method: 'GET', path: '/api/v1/namespaces?watch=1&timeoutSeconds=1', headers: { Accept: 'application/yaml' } });
    assert.equal(r.status, 406);
    assert.equal(r.text, 'apiVersion: v1\ncode: 406\nkind: Status\nmessage: \'only the following media types are accepted: application/json;stream=watch,\n' +
      '  application/vnd.kubernetes.protobuf;stream=watch\'\nmetadata: {}\nreason: NotAcceptable\nstatus: Failure\n');
  });

  it('health checks warn about excluded names that match no check', async () => {
    const r = await s.request({ method: 'GET', path: '/livez?verbose&exclude=etcd&exclude=nope2&exclude=nope' });
    assert.equal(r.status, 200);
    assert.match(r.text, /\n\[\+\]etcd excluded: ok\n/);
    assert.match(r.text, /\nwarn: some health checks cannot be excluded: no matches for "nope","nope2"\nlivez check passed\n$/);
  });

  it('kubectl get --raw prints the bytes: the index, indented JSON for ?pretty=true, Encode\'s newline otherwise', async () => {
    const index = await s.kubectl(['get', '--raw', '/']);
    assert.equal(index.code, 0, index.stderr);
    assert.equal(index.stdout, (await s.request({ method: 'GET', path: '/' })).text);
    const pretty = await s.kubectl(['get', '--raw', `${NS_PATH}?pretty=true`]);
    // kind first, as Go's TypeMeta.
    assert.match(pretty.stdout, /^\{\n {2}"kind": "Namespace",\n {2}"apiVersion": "v1",\n/);
    assert.match(pretty.stdout, /\n\}$/);
    const compact = await s.kubectl(['get', '--raw', NS_PATH]);
    assert.match(compact.stdout, /^\{"kind":"Namespace","apiVersion":"v1",.*\}\n$/);
    const missing = await s.kubectl(['get', '--raw', '/nope']);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'Error from server (NotFound): the server could not find the requested resource\n');
  });

  it('aggregated discovery carries an ETag and answers 304 to If-None-Match', async () => {
    const first = await s.request({ method: 'GET', path: '/apis', headers: { Accept: AGGREGATED } });
    const etag = String(first.headers['etag']);
    assert.match(etag, /^"[0-9A-F]{128}"$/);
    assert.equal(first.headers['vary'], 'Accept');
    const again = await s.request({ method: 'GET', path: '/apis', headers: { Accept: AGGREGATED, 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    assert.equal(again.headers['etag'], etag);
    // Only aggregated discovery varies by Accept.
    const legacy = await s.request({ method: 'GET', path: '/apis' });
    assert.equal(legacy.headers['vary'], undefined);
  });

  it('GET / lists every group version, health check and non-resource path, each of which is served', async () => {
    const r = await s.request({ method: 'GET', path: '/' });
    const paths = (r.json() as { paths: string[] }).paths;
    assert.deepEqual(paths, [...paths].sort());
    for (const p of ['/api', '/api/v1', '/apis', '/apis/', '/apis/apps', '/apis/apps/v1', '/healthz', '/healthz/etcd', '/livez/ping',
      '/readyz/shutdown', '/openapi/v2', '/openapi/v3', '/version']) {
      assert.ok(paths.includes(p), `${p} not listed`);
    }
    assert.ok(!paths.includes('/healthz/shutdown'), 'shutdown is a readiness check only');
    for (const p of paths.filter((x) => !x.endsWith('/'))) {
      // The key set is a go-restful route producing application/jwk-set+json only: Accept: application/json gets 406, as in kube.
      const got = await s.request({ method: 'GET', path: p, ...(p === '/openid/v1/jwks' ? { headers: { Accept: '*/*' } } : {}) });
      assert.equal(got.status, 200, `${p}: ${got.text.slice(0, 200)}`);
    }
  });
});

const YAML_DATA = { on: 'yes', n: 'no', date: '2026-01-01', hex: '0x1F', indicator: '- x', tab: 'a\tb' };

/** The `data:` block of a YAML ConfigMap. */
function yamlDataBlock(text: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf('data:');
  const end = lines.findIndex((l, i) => i > start && !l.startsWith(' '));
  return `${lines.slice(start, end).join('\n')}\n`;
}

/** kube's index paths kapi does not list, because it does not serve them (or has no such check). */
const UNSERVED = /^\/(metrics(\/slis)?|statusz|flagz|(healthz|livez|readyz)\/.+)$/;

describe('response framing against the reference kube-apiserver', { skip: oracleUnavailable() ?? false }, () => {
  let kapi: Suite;
  let oracle: Oracle;
  before(async () => {
    const [k, o] = await Promise.allSettled([startSuite(), startOracle()]);
    if (k.status === 'fulfilled') kapi = k.value;
    if (o.status === 'fulfilled') oracle = o.value;
    if (k.status === 'rejected') throw k.reason;
    if (o.status === 'rejected') throw o.reason;
  });
  after(async () => { await Promise.allSettled([kapi?.close(), oracle?.stop()]); });

  it('every case is framed alike: status, Content-Type, Cache-Control, Audit-Id, newline and indentation', async () => {
    const differences: string[] = [];
    for (const c of cases.filter((x) => x.framing !== 'raw')) {
      const [k, o] = [await kapi.request(c.req), await oracle.request(c.req)];
      const view = (r: RawResponse): string => JSON.stringify({
        status: r.status, contentType: r.headers['content-type'], cacheControl: r.headers['cache-control'],
        auditId: r.headers['audit-id'] !== undefined, framing: framingOf(r),
      });
      if (view(k) !== view(o)) differences.push(`${c.name}: kapi ${view(k)}, kube ${view(o)}`);
    }
    assert.deepEqual(differences, []);
  });

  it('YAML strings are quoted and folded alike', async () => {
    const words = (n: number): string => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
    const data = { ...YAML_DATA, long: words(40), quoted: `${words(20)}: it's ${words(10)}`, emoji: '\u{1F600} x' };
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'yaml-folding' }, data });
    const blocks: string[] = [];
    for (const server of [kapi, oracle]) {
      assert.equal((await server.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body })).status, 201);
      const r = await server.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/yaml-folding', headers: { Accept: 'application/yaml' } });
      blocks.push(yamlDataBlock(r.text));
    }
    assert.equal(blocks[0], blocks[1]);
  });

  it('aggregated discovery of the core group is the same document; group entries and response kinds alike in /apis', async () => {
    const get = async (server: Suite | Oracle, path: string): Promise<unknown> =>
      (await server.request({ method: 'GET', path, headers: { Accept: AGGREGATED } })).json();
    assert.deepEqual(await get(kapi, '/api'), await get(oracle, '/api'));
    // Group order and a few resources differ elsewhere; what each entry carries besides must not.
    interface Doc { items: { metadata: unknown; versions: { resources: { resource: string; responseKind: unknown; subresources?: { responseKind: unknown }[] }[] }[] }[] }
    const kinds = (d: Doc): Map<string, string> => new Map(d.items.flatMap((g) => g.versions.flatMap((v) => v.resources.map((r) =>
      [`${JSON.stringify(g.metadata)} ${r.resource}`, JSON.stringify([r.responseKind, ...(r.subresources ?? []).map((x) => x.responseKind)])] as const))));
    const [k, o] = [kinds(await get(kapi, '/apis') as Doc), kinds(await get(oracle, '/apis') as Doc)];
    assert.deepEqual([...k].filter(([key, v]) => o.has(key) && o.get(key) !== v), []);
  });

  it('GET / lists the same group versions; kube lists more only for what kapi does not serve', async () => {
    const list = async (r: Promise<RawResponse>): Promise<string[]> => ((await r).json() as { paths: string[] }).paths;
    const [k, o] = [await list(kapi.request({ method: 'GET', path: '/' })), await list(oracle.request({ method: 'GET', path: '/' }))];
    const api = (ps: string[]): string[] => ps.filter((p) => /^\/apis?(\/|$)/.test(p));
    assert.deepEqual(api(k), api(o));
    assert.deepEqual(o.filter((p) => !k.includes(p) && !UNSERVED.test(p)), []);
    // kapi's own extra: it bootstraps RBAC roles whatever the authorizer (the oracle runs AlwaysAllow).
    assert.deepEqual(k.filter((p) => !o.includes(p) && !/^\/(healthz|livez|readyz)\/poststarthook\/rbac\/bootstrap-roles$/.test(p)), []);
  });
});
