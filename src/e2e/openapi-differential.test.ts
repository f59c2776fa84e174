// /openapi/v2 and /openapi/v3 of kapi against the reference kube-apiserver (the oracle): the
// published definitions of built-in kinds and of CRDs with descriptions, enums, defaults and CEL
// rules must be equal, and the caching headers (ETag, 304, ?hash=, Cache-Control, Expires) must
// follow the same rules. Skipped, with the reason, when the oracle is not built on this machine.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const WIDGET_CRD = (JSON.parse(readFileSync(new URL('../apiextensions/openapi/testdata/widget-openapi.json', import.meta.url), 'utf8')) as { crd: Obj }).crd;
/** Edge cases of the CRD builder: nullable, int-or-string with its own anyOf, embedded resources, selectable fields. */
const GADGET_CRD: Obj = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.stable.example.com' },
  spec: { group: 'stable.example.com', scope: 'Cluster', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [{ name: 'v1', served: true, storage: true, selectableFields: [{ jsonPath: '.spec.mode' }],
      schema: { openAPIV3Schema: { type: 'object', required: ['spec'], properties: {
        spec: { type: 'object', required: ['mode', 'maybe'], properties: {
          mode: { type: 'string', enum: ['a', 'b'], default: 'a', description: 'The mode.' },
          maybe: { type: 'object', nullable: true, properties: { x: { type: 'string' } } },
          port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          port2: { 'x-kubernetes-int-or-string': true, anyOf: [{ maximum: 10 }, { pattern: '^x' }] },
          port3: { 'x-kubernetes-int-or-string': true, description: 'int or string' },
          template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', description: 'inner' } } },
          list: { type: 'array', items: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
          anything: { 'x-kubernetes-preserve-unknown-fields': true, description: 'free form' },
          values: { type: 'object', additionalProperties: { type: 'string', nullable: true }, required: ['k'] },
        } },
        status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      } } } }] },
};
const CRD_DEFINITIONS = ['com.example.stable.v1.Widget', 'com.example.stable.v1.WidgetList', 'com.example.stable.v1.Gadget', 'com.example.stable.v1.GadgetList'];
/** Built-in definitions compared in v2 and in their v3 documents (with everything they reference). */
const BUILT_IN: readonly { doc: string; definitions: readonly string[] }[] = [
  { doc: 'apis/apps/v1', definitions: ['io.k8s.api.apps.v1.Deployment', 'io.k8s.api.apps.v1.StatefulSet', 'io.k8s.api.apps.v1.DaemonSet'] },
  { doc: 'api/v1', definitions: ['io.k8s.api.core.v1.Pod', 'io.k8s.api.core.v1.Service', 'io.k8s.api.core.v1.PersistentVolumeClaim', 'io.k8s.api.core.v1.Node'] },
  { doc: 'apis/batch/v1', definitions: ['io.k8s.api.batch.v1.CronJob'] },
  { doc: 'apis/networking.k8s.io/v1', definitions: ['io.k8s.api.networking.v1.NetworkPolicy', 'io.k8s.api.networking.v1.Ingress'] },
  { doc: 'apis/apiextensions.k8s.io/v1', definitions: ['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition'] },
  { doc: 'version', definitions: ['io.k8s.apimachinery.pkg.version.Info'] },
];

/** Every JSON path where a and b differ (a missing key, an extra key, another value). */
function differences(a: Json | undefined, b: Json | undefined, path: string, out: string[]): void {
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(k in b)) out.push(`${path}.${k}: only in kube`);
      else if (!(k in a)) out.push(`${path}.${k}: only in kapi`);
      else differences(a[k], b[k], `${path}.${k}`, out);
    }
  } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => differences(x, b[i], `${path}[${i}]`, out));
  } else if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${path}: kube ${JSON.stringify(a)?.slice(0, 120)} kapi ${JSON.stringify(b)?.slice(0, 120)}`);
}

/** The named definitions and all they reference, from a definitions map. */
function closure(defs: Obj, names: readonly string[]): string[] {
  const seen = new Set<string>();
  const stack = [...names];
  const walk = (n: Json): void => {
    if (Array.isArray(n)) { n.forEach(walk); return; }
    if (!isObj(n)) return;
    const ref = n['$ref'];
    if (typeof ref === 'string') stack.push(ref.replace(/^#\/(definitions|components\/schemas)\//, ''));
    Object.values(n).forEach(walk);
  };
  while (stack.length > 0) {
    const n = stack.pop() ?? '';
    if (seen.has(n)) continue;
    seen.add(n);
    walk(defs[n] ?? null);
  }
  return [...seen].sort();
}

function compareDefinitions(kube: Obj, kapi: Obj, names: readonly string[], where: string): string[] {
  const out: string[] = [];
  for (const n of closure(kube, names)) differences(kube[n], kapi[n], `${where} ${n}`, out);
  return out;
}

const IGNORED_HEADERS = new Set(['date', 'audit-id', 'connection', 'x-kubernetes-pf-flowschema-uid', 'x-kubernetes-pf-prioritylevel-uid',
  'x-content-type-options', 'content-length', 'last-modified', 'expires', 'etag', 'location']);
const headerShape = (r: RawResponse): string =>
  `${r.status} ${Object.entries(r.headers).filter(([k]) => !IGNORED_HEADERS.has(k)).map(([k, v]) => `${k}=${String(v)}`).sort().join(' ')}` +
  ` etag:${r.headers['etag'] === undefined ? 'no' : 'yes'} last-modified:${r.headers['last-modified'] === undefined ? 'no' : 'yes'}`;

const skip = oracleUnavailable();

describe('OpenAPI documents against kube-apiserver', { skip: skip ?? false }, () => {
  let kube: Oracle | undefined;
  let kapi: Suite | undefined;
  const both = async (req: RawRequest): Promise<{ kube: RawResponse; kapi: RawResponse }> => {
    assert.ok(kube !== undefined && kapi !== undefined);
    return { kube: await kube.request(req), kapi: await kapi.request(req) };
  };
  const jsonOf = (r: RawResponse): Obj => r.json() as Obj;

  before(async () => {
    [kube, kapi] = await Promise.all([startOracle(), startSuite()]);
    for (const crd of [WIDGET_CRD, GADGET_CRD]) {
      const r = await both({ method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: JSON.stringify(crd), contentType: 'application/json' });
      assert.equal(r.kube.status, 201, r.kube.text);
      assert.equal(r.kapi.status, 201, r.kapi.text);
    }
    // Both publish CRDs asynchronously: wait until each document lists both kinds.
    for (const server of [kube, kapi]) {
      await eventually('the CRDs are published', async () => {
        const v2 = await server.request({ method: 'GET', path: '/openapi/v2' });
        const v3 = await server.request({ method: 'GET', path: '/openapi/v3/apis/stable.example.com/v1' });
        return CRD_DEFINITIONS.every((d) => v2.text.includes(`"${d}"`) && v3.text.includes(`"${d}"`)) ? true : undefined;
      });
    }
  });
  after(async () => { await Promise.all([kube?.stop(), kapi?.close()]); });

  it('v2: built-in and CRD definitions equal kube\'s (descriptions, enums, no defaults)', async () => {
    const r = await both({ method: 'GET', path: '/openapi/v2' });
    const k = jsonOf(r.kube)['definitions'];
    const a = jsonOf(r.kapi)['definitions'];
    assert.ok(isObj(k) && isObj(a));
    const diffs = compareDefinitions(k, a, [...BUILT_IN.flatMap((b) => b.definitions), ...CRD_DEFINITIONS], 'v2');
    for (const key of ['info', 'securityDefinitions', 'security']) differences(jsonOf(r.kube)[key], jsonOf(r.kapi)[key], `v2 ${key}`, diffs);
    differences((jsonOf(r.kube)['paths'] as Obj)['/version/'], (jsonOf(r.kapi)['paths'] as Obj)['/version/'], 'v2 /version/', diffs);
    assert.deepEqual(diffs, []);
    // Operation texts, wherever both publish the operation.
    const kubePaths = jsonOf(r.kube)['paths'] as Obj;
    const kapiPaths = jsonOf(r.kapi)['paths'] as Obj;
    const texts: string[] = [];
    for (const [path, item] of Object.entries(kubePaths)) {
      const mine = kapiPaths[path];
      if (!isObj(item) || !isObj(mine)) continue;
      for (const [method, op] of Object.entries(item)) {
        const other = mine[method];
        if (method === 'parameters' || !isObj(op) || !isObj(other)) continue;
        if (op['description'] !== other['description']) texts.push(`${method} ${path}: kube ${String(op['description'])} kapi ${String(other['description'])}`);
      }
    }
    assert.deepEqual(texts, []);
    // Shared parameters: kube-openapi's names (a hash of the parameter) and texts.
    const kubeParams = jsonOf(r.kube)['parameters'];
    const kapiParams = jsonOf(r.kapi)['parameters'];
    assert.ok(isObj(kubeParams) && isObj(kapiParams));
    const params: string[] = [];
    for (const [n, p] of Object.entries(kapiParams)) differences(kubeParams[n], p, `v2 parameters.${n}`, params);
    assert.deepEqual(params, []);
    // A CRD's paths: no watch and no discovery paths (apiextensions-apiserver's builder).
    const crdPaths = (r: RawResponse): string[] => Object.keys(jsonOf(r)['paths'] as Obj).filter((p) => p.includes('stable.example.com')).sort();
    assert.deepEqual(crdPaths(r.kapi), crdPaths(r.kube));
  });

  it('v3: each group version\'s definitions equal kube\'s (descriptions, enums, defaults, CEL rules)', async () => {
    const diffs: string[] = [];
    for (const { doc, definitions } of [...BUILT_IN, { doc: 'apis/stable.example.com/v1', definitions: CRD_DEFINITIONS }]) {
      const r = await both({ method: 'GET', path: `/openapi/v3/${doc}` });
      const k = jsonOf(r.kube)['components'];
      const a = jsonOf(r.kapi)['components'];
      assert.ok(isObj(k) && isObj(a) && isObj(k['schemas']) && isObj(a['schemas']), doc);
      // The CRDs' document: every definition it holds (DeleteOptions, Status, ObjectMeta...).
      const names = doc === 'apis/stable.example.com/v1' ? Object.keys(k['schemas']) : definitions;
      if (doc === 'apis/stable.example.com/v1') assert.deepEqual(Object.keys(a['schemas']).sort(), Object.keys(k['schemas']).sort(), doc);
      diffs.push(...compareDefinitions(k['schemas'], a['schemas'], names, doc));
      differences(jsonOf(r.kube)['info'], jsonOf(r.kapi)['info'], `${doc} info`, diffs);
      differences(k['securitySchemes'], a['securitySchemes'], `${doc} securitySchemes`, diffs);
      const kubePaths = Object.keys(jsonOf(r.kube)['paths'] as Obj);
      const kapiPaths = Object.keys(jsonOf(r.kapi)['paths'] as Obj);
      // Known: kapi routes no OpenAPI path for the proxy subresources' {path} form.
      assert.deepEqual(kubePaths.filter((p) => !kapiPaths.includes(p) && !p.endsWith('/proxy/{path}')), [], `${doc}: paths only kube publishes`);
      assert.deepEqual(kapiPaths.filter((p) => !kubePaths.includes(p)), [], `${doc}: paths only kapi publishes`);
    }
    assert.deepEqual(diffs, []);
  });

  it('caching headers: ETag shared by v2 JSON and protobuf, 304s, ?hash= immutability, redirects', async () => {
    const PB = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
    const shapes: { name: string; kube: string; kapi: string }[] = [];
    const add = (name: string, r: { kube: RawResponse; kapi: RawResponse }): void => { shapes.push({ name, kube: headerShape(r.kube), kapi: headerShape(r.kapi) }); };
    const json = await both({ method: 'GET', path: '/openapi/v2' });
    const pb = await both({ method: 'GET', path: '/openapi/v2', headers: { Accept: PB } });
    for (const s of ['kube', 'kapi'] as const) assert.equal(pb[s].headers['etag'], json[s].headers['etag'], `${s}: one ETag for both forms`);
    add('v2 json', json);
    add('v2 protobuf', pb);
    const etag = (r: RawResponse): string => String(r.headers['etag']);
    add('v2 304', { kube: (await kube?.request({ method: 'GET', path: '/openapi/v2', headers: { 'If-None-Match': etag(json.kube) } }))!,
      kapi: (await kapi?.request({ method: 'GET', path: '/openapi/v2', headers: { 'If-None-Match': etag(json.kapi) } }))! });
    const index = await both({ method: 'GET', path: '/openapi/v3' });
    add('v3 index', index);
    const listed = (r: RawResponse): string[] => Object.keys((r.json() as { paths: Record<string, unknown> }).paths).sort();
    const onlyKube = listed(index.kube).filter((n) => !listed(index.kapi).includes(n));
    const onlyKapi = listed(index.kapi).filter((n) => !listed(index.kube).includes(n));
    // Known: kapi serves the service account issuer's discovery but publishes no OpenAPI v3 document for it.
    assert.deepEqual({ onlyKube, onlyKapi }, { onlyKube: ['.well-known/openid-configuration', 'openid/v1/jwks'], onlyKapi: [] },
      'the documents /openapi/v3 lists');
    const url = (r: RawResponse): string => {
      const p = (r.json() as { paths: Record<string, { serverRelativeURL: string }> }).paths['apis/apps/v1'];
      assert.ok(p !== undefined);
      return p.serverRelativeURL;
    };
    const hashed = { kube: (await kube?.request({ method: 'GET', path: url(index.kube) }))!, kapi: (await kapi?.request({ method: 'GET', path: url(index.kapi) }))! };
    add('v3 ?hash=current', hashed);
    for (const s of ['kube', 'kapi'] as const) assert.match(String(hashed[s].headers['expires']), /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} UTC$/, s);
    add('v3 ?hash=current 304', { kube: (await kube?.request({ method: 'GET', path: url(index.kube), headers: { 'If-None-Match': etag(hashed.kube) } }))!,
      kapi: (await kapi?.request({ method: 'GET', path: url(index.kapi), headers: { 'If-None-Match': etag(hashed.kapi) } }))! });
    add('v3 ?hash=stale', await both({ method: 'GET', path: '/openapi/v3/apis/apps/v1?hash=ABC' }));
    add('v3 unknown document', await both({ method: 'GET', path: '/openapi/v3/apis/nope.example.com/v1' }));
    add('v2 not acceptable', await both({ method: 'GET', path: '/openapi/v2', headers: { Accept: 'text/plain' } }));
    for (const s of shapes) assert.equal(s.kapi, s.kube, s.name);
  });
});
