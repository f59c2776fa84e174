// Endpoints (pkg/registry/core/endpoint + ValidateEndpoints).
import { fieldPath, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isValidIPForLegacyField, parseIPSloppy } from '../../../apimachinery/validation/ip.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { EndpointAddress, EndpointPort, Endpoints } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
/** kube v1.36 enables StrictIPCIDRValidation by default. */
const STRICT_IP = true;

/** ValidateNonSpecialIP: endpoints may not point at unspecified, loopback or link-local addresses. */
export function validateNonSpecialIP(ip: string, p: FieldPath): FieldError[] {
  const parsed = parseIPSloppy(ip);
  if (parsed === undefined) return [invalid(p, ip, 'must be a valid IP address')];
  const b = parsed.bytes;
  const errs: FieldError[] = [];
  if (b.every((x) => x === 0)) errs.push(invalid(p, ip, `may not be unspecified (${ip})`));
  const loopback = parsed.v4 ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  if (loopback) errs.push(invalid(p, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  const linkLocal = parsed.v4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && ((b[1] ?? 0) & 0xc0) === 0x80;
  if (linkLocal) errs.push(invalid(p, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  const llMulticast = parsed.v4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && ((b[1] ?? 0) & 0x0f) === 0x02;
  if (llMulticast) errs.push(invalid(p, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

function validateAddress(a: RO<EndpointAddress>, p: FieldPath): FieldError[] {
  // both checks always run, so an unparsable IP is reported twice, as kube does
  const errs = isValidIPForLegacyField(p.child('ip'), a.ip ?? '', STRICT_IP);
  if ((a.hostname ?? '') !== '') errs.push(...isDNS1123Label(a.hostname ?? '').map((m) => invalid(p.child('hostname'), a.hostname, m)));
  if (a.nodeName !== undefined) errs.push(...isDNS1123Subdomain(a.nodeName).map((m) => invalid(p.child('nodeName'), a.nodeName, m)));
  errs.push(...validateNonSpecialIP(a.ip ?? '', p.child('ip')));
  return errs;
}

function validatePort(port: RO<EndpointPort>, requireName: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = port.name ?? '';
  if (requireName && name === '') errs.push(required(p.child('name')));
  else if (name !== '') errs.push(...isDNS1123Label(name).map((m) => invalid(p.child('name'), name, m)));
  errs.push(...isValidPortNum(port.port).map((m) => invalid(p.child('port'), port.port, m)));
  const proto = port.protocol ?? '';
  if (proto === '') errs.push(required(p.child('protocol')));
  else if (!['SCTP', 'TCP', 'UDP'].includes(proto)) errs.push(notSupported(p.child('protocol'), proto, ['SCTP', 'TCP', 'UDP']));
  if (port.appProtocol !== undefined) errs.push(...isQualifiedName(port.appProtocol).map((m) => invalid(p.child('appProtocol'), port.appProtocol, m)));
  return errs;
}

/** ValidateEndpoints; on update, subsets equal to the old ones are not re-validated (older rules let them in). */
export function validateEndpoints(ep: RO<Endpoints>, old?: RO<Endpoints>): FieldError[] {
  const subsetErrs = validateSubsets(ep);
  const keep = subsetErrs.length > 0 && old !== undefined && deepEqual(old.subsets ?? [], ep.subsets ?? []) ? [] : subsetErrs;
  return [...validateObjectMeta(ep.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }), ...keep];
}

function validateSubsets(ep: RO<Endpoints>): FieldError[] {
  const errs: FieldError[] = [];
  (ep.subsets ?? []).forEach((ss, i) => {
    const ip = fieldPath('subsets').index(i);
    if ((ss.addresses ?? []).length === 0 && (ss.notReadyAddresses ?? []).length === 0) {
      errs.push(required(ip, 'must specify `addresses` or `notReadyAddresses`'));
    }
    (ss.addresses ?? []).forEach((a, j) => errs.push(...validateAddress(a, ip.child('addresses').index(j))));
    (ss.notReadyAddresses ?? []).forEach((a, j) => errs.push(...validateAddress(a, ip.child('notReadyAddresses').index(j))));
    (ss.ports ?? []).forEach((p, j) => errs.push(...validatePort(p, (ss.ports ?? []).length > 1, ip.child('ports').index(j))));
  });
  return errs;
}

function defaultEndpoints(ep: Endpoints): void {
  for (const ss of ep.subsets ?? []) for (const p of ss.ports ?? []) if ((p.protocol ?? '') === '') p.protocol = 'TCP';
}

/** printers.go formatEndpoints: up to three host:port pairs, then "+ N more...". */
function formatEndpoints(ep: RO<Endpoints>): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  const join = (ip: string, port: number): string => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);
  for (const ss of subsets) {
    const addrs = ss.addresses ?? [];
    if ((ss.ports ?? []).length === 0) {
      count += addrs.length;
      for (const a of addrs) { if (list.length === max) { more = true; break; } list.push(a.ip); }
      continue;
    }
    for (const port of ss.ports ?? []) {
      count += addrs.length;
      for (const a of addrs) { if (list.length === max) { more = true; break; } list.push(join(a.ip, port.port)); }
    }
  }
  const s = list.join(',');
  return more ? `${s} + ${count - max} more...` : s;
}

export const endpoints = {
  group: '', kind: 'Endpoints', resource: 'endpoints', singular: 'endpoints', shortNames: ['ep'], namespaced: true,
  lifecycle: { deprecated: [1, 33], replacement: { group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice' } },
  strategy: specStatusStrategy<Endpoints>({
    validate: (ep) => validateEndpoints(ep),
    allowCreateOnUpdate: true,
    revalidateOnUpdate: false,
    validateUpdate: (ep, old) => validateEndpoints(ep, old).filter((e) => !e.field.startsWith('metadata.')),
  }),
  defaults: defaultEndpoints,
  table: [
    nameColumn<Endpoints>(),
    { name: 'Endpoints', type: 'string', cell: (ep) => formatEndpoints(ep) },
    ageColumn<Endpoints>(),
  ],
} satisfies ResourceDefinition<Endpoints>;
