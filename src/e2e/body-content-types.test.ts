// Every body a Kubernetes client sends, in each content type kube takes (JSON, YAML and protobuf,
// the last as client-go encodes it: `k8s\0` + runtime.Unknown, here by kapi's own encoder), with
// the answer asked for in the same type: every served creatable resource (api/all=true) is
// created, its updatable subresources (status, scale, approval...) written back, and it is
// deleted with a DeleteOptions body, once per type; the three runs must give the same objects.
// Then the subresources that take other kinds (Eviction, Binding, TokenRequest) and bodies of
// another group version, whose 400 text is kube's.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYAML, stringify as toYAML } from 'yaml';
import { decodeProtobuf, encodeProtobuf } from '../apimachinery/runtime/serializer/protobuf/index.ts';
import type { RawResponse } from './testing/https-client.ts';
import { apiVersion, discover, gvPath, type Case } from './testing/discover.ts';
import { HINTS, generateMaterial, type FixtureMaterial, type JSONObject } from './testing/fixtures/every-resource.ts';
import { exampleFor, type OpenAPIDocument } from './testing/fixtures/schema-example.ts';
import { expectJSON } from './testing/objects.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

type Format = 'json' | 'yaml' | 'protobuf';
const FORMATS: readonly Format[] = ['json', 'yaml', 'protobuf'];
const MEDIA: Readonly<Record<Format, string>> = { json: 'application/json', yaml: 'application/yaml', protobuf: 'application/vnd.kubernetes.protobuf' };
type Obj = Record<string, unknown>;

function encode(f: Format, o: Obj): string | Buffer {
  if (f === 'json') return JSON.stringify(o);
  return f === 'yaml' ? toYAML(o) : encodeProtobuf(o);
}

/** The answer in the format asked for; fails unless the server answered `status` in it. */
function decode(f: Format, r: RawResponse, status: readonly number[], what: string): Obj {
  const text = r.headers['content-type']?.toString().startsWith(MEDIA.protobuf) === true ? JSON.stringify(decodeProtobuf(r.body).obj) : r.text;
  assert.ok(status.includes(r.status), `${what}: ${r.status} ${text}`);
  assert.equal(r.headers['content-type'], MEDIA[f], `${what}: Content-Type`);
  if (f === 'json') return r.json() as Obj;
  return f === 'yaml' ? parseYAML(r.text) as Obj : decodeProtobuf(r.body).obj;
}

// What differs between two objects made one after the other: identities, times, allocations.
const VOLATILE = new Set(['uid', 'resourceVersion', 'creationTimestamp', 'time', 'lastTransitionTime', 'clusterIP', 'clusterIPs',
  'nodePort', 'token', 'expirationTimestamp', 'deletionTimestamp', 'renewTime', 'acquireTime', 'lastPhaseTransitionTime', 'startTime',
  // A protobuf body cannot tell an empty list from none: kube answers null for both, kapi [] for
  // JSON's [] (and then records the field in managedFields); left out of the comparison.
  'managedFields']);
const GENERATED = [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, /kube-api-access-[a-z0-9]{5}/g];
function comparable(v: unknown): unknown {
  if (typeof v === 'string') return GENERATED.reduce((t, re) => t.replace(re, '*'), v);
  if (Array.isArray(v)) return v.map(comparable);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v)
    .filter(([k, x]) => !VOLATILE.has(k) && x !== null && !(Array.isArray(x) && x.length === 0))
    .map(([k, x]) => [k, comparable(x)]));
}

/** The first path where a and b differ, for failure messages. */
function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (isDeepStrictEqual(a, b)) return '';
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = firstDifference((a as Obj)[k], (b as Obj)[k], `${path}.${k}`);
    if (d !== '') return d;
  }
  return path;
}

interface DiscoveryDoc {
  items: { metadata?: { name?: string }; versions: { version: string; resources: { resource: string; subresources?: { subresource: string; verbs: string[] }[] }[] }[] }[];
}

/** resource.group → the subresources served with update in the preferred version. */
async function updatableSubresources(s: Suite): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const root of ['/api', '/apis']) {
    const doc = expectJSON<DiscoveryDoc>(await s.request({
      method: 'GET', path: root, headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
    }), 200, root);
    for (const g of doc.items) {
      const group = g.metadata?.name ?? '';
      for (const r of g.versions[0]?.resources ?? []) {
        const subs = (r.subresources ?? []).filter((sr) => sr.verbs.includes('update')).map((sr) => sr.subresource);
        // proxy is a connect subresource (PUT passes through); it takes no object
        if (subs.includes('proxy')) subs.splice(subs.indexOf('proxy'), 1);
        if (subs.length > 0) out.set(group === '' ? r.resource : `${r.resource}.${group}`, subs);
      }
    }
  }
  return out;
}

/** Resources with no storage (created and answered, never stored): no subresource, no delete. */
const CREATE_ONLY = new Set(['tokenreviews.authentication.k8s.io', 'selfsubjectreviews.authentication.k8s.io',
  'subjectaccessreviews.authorization.k8s.io', 'localsubjectaccessreviews.authorization.k8s.io',
  'selfsubjectaccessreviews.authorization.k8s.io', 'selfsubjectrulesreviews.authorization.k8s.io']);

const suite = await startSuite({ flags: ['--runtime-config', 'api/all=true'] });
let cases: Case[];
let material: FixtureMaterial;
let subresources: Map<string, string[]>;
const docs = new Map<string, Promise<OpenAPIDocument>>();
try {
  [cases, material, subresources] = await Promise.all([discover(suite), generateMaterial(), updatableSubresources(suite)]);
} catch (err) {
  await suite.close();
  throw err;
}

async function openapi(group: string, version: string): Promise<OpenAPIDocument> {
  const key = gvPath(group, version).slice(1);
  let doc = docs.get(key);
  if (doc === undefined) {
    doc = (async () => {
      const index = expectJSON<{ paths: Record<string, { serverRelativeURL: string }> }>(await suite.request({ method: 'GET', path: '/openapi/v3' }), 200, 'index');
      const url = index.paths[key]?.serverRelativeURL ?? '';
      return expectJSON<OpenAPIDocument>(await suite.request({ method: 'GET', path: url }), 200, url);
    })();
    docs.set(key, doc);
  }
  return doc;
}

/** Create, write back each updatable subresource, delete: once per format. Returns what each format's run answered. */
async function roundInEveryFormat(c: Case, index: number): Promise<void> {
  const [preferred] = c.versions;
  assert.ok(preferred !== undefined);
  const hint = HINTS[c.key] ?? {};
  const namespace = c.namespaced ? `bt-${index}-${c.resource}`.slice(0, 63).replace(/-+$/, '') : '';
  if (c.namespaced) {
    expectJSON<Obj>(await suite.request({ method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: namespace } }) }), 201, namespace);
  }
  const name = hint.name ?? `bt-${c.resource}`;
  const ctx = { name, namespace, material };
  for (const pre of hint.prerequisites?.(ctx) ?? []) {
    expectJSON<Obj>(await suite.request({ method: 'POST', path: pre.path, body: JSON.stringify(pre.body) }), 201, `prerequisite ${pre.path}`);
  }
  const collection = `${gvPath(c.group, preferred.version)}${c.namespaced ? `/namespaces/${namespace}` : ''}/${c.resource}`;
  const item = `${collection}/${encodeURIComponent(name)}`;
  const createOnly = CREATE_ONLY.has(c.key);
  const example = exampleFor(await openapi(c.group, preferred.version), { group: c.group, version: preferred.version, kind: preferred.kind },
    hint.body?.(ctx) ?? {});
  const body: JSONObject = {
    apiVersion: apiVersion(c.group, preferred.version), kind: preferred.kind,
    metadata: createOnly ? (c.namespaced ? { namespace } : {}) : { name, ...(c.namespaced ? { namespace } : {}), labels: { e2e: 'body-types' } },
    ...example,
  };
  const answers: Partial<Record<Format, unknown[]>> = {};
  for (const f of FORMATS) {
    const headers = { Accept: MEDIA[f] };
    const what = `${c.key} in ${f}`;
    const created = decode(f, await suite.request({ method: 'POST', path: collection, body: encode(f, body), contentType: MEDIA[f], headers }), [201], `POST ${what}`);
    const seen: unknown[] = [comparable(created)];
    answers[f] = seen;
    if (createOnly) continue;
    for (const sub of subresources.get(c.key) ?? []) {
      // Retried on a conflict with a controller writing the object meanwhile.
      const written = await eventually(`PUT ${item}/${sub} in ${f}`, async () => {
        // namespaces/finalize has no GET: it takes the Namespace itself
        const from = sub === 'finalize' ? item : `${item}/${sub}`;
        const cur = expectJSON<Obj>(await suite.request({ method: 'GET', path: from }), 200, `GET ${from}`);
        const r = await suite.request({ method: 'PUT', path: `${item}/${sub}`, body: encode(f, cur), contentType: MEDIA[f], headers });
        // A status a controller wrote meanwhile may not validate (storageversionmigrations): any 422
        // is kube's answer to the object, not to its encoding.
        return r.status === 409 ? undefined : decode(f, r, sub === 'status' ? [200, 422] : [200], `PUT ${item}/${sub} in ${f}`);
      });
      seen.push(sub === 'status' ? 'status written' : comparable(written));
    }
    const options = { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 };
    decode(f, await suite.request({ method: 'DELETE', path: item, body: encode(f, options), contentType: MEDIA[f], headers }), [200, 202], `DELETE ${what}`);
    await eventually(`${item} gone after DELETE in ${f}`, async () => ((await suite.request({ method: 'GET', path: item })).status === 404 ? true : undefined));
  }
  assert.equal(firstDifference(answers.yaml, answers.json), '', `${c.key}: YAML answers differ from JSON ones`);
  assert.equal(firstDifference(answers.protobuf, answers.json), '', `${c.key}: protobuf answers differ from JSON ones`);
}

describe('request and response bodies in JSON, YAML and protobuf', { concurrency: 8 }, () => {
  after(async () => { await suite.close(); });

  const NS = '/api/v1/namespaces/bt-sub';
  const post = async (path: string, body: Obj): Promise<void> => {
    expectJSON<Obj>(await suite.request({ method: 'POST', path, body: JSON.stringify(body) }), 201, `POST ${path}`);
  };
  const pod = (name: string): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }] } });
  it('the loop writes the subresources that take bodies (scale, approval, status, ephemeralcontainers, finalize)', () => {
    const want: Record<string, string[]> = {
      'deployments.apps': ['scale', 'status'], replicationcontrollers: ['scale', 'status'],
      'certificatesigningrequests.certificates.k8s.io': ['approval', 'status'], pods: ['ephemeralcontainers', 'status'], namespaces: ['finalize', 'status'],
    };
    for (const [key, subs] of Object.entries(want)) {
      for (const sub of subs) assert.ok(subresources.get(key)?.includes(sub), `${key}/${sub} in ${JSON.stringify(subresources.get(key))}`);
    }
  });

  // The cases below run concurrently (the describe's concurrency): their namespace is made first.
  before(async () => {
    await post('/api/v1/namespaces', { metadata: { name: 'bt-sub' } });
    await post(`${NS}/serviceaccounts`, { metadata: { name: 'sa' } });
  });
  const statusOf = (r: RawResponse): { message?: string; reason?: string } => r.json() as { message?: string; reason?: string };

  it('pods/eviction (policy/v1 and v1beta1), pods/binding and serviceaccounts/token take their kinds in every format', async () => {
    for (const f of FORMATS) {
      const send = (path: string, body: Obj): Promise<RawResponse> =>
        suite.request({ method: 'POST', path, body: encode(f, body), contentType: MEDIA[f], headers: { Accept: MEDIA[f] } });
      for (const version of ['v1', 'v1beta1']) {
        const name = `ev-${version}-${f}`;
        await post(`${NS}/pods`, pod(name));
        const evicted = decode(f, await send(`${NS}/pods/${name}/eviction`, { apiVersion: `policy/${version}`, kind: 'Eviction', metadata: { name } }), [201],
          `evict ${name}`);
        assert.deepEqual([evicted['kind'], evicted['status']], ['Status', 'Success']);
        assert.equal((await suite.request({ method: 'GET', path: `${NS}/pods/${name}` })).status, 404, `${name} evicted`);
      }
      const bound = `bind-${f}`;
      await post(`${NS}/pods`, pod(bound));
      decode(f, await send(`${NS}/pods/${bound}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: bound }, target: { name: 'n1' } }), [201],
        `bind ${bound}`);
      assert.equal(expectJSON<{ spec: { nodeName?: string } }>(await suite.request({ method: 'GET', path: `${NS}/pods/${bound}` }), 200, bound).spec.nodeName, 'n1');
      const token = decode(f, await send(`${NS}/serviceaccounts/sa/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['x'] } }),
        [201], `token in ${f}`);
      assert.equal(token['kind'], 'TokenRequest');
      assert.match(String((token['status'] as Obj | undefined)?.['token']), /^ey/);
      // Defaulted as the body is decoded, so the field manager records it; boundObjectRef is a
      // pointer without omitempty: null in JSON and YAML.
      const sa = expectJSON<{ metadata: { uid: string } }>(await suite.request({ method: 'GET', path: `${NS}/serviceaccounts/sa` }), 200, 'sa');
      assert.equal((token['metadata'] as { uid?: string }).uid, sa.metadata.uid, `the service account's uid in ${f}`);
      const spec = token['spec'] as Obj;
      assert.equal(spec['expirationSeconds'], 3600);
      assert.deepEqual((token['metadata'] as { managedFields?: { fieldsV1?: unknown }[] }).managedFields?.[0]?.fieldsV1,
        { 'f:spec': { 'f:audiences': {}, 'f:expirationSeconds': {} } }, `managedFields in ${f}`);
      if (f !== 'protobuf') assert.ok('boundObjectRef' in spec && spec['boundObjectRef'] === null, `boundObjectRef in ${f}: ${JSON.stringify(spec)}`);
    }
  });

  it('a protobuf body\'s absent list is a Go nil: answered as null, never in managedFields (as kube)', async () => {
    const cases = [
      { path: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
        body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'bt-empty', labels: { a: 'b' } } },
        fields: { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } }, nil: 'rules' },
      { path: '/apis/discovery.k8s.io/v1/namespaces/bt-sub/endpointslices',
        body: { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'bt-empty' }, addressType: 'IPv4', endpoints: [], ports: [] },
        fields: { 'f:addressType': {} }, nil: 'endpoints' },
    ];
    for (const c of cases) {
      const r = await suite.request({ method: 'POST', path: c.path, body: encodeProtobuf(c.body), contentType: MEDIA.protobuf });
      const created = expectJSON<Obj & { metadata: { managedFields?: { fieldsV1?: unknown }[] } }>(r, 201, c.path);
      assert.deepEqual(created.metadata.managedFields?.map((m) => m.fieldsV1), [c.fields], c.path);
      assert.equal(created[c.nil], null, `${c.path}: ${c.nil}`);
    }
  });

  it('a body of another group version gets kube\'s 400 in every format (only pods/eviction takes policy/v1beta1)', async () => {
    await post('/apis/apps/v1/namespaces/bt-sub/deployments', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    const deployment = (apiVersion: string): Obj => ({ apiVersion, kind: 'Deployment', metadata: { name: 'd2' } });
    const cases = [
      { name: 'apps/v1beta1 Deployment', method: 'POST', path: '/apis/apps/v1/namespaces/bt-sub/deployments', body: deployment('apps/v1beta1'),
        message: 'the API version in the data (apps/v1beta1) does not match the expected API version (apps/v1)' },
      { name: 'extensions/v1beta1 Deployment', method: 'POST', path: '/apis/apps/v1/namespaces/bt-sub/deployments', body: deployment('extensions/v1beta1'),
        message: 'the API version in the data (extensions/v1beta1) does not match the expected API version (apps/v1)' },
      { name: 'autoscaling/v2 HPA on v1', method: 'POST', path: '/apis/autoscaling/v1/namespaces/bt-sub/horizontalpodautoscalers',
        body: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' } },
        message: 'the API version in the data (autoscaling/v2) does not match the expected API version (autoscaling/v1)' },
      { name: 'apps/v1beta2 Scale', method: 'PUT', path: '/apis/apps/v1/namespaces/bt-sub/deployments/d/scale',
        body: { apiVersion: 'apps/v1beta2', kind: 'Scale', metadata: { name: 'd' }, spec: { replicas: 2 } },
        message: 'the API version in the data (apps/v1beta2) does not match the expected API version (autoscaling/v1)' },
      { name: 'v1beta1 TokenReview', method: 'POST', path: '/apis/authentication.k8s.io/v1/tokenreviews',
        body: { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenReview', spec: { token: 'x' } },
        message: 'the API version in the data (authentication.k8s.io/v1beta1) does not match the expected API version (authentication.k8s.io/v1)' },
      { name: 'another kind', method: 'PUT', path: '/apis/apps/v1/namespaces/bt-sub/deployments/d/scale', body: deployment('apps/v1'),
        message: 'Deployment in version "v1" cannot be handled as a Scale: converting (v1.Deployment) to (autoscaling.Scale): unknown conversion' },
    ];
    for (const f of FORMATS) {
      for (const c of cases) {
        const r = await suite.request({ method: c.method, path: c.path, body: encode(f, c.body), contentType: MEDIA[f] });
        assert.equal(r.status, 400, `${c.name} in ${f}: ${r.text}`);
        assert.equal(statusOf(r).message, c.message, `${c.name} in ${f}`);
      }
    }
    assert.equal((await suite.request({ method: 'GET', path: '/apis/apps/v1/namespaces/bt-sub/deployments/d2' })).status, 404);
  });

  it('DeleteOptions bodies of another kind are refused with kube\'s 400 in every format, deleting nothing', async () => {
    await post(`${NS}/configmaps`, { metadata: { name: 'keep' } });
    const cases = [
      { name: 'ListOptions', body: { apiVersion: 'meta.k8s.io/v1', kind: 'ListOptions' }, message: 'converting (v1.ListOptions) to (v1.DeleteOptions): unknown conversion' },
      { name: 'Status', body: { apiVersion: 'meta.k8s.io/v1', kind: 'Status' }, message: 'converting (v1.Status) to (v1.DeleteOptions): unknown conversion' },
      { name: 'ConfigMap', body: { apiVersion: 'v1', kind: 'ConfigMap' }, message: 'no kind "ConfigMap" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"' },
      { name: 'v1 ListOptions', body: { apiVersion: 'v1', kind: 'ListOptions' }, message: 'no kind "ListOptions" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"' },
    ];
    // Kinds with no protobuf form, and type meta only JSON and YAML can get wrong.
    const textOnly = [
      { name: 'v1beta1 Table', body: { apiVersion: 'meta.k8s.io/v1beta1', kind: 'Table' }, message: 'converting (v1.Table) to (v1.DeleteOptions): unknown conversion' },
      { name: 'no apiVersion', body: { kind: 'ConfigMap' }, message: 'no kind "ConfigMap" is registered for version "meta.k8s.io/v1" in scheme "pkg/runtime/scheme.go:111"' },
      { name: 'bad apiVersion', body: { apiVersion: 'a/b/c', kind: 'DeleteOptions' }, message: 'unexpected GroupVersion string: a/b/c' },
      { name: 'kind not a string', body: { apiVersion: 'v1', kind: 5 },
        message: 'couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string' },
    ];
    for (const f of FORMATS) {
      for (const c of f === 'protobuf' ? cases : [...cases, ...textOnly]) {
        for (const path of [`${NS}/configmaps/keep`, `${NS}/configmaps`]) {
          const r = await suite.request({ method: 'DELETE', path, body: encode(f, c.body), contentType: MEDIA[f] });
          assert.equal(r.status, 400, `${c.name} in ${f} to ${path}: ${r.text}`);
          assert.equal(statusOf(r).message, c.message, `${c.name} in ${f} to ${path}`);
        }
      }
      // DeleteOptions of any group version are taken (dryRun: nothing is deleted either)
      for (const apiVersion of ['v1', 'apps/v1', 'meta.k8s.io/v1']) {
        const r = await suite.request({ method: 'DELETE', path: `${NS}/configmaps/keep`, contentType: MEDIA[f],
          body: encode(f, { apiVersion, kind: 'DeleteOptions', dryRun: ['All'] }) });
        assert.equal(r.status, 200, `${apiVersion} DeleteOptions in ${f}: ${r.text}`);
      }
    }
    assert.equal((await suite.request({ method: 'GET', path: `${NS}/configmaps/keep` })).status, 200);
  });

  it('patch bodies of every patch type answer in every format; other body types are 415 as kube words it', async () => {
    const cm = `${NS}/configmaps/patched`;
    const patches = [
      { type: 'application/json-patch+json', body: '[{"op":"add","path":"/data/k","value":"json-patch"}]', want: 'json-patch' },
      { type: 'application/merge-patch+json', body: '{"data":{"k":"merge"}}', want: 'merge' },
      { type: 'application/strategic-merge-patch+json', body: '{"data":{"k":"strategic"}}', want: 'strategic' },
      { type: 'application/apply-patch+yaml', body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: patched\ndata:\n  k: apply\n', want: 'apply' },
    ];
    await post(`${NS}/configmaps`, { metadata: { name: 'patched' }, data: { k: 'v' } });
    for (const f of FORMATS) {
      for (const p of patches) {
        const force = p.type === 'application/apply-patch+yaml' ? '&force=true' : '';
        const r = await suite.request({ method: 'PATCH', path: `${cm}?fieldManager=bt${force}`, body: p.body, contentType: p.type, headers: { Accept: MEDIA[f] } });
        assert.deepEqual(decode(f, r, [200], `${p.type} answered in ${f}`)['data'], { k: p.want });
      }
    }
    // The route takes only the four patch types: kube's go-restful check answers first, with its own text.
    for (const type of ['application/apply-patch+cbor', 'application/apply-patch+json', MEDIA.protobuf, MEDIA.yaml, MEDIA.json, 'application/cbor']) {
      const r = await suite.request({ method: 'PATCH', path: `${cm}?fieldManager=bt`, body: '{}', contentType: type });
      assert.equal(r.status, 415, `${type}: ${r.text}`);
      assert.equal(statusOf(r).message, '415: Unsupported Media Type', type);
    }
    // Bodies of other verbs: kube's negotiation lists the three types it decodes.
    for (const [method, path] of [['POST', `${NS}/configmaps`], ['PUT', cm], ['DELETE', cm]] as const) {
      const r = await suite.request({ method, path, body: Buffer.from([0xa0]), contentType: 'application/cbor' });
      assert.equal(r.status, 415, `${method}: ${r.text}`);
      assert.equal(statusOf(r).message,
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
    }
  });

  it('a custom resource\'s scale is served in JSON and YAML, not protobuf (406), as the resource itself', async () => {
    await post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.bt.example.com' },
      spec: {
        group: 'bt.example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget', singular: 'widget', listKind: 'WidgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } }],
      },
    });
    const widgets = '/apis/bt.example.com/v1/namespaces/bt-sub/widgets';
    await eventually('the Widget CRD served', async () => ((await suite.request({ method: 'GET', path: widgets })).status === 200 ? true : undefined));
    await post(widgets, { apiVersion: 'bt.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { replicas: 1 } });
    const scale = `${widgets}/w/scale`;
    const requests = [
      { method: 'GET', path: scale },
      { method: 'PUT', path: scale, body: encodeProtobuf({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'w', namespace: 'bt-sub' }, spec: { replicas: 2 } }),
        contentType: MEDIA.protobuf },
      { method: 'PATCH', path: scale, body: '{"spec":{"replicas":3}}', contentType: 'application/merge-patch+json' },
    ];
    for (const req of requests) {
      const refused = await suite.request({ ...req, headers: { Accept: MEDIA.protobuf } });
      assert.equal(refused.status, 406, `${req.method} ${refused.text}`);
      const st = decodeProtobuf(refused.body).obj as { reason?: string; message?: string };
      assert.equal(st.reason, 'NotAcceptable');
      assert.equal(st.message, 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
      const json = decode('json', await suite.request({ ...req, headers: { Accept: `${MEDIA.protobuf}, application/json` } }), [200], `${req.method} ${scale}`);
      assert.equal(json['kind'], 'Scale');
    }
  });

  // bindings: created once per pod; the pods/binding case above binds one pod per format.
  cases.filter((c) => c.key !== 'bindings').forEach((c, index) => {
    it(`${c.key}: create, subresources, delete`, () => roundInEveryFormat(c, index));
  });
});
