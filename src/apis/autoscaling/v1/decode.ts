// Decodes the v1 metric specs and statuses held in the round-trip annotations, checking the JSON
// types as encoding/json does when it fills k8s.io/api/autoscaling/v1's MetricSpec and
// MetricStatus. null counts as absent; a required field left out takes its Go zero value, which
// the conversion to v2 gives it anyway. A field of another type or a malformed quantity fails the
// whole list, as json.Unmarshal does; kube's conversion then ignores the annotation.
import type { LabelSelector, LabelSelectorRequirement } from '../../../apimachinery/labels/label-selector.ts';
import type { CrossVersionObjectReference, Quantity } from '../v2/types.ts';
import type { MetricSpecV1, MetricStatusV1 } from './types.ts';
import { canonicalQuantityText } from '../../../apimachinery/resource/quantity.ts';

type Obj = Record<string, unknown>;
type Is<T> = (v: unknown) => v is T;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);
const isStrMap = (v: unknown): v is Record<string, string> => isObj(v) && Object.values(v).every(isStr);

/** Thrown inside a decode: a field of another JSON type (an UnmarshalTypeError). */
class Mismatch extends Error {}

/** A quantity Quantity.UnmarshalJSON refuses. */
class BadQuantity extends Error {}

/** A resource.Quantity field, as it marshals back ("1.5" is "1500m"); a malformed one fails the list. */
function qty(o: Obj, key: string): Quantity | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!isStr(v) && !isNum(v)) throw new BadQuantity(key);
  const text = canonicalQuantityText(isNum(v) ? JSON.stringify(v) : v);
  if (text === undefined) throw new BadQuantity(key);
  return text;
}

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
    const o: NonNullable<MetricSpecV1['object']> = { target: ref(s, 'target'), metricName: field(s, 'metricName', isStr) ?? '', targetValue: qty(s, 'targetValue') ?? '0' };
    put(o, 'selector', selector(s, 'selector'));
    put(o, 'averageValue', qty(s, 'averageValue'));
    return o;
  }));
  put(out, 'pods', sub(m, 'pods', (s) => {
    const p: NonNullable<MetricSpecV1['pods']> = { metricName: field(s, 'metricName', isStr) ?? '', targetAverageValue: qty(s, 'targetAverageValue') ?? '0' };
    put(p, 'selector', selector(s, 'selector'));
    return p;
  }));
  put(out, 'resource', sub(m, 'resource', (s) => {
    const r: NonNullable<MetricSpecV1['resource']> = { name: field(s, 'name', isStr) ?? '' };
    put(r, 'targetAverageUtilization', field(s, 'targetAverageUtilization', isNum));
    put(r, 'targetAverageValue', qty(s, 'targetAverageValue'));
    return r;
  }));
  put(out, 'containerResource', sub(m, 'containerResource', (s) => {
    const r: NonNullable<MetricSpecV1['containerResource']> = { name: field(s, 'name', isStr) ?? '', container: field(s, 'container', isStr) ?? '' };
    put(r, 'targetAverageUtilization', field(s, 'targetAverageUtilization', isNum));
    put(r, 'targetAverageValue', qty(s, 'targetAverageValue'));
    return r;
  }));
  put(out, 'external', sub(m, 'external', (s) => {
    const e: NonNullable<MetricSpecV1['external']> = { metricName: field(s, 'metricName', isStr) ?? '' };
    put(e, 'metricSelector', selector(s, 'metricSelector'));
    put(e, 'targetValue', qty(s, 'targetValue'));
    put(e, 'targetAverageValue', qty(s, 'targetAverageValue'));
    return e;
  }));
  return out;
}

function statusOf(m: Obj): MetricStatusV1 {
  const out: MetricStatusV1 = { type: field(m, 'type', isStr) ?? '' };
  put(out, 'object', sub(m, 'object', (s) => {
    const o: NonNullable<MetricStatusV1['object']> = { target: ref(s, 'target'), metricName: field(s, 'metricName', isStr) ?? '', currentValue: qty(s, 'currentValue') ?? '0' };
    put(o, 'selector', selector(s, 'selector'));
    put(o, 'averageValue', qty(s, 'averageValue'));
    return o;
  }));
  put(out, 'pods', sub(m, 'pods', (s) => {
    const p: NonNullable<MetricStatusV1['pods']> = { metricName: field(s, 'metricName', isStr) ?? '', currentAverageValue: qty(s, 'currentAverageValue') ?? '0' };
    put(p, 'selector', selector(s, 'selector'));
    return p;
  }));
  put(out, 'resource', sub(m, 'resource', (s) => {
    const r: NonNullable<MetricStatusV1['resource']> = { name: field(s, 'name', isStr) ?? '', currentAverageValue: qty(s, 'currentAverageValue') ?? '0' };
    put(r, 'currentAverageUtilization', field(s, 'currentAverageUtilization', isNum));
    return r;
  }));
  put(out, 'containerResource', sub(m, 'containerResource', (s) => {
    const r: NonNullable<MetricStatusV1['containerResource']> = {
      name: field(s, 'name', isStr) ?? '', currentAverageValue: qty(s, 'currentAverageValue') ?? '0', container: field(s, 'container', isStr) ?? '',
    };
    put(r, 'currentAverageUtilization', field(s, 'currentAverageUtilization', isNum));
    return r;
  }));
  put(out, 'external', sub(m, 'external', (s) => {
    const e: NonNullable<MetricStatusV1['external']> = { metricName: field(s, 'metricName', isStr) ?? '', currentValue: qty(s, 'currentValue') ?? '0' };
    put(e, 'metricSelector', selector(s, 'metricSelector'));
    put(e, 'currentAverageValue', qty(s, 'currentAverageValue'));
    return e;
  }));
  return out;
}

/**
 * `read` on each entry; undefined when any entry does not decode (a field of another JSON type, a
 * malformed quantity): json.Unmarshal then fails and kube's conversion ignores the annotation.
 * A null entry is the zero value.
 */
function all<T>(list: readonly unknown[], read: (m: Obj) => T): T[] | undefined {
  const out: T[] = [];
  for (const m of list) {
    if (m !== null && !isObj(m)) return undefined;
    try {
      out.push(read(m ?? {}));
    } catch (err) {
      if (err instanceof Mismatch || err instanceof BadQuantity) return undefined;
      throw err;
    }
  }
  return out;
}

export const metricSpecsV1 = (list: readonly unknown[]): MetricSpecV1[] | undefined => all(list, specOf);
export const metricStatusesV1 = (list: readonly unknown[]): MetricStatusV1[] | undefined => all(list, statusOf);
