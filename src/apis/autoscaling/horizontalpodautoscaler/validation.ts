// HorizontalPodAutoscaler validation (pkg/apis/autoscaling/validation) on the v2 hub shape.
import {
  fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath,
} from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateNonnegativeField, validateObjectMeta, validatePathSegmentName } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Label } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { validateContainerResourceName } from '../../core/pod/resources.ts';
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

/** CrossVersionObjectReferenceValidationOptions: what the strategy tolerates in apiVersion. */
export interface RefOptions {
  readonly allowEmptyAPIGroup: boolean;
  readonly allowInvalidAPIVersion: boolean;
}

/** ValidateAPIVersion: a group/version (schema.ParseGroupVersion) naming a group unless allowed. */
function apiVersionError(apiVersion: string, opts: RefOptions): string | undefined {
  if (opts.allowInvalidAPIVersion) return undefined;
  if (apiVersion.split('/').length > 2) return `unexpected GroupVersion string: ${apiVersion}`;
  const group = apiVersion === '' || apiVersion === '/' || !apiVersion.includes('/') ? '' : apiVersion.slice(0, apiVersion.indexOf('/'));
  return !opts.allowEmptyAPIGroup && group === '' ? 'apiVersion must specify API group' : undefined;
}

function validateCrossVersionObjectReference(ref: RO<CrossVersionObjectReference> | undefined, p: FieldPath, opts: RefOptions): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of ['kind', 'name'] as const) {
    const v = ref?.[k] ?? '';
    if (v === '') errs.push(required(p.child(k)));
    else for (const m of validatePathSegmentName(v, false)) errs.push(invalid(p.child(k), v, m));
  }
  const apiVersion = ref?.apiVersion ?? '';
  const err = apiVersionError(apiVersion, opts);
  if (err !== undefined) errs.push(invalid(p.child('apiVersion'), apiVersion, err));
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
  // quantities are shown as resource.Quantity marshals them (canonical: "-0.5" is "-500m")
  if (t?.value !== undefined && !positive(t.value)) errs.push(invalid(p.child('value'), canonicalDecimal(t.value), 'must be positive'));
  if (t?.averageValue !== undefined && !positive(t.averageValue)) {
    errs.push(invalid(p.child('averageValue'), canonicalDecimal(t.averageValue), 'must be positive'));
  }
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

function validateSource(m: RO<MetricSpec>, key: string, p: FieldPath, objectOpts: RefOptions): FieldError[] {
  switch (key) {
    case 'object': {
      const o = m.object;
      const errs = [...validateCrossVersionObjectReference(o?.describedObject, p.child('describedObject'), objectOpts),
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
      const name = c?.name ?? '';
      if (name === '') errs.push(required(p.child('name'), 'must specify a resource name'));
      else errs.push(...validateContainerResourceName(name, p.child('name')));
      const container = c?.container ?? '';
      if (container === '') errs.push(required(p.child('container'), 'must specify a container'));
      else for (const msg of isDNS1123Label(container)) errs.push(invalid(p.child('container'), container, msg));
      return [...errs, ...validateResourceTarget(c?.target, p.child('target'))];
    }
  }
}

function validateMetricSpec(m: RO<MetricSpec>, p: FieldPath, objectOpts: RefOptions): FieldError[] {
  const errs: FieldError[] = [];
  const type = m.type ?? '';
  if (type === '') errs.push(required(p.child('type'), 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type)) errs.push(notSupported(p.child('type'), type, METRIC_SOURCE_TYPES));
  // Only the first source present (in Go's check order) is validated in depth.
  const present = ['object', 'external', 'pods', 'resource', 'containerResource'].filter((k) => (m as Record<string, unknown>)[k] != null);
  const first = present[0];
  if (first !== undefined) errs.push(...validateSource(m, first, p.child(first), objectOpts));
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
    errs.push(invalid(p.child('tolerance'), canonicalDecimal(r.tolerance), 'must be greater than or equal to 0'));
  }
  return errs;
}

/** A decimal quantity as resource.Quantity.String() writes it: the largest SI suffix with an integral mantissa ("-0.1" is "-100m"). */
function canonicalDecimal(q: Quantity): string {
  const text = String(q);
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (m === null) return text;
  const frac = (m[3] ?? '').slice(0, 9).padEnd(9, '0');
  let nano = BigInt(`${m[2] === '' ? '0' : m[2]}${frac}`);
  if (nano === 0n) return '0';
  const suffixes = ['n', 'u', 'm', '', 'k', 'M', 'G', 'T', 'P', 'E'];
  let i = 0;
  while (i < suffixes.length - 1 && nano % 1000n === 0n) { nano /= 1000n; i++; }
  return `${m[1] === '-' ? '-' : ''}${nano}${suffixes[i] ?? ''}`;
}

/** The options of the HPA strategy (validationOptionsForHorizontalPodAutoscaler); HPAScaleToZero is off in v1.36. */
export interface HPAValidationOptions {
  readonly minReplicasLowerBound: number;
  readonly scaleTargetRef: RefOptions;
  readonly objectMetrics: RefOptions;
}

function hpaValidationOptions(hpa: RO<HorizontalPodAutoscaler>, old: RO<HorizontalPodAutoscaler> | undefined): HPAValidationOptions {
  const ref = hpa.spec.scaleTargetRef;
  const oldRef = old?.spec.scaleTargetRef;
  // an update that keeps the kind and apiVersion is not checked again; ReplicationControllers live in the core group
  const sameTarget = old !== undefined && (oldRef?.apiVersion ?? '') === (ref?.apiVersion ?? '') && (oldRef?.kind ?? '') === (ref?.kind ?? '');
  const objectMetrics = { allowEmptyAPIGroup: true, allowInvalidAPIVersion: false };
  const oldObjectsInvalid = (old?.spec.metrics ?? []).some((m) =>
    m.type === 'Object' && m.object != null && apiVersionError(m.object.describedObject?.apiVersion ?? '', objectMetrics) !== undefined);
  return {
    minReplicasLowerBound: old?.spec.minReplicas === 0 ? 0 : 1,
    scaleTargetRef: { allowEmptyAPIGroup: !sameTarget && ref?.kind === 'ReplicationController', allowInvalidAPIVersion: sameTarget },
    objectMetrics: { ...objectMetrics, allowInvalidAPIVersion: oldObjectsInvalid },
  };
}

function validateHorizontalPodAutoscalerSpec(spec: RO<HorizontalPodAutoscalerSpec>, opts: HPAValidationOptions): FieldError[] {
  const p = fieldPath('spec');
  const errs: FieldError[] = [];
  const min = spec.minReplicas;
  const max = spec.maxReplicas ?? 0;
  if (min !== undefined && min < opts.minReplicasLowerBound) {
    errs.push(invalid(p.child('minReplicas'), min, `must be greater than or equal to ${opts.minReplicasLowerBound}`));
  }
  if (max === 0) errs.push(required(p.child('maxReplicas'), 'must be set and greater than 0'));
  else if (max < 0) errs.push(invalid(p.child('maxReplicas'), max, 'must be greater than or equal to 1'));
  if (min !== undefined && max < min) errs.push(invalid(p.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(spec.scaleTargetRef, p.child('scaleTargetRef'), opts.scaleTargetRef));
  const mp = p.child('metrics');
  (spec.metrics ?? []).forEach((m, i) => errs.push(...validateMetricSpec(m, mp.index(i), opts.objectMetrics)));
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
  return [...errs, ...validateHorizontalPodAutoscalerSpec(hpa.spec, hpaValidationOptions(hpa, undefined))];
}

/** An object that already scales to zero keeps being allowed to. */
export function validateHorizontalPodAutoscalerUpdate(hpa: RO<HorizontalPodAutoscaler>, old: RO<HorizontalPodAutoscaler>): FieldError[] {
  return validateHorizontalPodAutoscalerSpec(hpa.spec, hpaValidationOptions(hpa, old));
}

export function validateHorizontalPodAutoscalerStatusUpdate(hpa: RO<HorizontalPodAutoscaler>): FieldError[] {
  return [
    ...validateNonnegativeField(hpa.status?.currentReplicas ?? 0, fieldPath('status', 'currentReplicas')),
    ...validateNonnegativeField(hpa.status?.desiredReplicas ?? 0, fieldPath('status', 'desiredReplicas')),
  ];
}
