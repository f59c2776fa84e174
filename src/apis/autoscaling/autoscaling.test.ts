import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import {
  defaultHorizontalPodAutoscalerV1, defaultHorizontalPodAutoscalerV2, horizontalPodAutoscalers,
} from './horizontalpodautoscaler/horizontalpodautoscaler.ts';
import { autoscalingGroup } from './install.ts';
import {
  BEHAVIOR_SPECS_ANNOTATION, CONDITIONS_ANNOTATION, hpaFromV1, hpaToV1, METRIC_SPECS_ANNOTATION, METRIC_STATUSES_ANNOTATION,
} from './v1/conversion.ts';
import type { HorizontalPodAutoscalerV1 } from './v1/types.ts';
import type { HorizontalPodAutoscaler } from './v2/types.ts';

const ctx = systemContext('default');
const ref = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };

function v2(mut: (h: HorizontalPodAutoscaler) => void = () => {}): HorizontalPodAutoscaler {
  const h: HorizontalPodAutoscaler = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' }, spec: { scaleTargetRef: { ...ref }, maxReplicas: 5 } };
  mut(h);
  return h;
}

describe('autoscaling group', () => {
  it('lists v2 first (preferred, storage) then v1, with a v1 conversion', () => {
    assert.deepEqual(autoscalingGroup.versions.map((v) => v.version), ['v2', 'v1']);
    assert.deepEqual(autoscalingGroup.conversions?.map((c) => c.version), ['v1']);
    const def = autoscalingGroup.versions[0]?.resources[0];
    assert.equal(def?.resource, 'horizontalpodautoscalers');
    assert.deepEqual(def?.shortNames, ['hpa']);
    assert.deepEqual(def?.categories, ['all']);
  });
});

describe('hpa defaults', () => {
  it('v2: minReplicas 1 and an 80% CPU metric; no behavior unless given', () => {
    const h = v2();
    defaultHorizontalPodAutoscalerV2(h);
    assert.equal(h.spec.minReplicas, 1);
    assert.deepEqual(h.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    assert.equal(h.spec.behavior, undefined);
  });
  it('v2: a partial behavior is filled with the default rules', () => {
    const h = v2((x) => { x.spec.behavior = { scaleDown: { stabilizationWindowSeconds: 60 } }; });
    defaultHorizontalPodAutoscalerV2(h);
    assert.deepEqual(h.spec.behavior, {
      scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }], stabilizationWindowSeconds: 60 },
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max',
        policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
  });
  it('v1: minReplicas 1, and conversion makes the implicit 80% CPU target explicit', () => {
    const h: HorizontalPodAutoscalerV1 = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' },
      spec: { scaleTargetRef: { ...ref }, maxReplicas: 3 } };
    defaultHorizontalPodAutoscalerV1(h);
    const hub = hpaFromV1(h) as HorizontalPodAutoscaler;
    assert.equal(hub.spec.minReplicas, 1);
    assert.deepEqual(hub.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    assert.equal((hpaToV1(hub) as HorizontalPodAutoscalerV1).spec.targetCPUUtilizationPercentage, 80);
  });
});

describe('hpa conversion', () => {
  const rich = (): HorizontalPodAutoscaler => v2((h) => {
    h.metadata.annotations = { owner: 'me' };
    h.spec.minReplicas = 2;
    h.spec.metrics = [
      { type: 'Pods', pods: { metric: { name: 'qps', selector: { matchLabels: { a: 'b' } } }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '30' } } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
    ];
    h.spec.behavior = { scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] },
      scaleDown: { selectPolicy: 'Min', policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }], tolerance: '0.05' } };
    h.status = { observedGeneration: 1, currentReplicas: 3, desiredReplicas: 4,
      currentMetrics: [
        { type: 'Pods', pods: { metric: { name: 'qps' }, current: { averageValue: '12' } } },
        { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '250m', averageUtilization: 70 } } },
      ],
      conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'ReadyForNewScale' }] };
  });

  it('v2 → v1 puts CPU in targetCPUUtilizationPercentage and the rest in annotations', () => {
    const out = hpaToV1(rich()) as HorizontalPodAutoscalerV1;
    assert.deepEqual(out.spec, { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 60 });
    assert.deepEqual(out.status, { observedGeneration: 1, currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 70 });
    const a = out.metadata.annotations ?? {};
    assert.equal(a['owner'], 'me');
    assert.equal(a[METRIC_SPECS_ANNOTATION],
      '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10","selector":{"matchLabels":{"a":"b"}}}},' +
      '{"type":"External","external":{"metricName":"queue","targetValue":"30"}},' +
      '{"type":"Resource","resource":{"name":"memory","targetAverageValue":"500Mi"}}]');
    assert.equal(a[METRIC_STATUSES_ANNOTATION],
      '[{"type":"Pods","pods":{"metricName":"qps","currentAverageValue":"12"}},' +
      '{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":70,"currentAverageValue":"250m"}}]');
    assert.equal(a[CONDITIONS_ANNOTATION], '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-01-01T00:00:00Z","reason":"ReadyForNewScale"}]');
    assert.equal(a[BEHAVIOR_SPECS_ANNOTATION],
      '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15}],"Tolerance":null},' +
      '"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Min","Policies":[{"Type":"Percent","Value":10,"PeriodSeconds":60}],"Tolerance":"0.05"}}');
  });

  it('v2 → v1 → v2 is lossless (CPU utilization metric last, as kube orders it back)', () => {
    const h = rich();
    assert.deepEqual(hpaFromV1({ ...hpaToV1(h), apiVersion: 'autoscaling/v2' }), h);
  });

  it('v1 → hub → v1 is lossless', () => {
    const v1: HorizontalPodAutoscalerV1 = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'default', annotations: { owner: 'me' } },
      spec: { scaleTargetRef: { ...ref }, minReplicas: 1, maxReplicas: 10, targetCPUUtilizationPercentage: 50 },
      status: { observedGeneration: 2, lastScaleTime: '2024-01-01T00:00:00Z', currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 40 } };
    const hub = hpaFromV1(v1) as HorizontalPodAutoscaler;
    assert.deepEqual(hub.metadata.annotations, { owner: 'me' });
    // The CPU status only has a percentage; kube's v1 form keeps the raw status in an annotation.
    const back = hpaToV1({ ...hub, apiVersion: 'autoscaling/v1' }) as HorizontalPodAutoscalerV1;
    assert.deepEqual(back.spec, v1.spec);
    assert.deepEqual(back.status, v1.status);
    // As in kube, the raw CPU status also travels in an annotation (with Go's zero quantity).
    assert.deepEqual(back.metadata.annotations, { owner: 'me',
      [METRIC_STATUSES_ANNOTATION]: '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"0"}}]' });
  });

  it('annotations of another version are dropped on the way to the hub; malformed ones are ignored', () => {
    const v1: KubeObject = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', annotations: { [METRIC_SPECS_ANNOTATION]: 'not json', [BEHAVIOR_SPECS_ANNOTATION]: '{}' } },
      spec: { scaleTargetRef: ref, maxReplicas: 2 } } as KubeObject;
    const hub = hpaFromV1(v1) as HorizontalPodAutoscaler;
    assert.equal(hub.metadata.annotations, undefined);
    assert.equal(hub.spec.behavior, undefined);
    const h = v2((x) => { x.metadata.annotations = { [CONDITIONS_ANNOTATION]: '[]', keep: 'x' }; });
    defaultHorizontalPodAutoscalerV2(h);
    assert.deepEqual(h.metadata.annotations, { keep: 'x' });
  });
});

describe('hpa validation', () => {
  const cases: { name: string; mut: (h: HorizontalPodAutoscaler) => void; want: string[] }[] = [
    { name: 'scaleTargetRef missing', mut: (h) => { h.spec.scaleTargetRef = { kind: '', name: '' }; },
      want: ['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value',
        'spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group'] },
    { name: 'scaleTargetRef apiVersion of the core group', mut: (h) => { h.spec.scaleTargetRef = { apiVersion: 'v1', kind: 'Deployment', name: 'd' }; },
      want: ['spec.scaleTargetRef.apiVersion: Invalid value: "v1": apiVersion must specify API group'] },
    { name: 'a ReplicationController may have the core group', mut: (h) => { h.spec.scaleTargetRef = { apiVersion: 'v1', kind: 'ReplicationController', name: 'r' }; },
      want: [] },
    { name: 'scaleTargetRef apiVersion with two slashes', mut: (h) => { h.spec.scaleTargetRef = { apiVersion: 'a/b/c', kind: 'Deployment', name: 'd' }; },
      want: ['spec.scaleTargetRef.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c'] },
    { name: 'maxReplicas -1', mut: (h) => { h.spec.maxReplicas = -1; delete h.spec.minReplicas; },
      want: ['spec.maxReplicas: Invalid value: -1: must be greater than or equal to 1'] },
    { name: 'negative tolerance, shown canonical', mut: (h) => { h.spec.behavior = { scaleUp: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }], tolerance: '-0.1' } }; },
      want: ['spec.behavior.scaleUp.tolerance: Invalid value: "-100m": must be greater than or equal to 0'] },
    { name: 'containerResource name not for containers', mut: (h) => {
      h.spec.metrics = [{ type: 'ContainerResource', containerResource: { name: 'pods', container: 'c', target: { type: 'Utilization', averageUtilization: 5 } } }];
    }, want: ['spec.metrics[0].containerResource.name: Invalid value: "pods": must be a standard resource for containers'] },
    { name: 'min above max', mut: (h) => { h.spec.minReplicas = 6; },
      want: ['spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`'] },
    { name: 'max zero', mut: (h) => { h.spec.maxReplicas = 0; h.spec.minReplicas = 0; },
      want: ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1', 'spec.maxReplicas: Required value: must be set and greater than 0',
        'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas'] },
    { name: 'metric type and source disagree', mut: (h) => { h.spec.metrics = [{ type: 'Pods', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]; },
      want: ['spec.metrics[0].pods: Required value: must populate information for the given metric source'] },
    { name: 'two metric sources', mut: (h) => { h.spec.metrics = [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1' } },
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]; },
      want: ['spec.metrics[0].resource: Forbidden: must populate the given metric source only'] },
    { name: 'resource target without value', mut: (h) => { h.spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } }]; },
      want: ['spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization'] },
    { name: 'bad behavior', mut: (h) => { h.spec.behavior = { scaleUp: { selectPolicy: 'Any', policies: [{ type: 'Pods', value: 0, periodSeconds: 1801 }] }, scaleDown: { policies: [] } }; },
      want: ['spec.behavior.scaleUp.selectPolicy: Unsupported value: "Any": supported values: "Disabled", "Max", "Min"',
        'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
        'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
        'spec.behavior.scaleDown.policies: Required value: must specify at least one Policy'] },
  ];
  for (const c of cases) {
    it(`rejects ${c.name}`, () => {
      const h = v2(c.mut);
      assert.deepEqual(horizontalPodAutoscalers.strategy.validate(ctx, h).map(formatFieldError), c.want);
    });
  }
  it('accepts a defaulted object', () => {
    const h = v2();
    defaultHorizontalPodAutoscalerV2(h);
    assert.deepEqual(horizontalPodAutoscalers.strategy.validate(ctx, h), []);
  });
});

describe('hpa strategy and table', () => {
  it('resets status on create, keeps it on update, and has no generation (kube\'s autoscalerStrategy sets none)', () => {
    const h = v2((x) => { x.status = { desiredReplicas: 9 }; });
    horizontalPodAutoscalers.strategy.prepareForCreate(ctx, h);
    assert.deepEqual(h.status, { desiredReplicas: 0, currentMetrics: null });
    assert.equal(h.metadata.generation, undefined);
    const old = structuredClone(h);
    old.status = { currentReplicas: 2, desiredReplicas: 2 };
    const next = structuredClone(h);
    next.spec.maxReplicas = 7;
    horizontalPodAutoscalers.strategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.status, { currentReplicas: 2, desiredReplicas: 2 });
    assert.equal(next.metadata.generation, undefined);
    const st = structuredClone(old);
    st.spec.maxReplicas = 99;
    horizontalPodAutoscalers.statusStrategy.prepareForUpdate(ctx, st, old);
    assert.equal(st.spec.maxReplicas, 5);
  });

  it('prints REFERENCE TARGETS MINPODS MAXPODS REPLICAS', () => {
    const h = v2((x) => {
      x.metadata.creationTimestamp = '2024-01-01T00:00:00Z';
      x.spec.metrics = [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
        { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
        { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '3' } } },
      ];
      x.status = { currentReplicas: 2, desiredReplicas: 2, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 12 } } }] };
    });
    const now = Date.parse('2024-01-01T00:05:00Z');
    assert.deepEqual(horizontalPodAutoscalers.table.map((c) => c.cell(h, now)),
      ['web', 'Deployment/web', 'cpu: 12%/80%, qps: <unknown>/10 + 1 more...', '<unset>', 5, 2, '5m']);
  });
});
