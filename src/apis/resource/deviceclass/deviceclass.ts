// DeviceClasses (pkg/registry/resource/deviceclass + ValidateDeviceClass): cluster-scoped,
// generation bumped on spec changes; selectors and opaque configs as in claims, and an optional
// extended resource name.
import { invalid } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import { validateSelectors } from '../requests.ts';
import type { DeviceClass } from '../v1/types.ts';
import { fieldPath, items, validateDeviceConfiguration, validateList, type FieldError } from '../validation-kit.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';

type RO<T> = DeepReadonly<T>;

/** validate.LongName (declarative, content.IsDNS1123Subdomain): the DNS subdomain rule, its length in bytes. */
const longName = (name: string, prefix: boolean): string[] =>
  nameIsDNSSubdomain(name, prefix).map((m) => m.replace(/^must be no more than (\d+) characters$/, 'must be no more than $1 bytes'));

/** v1helper.IsExtendedResourceName: not kube's own, not "requests.", and a qualified name behind "requests.". */
const isExtendedResourceName = (name: string): boolean =>
  name.includes('/') && !name.includes('kubernetes.io/') && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;

/** validateDeviceClassSpec; unchanged configs count as stored (their parameters' size limit is not re-checked). */
function validateSpec(dc: RO<DeviceClass>, old?: RO<DeviceClass>): FieldError[] {
  const spec = dc.spec ?? {};
  const p = fieldPath('spec');
  const stored = old !== undefined && deepEqual(spec.config ?? null, old.spec?.config ?? null);
  const errs = [
    ...validateSelectors(spec.selectors, p.child('selectors')),
    ...validateList(items(spec.config), 32, p.child('config'), (c, cp) => validateDeviceConfiguration(c, cp, stored)),
  ];
  const ext = spec.extendedResourceName;
  if (typeof ext === 'string' && !isExtendedResourceName(ext)) errs.push(invalid(p.child('extendedResourceName'), ext, 'must be a valid extended resource name'));
  return errs;
}

export function validateDeviceClass(dc: RO<DeviceClass>): FieldError[] {
  return [...validateObjectMeta(dc.metadata, { namespaced: false, nameFn: longName }), ...validateSpec(dc)];
}

export const deviceClasses = {
  group: 'resource.k8s.io', kind: 'DeviceClass', resource: 'deviceclasses', singular: 'deviceclass', namespaced: false,
  goZeroValues: (o) => { setZero(o, ['spec'], {}); }, // a struct: kube writes it even when absent
  returnDeletedObject: true, // as kube's storage: a DELETE answers with the object, not a Status
  // On update the spec check (with the old object) is the whole check: metadata is the Store's.
  strategy: specStatusStrategy<DeviceClass>({ validate: validateDeviceClass, generation: true, revalidateOnUpdate: false, validateUpdate: (dc, old) => validateSpec(dc, old) }),
  table: [nameColumn<DeviceClass>(), ageColumn<DeviceClass>()],
} satisfies ResourceDefinition<DeviceClass>;
