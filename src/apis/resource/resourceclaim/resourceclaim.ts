// ResourceClaims (pkg/registry/resource/resourceclaim): namespaced, status subresource (written by
// the scheduler and drivers), spec fixed after create; printResourceClaim's State column.
import { invalid, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { claimSpecValue } from '../go-values.ts';
import { defaultClaimSpec, validateClaimSpec } from '../requests.ts';
import type { ResourceClaim } from '../v1/types.ts';
import { validateResourceClaimStatusUpdate } from './status.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';

type RO<T> = DeepReadonly<T>;

export function validateResourceClaim(c: RO<ResourceClaim>): FieldError[] {
  return [...validateObjectMeta(c.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }), ...validateClaimSpec(c.spec)];
}

/** resourceClaimState: deleted / pending / allocated,reserved. */
export function resourceClaimState(c: RO<ResourceClaim>): string {
  const states: string[] = [];
  const deleting = c.metadata.deletionTimestamp !== undefined && c.metadata.deletionTimestamp !== null;
  if (deleting) states.push('deleted');
  if (c.status?.allocation === undefined || c.status.allocation === null) {
    if (!deleting) states.push('pending');
  } else {
    states.push('allocated');
    if ((c.status.reservedFor ?? []).length > 0) states.push('reserved');
  }
  return states.join(',');
}

const strategy = specStatusStrategy<ResourceClaim>({
  validate: validateResourceClaim, hasStatus: true,
  validateUpdate: (c, old) => (deepEqual(c.spec ?? null, old.spec ?? null) ? [] : [invalid('spec', claimSpecValue(c.spec), 'field is immutable')]),
});

export const resourceClaims = {
  group: 'resource.k8s.io', kind: 'ResourceClaim', resource: 'resourceclaims', singular: 'resourceclaim', namespaced: true,
  // A claim without spec reads back as kube's encoder writes the empty structs and the nil requests.
  goZeroValues: (o) => {
    setZero(o, ['spec'], {}); setZero(o, ['spec', 'devices'], {}); setZero(o, ['spec', 'devices', 'requests'], null);
    setZero(o, ['status'], {});
  },
  returnDeletedObject: true, // as kube's storage: a DELETE answers with the object, not a Status
  strategy,
  statusStrategy: statusStrategy(strategy, { validate: validateResourceClaimStatusUpdate, resetMetadata: {} }),
  defaults: (c: ResourceClaim) => defaultClaimSpec(c.spec),
  table: [
    nameColumn<ResourceClaim>(),
    column<ResourceClaim>('State', 'string', resourceClaimState),
    ageColumn<ResourceClaim>(),
  ],
} satisfies ResourceDefinition<ResourceClaim>;
