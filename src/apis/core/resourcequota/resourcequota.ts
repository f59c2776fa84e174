// ResourceQuotas (pkg/registry/core/resourcequota): status is owned by the quota controller.
import { fieldPath, GoSyntax, invalid, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { FIELD_IMMUTABLE_ERROR_MSG, nameIsDNSSubdomain, validateObjectMeta, repeatedMetadataErrors } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, copyOf, nameColumn, setOptional, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { quantityString } from '../v1/quantity.ts';
import { isStandardQuotaResourceName, roundUpResourceList, validateQuotaResourceName, validateResourceQuantityValue } from '../v1/resource-names.ts';
import type { ResourceList, ResourceQuota } from '../v1/types.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';

type RO<T> = DeepReadonly<T>;
type Spec = NonNullable<ResourceQuota['spec']>;
const SCOPES = new Set(['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'VolumeAttributesClass', 'CrossNamespacePodAffinity']);
const POD_COMPUTE = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);
const EXISTS_ONLY = new Set(['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity']);
const CONFLICTS = [['BestEffort', 'NotBestEffort'], ['Terminating', 'NotTerminating']] as const;

/** IsResourceQuotaScopeValidForResource. */
function scopeValidFor(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating': case 'NotTerminating': case 'NotBestEffort': case 'PriorityClass': case 'CrossNamespacePodAffinity':
      return resource === 'pods' || POD_COMPUTE.has(resource);
    case 'BestEffort': return resource === 'pods';
    case 'VolumeAttributesClass': return resource === 'persistentvolumeclaims' || resource === 'requests.storage';
    default: return true;
  }
}

function validateResourceList(list: RO<ResourceList> | undefined, p: FieldPath): FieldError[] {
  return Object.entries(list ?? {}).flatMap(([k, q]) => [...validateQuotaResourceName(k, p.key(k)), ...validateResourceQuantityValue(k, q, p.key(k))]);
}

function validateScopes(spec: RO<Spec>): FieldError[] {
  const scopes = spec.scopes ?? [];
  const p = fieldPath('spec', 'scopes');
  const errs: FieldError[] = [];
  for (const scope of scopes) {
    if (!SCOPES.has(scope)) errs.push(invalid(p, scopes, 'unsupported scope'));
    // one error per hard limit the scope does not cover
    for (const k of Object.keys(spec.hard ?? {})) if (isStandardQuotaResourceName(k) && !scopeValidFor(scope, k)) errs.push(invalid(p, scopes, 'unsupported scope applied to resource'));
  }
  for (const pair of CONFLICTS) if (pair.every((s) => scopes.includes(s))) errs.push(invalid(p, scopes, 'conflicting scopes'));
  return errs;
}

/** The selector as kube prints the internal struct (Go field names, nil slices as null). */
function goScopeSelector(sel: RO<NonNullable<Spec['scopeSelector']>>): GoSyntax {
  const exprs = (sel.matchExpressions ?? []).map((e) => ({ ScopeName: e.scopeName ?? '', Operator: e.operator ?? '', Values: e.values ?? null }));
  return new GoSyntax(JSON.stringify({ MatchExpressions: sel.matchExpressions === undefined ? null : exprs }));
}

function validateScopeSelector(spec: RO<Spec>): FieldError[] {
  const sel = spec.scopeSelector;
  if (sel === undefined || sel === null) return [];
  const p = fieldPath('spec', 'scopeSelector', 'matchExpressions');
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const req of sel.matchExpressions ?? []) {
    const scope = req.scopeName ?? '';
    if (!SCOPES.has(scope)) errs.push(invalid(p.child('scopeName'), scope, 'unsupported scope'));
    for (const k of Object.keys(spec.hard ?? {})) if (isStandardQuotaResourceName(k) && !scopeValidFor(scope, k)) errs.push(invalid(p, goScopeSelector(sel), 'unsupported scope applied to resource'));
    const op = req.operator ?? '';
    if (EXISTS_ONLY.has(scope) && op !== 'Exists') {
      errs.push(invalid(p.child('operator'), op, 'must be \'Exists\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ' +
        'ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity'));
    }
    const values = req.values ?? [];
    if (op === 'In' || op === 'NotIn') {
      if (values.length === 0) errs.push(required(p.child('values'), 'must be at least one value when `operator` is \'In\' or \'NotIn\' for scope selector'));
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length !== 0) errs.push(invalid(p.child('values'), values, 'must be no value when `operator` is \'Exist\' or \'DoesNotExist\' for scope selector'));
    } else {
      errs.push(invalid(p.child('operator'), op, 'not a valid selector operator'));
    }
    names.add(scope);
  }
  // kube shows spec.scopes here (nil when unset)
  for (const pair of CONFLICTS) if (pair.every((s) => names.has(s))) errs.push(invalid(p, spec.scopes ?? null, 'conflicting scopes'));
  return errs;
}

function validateSpec(spec: RO<Spec> | undefined): FieldError[] {
  const s = spec ?? {};
  return [...validateResourceList(s.hard, fieldPath('spec', 'hard')), ...validateScopes(s), ...validateScopeSelector(s)];
}

function validateStatus(rq: RO<ResourceQuota>): FieldError[] {
  return [...validateResourceList(rq.status?.hard, fieldPath('status', 'hard')), ...validateResourceList(rq.status?.used, fieldPath('status', 'used'))];
}

export function validateResourceQuota(rq: RO<ResourceQuota>): FieldError[] {
  return [...validateObjectMeta(rq.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }), ...validateSpec(rq.spec), ...validateStatus(rq)];
}

/** ValidateResourceQuotaUpdate: the spec again, and the set of scopes may not change. */
export function validateResourceQuotaUpdate(rq: RO<ResourceQuota>, old: RO<ResourceQuota>): FieldError[] {
  const errs = validateSpec(rq.spec);
  const next = new Set(rq.spec?.scopes ?? []);
  const prev = new Set(old.spec?.scopes ?? []);
  if (next.size !== prev.size || [...next].some((s) => !prev.has(s))) errs.push(invalid(fieldPath('spec', 'scopes'), rq.spec?.scopes ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  return errs;
}

/** printResourceQuota: "resource: used/hard" pairs, limits.* in the Limit column. */
function quotaColumn(rq: RO<ResourceQuota>, limits: boolean): string {
  const hard = rq.status?.hard ?? {};
  return Object.keys(hard).sort()
    .filter((r) => (r.split('.')[0] === 'limits' && r.includes('.')) === limits)
    .map((r) => `${r}: ${quantityString(rq.status?.used?.[r])}/${quantityString(hard[r])}`).join(', ');
}

const resourceQuotaStrategy = specStatusStrategy<ResourceQuota>({
  prepareForCreate(_ctx, rq) { rq.status = {}; },
  validate: (rq) => validateResourceQuota(rq),
  prepareForUpdate(_ctx, rq, old) {
    setOptional(rq, 'status', old.status === undefined ? undefined : copyOf<ResourceQuota['status']>(old.status));
  },
  revalidateOnUpdate: false,
  validateUpdate: (rq, old) => [...validateResourceQuotaUpdate(rq, old), ...repeatedMetadataErrors(rq.metadata, old.metadata, { update: true })],
});

const resourceQuotaStatusStrategy = statusStrategy<ResourceQuota>(resourceQuotaStrategy, {
  validate: (rq, old) => [...validateStatus(rq), ...repeatedMetadataErrors(rq.metadata, old.metadata, { update: true })],
});

export const resourceQuotas = {
  group: '', kind: 'ResourceQuota', resource: 'resourcequotas', singular: 'resourcequota', shortNames: ['quota'], namespaced: true,
  defaults: (rq) => { for (const list of [rq.spec?.hard, rq.status?.hard, rq.status?.used]) roundUpResourceList(list); },
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
