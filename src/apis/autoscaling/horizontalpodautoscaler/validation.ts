// HorizontalPodAutoscaler validation (pkg/apis/autoscaling/validation) on the v2 hub shape.
import {
  fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath,
} from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateNonnegativeField, validateObjectMeta, validatePathSegmentName } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Label } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { parseQuantity } from '../../core/v1/quantity.ts';
import type {
  CrossVersionObjectReference, HorizontalPodAutoscaler, HorizontalPodAutoscalerSpec, HPAScalingRules, MetricIdentifier, MetricSpec,
  MetricTarget, Quantity,
} from '../v2/types.ts';

type RO<T> = DeepReadonly<T>;

const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const SOURCE_FIELD: Readonly<Record<string, string>> = {
  Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource',
};

const positive = (q: Quantity): boolean => (parseQuantity(q) ?? 0) > 0;

export function validateCrossVersionObjectReference(ref: RO<CrossVersionObjectReference> | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of ['kind', 'name'] as const) {
    const v = ref?.[k] ?? '';
    if (v === '') errs.push(required(p.child(k)));
    else for (const m of validatePathSegmentName(v, false)) errs.push(invalid(p.child(k), v, m));
  }
  return errs;
}

function validateMetricIdentifier(id: RO<MetricIdentifier> | undefined, p: FieldPath): FieldError[] {
  const name = id?.name ?? '';
  if (name === '') return [required(p.child('name'), 'must specify a metric name')];
  return validatePathSegmentName(name, false).map((m) => invalid(p.child('name'), name, m));
}

function validateMetricTarget(t: RO<MetricTarget> | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = t?.type ?? '';
  if (type === '') errs.push(required(p.child('type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') {
    errs.push(invalid(p.child('type'), type, 'must be either Utilization, Value, or AverageValue'));
  }
  if (t?.value !== undefined && !positive(t.value)) errs.push(invalid(p.child('value'), t.value, 'must be positive'));
  if (t?.averageValue !== undefined && !positive(t.averageValue)) errs.push(invalid(p.child('averageValue'), t.averageValue, 'must be positive'));
  if (t?.averageUtilization !== undefined && t.averageUtilization < 1) {
    errs.push(invalid(p.child('averageUtilization'), t.averageUtilization, 'must be greater than 0'));
  }
  return errs;
}

/** Resource and ContainerResource: exactly one of a raw value and a utilization. */
function validateResourceTarget(t: RO<MetricTarget> | undefined, p: FieldPath): FieldError[] {
  const errs = validateMetricTarget(t, p);
  if (t?.averageUtilization === undefined && t?.averageValue === undefined) {
    errs.push(required(p.child('averageUtilization'), 'must set either a target raw value or a target utilization'));
  }
  if (t?.averageUtilization !== undefined && t.averageValue !== undefined) {
    errs.push(forbidden(p.child('averageValue'), 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

function validateSource(m: RO<MetricSpec>, key: string, p: FieldPath): FieldError[] {
  switch (key) {
    case 'object': {
      const o = m.object;
      const errs = [...validateCrossVersionObjectReference(o?.describedObject, p.child('describedObject')),
        ...validateMetricIdentifier(o?.metric, p.child('metric')), ...validateMetricTarget(o?.target, p.child('target'))];
      if (o?.target?.value === undefined && o?.target?.averageValue === undefined) {
        errs.push(required(p.child('target', 'averageValue'), 'must set either a target value or averageValue'));
      }
      return errs;
    }
    case 'external': {
      const e = m.external;
      const errs = [...validateMetricIdentifier(e?.metric, p.child('metric')), ...validateMetricTarget(e?.target, p.child('target'))];
      if (e?.target?.value === undefined && e?.target?.averageValue === undefined) {
        errs.push(required(p.child('target', 'averageValue'), 'must set either a target value for metric or a per-pod target'));
      }
      if (e?.target?.value !== undefined && e.target.averageValue !== undefined) {
        errs.push(forbidden(p.child('target', 'value'), 'may not set both a target value for metric and a per-pod target'));
      }
      return errs;
    }
    case 'pods': {
      const errs = [...validateMetricIdentifier(m.pods?.metric, p.child('metric')), ...validateMetricTarget(m.pods?.target, p.child('target'))];
      if (m.pods?.target?.averageValue === undefined) {
        errs.push(required(p.child('target', 'averageValue'), 'must specify a positive target averageValue'));
      }
      return errs;
    }
    case 'resource': {
      const errs: FieldError[] = [];
      if ((m.resource?.name ?? '') === '') errs.push(required(p.child('name'), 'must specify a resource name'));
      return [...errs, ...validateResourceTarget(m.resource?.target, p.child('target'))];
    }
    default: {
      const c = m.containerResource;
      const errs: FieldError[] = [];
      if ((c?.name ?? '') === '') errs.push(required(p.child('name'), 'must specify a resource name'));
      const container = c?.container ?? '';
      if (container === '') errs.push(required(p.child('container'), 'must specify a container'));
      else for (const msg of isDNS1123Label(container)) errs.push(invalid(p.child('container'), container, msg));
      return [...errs, ...validateResourceTarget(c?.target, p.child('target'))];
    }
  }
}

function validateMetricSpec(m: RO<MetricSpec>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = m.type ?? '';
  if (type === '') errs.push(required(p.child('type'), 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type)) errs.push(notSupported(p.child('type'), type, METRIC_SOURCE_TYPES));
  // Only the first source present (in Go's check order) is validated in depth.
  const present = ['object', 'external', 'pods', 'resource', 'containerResource'].filter((k) => (m as Record<string, unknown>)[k] != null);
  const first = present[0];
  if (first !== undefined) errs.push(...validateSource(m, first, p.child(first)));
  const expected = SOURCE_FIELD[type];
  if (expected === undefined) {
    errs.push(notSupported(p.child('type'), type, METRIC_SOURCE_TYPES));
  } else if (!present.includes(expected)) {
    errs.push(required(p.child(expected), 'must populate information for the given metric source'));
  }
  if (present.length > 1) {
    for (const k of present.filter((x) => x !== expected).sort()) errs.push(forbidden(p.child(k), 'must populate the given metric source only'));
  }
  return errs;
}

function validateScalingRules(r: RO<HPAScalingRules> | undefined, p: FieldPath): FieldError[] {
  if (r === undefined) return [];
  const errs: FieldError[] = [];
  const sw = r.stabilizationWindowSeconds;
  if (sw !== undefined && sw < 0) errs.push(invalid(p.child('stabilizationWindowSeconds'), sw, 'must be greater than or equal to zero'));
  if (sw !== undefined && sw > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(invalid(p.child('stabilizationWindowSeconds'), sw, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  if (r.selectPolicy !== undefined && !SELECT_POLICIES.includes(r.selectPolicy)) {
    errs.push(notSupported(p.child('selectPolicy'), r.selectPolicy, SELECT_POLICIES));
  }
  const pp = p.child('policies');
  if ((r.policies ?? []).length === 0) errs.push(required(pp, 'must specify at least one Policy'));
  (r.policies ?? []).forEach((policy, i) => {
    const ip = pp.index(i);
    if (policy.type !== 'Pods' && policy.type !== 'Percent') errs.push(notSupported(ip.child('type'), policy.type, POLICY_TYPES));
    if ((policy.value ?? 0) <= 0) errs.push(invalid(ip.child('value'), policy.value ?? 0, 'must be greater than zero'));
    const period = policy.periodSeconds ?? 0;
    if (period <= 0) errs.push(invalid(ip.child('periodSeconds'), period, 'must be greater than zero'));
    if (period > MAX_PERIOD_SECONDS) errs.push(invalid(ip.child('periodSeconds'), period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  if (r.tolerance !== undefined && (parseQuantity(r.tolerance) ?? 0) < 0) {
    errs.push(invalid(p.child('tolerance'), r.tolerance, 'must be greater or equal to zero'));
  }
  return errs;
}

export function validateHorizontalPodAutoscalerSpec(spec: RO<HorizontalPodAutoscalerSpec>, minReplicasLowerBound: number): FieldError[] {
  const p = fieldPath('spec');
  const errs: FieldError[] = [];
  const min = spec.minReplicas;
  const max = spec.maxReplicas ?? 0;
  if (min !== undefined && min < minReplicasLowerBound) {
    errs.push(invalid(p.child('minReplicas'), min, `must be greater than or equal to ${minReplicasLowerBound}`));
  }
  if (max < 1) errs.push(invalid(p.child('maxReplicas'), max, 'must be greater than 0'));
  if (min !== undefined && max < min) errs.push(invalid(p.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(spec.scaleTargetRef, p.child('scaleTargetRef')));
  const mp = p.child('metrics');
  (spec.metrics ?? []).forEach((m, i) => errs.push(...validateMetricSpec(m, mp.index(i))));
  if (min === 0 && !(spec.metrics ?? []).some((m) => m.type === 'Object' || m.type === 'External')) {
    errs.push(forbidden(mp, 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  if (spec.behavior !== undefined) {
    errs.push(...validateScalingRules(spec.behavior.scaleUp, p.child('behavior', 'scaleUp')));
    errs.push(...validateScalingRules(spec.behavior.scaleDown, p.child('behavior', 'scaleDown')));
  }
  return errs;
}

export function validateHorizontalPodAutoscaler(hpa: RO<HorizontalPodAutoscaler>): FieldError[] {
  const errs = validateObjectMeta(hpa.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  return [...errs, ...validateHorizontalPodAutoscalerSpec(hpa.spec, 1)];
}

/** An object that already scales to zero keeps being allowed to. */
export function validateHorizontalPodAutoscalerUpdate(hpa: RO<HorizontalPodAutoscaler>, old: RO<HorizontalPodAutoscaler>): FieldError[] {
  return validateHorizontalPodAutoscalerSpec(hpa.spec, old.spec.minReplicas === 0 ? 0 : 1);
}

export function validateHorizontalPodAutoscalerStatusUpdate(hpa: RO<HorizontalPodAutoscaler>): FieldError[] {
  return [
    ...validateNonnegativeField(hpa.status?.currentReplicas ?? 0, fieldPath('status', 'currentReplicas')),
    ...validateNonnegativeField(hpa.status?.desiredReplicas ?? 0, fieldPath('status', 'desiredReplicas')),
  ];
}
