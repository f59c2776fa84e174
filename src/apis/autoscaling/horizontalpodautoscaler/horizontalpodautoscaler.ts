// HorizontalPodAutoscalers (pkg/registry/autoscaling/horizontalpodautoscaler): v2 and v1
// defaults, the strategy on the v2 hub, and the printer columns.
import type { ResourceDefinition, TableColumn, DeepReadonly } from '../../../registry/rest/strategy.ts';
import { ageColumn, copyOf, goFields, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { quantityString } from '../../core/v1/quantity.ts';
import { dropRoundTripAnnotations } from '../v1/conversion.ts';
import type { HorizontalPodAutoscalerV1 } from '../v1/types.ts';
import type { HorizontalPodAutoscaler, HPAScalingRules, MetricSpec, MetricStatus } from '../v2/types.ts';
import {
  validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerStatusUpdate, validateHorizontalPodAutoscalerUpdate,
} from './validation.ts';

type RO<T> = DeepReadonly<T>;

const defaultScaleUpRules = (): HPAScalingRules => ({
  stabilizationWindowSeconds: 0, selectPolicy: 'Max',
  policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }],
});
// No stabilization window: the controller's --horizontal-pod-autoscaler-downscale-stabilization applies.
const defaultScaleDownRules = (): HPAScalingRules => ({ selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });

/** copyHPAScalingRules: what the user set wins over the defaults. */
function mergeRules(from: HPAScalingRules | undefined, to: HPAScalingRules): HPAScalingRules {
  if (from === undefined) return to;
  if (from.selectPolicy !== undefined) to.selectPolicy = from.selectPolicy;
  if (from.stabilizationWindowSeconds !== undefined) to.stabilizationWindowSeconds = from.stabilizationWindowSeconds;
  if (from.policies !== undefined) to.policies = from.policies;
  if (from.tolerance !== undefined) to.tolerance = from.tolerance;
  return to;
}

/** autoscaling/v2 SetDefaults_HorizontalPodAutoscaler (and the annotation cleanup of its conversion). */
export function defaultHorizontalPodAutoscalerV2(hpa: HorizontalPodAutoscaler): void {
  // v2 round-trips to the hub without annotations; ones from other versions are dropped.
  dropRoundTripAnnotations(hpa.metadata);
  hpa.spec ??= { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 };
  hpa.spec.minReplicas ??= 1;
  if ((hpa.spec.metrics ?? []).length === 0) {
    hpa.spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  // Behavior defaults only fill a behavior the user gave.
  const b = hpa.spec.behavior;
  if (b != null) {
    b.scaleUp = mergeRules(b.scaleUp ?? undefined, defaultScaleUpRules());
    b.scaleDown = mergeRules(b.scaleDown ?? undefined, defaultScaleDownRules());
  }
}

/** autoscaling/v1 SetDefaults_HorizontalPodAutoscaler; the CPU target default is applied by conversion. */
export function defaultHorizontalPodAutoscalerV1(hpa: HorizontalPodAutoscalerV1): void {
  hpa.spec ??= { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 };
  hpa.spec.minReplicas ??= 1;
}

export const horizontalPodAutoscalerStrategy = specStatusStrategy<HorizontalPodAutoscaler>({
  prepareForCreate(_ctx, hpa) {
    hpa.status = { desiredReplicas: 0, currentMetrics: null };
  },
  validate: (hpa) => validateHorizontalPodAutoscaler(hpa),
  prepareForUpdate(_ctx, hpa, old) {
    if (old.status === undefined) delete hpa.status;
    else hpa.status = copyOf<NonNullable<HorizontalPodAutoscaler['status']>>(old.status);
  },
  revalidateOnUpdate: false,
  validateUpdate: (hpa, old) => validateHorizontalPodAutoscalerUpdate(hpa, old),
  // autoscaling/v2 HorizontalPodAutoscalerStatus: desiredReplicas and currentMetrics have no omitempty.
  canonicalize(hpa) {
    hpa.status ??= { desiredReplicas: 0, currentMetrics: null };
    goFields(hpa.status, { desiredReplicas: 0, currentMetrics: null }, ['currentReplicas', 'conditions']);
  },
});

export const horizontalPodAutoscalerStatusStrategy = statusStrategy<HorizontalPodAutoscaler>(horizontalPodAutoscalerStrategy, {
  validate: (hpa) => validateHorizontalPodAutoscalerStatusUpdate(hpa),
});

const qs = (v: string | number | undefined): string => quantityString(v);

/** One metric of the Targets column: "<name>: <current>/<target>". */
function formatMetric(spec: RO<MetricSpec>, status: RO<MetricStatus> | undefined): string {
  const unknown = '<unknown>';
  switch (spec.type) {
    case 'External': {
      const e = spec.external;
      if (e?.target?.averageValue !== undefined) {
        const cur = status?.external?.current?.averageValue;
        return `${e.metric?.name ?? ''}: ${cur === undefined ? unknown : qs(cur)}/${qs(e.target.averageValue)} (avg)`;
      }
      const cur = status?.external === undefined ? unknown : qs(status.external.current?.value);
      return `${e?.metric?.name ?? ''}: ${cur}/${qs(e?.target?.value)}`;
    }
    case 'Pods': {
      const cur = status?.pods === undefined ? unknown : qs(status.pods.current?.averageValue);
      return `${spec.pods?.metric?.name ?? ''}: ${cur}/${qs(spec.pods?.target?.averageValue)}`;
    }
    case 'Object': {
      const o = spec.object;
      if (o?.target?.averageValue !== undefined) {
        const cur = status?.object?.current?.averageValue;
        return `${o.metric?.name ?? ''}: ${cur === undefined ? unknown : qs(cur)}/${qs(o.target.averageValue)} (avg)`;
      }
      const cur = status?.object === undefined ? unknown : qs(status.object.current?.value);
      return `${o?.metric?.name ?? ''}: ${cur}/${qs(o?.target?.value)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const src = spec.type === 'Resource' ? spec.resource : spec.containerResource;
      const st = spec.type === 'Resource' ? status?.resource : status?.containerResource;
      const name = src?.name ?? '';
      if (src?.target?.averageValue !== undefined) {
        return `${name}: ${st === undefined ? unknown : qs(st.current?.averageValue)}/${qs(src.target.averageValue)}`;
      }
      const util = st?.current?.averageUtilization;
      const target = src?.target?.averageUtilization;
      return `${name}: ${util === undefined ? unknown : `${util}%`}/${target === undefined ? '<auto>' : `${target}%`}`;
    }
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics: at most two metrics, then "+ N more...". */
function formatHPAMetrics(hpa: RO<HorizontalPodAutoscaler>): string {
  const specs = hpa.spec.metrics ?? [];
  if (specs.length === 0) return '<none>';
  const statuses = hpa.status?.currentMetrics ?? [];
  const list = specs.map((s, i) => formatMetric(s, statuses[i]));
  const shown = list.slice(0, 2).join(', ');
  return list.length > 2 ? `${shown} + ${list.length - 2} more...` : shown;
}

const horizontalPodAutoscalerTable: readonly TableColumn<HorizontalPodAutoscaler>[] = [
  nameColumn<HorizontalPodAutoscaler>(),
  { name: 'Reference', type: 'string',    cell: (h) => `${h.spec.scaleTargetRef?.kind ?? ''}/${h.spec.scaleTargetRef?.name ?? ''}` },
  { name: 'Targets', type: 'string', cell: (h) => formatHPAMetrics(h) },
  { name: 'MinPods', type: 'string', cell: (h) => (h.spec.minReplicas === undefined ? '<unset>' : String(h.spec.minReplicas)) },
  { name: 'MaxPods', type: 'string', cell: (h) => h.spec.maxReplicas ?? 0 },
  { name: 'Replicas', type: 'string', cell: (h) => h.status?.currentReplicas ?? 0 },
  ageColumn<HorizontalPodAutoscaler>(),
];

/** Served as autoscaling/v2 (the hub and storage version). */
export const horizontalPodAutoscalers = {
  group: 'autoscaling', kind: 'HorizontalPodAutoscaler', resource: 'horizontalpodautoscalers', singular: 'horizontalpodautoscaler',
  shortNames: ['hpa'], categories: ['all'], namespaced: true,
  strategy: horizontalPodAutoscalerStrategy,
  statusStrategy: horizontalPodAutoscalerStatusStrategy,
  defaults: defaultHorizontalPodAutoscalerV2,
  table: horizontalPodAutoscalerTable,
} satisfies ResourceDefinition<HorizontalPodAutoscaler>;
