// The warnings for IP and CIDR values that are accepted but not canonical (GetWarningsForIP and
// GetWarningsForCIDR of k8s.io/apimachinery/pkg/util/validation/ip.go), shared by every
// resource holding addresses (services, ingresses, network policies).
import type { FieldPath } from '../errors/field-errors.ts';
import { formatCIDR, formatIP, ipToBigInt, parseCIDRSloppy, parseIPSloppy } from './ip.ts';

/** What netip.ParseAddr rejects although ParseIPSloppy accepts it: IPv4 parts with leading zeros. */
const hasLeadingZeros = (ip: string): boolean => {
  const v4 = ip.includes(':') ? ip.slice(ip.lastIndexOf(':') + 1) : ip;
  return v4.includes('.') && v4.split('.').some((p) => p.length > 1 && p.startsWith('0'));
};
/** An IPv4-mapped IPv6 address (netip's Is4In6). */
const isMapped = (ip: string): boolean => ip.includes(':') && parseIPSloppy(ip)?.v4 === true;

/** GetWarningsForIP. */
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

/** GetWarningsForCIDR. */
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
