// Decodes the v1 metric specs and statuses held in the round-trip annotations, checking the JSON
// types as encoding/json does when it fills k8s.io/api/autoscaling/v1's MetricSpec and
// MetricStatus. null counts as absent; a required field left out takes its Go zero value, which
// the conversion to v2 gives it anyway. An entry with a field of another type does not decode.
import type { LabelSelector, LabelSelectorRequirement } from '../../../apimachinery/labels/label-selector.ts';
import type { CrossVersionObjectReference, Quantity } from '../v2/types.ts';
import type { MetricSpecV1, MetricStatusV1 } from './types.ts';

type Obj = Record<string, unknown>;
type Is<T> = (v: unknown) => v is T;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number';
const isQuantity = (v: unknown): v is Quantity => isStr(v) || isNum(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);
const isStrMap = (v: unknown): v is Record<string, string> => isObj(v) && Object.values(v).every(isStr);

/** Thrown inside a decode, caught by the entry's decoder: the entry does not decode. */
class Mismatch extends Error {}

function field<T>(o: Obj, key: string, is: Is<T>): T | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!is(v)) throw new Mismatch(key);
  return v;
}

function put<O extends object, K extends keyof O>(o: O, k: K, v: O[K] | undefined): void {
  if (v !== undefined) o[k] = v;
}

function requirement(v: unknown): LabelSelectorRequirement {
  if (!isObj(v)) throw new Mismatch('matchExpressions');
  const r: LabelSelectorRequirement = { key: field(v, 'key', isStr) ?? '', operator: field(v, 'operator', isStr) ?? '' };
  put(r, 'values', field(v, 'values', isStrings));
  return r;
}

function selector(o: Obj, key: string): LabelSelector | undefined {
  const s = field(o, key, isObj);
  if (s === undefined) return undefined;
  const out: LabelSelector = {};
  put(out, 'matchLabels', field(s, 'matchLabels', isStrMap));
  put(out, 'matchExpressions', field(s, 'matchExpressions', Array.isArray)?.map(requirement));
  return out;
}

function ref(o: Obj, key: string): CrossVersionObjectReference {
  const r = field(o, key, isObj) ?? {};
  const out: CrossVersionObjectReference = { kind: field(r, 'kind', isStr) ?? '', name: field(r, 'name', isStr) ?? '' };
  put(out, 'apiVersion', field(r, 'apiVersion', isStr));
  return out;
}

/** The object under `key`, read by `read`; undefined when absent. */
function sub<T>(o: Obj, key: string, read: (s: Obj) => T): T | undefined {
  const s = field(o, key, isObj);
  return s === undefined ? undefined : read(s);
}

function specOf(m: Obj): MetricSpecV1 {
  const out: MetricSpecV1 = { type: field(m, 'type', isStr) ?? '' };
  put(out, 'object', sub(m, 'object', (s) => {
    const o: NonNullable<MetricSpecV1['object']> = { target: ref(s, 'target'), metricName: field(s, 'metricName', isStr) ?? '', targetValue: field(s, 'targetValue', isQuantity) ?? '0' };
    put(o, 'selector', selector(s, 'selector'));
    put(o, 'averageValue', field(s, 'averageValue', isQuantity));
    return o;
  }));
  put(out, 'pods', sub(m, 'pods', (s) => {
    const p: NonNullable<MetricSpecV1['pods']> = { metricName: field(s, 'metricName', isStr) ?? '', targetAverageValue: field(s, 'targetAverageValue', isQuantity) ?? '0' };
    put(p, 'selector', selector(s, 'selector'));
    return p;
  }));
  put(out, 'resource', sub(m, 'resource', (s) => {
    const r: NonNullable<MetricSpecV1['resource']> = { name: field(s, 'name', isStr) ?? '' };
    put(r, 'targetAverageUtilization', field(s, 'targetAverageUtilization', isNum));
    put(r, 'targetAverageValue', field(s, 'targetAverageValue', isQuantity));
    return r;
  }));
  put(out, 'containerResource', sub(m, 'containerResource', (s) => {
    const r: NonNullable<MetricSpecV1['containerResource']> = { name: field(s, 'name', isStr) ?? '', container: field(s, 'container', isStr) ?? '' };
    put(r, 'targetAverageUtilization', field(s, 'targetAverageUtilization', isNum));
    put(r, 'targetAverageValue', field(s, 'targetAverageValue', isQuantity));
    return r;
  }));
  put(out, 'external', sub(m, 'external', (s) => {
    const e: NonNullable<MetricSpecV1['external']> = { metricName: field(s, 'metricName', isStr) ?? '' };
    put(e, 'metricSelector', selector(s, 'metricSelector'));
    put(e, 'targetValue', field(s, 'targetValue', isQuantity));
    put(e, 'targetAverageValue', field(s, 'targetAverageValue', isQuantity));
    return e;
  }));
  return out;
}

function statusOf(m: Obj): MetricStatusV1 {
  const out: MetricStatusV1 = { type: field(m, 'type', isStr) ?? '' };
  put(out, 'object', sub(m, 'object', (s) => {
    const o: NonNullable<MetricStatusV1['object']> = { target: ref(s, 'target'), metricName: field(s, 'metricName', isStr) ?? '', currentValue: field(s, 'currentValue', isQuantity) ?? '0' };
    put(o, 'selector', selector(s, 'selector'));
    put(o, 'averageValue', field(s, 'averageValue', isQuantity));
    return o;
  }));
  put(out, 'pods', sub(m, 'pods', (s) => {
    const p: NonNullable<MetricStatusV1['pods']> = { metricName: field(s, 'metricName', isStr) ?? '', currentAverageValue: field(s, 'currentAverageValue', isQuantity) ?? '0' };
    put(p, 'selector', selector(s, 'selector'));
    return p;
  }));
  put(out, 'resource', sub(m, 'resource', (s) => {
    const r: NonNullable<MetricStatusV1['resource']> = { name: field(s, 'name', isStr) ?? '', currentAverageValue: field(s, 'currentAverageValue', isQuantity) ?? '0' };
    put(r, 'currentAverageUtilization', field(s, 'currentAverageUtilization', isNum));
    return r;
  }));
  put(out, 'containerResource', sub(m, 'containerResource', (s) => {
    const r: NonNullable<MetricStatusV1['containerResource']> = {
      name: field(s, 'name', isStr) ?? '', currentAverageValue: field(s, 'currentAverageValue', isQuantity) ?? '0', container: field(s, 'container', isStr) ?? '',
    };
    put(r, 'currentAverageUtilization', field(s, 'currentAverageUtilization', isNum));
    return r;
  }));
  put(out, 'external', sub(m, 'external', (s) => {
    const e: NonNullable<MetricStatusV1['external']> = { metricName: field(s, 'metricName', isStr) ?? '', currentValue: field(s, 'currentValue', isQuantity) ?? '0' };
    put(e, 'metricSelector', selector(s, 'metricSelector'));
    put(e, 'currentAverageValue', field(s, 'currentAverageValue', isQuantity));
    return e;
  }));
  return out;
}

/** `read` on each object entry of `list`; entries that do not decode (or are not objects) are left out. */
function entries<T>(list: readonly unknown[], read: (m: Obj) => T): T[] {
  const out: T[] = [];
  for (const m of list) {
    if (!isObj(m)) continue;
    try {
      out.push(read(m));
    } catch (err) {
      if (!(err instanceof Mismatch)) throw err;
    }
  }
  return out;
}

export const metricSpecsV1 = (list: readonly unknown[]): MetricSpecV1[] => entries(list, specOf);
export const metricStatusesV1 = (list: readonly unknown[]): MetricStatusV1[] => entries(list, statusOf);
