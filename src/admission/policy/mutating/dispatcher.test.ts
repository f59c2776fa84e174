import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import { schemaForGVK } from '../../../apimachinery/openapi/index.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { MutatingAdmissionPolicyBinding, MutatingAdmissionPolicySpec } from '../../../generated/types/admissionregistrationv1.gen.ts';
import { reinvocationContext, type Attributes, type ObjectInterfaces } from '../../interfaces.ts';
import { attrs } from '../../testing/attributes.ts';
import type { ParamSource } from '../generic.ts';
import { compileMutatingPolicy } from './compile.ts';
import { dispatchMutating, type MutatingPolicyHook } from './dispatcher.ts';

const rules = (resources = ['configmaps'], group = '') =>
  ({ resourceRules: [{ apiGroups: [group], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources }], namespaceSelector: {}, objectSelector: {} });
const cm = (data: Record<string, string> = { x: 'y' }, labels: Record<string, string> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns', labels }, data } as KubeObject);
const namespaces = async (name: string): Promise<KubeObject | undefined> => (name === 'ns' ? { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } : undefined);

/** Enough of ObjectInterfaces for these tests: identity conversion, add/replace/test JSON patches, kube's schemas. */
const interfaces: ObjectInterfaces = {
  convert: (o) => o,
  decode: (v) => v as KubeObject,
  goJSON: (o) => o,
  jsonPatch(doc, ops) {
    const out = structuredClone(doc) as Record<string, unknown>;
    for (const op of ops as { op: string; path: string; value?: unknown }[]) {
      const parts = op.path.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
      const last = parts.pop() ?? '';
      let at = out;
      for (const p of parts) at = at[p] as Record<string, unknown>;
      if (op.op === 'test') { if (at[last] !== op.value) throw new Error(`testing value ${op.path} failed: test failed`); continue; }
      at[last] = op.value;
    }
    return out;
  },
  equivalentResources: (r) => [r],
  kindFor: () => undefined,
  schemaFor: schemaForGVK,
};

function paramsOf(objs: KubeObject[]): ParamSource {
  return { namespaced: true, get: async (ns, n) => objs.find((o) => o.metadata.name === n && o.metadata.namespace === ns), list: async () => objs };
}

function hook(spec: Partial<MutatingAdmissionPolicySpec>, bindings: Partial<MutatingAdmissionPolicyBinding['spec']>[] = [{}], params?: ParamSource, name = 'p'): MutatingPolicyHook {
  return {
    compiled: compileMutatingPolicy({ metadata: { name }, spec: { failurePolicy: 'Fail', reinvocationPolicy: 'Never', matchConstraints: rules(), ...spec } }),
    bindings: bindings.map((b, i) => ({ metadata: { name: `b${String(i)}` }, spec: { policyName: name, ...b } })),
    params,
  };
}

const ac = (expression: string) => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } });
const jp = (expression: string) => ({ patchType: 'JSONPatch', jsonPatch: { expression } });

async function run(hooks: MutatingPolicyHook[], a: Attributes): Promise<{ status?: { code: number; reason: string; message: string } }> {
  try {
    await dispatchMutating(systemContext('ns'), a, hooks, { getNamespace: namespaces, authorizer: { authorize: () => ({ decision: 'allow', reason: '' }) } });
    return {};
  } catch (err) {
    const st = (err as { status: { code: number; reason: string; message: string } }).status;
    return { status: { code: st.code, reason: st.reason, message: st.message } };
  }
}

const request = (o: KubeObject): Attributes => ({ ...attrs(o, { resource: 'configmaps', kind: 'ConfigMap' }), interfaces });

describe('MutatingAdmissionPolicy dispatch (mutating/dispatcher.go)', () => {
  const cases: { name: string; hooks: MutatingPolicyHook[]; want: Record<string, unknown> | { status: { code: number; reason: string; message: string } } }[] = [
    { name: 'an apply configuration sets a label, the others kept',
      hooks: [hook({ mutations: [ac('Object{metadata: Object.metadata{labels: {"added": "yes"}}}')] })],
      want: { labels: { keep: 'me', added: 'yes' }, data: { x: 'y' } } },
    { name: 'a JSON patch adds a key, escaped',
      hooks: [hook({ mutations: [jp('[JSONPatch{op: "add", path: "/data/" + jsonpatch.escapeKey("a/b~c"), value: object.data.x + "!"}]')] })],
      want: { labels: { keep: 'me' }, data: { x: 'y', 'a/b~c': 'y!' } } },
    { name: 'a JSON patch whose test fails is not applied (no error)',
      hooks: [hook({ mutations: [jp('[JSONPatch{op: "test", path: "/data/x", value: "no"}, JSONPatch{op: "add", path: "/data/z", value: "1"}]')] })],
      want: { labels: { keep: 'me' }, data: { x: 'y' } } },
    { name: 'mutations in order, each seeing the previous, with variables',
      hooks: [hook({ variables: [{ name: 'v', expression: 'object.data.x + "-v"' }],
        mutations: [ac('Object{data: {"a": variables.v}}'), ac('Object{data: {"b": object.data.a + "+"}}')] })],
      want: { labels: { keep: 'me' }, data: { x: 'y', a: 'y-v', b: 'y-v+' } } },
    { name: 'variables are computed again for each mutation, on the object the previous one left',
      hooks: [hook({ variables: [{ name: 'a', expression: 'object.data.?a.orValue("none")' }],
        mutations: [ac('Object{data: {"a": "1"}}'), ac('Object{data: {"b": variables.a}}')] })],
      want: { labels: { keep: 'me' }, data: { x: 'y', a: '1', b: '1' } } },
    { name: 'a failing expression under Fail refuses the request (403 Invalid)',
      hooks: [hook({ mutations: [ac('Object{data: {"x": object.data.missing}}')] })],
      want: { status: { code: 403, reason: 'Invalid', message: 'policy \'p\' with binding \'b0\' denied request: expression \'Object{data: {"x": object.data.missing}}\' resulted in error: no such key: missing' } } },
    { name: 'a failing expression under Ignore leaves the object as it was',
      hooks: [hook({ failurePolicy: 'Ignore', mutations: [ac('Object{data: {"x": object.data.missing}}')] })],
      want: { labels: { keep: 'me' }, data: { x: 'y' } } },
    { name: 'an object of the wrong type name is a type mismatch',
      hooks: [hook({ mutations: [ac('Object{metadata: Object.spec{labels: {"a": "b"}}}')] })],
      want: { status: { code: 403, reason: 'Invalid', message: 'policy \'p\' with binding \'b0\' denied request: type mismatch: unexpected type name "Object.spec", expected "Object.metadata", which matches field name path from root Object type' } } },
    { name: 'a value of the wrong type for the schema',
      hooks: [hook({ mutations: [ac('Object{data: {"n": 1}}')] })],
      want: { status: { code: 403, reason: 'Invalid', message: 'policy \'p\' with binding \'b0\' denied request: error applying patch: failed to convert patch object to typed object: .data.n: expected string, got &value.valueUnstructured{Value:1}' } } },
    { name: 'a match condition that is false skips the policy',
      hooks: [hook({ matchConditions: [{ name: 'm', expression: 'false' }], mutations: [ac('Object{data: {"z": "1"}}')] })],
      want: { labels: { keep: 'me' }, data: { x: 'y' } } },
    { name: 'match conditions see no namespace (kube\'s matcher passes none), mutations do',
      hooks: [hook({ matchConditions: [{ name: 'm', expression: 'namespaceObject == null' }], mutations: [ac('Object{data: {"ns": namespaceObject.metadata.name}}')] })],
      want: { labels: { keep: 'me' }, data: { x: 'y', ns: 'ns' } } },
    { name: 'a match condition in error refuses under Fail',
      hooks: [hook({ matchConditions: [{ name: 'm', expression: 'object.data.missing == "x"' }], mutations: [ac('Object{data: {"z": "1"}}')] })],
      want: { status: { code: 403, reason: 'Invalid', message: 'policy \'p\' with binding \'b0\' denied request: expression \'object.data.missing == "x"\' resulted in error: no such key: missing' } } },
    { name: 'params read from a ConfigMap',
      hooks: [hook({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, mutations: [ac('Object{metadata: Object.metadata{labels: {"from": params.data.v}}}')] },
        [{ paramRef: { name: 'p', namespace: 'ns', parameterNotFoundAction: 'Deny' } }], paramsOf([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p', namespace: 'ns' }, data: { v: 'pv' } } as KubeObject]))],
      want: { labels: { keep: 'me', from: 'pv' }, data: { x: 'y' } } },
    { name: 'a missing param with Deny is a configuration error (403 Forbidden)',
      hooks: [hook({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, mutations: [ac('Object{}')] }, [{ paramRef: { name: 'absent', namespace: 'ns', parameterNotFoundAction: 'Deny' } }], paramsOf([]))],
      want: { status: { code: 403, reason: 'Forbidden', message: 'policy \'p\' with binding \'b0\' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction' } } },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const o = cm({ x: 'y' }, { keep: 'me' });
      const r = await run(c.hooks, request(o));
      if ('status' in c.want) { assert.deepEqual(r.status, c.want.status); return; }
      assert.equal(r.status, undefined);
      assert.deepEqual({ labels: o.metadata.labels, data: (o as KubeObject & { data?: unknown }).data }, c.want);
    });
  }

  it('refuses to mutate an atomic struct (a Deployment\'s selector)', async () => {
    const d = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'ns' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { spec: { containers: [{ name: 'c', image: 'i', env: [{ name: 'OLD', value: '0' }] }] } } } } as KubeObject;
    const a = { ...attrs(d, { resource: 'deployments', kind: 'Deployment', group: 'apps' }), interfaces };
    const atomic = hook({ matchConstraints: rules(['deployments'], 'apps'),
      mutations: [ac('Object{spec: Object.spec{selector: Object.spec.selector{matchLabels: {"x": "y"}}}}')] });
    assert.deepEqual((await run([atomic], a)).status, { code: 403, reason: 'Invalid',
      message: 'policy \'p\' with binding \'b0\' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.selector' });
    const env = hook({ matchConstraints: rules(['deployments'], 'apps'), mutations: [ac(
      'Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{name: "c", env: [Object.spec.template.spec.containers.env{name: "E", value: "1"}]}]}}}}')] });
    assert.equal((await run([env], a)).status, undefined);
    assert.deepEqual((d as KubeObject & { spec: { template: { spec: { containers: unknown } } } }).spec.template.spec.containers,
      [{ name: 'c', image: 'i', env: [{ name: 'OLD', value: '0' }, { name: 'E', value: '1' }] }]);
  });

  it('reinvokes IfNeeded policies in the second round when the object changed after them, not Never ones', async () => {
    const counting = (name: string, policy: 'IfNeeded' | 'Never') =>
      hook({ reinvocationPolicy: policy, mutations: [ac(`Object{data: {"${name}": string(int(object.data.?${name}.orValue("0")) + 1)}}`)] }, [{}], undefined, name);
    const o = cm({});
    const a = request(o);
    const hooks = [counting('ifneeded', 'IfNeeded'), counting('never', 'Never')];
    assert.equal((await run(hooks, a)).status, undefined);
    assert.equal(reinvocationContext(a).shouldReinvoke, true);
    reinvocationContext(a).isReinvoke = true;
    assert.equal((await run(hooks, a)).status, undefined);
    assert.deepEqual((o as KubeObject & { data?: unknown }).data, { ifneeded: '2', never: '1' });
  });
});
