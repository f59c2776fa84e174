// ResourceSlices (pkg/registry/resource/resourceslice): cluster-scoped, published by drivers;
// generation bumped on spec changes; field selectors spec.nodeName and spec.driver.
import { duplicate, fieldPath, invalid, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSLabel, nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { ResourceSlice } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
const NODE_FIELDS = '`nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection`';

export function validateResourceSlice(s: RO<ResourceSlice>): FieldError[] {
  const errs = validateObjectMeta(s.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const spec = s.spec ?? {};
  const p = fieldPath('spec');
  const driver = spec.driver ?? '';
  if (driver === '') errs.push(required(p.child('driver'), ''));
  else for (const m of nameIsDNSSubdomain(driver, false)) errs.push(invalid(p.child('driver'), driver, m));
  const pool = spec.pool ?? {};
  if ((pool.name ?? '') === '') errs.push(required(p.child('pool', 'name'), ''));
  if ((pool.resourceSliceCount ?? 0) <= 0) errs.push(invalid(p.child('pool', 'resourceSliceCount'), pool.resourceSliceCount ?? 0, 'must be greater than zero'));
  if ((pool.generation ?? 0) < 0) errs.push(invalid(p.child('pool', 'generation'), pool.generation, 'must be greater than or equal to 0'));
  const set = [(spec.nodeName ?? '') !== '', spec.nodeSelector !== undefined, spec.allNodes === true, spec.perDeviceNodeSelection === true].filter(Boolean).length;
  if (set !== 1) errs.push(invalid(p, '', `exactly one of ${NODE_FIELDS} is required`));
  if ((spec.nodeName ?? '') !== '') for (const m of nameIsDNSSubdomain(spec.nodeName ?? '', false)) errs.push(invalid(p.child('nodeName'), spec.nodeName, m));
  const names = new Set<string>();
  (spec.devices ?? []).forEach((d, i) => {
    const name = d.name ?? '';
    const dp = p.child('devices').index(i).child('name');
    if (name === '') errs.push(required(dp, ''));
    else for (const m of nameIsDNSLabel(name, false)) errs.push(invalid(dp, name, m));
    if (name !== '' && names.has(name)) errs.push(duplicate(dp, name));
    names.add(name);
  });
  return errs;
}

export const resourceSlices = {
  group: 'resource.k8s.io', kind: 'ResourceSlice', resource: 'resourceslices', singular: 'resourceslice', namespaced: false,
  returnDeletedObject: true, // as kube's storage: a DELETE answers with the object, not a Status
  // resource.k8s.io's conversion names the group version and kind.
  fieldLabelMessage: (field) => `field label not supported for resource.k8s.io/v1, Kind=ResourceSlice: ${field}`,
  strategy: specStatusStrategy<ResourceSlice>({ validate: validateResourceSlice, generation: true }),
  selectableFields: (s) => ({ 'metadata.name': s.metadata.name ?? '', 'spec.nodeName': s.spec?.nodeName ?? '', 'spec.driver': s.spec?.driver ?? '' }),
  table: [
    nameColumn<ResourceSlice>(),
    column<ResourceSlice>('Node', 'string', (s) => s.spec?.nodeName ?? ''),
    column<ResourceSlice>('Driver', 'string', (s) => s.spec?.driver ?? ''),
    column<ResourceSlice>('Pool', 'string', (s) => s.spec?.pool?.name ?? ''),
    ageColumn<ResourceSlice>(),
  ],
} satisfies ResourceDefinition<ResourceSlice>;
