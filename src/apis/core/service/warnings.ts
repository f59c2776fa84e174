// Warnings for services (pkg/api/service/warnings.go: GetWarningsForService) and the IP and CIDR
// warnings of apimachinery's util/validation (GetWarningsForIP, GetWarningsForCIDR).
import { fieldPath, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { formatCIDR, formatIP, ipToBigInt, parseCIDRSloppy, parseIPSloppy } from '../../../apimachinery/validation/ip.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Service } from '../v1/types.ts';

const DEPRECATED_TOPOLOGY_HINTS_ANNOTATION = 'service.kubernetes.io/topology-aware-hints';
const TOPOLOGY_MODE_ANNOTATION = 'service.kubernetes.io/topology-mode';

/** What netip.ParseAddr rejects although ParseIPSloppy accepts it: IPv4 parts with leading zeros. */
const hasLeadingZeros = (ip: string): boolean => {
  const v4 = ip.includes(':') ? ip.slice(ip.lastIndexOf(':') + 1) : ip;
  return v4.includes('.') && v4.split('.').some((p) => p.length > 1 && p.startsWith('0'));
};
/** An IPv4-mapped IPv6 address (netip's Is4In6). */
const isMapped = (ip: string): boolean => ip.includes(':') && parseIPSloppy(ip)?.v4 === true;

export function ipWarnings(path: FieldPath, value: string): string[] {
  const ip = parseIPSloppy(value);
  if (ip === undefined) return [];
  if (hasLeadingZeros(value) || isMapped(value)) {
    return [`${path.toString()}: non-standard IP address ${JSON.stringify(value)} will be considered invalid in a future Kubernetes release: use ${JSON.stringify(formatIP(ip))}`];
  }
  if (!ip.v4 && formatIP(ip) !== value) {
    return [`${path.toString()}: IPv6 address ${JSON.stringify(value)} should be in RFC 5952 canonical format (${JSON.stringify(formatIP(ip))})`];
  }
  return [];
}

export function cidrWarnings(path: FieldPath, value: string): string[] {
  const cidr = parseCIDRSloppy(value);
  if (cidr === undefined) return [];
  const warnings: string[] = [];
  const canonical = formatCIDR(cidr);
  if (ipToBigInt(cidr.ip) !== ipToBigInt(cidr.network)) {
    const single = `${formatIP(cidr.ip)}/${cidr.ip.bytes.length === 4 ? 32 : 128}`;
    warnings.push(`${path.toString()}: CIDR value ${JSON.stringify(value)} is ambiguous in this context (should be ${JSON.stringify(canonical)} or ${JSON.stringify(single)}?)`);
  }
  const addr = value.slice(0, value.indexOf('/'));
  const length = value.slice(value.indexOf('/') + 1);
  if (hasLeadingZeros(addr) || (length.length > 1 && length.startsWith('0')) || isMapped(addr)) {
    warnings.push(`${path.toString()}: non-standard CIDR value ${JSON.stringify(value)} will be considered invalid in a future Kubernetes release: use ${JSON.stringify(canonical)}`);
  }
  if (warnings.length === 0 && !cidr.ip.v4) {
    const prefix = `${formatIP(cidr.ip)}/${cidr.prefixLength}`;
    if (prefix !== value) warnings.push(`${path.toString()}: IPv6 CIDR value ${JSON.stringify(value)} should be in RFC 5952 canonical format (${JSON.stringify(prefix)})`);
  }
  return warnings;
}

/** GetWarningsForService. */
export function serviceWarnings(svc: DeepReadonly<Service>): string[] {
  const warnings: string[] = [];
  const spec = svc.spec;
  if (Object.hasOwn(svc.metadata.annotations ?? {}, DEPRECATED_TOPOLOGY_HINTS_ANNOTATION)) {
    warnings.push(`annotation ${DEPRECATED_TOPOLOGY_HINTS_ANNOTATION} is deprecated, please use ${TOPOLOGY_MODE_ANNOTATION} instead`);
  }
  const clusterIP = spec.clusterIP ?? '';
  if (clusterIP !== '' && clusterIP !== 'None') {
    (spec.clusterIPs ?? []).forEach((ip, i) => warnings.push(...ipWarnings(fieldPath('spec').child('clusterIPs').index(i), ip)));
  }
  if ((spec.type ?? 'ClusterIP') === 'ClusterIP' && clusterIP === 'None') {
    if ((spec.loadBalancerIP ?? '') !== '') warnings.push('spec.loadBalancerIP is ignored for headless services');
    if ((spec.externalIPs ?? []).length > 0) warnings.push('spec.externalIPs is ignored for headless services');
    if ((spec.sessionAffinity ?? 'None') !== 'None') warnings.push('spec.SessionAffinity is ignored for headless services');
  }
  (spec.externalIPs ?? []).forEach((ip, i) => warnings.push(...ipWarnings(fieldPath('spec').child('externalIPs').index(i), ip)));
  const headless = (spec.type ?? 'ClusterIP') === 'ClusterIP' && clusterIP === 'None';
  if ((spec.externalIPs ?? []).length > 0 && !headless && spec.type !== 'ExternalName') {
    warnings.push('spec.externalIPs is deprecated and may no longer be implemented in some clusters');
  }
  if ((spec.loadBalancerIP ?? '') !== '') warnings.push(...ipWarnings(fieldPath('spec').child('loadBalancerIP'), spec.loadBalancerIP ?? ''));
  (spec.loadBalancerSourceRanges ?? []).forEach((c, i) => warnings.push(...cidrWarnings(fieldPath('spec').child('loadBalancerSourceRanges').index(i), c)));
  if (spec.type === 'ExternalName' && (spec.externalIPs ?? []).length > 0) warnings.push('spec.externalIPs is ignored when spec.type is "ExternalName"');
  if (spec.type !== 'ExternalName' && (spec.externalName ?? '') !== '') warnings.push('spec.externalName is ignored when spec.type is not "ExternalName"');
  if (spec.trafficDistribution === 'PreferClose') warnings.push('spec.trafficDistribution: "PreferClose" is deprecated; use "PreferSameZone"');
  return warnings;
}
