// MutatingAdmissionPolicy, kapi against the reference kube-apiserver with raw requests: policy
// creates refused for expressions that do not compile (status and body), and dry-run creates
// through each kind of mutation and error (status, and the object or Status returned, volatile
// metadata left out). Skips with a reason when the oracle is not built on this machine.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';

type Json = Record<string, unknown>;
interface Target { readonly name: string; request(r: RawRequest): Promise<RawResponse> }

const skip = oracleUnavailable();
if (skip !== undefined) console.log(`mutating-admission-policy-differential: skipped: ${skip}`);

const NS = 'mapdiff';
const V1 = 'admissionregistration.k8s.io/v1';
const json = (o: unknown): string => JSON.stringify(o);

function policy(name: string, spec: Json, resources = ['configmaps'], group = '', binding: Json = {}): Json[] {
  return [
    { apiVersion: V1, kind: 'MutatingAdmissionPolicy', metadata: { name }, spec: {
      matchConstraints: { resourceRules: [{ apiGroups: [group], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources }],
        objectSelector: { matchLabels: { case: name } } },
      reinvocationPolicy: 'Never', ...spec,
    } },
    { apiVersion: V1, kind: 'MutatingAdmissionPolicyBinding', metadata: { name: `${name}-b` }, spec: { policyName: name, ...binding } },
  ];
}
const ac = (expression: string): Json => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } });
const jp = (expression: string): Json => ({ patchType: 'JSONPatch', jsonPatch: { expression } });
const ENV = 'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: '
  + '[Object.spec.template.spec.containers{name: "c", env: [Object.spec.template.spec.containers.env{name: "E", value: "1"}]}]}}}}';

const POLICIES: Json[] = [
  ...policy('label', { mutations: [ac('Object{metadata: Object.metadata{labels: {"added": "yes"}}}')] }),
  ...policy('jsonpatch', { mutations: [jp('[JSONPatch{op: "add", path: "/data/" + jsonpatch.escapeKey("a/b"), value: "v"}]')] }),
  ...policy('runtime-fail', { mutations: [ac('Object{data: {"x": object.data.missing}}')] }),
  ...policy('runtime-ignore', { failurePolicy: 'Ignore', mutations: [ac('Object{data: {"x": object.data.missing}}')] }),
  ...policy('typename', { mutations: [ac('Object{metadata: Object.spec{labels: {"a": "b"}}}')] }),
  ...policy('test-fail', { mutations: [jp('[JSONPatch{op: "test", path: "/data/x", value: "nope"}, JSONPatch{op: "add", path: "/data/y", value: "z"}]')] }),
  ...policy('replace-missing', { mutations: [jp('[JSONPatch{op: "replace", path: "/data/none", value: "z"}]')] }),
  ...policy('bad-op', { mutations: [jp('[JSONPatch{op: "frob", path: "/data/x", value: "z"}]')] }),
  ...policy('match-error', { matchConditions: [{ name: 'm', expression: 'object.data.missing == "x"' }], mutations: [ac('Object{data: {"q": "1"}}')] }),
  ...policy('vars', { variables: [{ name: 'v', expression: 'object.data.x + "-suffix"' }], mutations: [ac('Object{data: {"v": variables.v}}')] }),
  ...policy('vars-per-mutation', { variables: [{ name: 'a', expression: 'object.data.?a.orValue("none")' }],
    matchConditions: [{ name: 'ns', expression: 'variables.a == "none"' }],
    mutations: [ac('Object{data: {"a": "1"}}'), ac('Object{data: {"b": variables.a}}')] }),
  ...policy('bad-type', { mutations: [ac('Object{data: {"n": 1}}')] }),
  ...policy('atomic', { mutations: [ac('Object{spec: Object.spec{selector: Object.spec.selector{matchLabels: {"a": "b"}}}}')] }, ['deployments'], 'apps'),
  ...policy('env', { mutations: [ac(ENV)] }, ['deployments'], 'apps'),
  // One atomic value only: kube lists several in its map iteration order, which varies.
  ...policy('atomic-list', { mutations: [ac('Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: '
    + '[Object.spec.template.spec.containers{name: "c", args: ["x"]}]}}}}')] }, ['deployments'], 'apps'),
  ...policy('params', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, mutations: [ac('Object{metadata: Object.metadata{labels: {"from": params.data.v}}}')] },
    ['configmaps'], '', { paramRef: { name: 'p', namespace: NS, parameterNotFoundAction: 'Deny' } }),
  ...policy('noparam', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, mutations: [ac('Object{}')] },
    ['configmaps'], '', { paramRef: { name: 'absent', namespace: NS, parameterNotFoundAction: 'Deny' } }),
  ...policy('crd-merge', { mutations: [ac('Object{spec: Object.spec{items: [Object.spec.items{name: "b", size: 2}], tags: {"t": "1"}}}')] }, ['widgets'], 'map.example.com'),
  ...policy('crd-atomic', { mutations: [ac('Object{spec: Object.spec{fixed: Object.spec.fixed{a: "x"}}}')] }, ['widgets'], 'map.example.com'),
  ...policy('ns-in-match', { matchConditions: [{ name: 'n', expression: 'namespaceObject == null' }],
    mutations: [ac('Object{metadata: Object.metadata{labels: {"ns": namespaceObject.metadata.name}}}')] }),
  // refused at create
  ...policy('ce-undeclared', { mutations: [ac('Object{data: nope}')] }),
  ...policy('ce-dyn', { mutations: [ac('object')] }),
  ...policy('ce-spec', { mutations: [ac('Object.spec{}')] }),
  ...policy('ce-list', { mutations: [jp('[1]')] }),
  ...policy('ce-jpfield', { mutations: [jp('[JSONPatch{op: 1, path: "/x"}]')] }),
  ...policy('ce-syntax', { mutations: [ac('Object{data: ')] }),
  ...policy('ce-var', { variables: [{ name: 'v', expression: 'Object{}' }], mutations: [ac('Object{}')] }),
  ...policy('ce-mc', { matchConditions: [{ name: 'm', expression: 'Object{} == Object{}' }], mutations: [ac('Object{}')] }),
];

const WIDGETS = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.map.example.com' },
  spec: { group: 'map.example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
      items: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
        items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, size: { type: 'integer' } } } },
      tags: { type: 'object', additionalProperties: { type: 'string' } },
      fixed: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { a: { type: 'string' }, b: { type: 'string' } } },
    } } } } } }] },
};

/** The object or Status of a response, without what differs between any two servers. */
function comparable(r: RawResponse): unknown {
  const body = r.json() as Json;
  const meta = body['metadata'] as Json | undefined;
  if (body['kind'] !== 'Status' && meta !== undefined) {
    for (const k of ['uid', 'creationTimestamp', 'managedFields', 'resourceVersion', 'generation']) delete meta[k];
  }
  return { status: r.status, body };
}

describe('MutatingAdmissionPolicy against kube-apiserver', { skip }, () => {
  let kapi: Suite;
  let kube: Oracle;
  let targets: Target[] = [];
  const created = new Map<string, unknown[]>();

  before(async () => {
    [kapi, kube] = await Promise.all([startSuite(), startOracle()]);
    targets = [{ name: 'kapi', request: (r) => kapi.request(r) }, { name: 'kube', request: (r) => kube.request(r) }];
    for (const t of targets) {
      const post = (path: string, o: unknown): Promise<RawResponse> => t.request({ method: 'POST', path, contentType: 'application/json', body: json(o) });
      await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
      await post(`/api/v1/namespaces/${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p' }, data: { v: 'param-value' } });
      const crd = await post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', WIDGETS);
      assert.equal(crd.status, 201, `${t.name}: ${crd.text}`);
      for (const o of POLICIES) {
        const plural = o['kind'] === 'MutatingAdmissionPolicy' ? 'mutatingadmissionpolicies' : 'mutatingadmissionpolicybindings';
        const r = await post(`/apis/${V1}/${plural}`, o);
        created.set(t.name, [...(created.get(t.name) ?? []), r.status === 201 ? { status: 201 } : comparable(r)]);
      }
      // The last policies created, on both kinds (kube also waits for the kinds' schemas).
      await eventually(`${t.name}: policies in effect`, async () => {
        const c = await t.request(create('probe', 'ns-in-match'));
        const d = await t.request(deployment('env'));
        const w = await t.request(widget('crd-merge'));
        return c.status === 201 && JSON.stringify(c.json()).includes(`"ns":"${NS}"`) && d.status === 201 && JSON.stringify(d.json()).includes('"E"')
          && w.status === 201 && JSON.stringify(w.json()).includes('"t"') ? true : undefined;
      });
    }
  });
  after(async () => {
    await kapi?.close();
    await kube?.stop();
  });

  function create(name: string, kase: string): RawRequest {
    return { method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps?dryRun=All`, contentType: 'application/json',
      body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { case: kase } }, data: { x: 'y' } }) };
  }
  function deployment(kase: string): RawRequest {
    return { method: 'POST', path: `/apis/apps/v1/namespaces/${NS}/deployments?dryRun=All`, contentType: 'application/json',
      body: json({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: `d-${kase}`, labels: { case: kase } },
        spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } },
          spec: { containers: [{ name: 'c', image: 'nginx', env: [{ name: 'OLD', value: '0' }] }] } } } }) };
  }

  function widget(kase: string): RawRequest {
    return { method: 'POST', path: `/apis/map.example.com/v1/namespaces/${NS}/widgets?dryRun=All`, contentType: 'application/json',
      body: json({ apiVersion: 'map.example.com/v1', kind: 'Widget', metadata: { name: `w-${kase}`, labels: { case: kase } },
        spec: { items: [{ name: 'a', size: 1 }], tags: { old: '0' }, fixed: { b: 'y' } } }) };
  }

  it('creates and refuses the same policies with the same Status', () => {
    assert.deepEqual(created.get('kapi'), created.get('kube'));
  });

  const cases: { name: string; req: () => RawRequest }[] = [
    ...['label', 'jsonpatch', 'runtime-fail', 'runtime-ignore', 'typename', 'test-fail', 'replace-missing', 'bad-op', 'match-error', 'vars', 'vars-per-mutation', 'bad-type', 'params', 'noparam', 'ns-in-match']
      .map((k) => ({ name: k, req: () => create(`c-${k}`, k) })),
    ...['atomic', 'env', 'atomic-list'].map((k) => ({ name: k, req: () => deployment(k) })),
    ...['crd-merge', 'crd-atomic'].map((k) => ({ name: k, req: () => widget(k) })),
  ];
  for (const c of cases) {
    it(`a dry-run create: ${c.name}`, async () => {
      const [a, b] = await Promise.all(targets.map((t) => t.request(c.req())));
      assert.deepEqual(comparable(a!), comparable(b!));
    });
  }
});
