// ResourceSlices (pkg/registry/resource/resourceslice): cluster-scoped, published by drivers;
// generation bumped on spec changes; field selectors spec.nodeName and spec.driver.
import type { ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { ResourceSlice } from '../v1/types.ts';
import { validateResourceSlice, validateResourceSliceUpdate } from './validation.ts';

export { validateResourceSlice } from './validation.ts';

export const resourceSlices = {
  group: 'resource.k8s.io', kind: 'ResourceSlice', resource: 'resourceslices', singular: 'resourceslice', namespaced: false,
  returnDeletedObject: true, // as kube's storage: a DELETE answers with the object, not a Status
  // resource.k8s.io's conversion names the group version and kind.
  fieldLabelMessage: (field) => `field label not supported for resource.k8s.io/v1, Kind=ResourceSlice: ${field}`,
  strategy: specStatusStrategy<ResourceSlice>({ validate: validateResourceSlice, generation: true, revalidateOnUpdate: false, validateUpdate: (s, old) => validateResourceSliceUpdate(s, old) }),
  selectableFields: (s) => ({ 'metadata.name': s.metadata.name ?? '', 'spec.nodeName': s.spec?.nodeName ?? '', 'spec.driver': s.spec?.driver ?? '' }),
  table: [
    nameColumn<ResourceSlice>(),
    column<ResourceSlice>('Node', 'string', (s) => s.spec?.nodeName ?? ''),
    column<ResourceSlice>('Driver', 'string', (s) => s.spec?.driver ?? ''),
    column<ResourceSlice>('Pool', 'string', (s) => s.spec?.pool?.name ?? ''),
    ageColumn<ResourceSlice>(),
  ],
} satisfies ResourceDefinition<ResourceSlice>;
