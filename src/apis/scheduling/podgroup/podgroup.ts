// PodGroups (scheduling.k8s.io/v1alpha2, off by default): namespaced, status subresource; the
// spec is fixed after create. Light validation.
// Counterpart of pkg/registry/scheduling/podgroup.
import { fieldPath, invalid, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { validateSchedulingPolicy } from '../policy.ts';
import type { PodGroup } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;

function validatePodGroup(pg: RO<PodGroup>): FieldError[] {
  return [
    ...validateObjectMeta(pg.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }),
    ...validateSchedulingPolicy(pg.spec?.schedulingPolicy, fieldPath('spec', 'schedulingPolicy')),
  ];
}

const strategy = specStatusStrategy<PodGroup>({
  validate: validatePodGroup, hasStatus: true, generation: true,
  validateUpdate: (pg, old) => (deepEqual(pg.spec ?? null, old.spec ?? null) ? [] : [invalid('spec', pg.spec, 'field is immutable')]),
});

export const podGroups = {
  group: 'scheduling.k8s.io', kind: 'PodGroup', resource: 'podgroups', singular: 'podgroup', namespaced: true,
  strategy,
  statusStrategy: statusStrategy(strategy, { resetMetadata: {} }),
  table: [nameColumn<PodGroup>(), ageColumn<PodGroup>()],
} satisfies ResourceDefinition<PodGroup>;
