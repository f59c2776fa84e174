// LimitRanges (pkg/registry/core/limitrange + ValidateLimitRange): limit types, resource names per
// type, and the min ≤ defaultRequest ≤ default ≤ max ordering (quantities compared exactly, shown
// canonical). kube does not check the sign of the quantities here.
import { duplicate, fieldPath, forbidden, invalid, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { cmpQuantity, formatQuantity, parseQuantity, type Quantity } from '../../../apimachinery/resource/quantity.ts';
import { nameIsDNSSubdomain, validateObjectMeta, repeatedMetadataErrors } from '../../../apimachinery/validation/object-meta.ts';
import { isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import { setKey } from '../../../apimachinery/patch/index.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import { isOvercommitAllowed, roundUpResourceList, validateContainerResourceName, validateResourceName } from '../v1/resource-names.ts';
import type { LimitRange, LimitRangeItem, ResourceList } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
const STANDARD_LIMIT_TYPES = new Set(['Container', 'PersistentVolumeClaim', 'Pod']);

/** validateLimitRangeTypeName: qualified, and unprefixed types must be standard ones. */
function validateLimitType(type: string, p: FieldPath): FieldError[] {
  const errs = isQualifiedName(type).map((m) => invalid(p, type, m));
  if (errs.length > 0) return errs;
  return !type.includes('/') && !STANDARD_LIMIT_TYPES.has(type) ? [invalid(p, type, 'must be a standard limit type or fully qualified')] : [];
}

/** validateLimitRangeResourceName: pods and containers limit container resources only. */
const validateLimitResourceName = (type: string, name: string, p: FieldPath): FieldError[] =>
  type === 'Pod' || type === 'Container' ? validateContainerResourceName(name, p) : validateResourceName(name, p);

const NANO = 1_000_000_000n;
/** Quantity.Value() and MilliValue(): rounded up to whole units (milli-units). */
const value = (q: Quantity): bigint => (q.nano >= 0n ? (q.nano + NANO - 1n) / NANO : -((-q.nano) / NANO));
const milliValue = (q: Quantity): bigint => (q.nano >= 0n ? (q.nano + 999_999n) / 1_000_000n : -((-q.nano) / 1_000_000n));
const MAX_MILLI_VALUE = 9223372036854775807n / 1000n;

/** The ratio check's max/min as Go's %f prints a float64. */
function maxOverMin(min: Quantity, max: Quantity, ratio: Quantity): { ratio: number; limit: string } {
  let [r, lo, hi] = [Number(value(ratio)), value(min), value(max)];
  if (value(ratio) < MAX_MILLI_VALUE && lo < MAX_MILLI_VALUE && hi < MAX_MILLI_VALUE) {
    r = Number(milliValue(ratio)) / 1000;
    [lo, hi] = [milliValue(min), milliValue(max)];
  }
  const limit = Number(hi) / Number(lo);
  return { ratio: r, limit: Number.isFinite(limit) ? limit.toFixed(6) : limit > 0 ? '+Inf' : 'NaN' };
}

/** The min ≤ defaultRequest ≤ default ≤ max ordering and the ratio, for one resource of one item. */
function validateOrdering(k: string, item: RO<LimitRangeItem>, p: FieldPath): FieldError[] {
  const get = (list: RO<ResourceList> | undefined): Quantity | undefined => (list !== undefined && Object.hasOwn(list, k) ? parseQuantity(list[k] ?? '') : undefined);
  const pod = item.type === 'Pod';
  const [min, max, ratio] = [get(item.min), get(item.max), get(item.maxLimitRequestRatio)];
  const def = pod ? undefined : get(item.default);
  const req = pod ? undefined : get(item.defaultRequest);
  const s = formatQuantity;
  const errs: FieldError[] = [];
  const at = (list: string): FieldPath => p.child(list).key(k);
  if (min !== undefined && max !== undefined && cmpQuantity(min, max) > 0) errs.push(invalid(at('min'), s(min), `min value ${s(min)} is greater than max value ${s(max)}`));
  if (req !== undefined && min !== undefined && cmpQuantity(min, req) > 0) errs.push(invalid(at('defaultRequest'), s(req), `min value ${s(min)} is greater than default request value ${s(req)}`));
  if (req !== undefined && max !== undefined && cmpQuantity(req, max) > 0) errs.push(invalid(at('defaultRequest'), s(req), `default request value ${s(req)} is greater than max value ${s(max)}`));
  if (req !== undefined && def !== undefined && cmpQuantity(req, def) > 0) errs.push(invalid(at('defaultRequest'), s(req), `default request value ${s(req)} is greater than default limit value ${s(def)}`));
  if (def !== undefined && min !== undefined && cmpQuantity(min, def) > 0) errs.push(invalid(at('default'), s(min), `min value ${s(min)} is greater than default value ${s(def)}`));
  // kube shows max as the bad value here
  if (def !== undefined && max !== undefined && cmpQuantity(def, max) > 0) errs.push(invalid(at('default'), s(max), `default value ${s(def)} is greater than max value ${s(max)}`));
  if (ratio !== undefined && ratio.nano < NANO) errs.push(invalid(at('maxLimitRequestRatio'), s(ratio), `ratio ${s(ratio)} is less than 1`));
  if (ratio !== undefined && min !== undefined && max !== undefined) {
    const r = maxOverMin(min, max, ratio);
    if (r.ratio > Number(r.limit)) errs.push(invalid(at('maxLimitRequestRatio'), s(ratio), `ratio ${s(ratio)} is greater than max/min = ${r.limit}`));
  }
  if (!isOvercommitAllowed(k) && def !== undefined && req !== undefined && cmpQuantity(def, req) !== 0) {
    errs.push(invalid(at('defaultRequest'), s(req), `default value ${s(def)} must equal to defaultRequest value ${s(req)} in ${k}`));
  }
  return errs;
}

export function validateLimitRange(lr: RO<LimitRange>): FieldError[] {
  const errs = validateObjectMeta(lr.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const types = new Set<string>();
  (lr.spec?.limits ?? []).forEach((item, i) => {
    const p = fieldPath('spec', 'limits').index(i);
    const type = item.type ?? '';
    errs.push(...validateLimitType(type, p.child('type')));
    if (types.has(type)) errs.push(duplicate(p.child('type'), type));
    types.add(type);
    const keys = new Set<string>();
    const names = (list: string, rl: RO<ResourceList> | undefined): void => {
      for (const k of Object.keys(rl ?? {})) { errs.push(...validateLimitResourceName(type, k, p.child(list).key(k))); keys.add(k); }
    };
    names('max', item.max);
    names('min', item.min);
    if (type === 'Pod') {
      if (Object.keys(item.default ?? {}).length > 0) errs.push(forbidden(p.child('default'), "may not be specified when `type` is 'Pod'"));
      if (Object.keys(item.defaultRequest ?? {}).length > 0) errs.push(forbidden(p.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
    } else {
      names('default', item.default);
      names('defaultRequest', item.defaultRequest);
    }
    if (type === 'PersistentVolumeClaim' && !Object.hasOwn(item.min ?? {}, 'storage') && !Object.hasOwn(item.max ?? {}, 'storage')) {
      errs.push(required(p.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'));
    }
    names('maxLimitRequestRatio', item.maxLimitRequestRatio);
    for (const k of keys) errs.push(...validateOrdering(k, item, p));
  });
  return errs;
}

/**
 * SetDefaults_LimitRangeItem: a Container item's default limit falls back to its max, and its
 * default request to the default limit, then to its min. (Go's empty maps are omitted on the wire.)
 */
export function defaultLimitRange(lr: LimitRange): void {
  for (const item of lr.spec?.limits ?? []) {
    for (const list of [item.max, item.min, item.default, item.defaultRequest, item.maxLimitRequestRatio]) roundUpResourceList(list);
    if (item.type !== 'Container') continue;
    const def: ResourceList = { ...item.default };
    for (const [k, v] of Object.entries(item.max ?? {})) if (!Object.hasOwn(def, k)) setKey(def, k, v);
    const req: ResourceList = { ...item.defaultRequest };
    for (const [k, v] of Object.entries(def)) if (!Object.hasOwn(req, k)) setKey(req, k, v);
    for (const [k, v] of Object.entries(item.min ?? {})) if (!Object.hasOwn(req, k)) setKey(req, k, v);
    if (Object.keys(def).length > 0) item.default = def;
    if (Object.keys(req).length > 0) item.defaultRequest = req;
  }
}

export const limitRanges = {
  group: '', kind: 'LimitRange', resource: 'limitranges', singular: 'limitrange', shortNames: ['limits'], namespaced: true,
  defaults: defaultLimitRange,
  strategy: specStatusStrategy<LimitRange>({
    validate: (lr) => validateLimitRange(lr),
    allowCreateOnUpdate: true,
    // ValidateLimitRange runs again on update, its metadata checks included
    revalidateOnUpdate: false,
    validateUpdate: (lr, old) => [...validateLimitRange(lr).filter((e) => !e.field.startsWith('metadata.')),
      ...repeatedMetadataErrors(lr.metadata, old.metadata, { create: { namespaced: true, nameFn: nameIsDNSSubdomain } })],
  }),
  table: [
    nameColumn<LimitRange>(),
    { name: 'Created At', type: 'date', cell: (lr) => lr.metadata.creationTimestamp ?? null },
  ],
} satisfies ResourceDefinition<LimitRange>;
