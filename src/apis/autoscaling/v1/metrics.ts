// Conversion of v2 metric specs and statuses to the v1 (v2beta1-style) shapes kept in the
// round-trip annotations, and back (pkg/apis/autoscaling/v1/conversion.go). Fields are built in
// Go struct order so the annotation text matches encoding/json's.
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { CrossVersionObjectReference, MetricIdentifier, MetricSpec, MetricStatus, MetricTarget, Quantity } from '../v2/types.ts';
import type { MetricSpecV1, MetricStatusV1 } from './types.ts';

type Obj = Record<string, unknown>;

/** A non-pointer resource.Quantity: the zero value marshals as "0". */
const q = (v: Quantity | undefined): Quantity => v ?? '0';

function put<O extends object, K extends keyof O>(o: O, k: K, v: O[K] | undefined | null): void {
  if (v !== undefined && v !== null) o[k] = v;
}

export function refOf(r: Partial<CrossVersionObjectReference> | undefined): CrossVersionObjectReference {
  const out: CrossVersionObjectReference = { kind: r?.kind ?? '', name: r?.name ?? '' };
  put(out, 'apiVersion', r?.apiVersion === '' ? undefined : r?.apiVersion);
  return out;
}

function identifier(name: string | undefined, selector: LabelSelector | undefined): MetricIdentifier {
  const id: MetricIdentifier = { name: name ?? '' };
  put(id, 'selector', selector);
  return id;
}

export function metricSpecToV1(m: MetricSpec): MetricSpecV1 {
  const out: MetricSpecV1 = { type: m.type ?? '' };
  if (m.object != null) {
    const o: NonNullable<MetricSpecV1['object']> = {
      target: refOf(m.object.describedObject), metricName: m.object.metric?.name ?? '', targetValue: q(m.object.target?.value),
    };
    put(o, 'selector', m.object.metric?.selector);
    put(o, 'averageValue', m.object.target?.averageValue);
    out.object = o;
  }
  if (m.pods != null) {
    const p: NonNullable<MetricSpecV1['pods']> = { metricName: m.pods.metric?.name ?? '', targetAverageValue: q(m.pods.target?.averageValue) };
    put(p, 'selector', m.pods.metric?.selector);
    out.pods = p;
  }
  if (m.resource != null) {
    const r: NonNullable<MetricSpecV1['resource']> = { name: m.resource.name ?? '' };
    put(r, 'targetAverageUtilization', m.resource.target?.averageUtilization);
    put(r, 'targetAverageValue', m.resource.target?.averageValue);
    out.resource = r;
  }
  if (m.containerResource != null) {
    const c = m.containerResource;
    const r: Obj = { name: c.name ?? '' };
    put(r, 'targetAverageUtilization', c.target?.averageUtilization);
    put(r, 'targetAverageValue', c.target?.averageValue);
    r['container'] = c.container ?? '';
    out.containerResource = r as NonNullable<MetricSpecV1['containerResource']>;
  }
  if (m.external != null) {
    const e: NonNullable<MetricSpecV1['external']> = { metricName: m.external.metric?.name ?? '' };
    put(e, 'metricSelector', m.external.metric?.selector);
    put(e, 'targetValue', m.external.target?.value);
    put(e, 'targetAverageValue', m.external.target?.averageValue);
    out.external = e;
  }
  return out;
}

function resourceTarget(util: number | undefined, avg: Quantity | undefined): MetricTarget {
  const t: MetricTarget = { type: util === undefined ? 'AverageValue' : 'Utilization' };
  put(t, 'averageValue', avg);
  put(t, 'averageUtilization', util);
  return t;
}

export function metricSpecFromV1(m: MetricSpecV1): MetricSpec {
  const out: MetricSpec = { type: m.type ?? '' };
  if (m.object != null) {
    const target: { type: string; value: Quantity; averageValue?: Quantity } = {
      type: m.object.averageValue == null ? 'Value' : 'AverageValue', value: q(m.object.targetValue),
    };
    put(target, 'averageValue', m.object.averageValue);
    out.object = { describedObject: refOf(m.object.target), target, metric: identifier(m.object.metricName, m.object.selector) };
  }
  if (m.pods != null) {
    out.pods = { metric: identifier(m.pods.metricName, m.pods.selector), target: { type: 'AverageValue', averageValue: q(m.pods.targetAverageValue) } };
  }
  if (m.resource != null) {
    out.resource = { name: m.resource.name ?? '', target: resourceTarget(m.resource.targetAverageUtilization ?? undefined, m.resource.targetAverageValue ?? undefined) };
  }
  if (m.containerResource != null) {
    const c = m.containerResource;
    out.containerResource = { name: c.name ?? '', target: resourceTarget(c.targetAverageUtilization ?? undefined, c.targetAverageValue ?? undefined), container: c.container ?? '' };
  }
  if (m.external != null) {
    const e = m.external;
    const target: { type: string; value?: Quantity; averageValue?: Quantity } = { type: e.targetValue == null ? 'AverageValue' : 'Value' };
    put(target, 'value', e.targetValue);
    put(target, 'averageValue', e.targetAverageValue);
    out.external = { metric: identifier(e.metricName, e.metricSelector), target };
  }
  return out;
}

export function metricStatusToV1(m: MetricStatus): MetricStatusV1 {
  const out: MetricStatusV1 = { type: m.type ?? '' };
  if (m.object != null) {
    const o: NonNullable<MetricStatusV1['object']> = {
      target: refOf(m.object.describedObject), metricName: m.object.metric?.name ?? '', currentValue: q(m.object.current?.value),
    };
    put(o, 'selector', m.object.metric?.selector);
    put(o, 'averageValue', m.object.current?.averageValue);
    out.object = o;
  }
  if (m.pods != null) {
    const p: NonNullable<MetricStatusV1['pods']> = { metricName: m.pods.metric?.name ?? '', currentAverageValue: q(m.pods.current?.averageValue) };
    put(p, 'selector', m.pods.metric?.selector);
    out.pods = p;
  }
  if (m.resource != null) {
    const r: Obj = { name: m.resource.name ?? '' };
    put(r, 'currentAverageUtilization', m.resource.current?.averageUtilization);
    r['currentAverageValue'] = q(m.resource.current?.averageValue);
    out.resource = r as NonNullable<MetricStatusV1['resource']>;
  }
  if (m.containerResource != null) {
    const c = m.containerResource;
    const r: Obj = { name: c.name ?? '' };
    put(r, 'currentAverageUtilization', c.current?.averageUtilization);
    r['currentAverageValue'] = q(c.current?.averageValue);
    r['container'] = c.container ?? '';
    out.containerResource = r as NonNullable<MetricStatusV1['containerResource']>;
  }
  if (m.external != null) {
    const e: Obj = { metricName: m.external.metric?.name ?? '' };
    put(e, 'metricSelector', m.external.metric?.selector);
    e['currentValue'] = q(m.external.current?.value);
    put(e, 'currentAverageValue', m.external.current?.averageValue);
    out.external = e as NonNullable<MetricStatusV1['external']>;
  }
  return out;
}

export function metricStatusFromV1(m: MetricStatusV1): MetricStatus {
  const out: MetricStatus = { type: m.type ?? '' };
  if (m.object != null) {
    const current: { value: Quantity; averageValue?: Quantity } = { value: q(m.object.currentValue) };
    put(current, 'averageValue', m.object.averageValue);
    out.object = { metric: identifier(m.object.metricName, m.object.selector), current, describedObject: refOf(m.object.target) };
  }
  if (m.pods != null) {
    out.pods = { metric: identifier(m.pods.metricName, m.pods.selector), current: { averageValue: q(m.pods.currentAverageValue) } };
  }
  const resourceCurrent = (avg: Quantity | undefined, util: number | undefined): { averageValue: Quantity; averageUtilization?: number } => {
    const c: { averageValue: Quantity; averageUtilization?: number } = { averageValue: q(avg) };
    put(c, 'averageUtilization', util);
    return c;
  };
  if (m.resource != null) {
    out.resource = { name: m.resource.name ?? '', current: resourceCurrent(m.resource.currentAverageValue, m.resource.currentAverageUtilization ?? undefined) };
  }
  if (m.containerResource != null) {
    const c = m.containerResource;
    out.containerResource = { name: c.name ?? '', current: resourceCurrent(c.currentAverageValue, c.currentAverageUtilization ?? undefined), container: c.container ?? '' };
  }
  if (m.external != null) {
    const current: { value: Quantity; averageValue?: Quantity } = { value: q(m.external.currentValue) };
    put(current, 'averageValue', m.external.currentAverageValue);
    out.external = { metric: identifier(m.external.metricName, m.external.metricSelector), current };
  }
  return out;
}
