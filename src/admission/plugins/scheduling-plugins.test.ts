import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { assertStatus, attrs, userContext } from '../testing/attributes.ts';
import { taintNodesByCondition } from './node-taint.ts';
import { podNodeSelector, selectorToLabelsMap } from './pod-node-selector.ts';
import { parseTolerationRestrictionConfig, podTolerationRestriction } from './pod-toleration-restriction.ts';
import { nodeDeclaredFeatureValidator } from './node-declared-features.ts';
import { podResizeValidator } from './pod-resize.ts';
import { podTopologyLabels } from './pod-topology-labels.ts';
import { runtimeClassAdmission, type RuntimeClassLike } from './runtime-class.ts';
import { mergeTolerations, type Toleration } from './tolerations.ts';

const ctx = userContext();
type Spec = Record<string, unknown>;
const pod = (spec: Spec = {}, meta: Record<string, unknown> = {}): KubeObject & { spec: Spec } =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', ...meta }, spec: { containers: [{ name: 'c' }], ...spec } });
const ns = (annotations: Record<string, string> = {}): KubeObject => ({ metadata: { name: 'ns', annotations } });

describe('TaintNodesByCondition', () => {
  const cases = [
    { name: 'a new node gets the not-ready NoSchedule taint', taints: undefined,
      want: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] },
    { name: 'kept once when present (any value)', taints: [{ key: 'node.kubernetes.io/not-ready', value: 'x', effect: 'NoSchedule' }],
      want: [{ key: 'node.kubernetes.io/not-ready', value: 'x', effect: 'NoSchedule' }] },
    { name: 'added after other taints', taints: [{ key: 'a', effect: 'NoExecute' }],
      want: [{ key: 'a', effect: 'NoExecute' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const node: KubeObject & { spec: { taints?: unknown } } = { kind: 'Node', metadata: { name: 'n' }, spec: c.taints === undefined ? {} : { taints: c.taints } };
      await taintNodesByCondition().admit?.(ctx, attrs(node, { resource: 'nodes' }));
      assert.deepEqual(node.spec.taints, c.want);
    });
  }
  it('leaves node status updates alone', async () => {
    const node: KubeObject & { spec: { taints?: unknown } } = { kind: 'Node', metadata: { name: 'n' }, spec: {} };
    await taintNodesByCondition().admit?.(ctx, attrs(node, { resource: 'nodes', subresource: 'status' }));
    assert.equal(node.spec.taints, undefined);
  });
});

describe('mergeTolerations (pkg/util/tolerations)', () => {
  const cases: { name: string; first: Toleration[]; second: Toleration[]; want: Toleration[] }[] = [
    { name: 'equal ones once', first: [{ key: 'a', operator: 'Equal', value: 'x' }], second: [{ key: 'a', operator: 'Equal', value: 'x' }],
      want: [{ key: 'a', operator: 'Equal', value: 'x' }] },
    { name: 'an Exists of the key covers its Equal', first: [{ key: 'a', operator: 'Equal', value: 'x', effect: 'NoSchedule' }],
      second: [{ key: 'a', operator: 'Exists' }], want: [{ key: 'a', operator: 'Exists' }] },
    { name: 'a shorter NoExecute window is covered by a longer one',
      first: [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }],
      second: [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 }],
      want: [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 }] },
    { name: 'different keys both stay', first: [{ key: 'a', operator: 'Exists' }], second: [{ key: 'b', operator: 'Exists' }],
      want: [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists' }] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(mergeTolerations(c.first, c.second), c.want));
});

describe('RuntimeClass', () => {
  const classes: Record<string, RuntimeClassLike> = {
    plain: { metadata: { name: 'plain' } },
    heavy: { metadata: { name: 'heavy' }, overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } },
    pinned: { metadata: { name: 'pinned' }, scheduling: { nodeSelector: { sandbox: 'true' }, tolerations: [{ key: 'sandbox', operator: 'Exists' }] } },
  };
  const plugin = runtimeClassAdmission(async (n) => classes[n]);
  const run = async (p: KubeObject): Promise<void> => {
    await plugin.admit?.(ctx, attrs(p));
    await plugin.validate?.(ctx, attrs(p));
  };
  it('sets the class overhead', async () => {
    const p = pod({ runtimeClassName: 'heavy' });
    await run(p);
    assert.deepEqual(p.spec['overhead'], { cpu: '250m', memory: '120Mi' });
  });
  it('accepts a pod overhead equal in value to the class', async () => {
    const p = pod({ runtimeClassName: 'heavy', overhead: { cpu: '0.25', memory: '120Mi' } });
    await run(p);
    assert.deepEqual(p.spec['overhead'], { cpu: '250m', memory: '120Mi' });
  });
  it('merges the node selector and the tolerations', async () => {
    const p = pod({ runtimeClassName: 'pinned', nodeSelector: { zone: 'a' }, tolerations: [{ key: 'x', operator: 'Exists' }] });
    await run(p);
    assert.deepEqual(p.spec['nodeSelector'], { zone: 'a', sandbox: 'true' });
    assert.deepEqual(p.spec['tolerations'], [{ key: 'x', operator: 'Exists' }, { key: 'sandbox', operator: 'Exists' }]);
  });
  const refusals = [
    { name: 'a missing class', spec: { runtimeClassName: 'gone' }, want: 'pods "p" is forbidden: pod rejected: RuntimeClass "gone" not found' },
    { name: 'a different overhead', spec: { runtimeClassName: 'heavy', overhead: { cpu: '1' } },
      want: 'pods "p" is forbidden: pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead' },
    { name: 'an overhead without a class overhead', spec: { runtimeClassName: 'plain', overhead: { cpu: '1' } },
      want: 'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead' },
    { name: 'an overhead without a class', spec: { overhead: { cpu: '1' } },
      want: 'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead' },
    { name: 'a conflicting node selector', spec: { runtimeClassName: 'pinned', nodeSelector: { sandbox: 'false' } },
      want: 'pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = true; pod.spec.nodeSelector[sandbox] = false' },
  ];
  for (const c of refusals) it(`refuses ${c.name} with 403`, () => assertStatus(run(pod(c.spec)), 403, 'Forbidden', c.want));
});

describe('PodNodeSelector', () => {
  const namespaces = (a: Record<string, string>) => async () => ns(a);
  const config = 'podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: env=dev\n  ns: env=dev,zone=a\n';
  const cases = [
    { name: 'the cluster default without an annotation', annotations: {}, spec: {}, want: { env: 'dev' } },
    { name: 'the namespace annotation instead of the default', annotations: { 'scheduler.alpha.kubernetes.io/node-selector': 'zone=a' },
      spec: { nodeSelector: { env: 'dev' } }, want: { zone: 'a', env: 'dev' } },
    { name: 'an empty annotation adds nothing', annotations: { 'scheduler.alpha.kubernetes.io/node-selector': '' }, spec: {}, want: undefined },
  ];
  for (const c of cases) {
    it(`merges ${c.name}`, async () => {
      const p = pod(c.spec);
      await podNodeSelector(namespaces(c.annotations), config).admit?.(ctx, attrs(p));
      assert.deepEqual(p.spec['nodeSelector'], c.want);
    });
  }
  const refusals = [
    { name: 'a conflict with the namespace', annotations: {}, spec: { nodeSelector: { env: 'prod' } }, code: 403, reason: 'Forbidden',
      want: 'pods "p" is forbidden: pod node label selector conflicts with its namespace node label selector' },
    { name: 'labels outside the whitelist', annotations: {}, spec: { nodeSelector: { gpu: 'yes' } }, code: 403, reason: 'Forbidden',
      want: 'pods "p" is forbidden: pod node label selector labels conflict with its namespace whitelist' },
    { name: 'a malformed annotation (a plain error: 500)', annotations: { 'scheduler.alpha.kubernetes.io/node-selector': 'env' }, spec: {},
      code: 500, reason: '', want: 'invalid selector: [env]' },
  ];
  for (const c of refusals) {
    it(`refuses ${c.name}`, () => assertStatus(podNodeSelector(namespaces(c.annotations), config).admit?.(ctx, attrs(pod(c.spec))), c.code, c.reason, c.want));
  }
  it('parses selectors as labels.ConvertSelectorToLabelsMap', () => {
    assert.deepEqual(selectorToLabelsMap(' a = b ,c=d'), { a: 'b', c: 'd' });
    assert.throws(() => selectorToLabelsMap('a=b=c'), { message: 'invalid selector: [a b c]' });
  });
});

describe('PodTolerationRestriction', () => {
  const noValidation = (): string[] => [];
  const cfg = parseTolerationRestrictionConfig('apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1\nkind: Configuration\n' +
    'default:\n- key: cluster\n  operator: Exists\nwhitelist:\n- key: cluster\n  operator: Exists\n', noValidation);
  const plugin = (annotations: Record<string, string>, qos = 'BestEffort', c = cfg) => podTolerationRestriction(async () => ns(annotations), c, () => qos);
  it('adds the cluster default tolerations to a new pod', async () => {
    const p = pod();
    await plugin({}).admit?.(ctx, attrs(p));
    assert.deepEqual(p.spec['tolerations'], [{ key: 'cluster', operator: 'Exists' }]);
  });
  it('prefers the namespace defaults and tolerates memory pressure when not BestEffort', async () => {
    const p = pod();
    await plugin({ 'scheduler.alpha.kubernetes.io/defaultTolerations': '[{"key":"team","operator":"Exists"}]' }, 'Burstable', { default: [], whitelist: [] }).admit?.(ctx, attrs(p));
    assert.deepEqual(p.spec['tolerations'], [{ key: 'team', operator: 'Exists' },
      { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' }]);
  });
  const refusals = [
    { name: 'the cluster whitelist', annotations: {}, spec: { tolerations: [{ key: 'other', operator: 'Exists' }] },
      want: 'pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist' },
    { name: 'the namespace whitelist', annotations: { 'scheduler.alpha.kubernetes.io/tolerationsWhitelist': '[{"key":"team","operator":"Exists"}]' },
      spec: { tolerations: [{ key: 'other', operator: 'Exists' }] },
      want: 'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist' },
    { name: 'a malformed annotation', annotations: { 'scheduler.alpha.kubernetes.io/defaultTolerations': '{' }, spec: {},
      want: 'unexpected end of JSON input' },
  ];
  for (const c of refusals) it(`refuses a pod outside ${c.name} with kube's 500`, () => assertStatus(plugin(c.annotations).admit?.(ctx, attrs(pod(c.spec))), 500, '', c.want));

  const configErrors = [
    { name: 'no kind', text: 'apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1\n',
      want: "Object 'Kind' is missing in 'apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1\n'" },
    { name: 'another kind', text: 'apiVersion: v1\nkind: Pod\n', want: 'no kind "Pod" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"' },
  ];
  for (const c of configErrors) it(`refuses a configuration with ${c.name}`, () => assert.throws(() => parseTolerationRestrictionConfig(c.text, noValidation), { message: c.want }));
  it('refuses invalid tolerations in the configuration with kube\'s list', () => {
    assert.throws(() => parseTolerationRestrictionConfig('apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1\nkind: Configuration\ndefault:\n- operator: Equal\n',
      (_ts, path) => [`${path}[0].operator: Invalid value: "Equal": operator must be Exists when \`key\` is empty, which means "match all values and all keys"`]),
    { message: 'invalid config: [podtolerationrestriction.default[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys" ' +
      'podtolerationrestriction.whitelist[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"]' });
  });
});

describe('PodTopologyLabels', () => {
  const nodes: Record<string, KubeObject> = {
    zoned: { metadata: { name: 'zoned', labels: { 'topology.kubernetes.io/zone': 'z1', 'topology.kubernetes.io/region': 'r1', 'other': 'x' } } },
  };
  const plugin = podTopologyLabels(async (n) => nodes[n]);
  const cases = [
    { name: 'a pod created on a node gets its zone and region', obj: pod({ nodeName: 'zoned' }), o: {},
      want: { 'topology.kubernetes.io/zone': 'z1', 'topology.kubernetes.io/region': 'r1' } },
    { name: 'a binding to a node carries them to the pod', obj: { kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'zoned' } } as KubeObject,
      o: { subresource: 'binding' }, want: { 'topology.kubernetes.io/zone': 'z1', 'topology.kubernetes.io/region': 'r1' } },
    { name: 'an unknown node adds nothing', obj: pod({ nodeName: 'gone' }), o: {}, want: undefined },
    { name: 'an unbound pod is left alone', obj: pod(), o: {}, want: undefined },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      await plugin.admit?.(ctx, attrs(c.obj, c.o));
      assert.deepEqual(c.obj.metadata.labels, c.want);
    });
  }
});

describe('PodResizeValidator', () => {
  const nodes: Record<string, KubeObject> = {
    small: { metadata: { name: 'small' }, status: { allocatable: { cpu: '1', memory: '1Gi' } } } as KubeObject,
    win: { metadata: { name: 'win', labels: { 'kubernetes.io/os': 'windows' } } },
  };
  const plugin = podResizeValidator(async (n) => nodes[n]);
  const resized = (node: string, cpu: string, generation = 2): KubeObject & { spec: Spec } => {
    const p = pod({ nodeName: node, containers: [{ name: 'c', resources: { requests: { cpu, memory: '2Gi' } } }] });
    p.metadata.generation = generation;
    return p;
  };
  const old = pod();
  old.metadata.generation = 1;
  it('allows a resize that fits', async () => {
    await plugin.validate?.(ctx, attrs(resized('small', '500m', 1), { operation: 'UPDATE', subresource: 'resize', oldObject: old }));
  });
  it('refuses one beyond allocatable, with the NodeCapacity cause', async () => {
    await assert.rejects(plugin.validate?.(ctx, attrs(resized('small', '2'), { operation: 'UPDATE', subresource: 'resize', oldObject: old })) ?? Promise.resolve(),
      (err: unknown) => {
        const st = (err as { status: { code: number; message: string; details?: { causes?: unknown[] } } }).status;
        assert.equal(st.code, 403);
        assert.equal(st.message, 'pods "p" is forbidden: node didn\'t have enough allocatable resources: cpu, requested: 2000, allocatable: 1000; ' +
          'memory, requested: 2147483648, allocatable: 1073741824');
        assert.deepEqual(st.details?.causes, [{ reason: 'NodeCapacity' }]);
        return true;
      });
  });
  it('refuses a non-Linux node', () => assertStatus(plugin.validate?.(ctx, attrs(resized('win', '1'), { operation: 'UPDATE', subresource: 'resize', oldObject: old })),
    403, 'Forbidden', 'pods "p" is forbidden: pod resize is only supported on linux nodes, node "win" is "windows"'));
});

describe('NodeDeclaredFeatureValidator', () => {
  const nodes: Record<string, KubeObject> = {
    plain: { metadata: { name: 'plain' } },
    modern: { metadata: { name: 'modern' }, status: { declaredFeatures: ['InPlacePodLevelResourcesVerticalScaling', 'InPlacePodVerticalScalingInitContainers'] } } as KubeObject,
  };
  const plugin = nodeDeclaredFeatureValidator(async (n) => nodes[n]);
  const withGen = (p: KubeObject & { spec: Spec }, g: number): KubeObject & { spec: Spec } => { p.metadata.generation = g; return p; };
  const cases = [
    { name: 'a pod-level resize on a node without the feature', node: 'plain', old: { resources: { requests: { cpu: '1' } } }, cur: { resources: { requests: { cpu: '2' } } },
      want: 'pods "p" is forbidden: pod update requires features InPlacePodLevelResourcesVerticalScaling which are not available on node "plain"' },
    { name: 'an init container resize on a node without the feature', node: 'plain',
      old: { initContainers: [{ name: 'i', resources: { requests: { cpu: '1' } } }] }, cur: { initContainers: [{ name: 'i', resources: { requests: { cpu: '2' } } }] },
      want: 'pods "p" is forbidden: pod update requires features InPlacePodVerticalScalingInitContainers which are not available on node "plain"' },
    { name: 'a sidecar resize (no feature needed)', node: 'plain',
      old: { initContainers: [{ name: 'i', restartPolicy: 'Always', resources: { requests: { cpu: '1' } } }] },
      cur: { initContainers: [{ name: 'i', restartPolicy: 'Always', resources: { requests: { cpu: '2' } } }] }, want: undefined },
    { name: 'a pod-level resize on a node declaring it', node: 'modern', old: { resources: { requests: { cpu: '1' } } }, cur: { resources: { requests: { cpu: '2' } } }, want: undefined },
    { name: 'an equal value written differently', node: 'plain', old: { resources: { requests: { cpu: '1' } } }, cur: { resources: { requests: { cpu: '1000m' } } }, want: undefined },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const p = plugin.validate?.(ctx, attrs(withGen(pod({ nodeName: c.node, ...c.cur }), 2), { operation: 'UPDATE', subresource: 'resize', oldObject: withGen(pod({ nodeName: c.node, ...c.old }), 1) }));
      if (c.want === undefined) await p;
      else await assertStatus(p, 403, 'Forbidden', c.want);
    });
  }
});
