// ResourcePoolStatusRequests (resource.k8s.io/v1alpha3, off by default): cluster-scoped requests
// for a driver's pool status, answered through /status; the spec is fixed after create.
// Counterpart of pkg/registry/resource/resourcepoolstatusrequest.
import { fieldPath, invalid, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import type { ResourcePoolStatusRequest } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;

export function validateResourcePoolStatusRequest(r: RO<ResourcePoolStatusRequest>): FieldError[] {
  const errs = validateObjectMeta(r.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const driver = r.spec?.driver ?? '';
  if (driver === '') errs.push(required(fieldPath('spec', 'driver'), ''));
  else for (const m of nameIsDNSSubdomain(driver, false)) errs.push(invalid(fieldPath('spec', 'driver'), driver, m));
  const limit = r.spec?.limit;
  if (limit !== undefined && limit <= 0) errs.push(invalid(fieldPath('spec', 'limit'), limit, 'must be greater than zero'));
  return errs;
}

const strategy = specStatusStrategy<ResourcePoolStatusRequest>({
  validate: validateResourcePoolStatusRequest, hasStatus: true, allowUnconditionalUpdate: false,
  validateUpdate: (r, old) => (deepEqual(r.spec ?? null, old.spec ?? null) ? [] : [invalid('spec', r.spec, 'field is immutable')]),
});

export const resourcePoolStatusRequests = {
  group: 'resource.k8s.io', kind: 'ResourcePoolStatusRequest', resource: 'resourcepoolstatusrequests',
  singular: 'resourcepoolstatusrequest', namespaced: false,
  strategy,
  statusStrategy: statusStrategy(strategy, { resetMetadata: {} }),
  table: [nameColumn<ResourcePoolStatusRequest>(), ageColumn<ResourcePoolStatusRequest>()],
} satisfies ResourceDefinition<ResourcePoolStatusRequest>;
