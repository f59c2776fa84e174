// IPAddresses (pkg/registry/networking/ipaddress): one object per allocated service IP, named
// by the IP in canonical form. parentRef is required and immutable.
import { fieldPath, invalid, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { isValidIP } from '../../../apimachinery/validation/ip.ts';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { IPAddress, ParentReference } from '../v1/types.ts';
import { isPathSegmentName } from '../validation-helpers.ts';

/** ValidateIPAddressName: the messages of IsValidIP; generated names are not supported. */
const validateIPAddressName = (name: string): string[] => isValidIP(fieldPath('name'), name).map((e) => e.detail);

function validateParentRef(ref: DeepReadonly<ParentReference> | undefined): FieldError[] {
  const p = fieldPath('spec', 'parentRef');
  if (ref === undefined) return [required(p)];
  const errs: FieldError[] = [];
  if ((ref.group ?? '') !== '') for (const m of isDNS1123Subdomain(ref.group ?? '')) errs.push(invalid(p.child('group'), ref.group, m));
  if ((ref.resource ?? '') === '') errs.push(required(p.child('resource')));
  else for (const m of isPathSegmentName(ref.resource ?? '')) errs.push(invalid(p.child('resource'), ref.resource, m));
  if ((ref.name ?? '') === '') errs.push(required(p.child('name')));
  else for (const m of isPathSegmentName(ref.name ?? '')) errs.push(invalid(p.child('name'), ref.name, m));
  if ((ref.namespace ?? '') !== '') for (const m of isPathSegmentName(ref.namespace ?? '')) errs.push(invalid(p.child('namespace'), ref.namespace, m));
  return errs;
}

function validateIPAddress(ip: DeepReadonly<IPAddress>): FieldError[] {
  return [...validateObjectMeta(ip.metadata, { namespaced: false, nameFn: validateIPAddressName }), ...validateParentRef(ip.spec?.parentRef)];
}

/** The internal ParentReference as Go prints it in an error: every field, named as in Go. */
function goParentRef(ref: DeepReadonly<ParentReference> | undefined): Record<string, string> | null {
  if (ref === undefined) return null;
  return { Group: ref.group ?? '', Resource: ref.resource ?? '', Namespace: ref.namespace ?? '', Name: ref.name ?? '' };
}

/** printIPAddress: "resource[.group][/namespace]/name", lowercased group resource. */
function parentRefCell(ref: DeepReadonly<ParentReference> | undefined): string {
  if (ref === undefined) return '<none>';
  const gr = (ref.group ?? '') === '' ? ref.resource ?? '' : `${ref.resource ?? ''}.${ref.group ?? ''}`;
  const ns = (ref.namespace ?? '') !== '' ? `/${ref.namespace ?? ''}` : '';
  return `${gr.toLowerCase()}${ns}/${ref.name ?? ''}`;
}

export const ipAddresses = {
  group: 'networking.k8s.io', kind: 'IPAddress', resource: 'ipaddresses', singular: 'ipaddress', shortNames: ['ip'], namespaced: false,
  strategy: specStatusStrategy<IPAddress>({
    // kube's noopNameGenerator: a generateName is taken as the name itself (and refused unless an IP).
    prepareForCreate(_ctx, ip) {
      if ((ip.metadata.name ?? '') === '' && (ip.metadata.generateName ?? '') !== '') ip.metadata.name = ip.metadata.generateName ?? '';
    },
    validate: (ip) => validateIPAddress(ip),
    // ValidateIPAddress of the new object, then parentRef immutability (a Go struct value: its field names).
    revalidateOnUpdate: false,
    validateUpdate: (ip, old) => [
      ...validateIPAddress(ip),
      ...validateObjectMetaUpdate(ip.metadata, old.metadata),
      ...validateImmutableField(goParentRef(ip.spec?.parentRef), goParentRef(old.spec?.parentRef), fieldPath('spec', 'parentRef')),
    ],
  }),
  // kube declares only these two columns (its printer also emits an age cell that no column shows).
  table: [
    nameColumn<IPAddress>(),
    { name: 'ParentRef', type: 'string',      cell: (ip) => parentRefCell(ip.spec?.parentRef) },
  ],
} satisfies ResourceDefinition<IPAddress>;
