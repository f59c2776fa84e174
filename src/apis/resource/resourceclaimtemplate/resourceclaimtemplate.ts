// ResourceClaimTemplates (pkg/registry/resource/resourceclaimtemplate): namespaced, the template
// spec fixed after create.
import { fieldPath, invalid, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta, validateTemplateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import { templateSpecValue } from '../go-values.ts';
import { defaultClaimSpec, validateClaimSpec } from '../requests.ts';
import type { ResourceClaimTemplate } from '../v1/types.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';

export function validateResourceClaimTemplate(t: DeepReadonly<ResourceClaimTemplate>): FieldError[] {
  return [
    ...validateObjectMeta(t.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }),
    ...validateTemplateObjectMeta(t.spec?.metadata, fieldPath('spec', 'metadata')),
    ...validateClaimSpec(t.spec?.spec, fieldPath('spec', 'spec')),
  ];
}

export const resourceClaimTemplates = {
  group: 'resource.k8s.io', kind: 'ResourceClaimTemplate', resource: 'resourceclaimtemplates', singular: 'resourceclaimtemplate',
  goZeroValues: (o) => {
    setZero(o, ['spec'], {}); setZero(o, ['spec', 'metadata'], {}); setZero(o, ['spec', 'spec'], {});
    setZero(o, ['spec', 'spec', 'devices'], {}); setZero(o, ['spec', 'spec', 'devices', 'requests'], null);
  },
  returnDeletedObject: true, // as kube's storage: a DELETE answers with the object, not a Status
  namespaced: true,
  strategy: specStatusStrategy<ResourceClaimTemplate>({
    validate: validateResourceClaimTemplate,
    validateUpdate: (t, old) => (deepEqual(t.spec ?? null, old.spec ?? null) ? [] : [invalid('spec', templateSpecValue(t.spec), 'field is immutable')]),
  }),
  defaults: (t: ResourceClaimTemplate) => defaultClaimSpec(t.spec?.spec),
  table: [nameColumn<ResourceClaimTemplate>(), ageColumn<ResourceClaimTemplate>()],
} satisfies ResourceDefinition<ResourceClaimTemplate>;
