// autoscaling/v1 <-> autoscaling/v2 (the hub) for HorizontalPodAutoscaler, as
// pkg/apis/autoscaling/v1/conversion.go does it: v1 only has targetCPUUtilizationPercentage and
// currentCPUUtilizationPercentage, so every other metric, the raw metric statuses, the
// conditions and the behavior travel in autoscaling.alpha.kubernetes.io/* annotations, which
// are consumed (and removed) again on the way back to the hub.
import type { KubeObject, ObjectMeta } from '../../../apimachinery/meta/types.ts';
import type {
  HorizontalPodAutoscaler, HorizontalPodAutoscalerBehavior, HorizontalPodAutoscalerCondition, HorizontalPodAutoscalerSpec,
  HorizontalPodAutoscalerStatus, HPAScalingRules, MetricSpec, MetricStatus,
} from '../v2/types.ts';
import { metricSpecFromV1, metricSpecToV1, metricStatusFromV1, metricStatusToV1, refOf } from './metrics.ts';
import { metricSpecsV1, metricStatusesV1 } from './decode.ts';
import type { HorizontalPodAutoscalerSpecV1, HorizontalPodAutoscalerStatusV1, HorizontalPodAutoscalerV1, MetricSpecV1, MetricStatusV1 } from './types.ts';

export const METRIC_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const METRIC_STATUSES_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
export const BEHAVIOR_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
const TOLERANCE_SCALE_DOWN_ANNOTATION = 'autoscaling.alpha.kubernetes.io/scale-down-tolerance';
const TOLERANCE_SCALE_UP_ANNOTATION = 'autoscaling.alpha.kubernetes.io/scale-up-tolerance';
const DEFAULT_CPU_UTILIZATION = 80;

const ROUND_TRIP_ANNOTATIONS = [
  METRIC_SPECS_ANNOTATION, BEHAVIOR_SPECS_ANNOTATION, TOLERANCE_SCALE_DOWN_ANNOTATION, TOLERANCE_SCALE_UP_ANNOTATION,
  METRIC_STATUSES_ANNOTATION, CONDITIONS_ANNOTATION,
];

type Obj = Record<string, unknown>;

/** DropRoundTripHorizontalPodAutoscalerAnnotations; an emptied map disappears (omitempty). */
export function dropRoundTripAnnotations(meta: ObjectMeta): void {
  const a = meta.annotations;
  if (a === undefined || !ROUND_TRIP_ANNOTATIONS.some((k) => k in a)) return;
  const out = { ...a };
  for (const k of ROUND_TRIP_ANNOTATIONS) delete out[k];
  if (Object.keys(out).length === 0) delete meta.annotations;
  else meta.annotations = out;
}

/** encoding/json output: quantities as strings, and <, >, & escaped as Go does. */
function goJSON(v: unknown): string {
  const text = JSON.stringify(v, (_k, x: unknown) => x);
  return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** encoding/json matches keys exactly first, else case-insensitively. */
function getCI(o: Obj, key: string): unknown {
  if (Object.hasOwn(o, key)) return o[key];
  const k = Object.keys(o).find((x) => x.toLowerCase() === key.toLowerCase());
  return k === undefined ? undefined : o[k];
}

/**
 * The behavior annotation holds Go's internal HorizontalPodAutoscalerBehavior marshalled without
 * json tags: Go field names, nil pointers and slices as null.
 */
function behaviorToGo(b: HorizontalPodAutoscalerBehavior): Obj {
  const rules = (r: HPAScalingRules | undefined): Obj | null => (r == null ? null : {
    StabilizationWindowSeconds: r.stabilizationWindowSeconds ?? null,
    SelectPolicy: r.selectPolicy ?? null,
    Policies: r.policies == null ? null : r.policies.map((p) => ({ Type: p.type ?? '', Value: p.value ?? 0, PeriodSeconds: p.periodSeconds ?? 0 })),
    Tolerance: r.tolerance == null ? null : String(r.tolerance),
  });
  return { ScaleUp: rules(b.scaleUp), ScaleDown: rules(b.scaleDown) };
}

/** The behavior in the annotation; undefined when it does not decode or is the zero value. */
function behaviorFromGo(text: string): HorizontalPodAutoscalerBehavior | undefined {
  const v = parseJSON(text);
  if (!isObj(v)) return undefined;
  const rules = (x: unknown): HPAScalingRules | undefined => {
    if (!isObj(x)) return undefined;
    const r: HPAScalingRules = {};
    const sw = getCI(x, 'StabilizationWindowSeconds');
    if (typeof sw === 'number') r.stabilizationWindowSeconds = sw;
    const sp = getCI(x, 'SelectPolicy');
    if (typeof sp === 'string') r.selectPolicy = sp;
    const ps = getCI(x, 'Policies');
    if (Array.isArray(ps)) {
      r.policies = ps.filter(isObj).map((p) => ({
        type: String(getCI(p, 'Type') ?? ''), value: Number(getCI(p, 'Value') ?? 0), periodSeconds: Number(getCI(p, 'PeriodSeconds') ?? 0),
      }));
    }
    const tol = getCI(x, 'Tolerance');
    if (typeof tol === 'string' || typeof tol === 'number') r.tolerance = tol;
    return r;
  };
  const out: HorizontalPodAutoscalerBehavior = {};
  const up = rules(getCI(v, 'ScaleUp'));
  const down = rules(getCI(v, 'ScaleDown'));
  if (up !== undefined) out.scaleUp = up;
  if (down !== undefined) out.scaleDown = down;
  return up === undefined && down === undefined ? undefined : out;
}

const isCPU = (m: MetricSpec): boolean => m.type === 'Resource' && m.resource != null && m.resource.name === 'cpu';
const isCPUUtilization = (m: MetricSpec): boolean => isCPU(m) && m.resource?.target?.averageUtilization != null;

function conditionToV1(c: HorizontalPodAutoscalerCondition): Obj {
  const out: Obj = { type: c.type ?? '', status: c.status ?? '', lastTransitionTime: c.lastTransitionTime ?? null };
  if ((c.reason ?? '') !== '') out['reason'] = c.reason;
  if ((c.message ?? '') !== '') out['message'] = c.message;
  return out;
}

function conditionFromV1(c: Obj): HorizontalPodAutoscalerCondition {
  const out: HorizontalPodAutoscalerCondition = { type: String(c['type'] ?? ''), status: String(c['status'] ?? '') };
  if (typeof c['lastTransitionTime'] === 'string') out.lastTransitionTime = c['lastTransitionTime'];
  if (typeof c['reason'] === 'string' && c['reason'] !== '') out.reason = c['reason'];
  if (typeof c['message'] === 'string' && c['message'] !== '') out.message = c['message'];
  return out;
}

/** Hub (v2) → v1. */
export function hpaToV1(obj: KubeObject): KubeObject {
  const hpa = obj as HorizontalPodAutoscaler;
  const inSpec: Partial<HorizontalPodAutoscalerSpec> = hpa.spec ?? {};
  const inStatus: Partial<HorizontalPodAutoscalerStatus> = hpa.status ?? {};
  const metadata: ObjectMeta = structuredClone(hpa.metadata ?? {});
  dropRoundTripAnnotations(metadata);

  // Fields in Go struct order: minReplicas comes before maxReplicas.
  const spec: HorizontalPodAutoscalerSpecV1 = { scaleTargetRef: refOf(inSpec.scaleTargetRef),
    ...(inSpec.minReplicas != null ? { minReplicas: inSpec.minReplicas } : {}), maxReplicas: inSpec.maxReplicas ?? 0 };
  // The first CPU resource metric decides, whether or not it has a utilization target.
  const cpu = (inSpec.metrics ?? []).find(isCPU);
  if (cpu?.resource?.target?.averageUtilization != null) spec.targetCPUUtilizationPercentage = cpu.resource.target.averageUtilization;

  const status: HorizontalPodAutoscalerStatusV1 = { currentReplicas: 0, desiredReplicas: 0 };
  const ordered: Obj = {};
  if (inStatus.observedGeneration != null) ordered['observedGeneration'] = inStatus.observedGeneration;
  if (inStatus.lastScaleTime != null) ordered['lastScaleTime'] = inStatus.lastScaleTime;
  ordered['currentReplicas'] = inStatus.currentReplicas ?? 0;
  ordered['desiredReplicas'] = inStatus.desiredReplicas ?? 0;
  // No break: the last CPU utilization status wins.
  for (const m of inStatus.currentMetrics ?? []) {
    const u = m.type === 'Resource' && m.resource?.name === 'cpu' ? m.resource.current?.averageUtilization : undefined;
    if (u != null) ordered['currentCPUUtilizationPercentage'] = u;
  }
  Object.assign(status, ordered);

  const annotations: Record<string, string> = {};
  const other: MetricSpecV1[] = (inSpec.metrics ?? []).filter((m) => !isCPUUtilization(m)).map(metricSpecToV1);
  if (other.length > 0) annotations[METRIC_SPECS_ANNOTATION] = goJSON(other);
  const current: MetricStatusV1[] = (inStatus.currentMetrics ?? []).map(metricStatusToV1);
  if (current.length > 0) annotations[METRIC_STATUSES_ANNOTATION] = goJSON(current);
  const conditions = inStatus.conditions ?? [];
  if (conditions.length > 0) annotations[CONDITIONS_ANNOTATION] = goJSON(conditions.map(conditionToV1));
  if (inSpec.behavior != null) annotations[BEHAVIOR_SPECS_ANNOTATION] = goJSON(behaviorToGo(inSpec.behavior));
  if (Object.keys(annotations).length > 0) metadata.annotations = { ...metadata.annotations, ...annotations };

  const out: HorizontalPodAutoscalerV1 = { metadata, spec, status };
  return { ...typeMeta(hpa), ...out };
}

/** apiVersion and kind first, as the serializer writes them (the Scheme sets the target's). */
function typeMeta(o: KubeObject): { apiVersion?: string; kind?: string } {
  return { ...(o.apiVersion !== undefined ? { apiVersion: o.apiVersion } : {}), ...(o.kind !== undefined ? { kind: o.kind } : {}) };
}

const cpuUtilizationMetric = (pct: number): MetricSpec =>
  ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: pct } } });

/** v1 → hub (v2). */
export function hpaFromV1(obj: KubeObject): KubeObject {
  const hpa = obj as HorizontalPodAutoscalerV1;
  const inSpec: Partial<HorizontalPodAutoscalerSpecV1> = hpa.spec ?? {};
  const inStatus: Partial<HorizontalPodAutoscalerStatusV1> = hpa.status ?? {};
  const metadata: ObjectMeta = structuredClone(hpa.metadata ?? {});
  const ann = metadata.annotations ?? {};

  let metrics: MetricSpec[] = inSpec.targetCPUUtilizationPercentage != null ? [cpuUtilizationMetric(inSpec.targetCPUUtilizationPercentage)] : [];
  const otherText = ann[METRIC_SPECS_ANNOTATION];
  const other = otherText === undefined ? undefined : parseJSON(otherText);
  // The metrics from the annotation come first; the one from targetCPUUtilizationPercentage last.
  const specs = Array.isArray(other) ? metricSpecsV1(other) : undefined;
  if (specs !== undefined) metrics = [...specs.map(metricSpecFromV1), ...metrics];
  // v1 always scaled on CPU; with nothing else to scale on, the 80% target is explicit in v2.
  if (metrics.length === 0) metrics = [cpuUtilizationMetric(DEFAULT_CPU_UTILIZATION)];

  const spec: HorizontalPodAutoscalerSpec = { scaleTargetRef: refOf(inSpec.scaleTargetRef),
    ...(inSpec.minReplicas != null ? { minReplicas: inSpec.minReplicas } : {}), maxReplicas: inSpec.maxReplicas ?? 0, metrics };
  const behaviorText = ann[BEHAVIOR_SPECS_ANNOTATION];
  const behavior = behaviorText === undefined ? undefined : behaviorFromGo(behaviorText);
  if (behavior !== undefined) spec.behavior = behavior;

  const status: HorizontalPodAutoscalerStatus = { desiredReplicas: 0 };
  const ordered: Obj = {};
  if (inStatus.observedGeneration != null) ordered['observedGeneration'] = inStatus.observedGeneration;
  if (inStatus.lastScaleTime != null) ordered['lastScaleTime'] = inStatus.lastScaleTime;
  if ((inStatus.currentReplicas ?? 0) !== 0) ordered['currentReplicas'] = inStatus.currentReplicas;
  ordered['desiredReplicas'] = inStatus.desiredReplicas ?? 0;
  let currentMetrics: MetricStatus[] | null = inStatus.currentCPUUtilizationPercentage != null
    ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: inStatus.currentCPUUtilizationPercentage } } }]
    : null;
  const currentText = ann[METRIC_STATUSES_ANNOTATION];
  const current = currentText === undefined ? undefined : parseJSON(currentText);
  // The raw statuses carry more than the CPU percentage: they replace it.
  const statuses = Array.isArray(current) ? metricStatusesV1(current) : undefined;
  if (statuses !== undefined) currentMetrics = statuses.map(metricStatusFromV1);
  ordered['currentMetrics'] = currentMetrics;
  const condText = ann[CONDITIONS_ANNOTATION];
  const conds = condText === undefined ? undefined : parseJSON(condText);
  if (Array.isArray(conds) && conds.length > 0) ordered['conditions'] = conds.filter(isObj).map(conditionFromV1);
  Object.assign(status, ordered);

  dropRoundTripAnnotations(metadata);
  const out: HorizontalPodAutoscaler = { metadata, spec, status };
  return { ...typeMeta(hpa), ...out };
}
