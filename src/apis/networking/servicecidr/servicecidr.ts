// ServiceCIDRs (pkg/registry/networking/servicecidr): one or two (dual-stack) service ranges.
// CIDRs are immutable except that a single-stack range may gain its second family. Status
// (conditions) is written through the status subresource only.
import { fieldPath, invalid, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { isValidCIDR, parseCIDRSloppy } from '../../../apimachinery/validation/ip.ts';
import { FIELD_IMMUTABLE_ERROR_MSG, nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import type { ServiceCIDR } from '../v1/types.ts';

const CIDRS = fieldPath('spec', 'cidrs');

const familyOf = (cidr: string): 'IPv4' | 'IPv6' | '' => {
  const c = parseCIDRSloppy(cidr);
  return c === undefined ? '' : c.network.v4 ? 'IPv4' : 'IPv6';
};

function validateSpec(spec: DeepReadonly<ServiceCIDR['spec']>): FieldError[] {
  const cidrs = spec?.cidrs ?? [];
  if (cidrs.length === 0) return [required(CIDRS, 'at least one CIDR required')];
  // The value is the internal ServiceCIDRSpec, printed with its Go field name.
  if (cidrs.length > 2) return [invalid(CIDRS, { CIDRs: cidrs }, 'may only hold up to 2 values')];
  const errs = cidrs.flatMap((c, i) => isValidCIDR(CIDRS.index(i), c));
  const [a, b] = [familyOf(cidrs[0] ?? ''), familyOf(cidrs[1] ?? '')];
  if (cidrs.length === 2 && a === b && a !== '') {
    errs.push(invalid(CIDRS, cidrs, 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64'));
  }
  return errs;
}

export function validateServiceCIDR(sc: DeepReadonly<ServiceCIDR>): FieldError[] {
  return [...validateObjectMeta(sc.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain }), ...validateSpec(sc.spec)];
}

export function validateServiceCIDRUpdate(sc: DeepReadonly<ServiceCIDR>, old: DeepReadonly<ServiceCIDR>): FieldError[] {
  const next = sc.spec?.cidrs ?? [];
  const prev = old.spec?.cidrs ?? [];
  if (next.length === prev.length) {
    return prev.flatMap((c, i) => (c === next[i] ? [] : [invalid(CIDRS.index(i), next[i], FIELD_IMMUTABLE_ERROR_MSG)]));
  }
  if (prev.length === 1 && next.length === 2) {
    const errs = next[0] === prev[0] ? [] : [invalid(CIDRS.index(0), next[0], FIELD_IMMUTABLE_ERROR_MSG)];
    return [...errs, ...validateSpec(sc.spec)];
  }
  return [invalid(CIDRS, next, FIELD_IMMUTABLE_ERROR_MSG)];
}

export const serviceCIDRStrategy = specStatusStrategy<ServiceCIDR>({
  validate: validateServiceCIDR,
  hasStatus: true,
  prepareForCreate(_ctx, sc) { sc.status = {}; },
  // ValidateServiceCIDRUpdate checks the metadata update itself too (its causes come twice with the store's).
  revalidateOnUpdate: false,
  validateUpdate: (sc, old) => [...validateObjectMetaUpdate(sc.metadata, old.metadata), ...validateServiceCIDRUpdate(sc, old)],
});

export const serviceCIDRStatusStrategy = statusStrategy(serviceCIDRStrategy, {
  resetMetadata: {},
  resetFields: [['metadata'], ['spec']],
  validate: (sc, old) => validateObjectMetaUpdate(sc.metadata, old.metadata),
});

export const serviceCIDRs = {
  group: 'networking.k8s.io', kind: 'ServiceCIDR', resource: 'servicecidrs', singular: 'servicecidr', namespaced: false,
  strategy: serviceCIDRStrategy,
  statusStrategy: serviceCIDRStatusStrategy,
  table: [
    nameColumn<ServiceCIDR>(),
    { name: 'CIDRs', type: 'string',      cell: (sc) => (sc.spec?.cidrs ?? []).join(',') },
    ageColumn<ServiceCIDR>(),
  ],
} satisfies ResourceDefinition<ServiceCIDR>;
