// LimitRanges (pkg/registry/core/limitrange + ValidateLimitRange, the common checks).
import { duplicate, fieldPath, invalid, notSupported, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import { setKey } from '../../../apimachinery/patch/index.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { nameColumn } from '../../../registry/rest/kit.ts';
import { parseQuantity } from '../v1/quantity.ts';
import type { LimitRange, ResourceList } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
const LIMIT_TYPES = ['Container', 'PersistentVolumeClaim', 'Pod'];

export function validateLimitRange(lr: RO<LimitRange>): FieldError[] {
  const errs = validateObjectMeta(lr.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const types = new Set<string>();
  (lr.spec?.limits ?? []).forEach((item, i) => {
    const p = fieldPath('spec', 'limits').index(i);
    const type = item.type ?? '';
    if (type === '') errs.push(required(p.child('type')));
    else if (!LIMIT_TYPES.includes(type)) errs.push(notSupported(p.child('type'), type, LIMIT_TYPES));
    if (types.has(type)) errs.push(duplicate(p.child('type'), type));
    types.add(type);
    const lists: [string, RO<ResourceList> | undefined][] = [['max', item.max], ['min', item.min], ['default', item.default],
      ['defaultRequest', item.defaultRequest], ['maxLimitRequestRatio', item.maxLimitRequestRatio]];
    for (const [name, list] of lists) {
      for (const [k, q] of Object.entries(list ?? {})) {
        for (const m of isQualifiedName(k)) errs.push(invalid(p.child(name).key(k), k, m));
        const v = parseQuantity(q);
        if (v === undefined) errs.push(invalid(p.child(name).key(k), q, 'must be a valid quantity'));
        else if (v < 0) errs.push(invalid(p.child(name).key(k), String(q), 'must be greater than or equal to 0'));
      }
    }
    if (type === 'Pod' && item.default !== undefined) errs.push(invalid(p.child('default'), item.default, 'may not be specified when `type` is \'Pod\''));
    for (const [k, minQ] of Object.entries(item.min ?? {})) {
      const maxQ = item.max !== undefined && Object.hasOwn(item.max, k) ? item.max[k] : undefined;
      if (maxQ !== undefined && (parseQuantity(minQ) ?? 0) > (parseQuantity(maxQ) ?? 0)) {
        errs.push(invalid(p.child('min').key(k), String(minQ), `min value ${String(minQ)} is greater than max value ${String(maxQ)}`));
      }
    }
    for (const [k, defQ] of Object.entries(item.default ?? {})) {
      const maxQ = item.max !== undefined && Object.hasOwn(item.max, k) ? item.max[k] : undefined;
      if (maxQ !== undefined && (parseQuantity(defQ) ?? 0) > (parseQuantity(maxQ) ?? 0)) {
        errs.push(invalid(p.child('default').key(k), String(defQ), `default value ${String(defQ)} is greater than max value ${String(maxQ)}`));
      }
    }
  });
  return errs;
}

/**
 * SetDefaults_LimitRangeItem: a Container item's default limit falls back to its max, and its
 * default request to the default limit, then to its min. (Go's empty maps are omitted on the wire.)
 */
export function defaultLimitRange(lr: LimitRange): void {
  for (const item of lr.spec?.limits ?? []) {
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
  strategy: {
    prepareForCreate() {},
    validate: (_ctx, lr) => validateLimitRange(lr),
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    prepareForUpdate() {},
    validateUpdate: (_ctx, lr) => validateLimitRange(lr).filter((e) => !e.field.startsWith('metadata.')),
  },
  table: [
    nameColumn<LimitRange>(),
    { name: 'Created At', type: 'date', cell: (lr) => lr.metadata.creationTimestamp ?? null },
  ],
} satisfies ResourceDefinition<LimitRange>;
