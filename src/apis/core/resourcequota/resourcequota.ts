// ResourceQuotas (pkg/registry/core/resourcequota): status is owned by the quota controller.
import { fieldPath, invalid, notSupported, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition, Strategy } from '../../../registry/rest/strategy.ts';
import { ageColumn, copyOf, nameColumn, setOptional } from '../../../registry/rest/kit.ts';
import { parseQuantity, quantityString } from '../v1/quantity.ts';
import type { ResourceList, ResourceQuota } from '../v1/types.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';

type RO<T> = DeepReadonly<T>;
const SCOPES = ['BestEffort', 'CrossNamespacePodAffinity', 'NotBestEffort', 'NotTerminating', 'PriorityClass', 'Terminating', 'VolumeAttributesClass'];

function validateResourceList(list: RO<ResourceList> | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, q] of Object.entries(list ?? {})) {
    for (const m of isQualifiedName(k)) errs.push(invalid(p.key(k), k, m));
    const v = parseQuantity(q);
    if (v === undefined) errs.push(invalid(p.key(k), q, 'must be a valid quantity'));
    else if (v < 0) errs.push(invalid(p.key(k), String(q), 'must be greater than or equal to 0'));
  }
  return errs;
}

export function validateResourceQuota(rq: RO<ResourceQuota>): FieldError[] {
  const errs = validateObjectMeta(rq.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  errs.push(...validateResourceList(rq.spec?.hard, fieldPath('spec', 'hard')));
  (rq.spec?.scopes ?? []).forEach((s) => {
    if (!SCOPES.includes(s)) errs.push(notSupported(fieldPath('spec', 'scopes'), s, SCOPES));
  });
  errs.push(...validateResourceList(rq.status?.hard, fieldPath('status', 'hard')));
  errs.push(...validateResourceList(rq.status?.used, fieldPath('status', 'used')));
  return errs;
}

/** printResourceQuota: "resource: used/hard" pairs, limits.* in the Limit column. */
function quotaColumn(rq: RO<ResourceQuota>, limits: boolean): string {
  const hard = rq.status?.hard ?? {};
  return Object.keys(hard).sort()
    .filter((r) => (r.split('.')[0] === 'limits' && r.includes('.')) === limits)
    .map((r) => `${r}: ${quantityString(rq.status?.used?.[r])}/${quantityString(hard[r])}`).join(', ');
}

export const resourceQuotaStrategy: Strategy<ResourceQuota> = {
  prepareForCreate(_ctx, rq) { rq.status = {}; },
  validate: (_ctx, rq) => validateResourceQuota(rq),
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForUpdate(_ctx, rq, old) {
    setOptional(rq, 'status', old.status === undefined ? undefined : copyOf<ResourceQuota['status']>(old.status));
  },
  validateUpdate: (_ctx, rq) => validateResourceQuota(rq).filter((e) => !e.field.startsWith('metadata.')),
};

export const resourceQuotaStatusStrategy: Strategy<ResourceQuota> = {
  ...resourceQuotaStrategy,
  prepareForUpdate(_ctx, rq, old) {
    setOptional(rq, 'spec', old.spec === undefined ? undefined : copyOf<ResourceQuota['spec']>(old.spec));
  },
};

export const resourceQuotas = {
  group: '', kind: 'ResourceQuota', resource: 'resourcequotas', singular: 'resourcequota', shortNames: ['quota'], namespaced: true,
  goZeroValues: (o) => { for (const [path, v] of [[['spec'], {}]] as const) setZero(o, path, v); },
  strategy: resourceQuotaStrategy,
  statusStrategy: resourceQuotaStatusStrategy,
  table: [
    nameColumn<ResourceQuota>(),
    { name: 'Request', type: 'string', cell: (rq) => quotaColumn(rq, false) },
    { name: 'Limit', type: 'string', cell: (rq) => quotaColumn(rq, true) },
    ageColumn<ResourceQuota>(),
  ],
} satisfies ResourceDefinition<ResourceQuota>;
