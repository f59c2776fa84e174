// EndpointSlice validation (pkg/apis/discovery/validation): address types, addresses by type,
// topology labels, hostnames and ports.
import { duplicate, fieldPath, invalid, notSupported, required, tooMany, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isValidIP, isValidIPForLegacyField, parseIPSloppy } from '../../../apimachinery/validation/ip.ts';
import { deepEqual, nameIsDNSSubdomain, validateImmutableField, validateLabels, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { validateNonSpecialIP } from '../../core/endpoints/endpoints.ts';
import type { Endpoint, EndpointPort, EndpointSlice } from '../v1/types.ts';

const SUPPORTED_ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const SUPPORTED_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const MAX_TOPOLOGY_LABELS = 16;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;
const MAX_ENDPOINTS = 1000;
const MAX_ZONE_HINTS = 8;
const MAX_NODE_HINTS = 8;
/** kube v1.36 enables StrictIPCIDRValidation by default. */
const STRICT_IP = true;

/** validation.IsFullyQualifiedDomainName: at least two DNS labels, a trailing dot allowed. */
function isFullyQualifiedDomainName(path: FieldPath, value: string): FieldError[] {
  if (value === '') return [required(path)];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const sub = isDNS1123Subdomain(name);
  if (sub.length > 0) return [invalid(path, name, sub.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) return [invalid(path, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const errs = isDNS1123Label(label);
    if (errs.length > 0) return [invalid(path, label, errs.join(','))];
  }
  return [];
}

/**
 * One address by the slice's type; unknown types (and the deprecated "IP") are not checked. A
 * family mismatch is reported on the whole `addresses` list, as kube does.
 */
function validateAddress(addressType: string, address: string, list: FieldPath, p: FieldPath): FieldError[] {
  switch (addressType) {
    case 'IPv4': {
      const errs = isValidIPForLegacyField(p, address, STRICT_IP);
      if (errs.length > 0) return errs;
      const family = parseIPSloppy(address)?.v4 === true ? [] : [invalid(list, address, 'must be an IPv4 address')];
      return [...family, ...validateNonSpecialIP(address, p)];
    }
    case 'IPv6': {
      const errs = isValidIP(p, address);
      if (errs.length > 0) return errs;
      const family = parseIPSloppy(address)?.v4 === false ? [] : [invalid(list, address, 'must be an IPv6 address')];
      return [...family, ...validateNonSpecialIP(address, p)];
    }
    case 'FQDN':
      return isFullyQualifiedDomainName(p, address);
    default:
      return [];
  }
}

/** Node names are DNS subdomains (ValidateNodeName). */
const nodeNameErrors = (name: string, p: FieldPath): FieldError[] => isDNS1123Subdomain(name).map((m) => invalid(p, name, m));

/** validateHints: zone names are label values, node names node names, neither repeated. */
function validateHints(hints: DeepReadonly<NonNullable<Endpoint['hints']>>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const groups = [
    { p: path.child('forZones'), items: hints.forZones ?? [], max: MAX_ZONE_HINTS, check: (n: string, p: FieldPath) => isValidLabelValue(n).map((m) => invalid(p, n, m)) },
    { p: path.child('forNodes'), items: hints.forNodes ?? [], max: MAX_NODE_HINTS, check: nodeNameErrors },
  ];
  for (const g of groups) {
    if (g.items.length > g.max) return [...errs, tooMany(g.p, g.items.length, g.max)];
    const seen = new Set<string>();
    g.items.forEach((h, i) => {
      const np = g.p.index(i).child('name');
      if (seen.has(h.name)) errs.push(duplicate(np, h.name));
      else seen.add(h.name);
      errs.push(...g.check(h.name, np));
    });
  }
  return errs;
}

function validateEndpoints(endpoints: DeepReadonly<Endpoint[]>, addressType: string, path: FieldPath): FieldError[] {
  if (endpoints.length > MAX_ENDPOINTS) return [tooMany(path, endpoints.length, MAX_ENDPOINTS)];
  const errs: FieldError[] = [];
  endpoints.forEach((ep, i) => {
    const p = path.index(i);
    const addrPath = p.child('addresses');
    const addresses = ep.addresses ?? [];
    if (addresses.length === 0) errs.push(required(addrPath, 'must contain at least 1 address'));
    else if (addresses.length > MAX_ADDRESSES) errs.push(tooMany(addrPath, addresses.length, MAX_ADDRESSES));
    addresses.forEach((a, j) => errs.push(...validateAddress(addressType, a, addrPath, addrPath.index(j))));
    if (ep.nodeName !== undefined) errs.push(...nodeNameErrors(ep.nodeName, p.child('nodeName')));
    const topoPath = p.child('deprecatedTopology');
    const topology = ep.deprecatedTopology ?? {};
    if (Object.keys(topology).length > MAX_TOPOLOGY_LABELS) errs.push(tooMany(topoPath, Object.keys(topology).length, MAX_TOPOLOGY_LABELS));
    errs.push(...validateLabels(ep.deprecatedTopology, topoPath));
    if (ep.hostname !== undefined) for (const m of isDNS1123Label(ep.hostname)) errs.push(invalid(p.child('hostname'), ep.hostname, m));
    if (ep.hints !== undefined) errs.push(...validateHints(ep.hints, p.child('hints')));
  });
  return errs;
}

function validatePorts(ports: DeepReadonly<EndpointPort[]>, path: FieldPath): FieldError[] {
  if (ports.length > MAX_PORTS) return [tooMany(path, ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const p = path.index(i);
    const name = port.name ?? '';
    if (name !== '') for (const m of isDNS1123Label(name)) errs.push(invalid(p.child('name'), name, m));
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    else names.add(name);
    if (port.protocol === undefined) errs.push(required(p.child('protocol')));
    else if (!SUPPORTED_PROTOCOLS.includes(port.protocol)) errs.push(notSupported(p.child('protocol'), port.protocol, SUPPORTED_PROTOCOLS));
    if (port.appProtocol !== undefined) for (const m of isQualifiedName(port.appProtocol)) errs.push(invalid(p.child('appProtocol'), port.appProtocol, m));
  });
  return errs;
}

/** ValidateEndpointSlice (object meta aside); on update, endpoints equal to the old ones are not re-validated. */
function validateSpec(eps: DeepReadonly<EndpointSlice>, old: DeepReadonly<EndpointSlice> | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const addressType = eps.addressType ?? '';
  if (addressType === '') errs.push(required('addressType'));
  else if (!SUPPORTED_ADDRESS_TYPES.includes(addressType)) errs.push(notSupported('addressType', addressType, SUPPORTED_ADDRESS_TYPES));
  errs.push(...validatePorts(eps.ports ?? [], fieldPath('ports')));
  const endpointErrs = validateEndpoints(eps.endpoints ?? [], addressType, fieldPath('endpoints'));
  if (endpointErrs.length > 0 && !(old !== undefined && deepEqual(old.endpoints ?? [], eps.endpoints ?? []))) errs.push(...endpointErrs);
  return errs;
}

export function validateEndpointSliceCreate(eps: DeepReadonly<EndpointSlice>): FieldError[] {
  return [...validateObjectMeta(eps.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }), ...validateSpec(eps, undefined)];
}

/** Update: addressType never changes (kube v1.36 no longer accepts the old "IP" type either). */
export function validateEndpointSliceUpdate(eps: DeepReadonly<EndpointSlice>, old: DeepReadonly<EndpointSlice>): FieldError[] {
  return [...validateSpec(eps, old), ...validateImmutableField(eps.addressType ?? '', old.addressType ?? '', fieldPath('addressType'))];
}
